// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <string>
#include <vector>

#include "graphdiff/gate.h"
#include "graphdiff/graph.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "parse/hlo_instruction.h"
#include "parse/hlo_scan.h"
#include "parse/hlo_shape.h"
#include "testing/shared_pool.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using testing::ReadTestdata;

std::vector<Graph> ParseFixture(const std::string& name,
                                std::vector<Diagnostic>* w = nullptr) {
  std::string path = "fixtures/hlo/" + name;
  // The text must outlive nothing: graphs own their strings.
  std::string text = ReadTestdata(path);
  absl::StatusOr<std::vector<Graph>> r = ParseHloText(text, path, {}, w);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *std::move(r) : std::vector<Graph>{};
}

std::string ErrorOf(const std::string& text) {
  absl::StatusOr<std::vector<Graph>> r = ParseHloText(text, "h.txt");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(r.status().message());
}

const Node* Find(const Graph& g, std::string_view name) {
  for (const Node& n : g.nodes) {
    if (g.str(n.name) == name) return &n;
  }
  ADD_FAILURE() << "no node " << name;
  return nullptr;
}

std::vector<std::pair<std::string, std::string>> Attrs(const Graph& g, const Node& n) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Attr& a : n.attrs) out.emplace_back(g.str(a.key), g.str(a.value));
  return out;
}

using AttrList = std::vector<std::pair<std::string, std::string>>;

TEST(HloShape, ArraysTuplesLayoutsAndDynamicDims) {
  Graph g;
  TypeList t;
  HloScanError err;
  std::string_view s = "(f32[4,64]{1,0}, /*index=1*/s64[], (f32[], s32[2]), token[], bf16[8,128]{1,0:T(8,128)}) x";
  size_t pos = 0;
  ASSERT_TRUE(ParseHloShape(s, &pos, &g, &t, &err)) << err.message;
  EXPECT_EQ(s.substr(pos), " x");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].dtype, DType::kF32);
  ASSERT_EQ(t[0].dims.size(), 2u);
  EXPECT_EQ(t[0].dims[1].value(), 64);
  EXPECT_EQ(g.str(t[0].layout), "{1,0}");
  EXPECT_EQ(t[1].dtype, DType::kS64);
  EXPECT_TRUE(t[1].rank_known);
  EXPECT_TRUE(t[1].dims.empty());
  EXPECT_EQ(t[2].dtype, DType::kUnknown);  // nested tuple
  EXPECT_FALSE(t[2].rank_known);
  EXPECT_EQ(t[3].dtype, DType::kToken);
  EXPECT_EQ(t[4].dtype, DType::kBF16);
  EXPECT_EQ(g.str(t[4].layout), "{1,0:T(8,128)}");

  t.clear();
  pos = 0;
  ASSERT_TRUE(ParseHloShape("f32[<=5,?,3]", &pos, &g, &t, &err));
  ASSERT_EQ(t[0].dims.size(), 3u);
  EXPECT_EQ(t[0].dims[0].kind(), Dim::Kind::kBounded);
  EXPECT_EQ(t[0].dims[0].value(), 5);
  EXPECT_EQ(t[0].dims[1].kind(), Dim::Kind::kUnknown);
  EXPECT_EQ(t[0].dims[2].kind(), Dim::Kind::kStatic);
  EXPECT_EQ(t[0].dims[2].value(), 3);

  t.clear();
  pos = 0;
  ASSERT_TRUE(ParseHloShape("()", &pos, &g, &t, &err));
  EXPECT_TRUE(t.empty());

  for (std::string_view bad : {"f32[4,]", "f32[x]", "f32[4", "(f32[]", "f32", "[4]",
                               "(f32[] s32[])", "f32[<=]", "f32[4]{0", ""}) {
    t.clear();
    pos = 0;
    EXPECT_FALSE(ParseHloShape(bad, &pos, &g, &t, &err)) << bad;
  }
}

TEST(HloScan, SplitsAtDepthZeroAndSkipsStringsAndComments) {
  std::vector<std::string_view> parts;
  SplitTopLevel(R"(a={1,2}, b="x, y", c=(3, 4), /*index=3*/d)", &parts);
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0], "a={1,2}");
  EXPECT_EQ(parts[1], R"( b="x, y")");
  EXPECT_EQ(TrimHlo(parts[3]), "d");
  size_t at = 0;
  EXPECT_EQ(HloOperandName("f32[4]{0} %a.1", &at), "a.1");
  EXPECT_EQ(at, 11u);
  EXPECT_EQ(HloOperandName(" /*index=5*/f32[] %b", &at), "b");
  EXPECT_EQ(HloOperandName("get-tuple-element.3", &at), "get-tuple-element.3");
  EXPECT_EQ(HloOperandName("(s64[], f32[]) %t", &at), "t");
  EXPECT_EQ(HloOperandName("f32[]", &at), "");
  EXPECT_EQ(HloOperandName("a%b", &at), "");
}

TEST(HloParse, LongFormWithFusionsLoopsAndMetadata) {
  std::vector<Diagnostic> w;
  std::vector<Graph> gs = ParseFixture("long_form_fusion.txt", &w);
  EXPECT_TRUE(w.empty()) << w[0].ToString();
  ASSERT_EQ(gs.size(), 1u);
  const Graph& g = gs[0];
  EXPECT_EQ(g.kind, GraphKind::kHlo);
  EXPECT_EQ(g.name, "SyncTensorsGraph.68");
  EXPECT_EQ(g.source.graph_name, "SyncTensorsGraph.68");
  EXPECT_EQ(g.source.file, "fixtures/hlo/long_form_fusion.txt");
  EXPECT_EQ(g.source.first_line, 1u);
  EXPECT_EQ(g.source.last_line, 58u);
  ASSERT_EQ(g.nodes.size(), 16u);
  EXPECT_EQ(g.str(g.nodes[0].name), "p2.3");
  EXPECT_EQ(g.str(g.nodes[15].name), "tuple.30");
  EXPECT_EQ(g.inputs, (std::vector<uint32_t>{3, 1, 0, 4, 5, 6}));
  EXPECT_EQ(g.outputs, (std::vector<ValueRef>{{2, 0}, {11, 0}, {13, 0}}));

  const Node& p2 = g.nodes[0];
  EXPECT_EQ(p2.kind, NodeKind::kInput);
  EXPECT_EQ(g.str(p2.op), "hlo::parameter");
  EXPECT_EQ(g.str(p2.frame),
            "/usr/lib/python3/dist-packages/torch/nn/modules/conv.py:459");
  EXPECT_EQ(Attrs(g, p2), (AttrList{{"op_type", "xla__device_data"},
                                    {"op_name", "xla__device_data"}}));
  EXPECT_EQ(Attrs(g, g.nodes[1]), (AttrList{{"sharding", "{replicated}"}}));

  const Node& fusion = g.nodes[2];
  EXPECT_EQ(g.str(fusion.op), "hlo::fusion");
  EXPECT_EQ(g.str(fusion.raw_op), "fusion");
  EXPECT_EQ(fusion.kind, NodeKind::kOp);
  EXPECT_EQ(fusion.line, 44u);
  EXPECT_EQ(fusion.operands, (std::vector<ValueRef>{{0, 0}, {1, 0}}));
  EXPECT_EQ(g.str(fusion.frame), "train.py:32");
  EXPECT_EQ(Attrs(g, fusion), (AttrList{{"kind", "kLoop"},
                                        {"calls", "fused_computation.14"},
                                        {"op_type", "aten__max_pool2d"},
                                        {"op_name", "train_loop.1/aten__max_pool2d"},
                                        {"callee_instructions", "7"},
                                        {"callee_ops",
                                         "1 add, 1 broadcast, 1 constant, 1 maximum, "
                                         "1 reduce-window, 1 transpose"}}));
  ASSERT_EQ(g.results(fusion).size(), 1u);
  EXPECT_EQ(FormatType(g, g.results(fusion)[0]).substr(0, 20), "f32[128,10,12,12]");
  EXPECT_EQ(g.str(g.results(fusion)[0].layout), "{3,2,1,0}");

  EXPECT_EQ(g.str(g.results(*Find(g, "p3.4"))[0].layout), "{1,0:T(8,128)}");
  const Node* p5 = Find(g, "p5.6");
  ASSERT_EQ(g.results(*p5)[0].dims.size(), 4u);
  EXPECT_EQ(g.results(*p5)[0].dims[0].kind(), Dim::Kind::kBounded);
  EXPECT_EQ(g.results(*p5)[0].dims[0].value(), 4);
  EXPECT_EQ(g.results(*p5)[0].dims[1].kind(), Dim::Kind::kUnknown);
  EXPECT_EQ(g.results(*Find(g, "p4.5"))[0].dtype, DType::kBool);

  const Node* c = Find(g, "constant.20");
  EXPECT_EQ(c->kind, NodeKind::kConstant);
  EXPECT_EQ(Attrs(g, *c), (AttrList{{"value", "0"}}));
  EXPECT_TRUE(c->operands.empty());

  EXPECT_EQ(Attrs(g, *Find(g, "reduce.21")),
            (AttrList{{"dimensions", "{0,1}"},
                      {"to_apply", "add_F32.2"},
                      {"backend_config",
                       R"({"operation_queue_id":"0","wait_on_operation_queues":[],"force_earliest_schedule":false})"},
                      {"callee_instructions", "3"},
                      {"callee_ops", "1 add"}}));
  const Node* tuple22 = Find(g, "tuple.22");
  EXPECT_EQ(tuple22->operands, (std::vector<ValueRef>{{3, 0}, {8, 0}}));
  ASSERT_EQ(g.results(*tuple22).size(), 2u);
  EXPECT_EQ(g.results(*tuple22)[0].dtype, DType::kS64);
  EXPECT_EQ(g.results(*tuple22)[1].dtype, DType::kF32);

  EXPECT_EQ(Attrs(g, *Find(g, "while.23")),
            (AttrList{{"condition", "while_cond"},
                      {"body", "while_body"},
                      {"backend_config", R"("{\"known_trip_count\":{\"n\":\"10\"}}")"},
                      {"callee_instructions", "10"},
                      {"callee_ops", "3 get-tuple-element, 2 constant, 1 add, 1 compare, 1 tuple"}}));
  const Node* gte = Find(g, "gte.24");
  EXPECT_EQ(g.str(gte->op), "hlo::get-tuple-element");
  EXPECT_EQ(gte->operands, (std::vector<ValueRef>{{10, 0}}));
  EXPECT_EQ(Attrs(g, *gte), (AttrList{{"index", "0"}}));
  EXPECT_EQ(Attrs(g, *Find(g, "all-reduce.26")),
            (AttrList{{"replica_groups", "{{0,1},{2,3}}"},
                      {"to_apply", "add_F32.2"},
                      {"op_type", "xla__cross_replica_sum"},
                      {"op_name", "all_reduce \"sum\""},
                      {"callee_instructions", "3"},
                      {"callee_ops", "1 add"}}));
  EXPECT_EQ(Attrs(g, *Find(g, "conv.27")),
            (AttrList{{"window", "{size=3x3 pad=1_1x1_1}"},
                      {"dim_labels", "bf01_oi01->bf01"}}));
  EXPECT_EQ(g.results(*Find(g, "tuple.30")).size(), 3u);
}

TEST(HloParse, ShortFormIsSortedTopologicallyWithTextOrderTieBreak) {
  std::vector<Graph> gs = ParseFixture("short_form_sync_tensors.txt");
  ASSERT_EQ(gs.size(), 1u);
  const Graph& g = gs[0];
  EXPECT_EQ(g.name, "SyncTensorsGraph.9");
  std::vector<std::string> names;
  for (const Node& n : g.nodes) names.emplace_back(g.str(n.name));
  EXPECT_EQ(names, (std::vector<std::string>{"p0.1", "p1.2", "constant.3", "multiply.4",
                                             "add.5", "constant.1", "constant.9",
                                             "reduce.8", "broadcast.10", "tuple.11"}));
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    for (ValueRef v : g.nodes[i].operands) EXPECT_LT(v.node, i);
  }
  EXPECT_EQ(g.inputs, (std::vector<uint32_t>{0, 1}));
  EXPECT_EQ(g.outputs, (std::vector<ValueRef>{{8, 0}, {4, 0}}));
  const Node& reduce = g.nodes[7];
  EXPECT_EQ(reduce.operands, (std::vector<ValueRef>{{0, 0}, {6, 0}}));
  EXPECT_EQ(reduce.line, 16u);
  EXPECT_EQ(Attrs(g, reduce), (AttrList{{"dimensions", "{0}"},
                                        {"to_apply", "AddComputation.4"},
                                        {"callee_instructions", "3"},
                                        {"callee_ops", "1 add"}}));
  EXPECT_EQ(Attrs(g, g.nodes[5]), (AttrList{{"value", "{ { 1, 2 }, { 3, 4 } }"}}));
  EXPECT_EQ(g.nodes[3].operands, (std::vector<ValueRef>{{1, 0}, {2, 0}}));
  EXPECT_TRUE(g.nodes[9].frame.empty());
}

TEST(HloParse, SeveralModulesNoiseAndMultiLineInstructions) {
  std::vector<Diagnostic> w;
  std::vector<Graph> gs = ParseFixture("two_modules.txt", &w);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].line, 1u);
  ASSERT_EQ(gs.size(), 2u);
  EXPECT_EQ(gs[0].name, "IrToHlo.3");
  EXPECT_EQ(gs[0].source.first_line, 2u);
  EXPECT_EQ(gs[0].source.last_line, 7u);
  EXPECT_EQ(gs[0].outputs, (std::vector<ValueRef>{{1, 0}}));
  const Graph& g = gs[1];
  EXPECT_EQ(g.name, "IrToHlo.7");
  EXPECT_EQ(g.source.record_index, 1u);
  EXPECT_EQ(g.source.first_line, 9u);
  EXPECT_EQ(g.source.last_line, 18u);
  EXPECT_EQ(g.inputs, (std::vector<uint32_t>{1, 0}));
  EXPECT_EQ(Attrs(g, g.nodes[2]),
            (AttrList{{"custom_call_target", "\"MyCall\""},
                      {"api_version", "API_VERSION_STATUS_RETURNING"}}));
  EXPECT_EQ(g.nodes[3].line, 15u);
  EXPECT_EQ(g.nodes[3].operands, (std::vector<ValueRef>{{2, 0}, {0, 0}}));
  EXPECT_EQ(g.nodes[4].line, 17u);
  EXPECT_EQ(g.outputs, (std::vector<ValueRef>{{3, 0}, {3, 0}}));
}

// The modules of one text share one string pool, which holds each opcode
// and name once. A string interned into one graph after the parse is not
// seen by the other.
TEST(HloParse, ModulesOfOneTextShareTheirStrings) {
  std::vector<Graph> gs = ParseFixture("two_modules.txt");
  ASSERT_EQ(gs.size(), 2u);
  EXPECT_TRUE(gs[0].strings.shared());
  EXPECT_EQ(gs[0].strings.size(), gs[1].strings.size());
  const StrId param = gs[0].nodes[0].op;
  EXPECT_EQ(gs[0].str(param), "hlo::parameter");
  EXPECT_EQ(gs[1].strings.Find("hlo::parameter"), param);
  testing::ExpectWriteStaysInOneGraph(gs[0], gs[1], param, "hlo::parameter");
  EXPECT_FALSE(gs[1].strings.shared());
  // Small modules intern their instruction names, so one module's names
  // are stored once for all; a big module's are stored as they come (no
  // lookup per name), and come back the same.
  std::string text = "HloModule a\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT n = f32[] negate(p)\n}\n"
                     "HloModule b\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT n = f32[] negate(p)\n}\n"
                     "HloModule big\nENTRY e {\n  p = f32[] parameter(0)\n";
  for (int i = 0; i < 5000; ++i) {
    text += "  n" + std::to_string(i) + " = f32[] negate(" +
            (i == 0 ? std::string("p") : "n" + std::to_string(i - 1)) + ")\n";
  }
  text += "}\n";
  absl::StatusOr<std::vector<Graph>> three = ParseHloText(text, "h");
  ASSERT_TRUE(three.ok()) << three.status();
  ASSERT_EQ(three->size(), 3u);
  EXPECT_EQ((*three)[0].nodes[1].name, (*three)[1].nodes[1].name);
  EXPECT_EQ((*three)[1].str((*three)[1].nodes[1].name), "n");
  const Graph& big = (*three)[2];
  ASSERT_EQ(big.nodes.size(), 5001u);
  EXPECT_EQ(big.str(big.nodes[4321].name), "n4320");
  EXPECT_TRUE(big.strings.Find("n4320").empty());  // stored, not interned
  EXPECT_EQ(big.nodes[4321].operands, (std::vector<ValueRef>{{4320, 0}}));
  // One module alone has its pool to itself.
  absl::StatusOr<std::vector<Graph>> one =
      ParseHloText("HloModule m\nENTRY c {\n  a = f32[] parameter(0)\n}\n", "h");
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_FALSE((*one)[0].strings.shared());
}

TEST(HloParse, ViaParseTextAndWithoutEntryKeyword) {
  absl::StatusOr<ParsedText> p =
      ParseText(ReadTestdata("fixtures/hlo/short_form_sync_tensors.txt"), "x.txt");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->format, DumpFormat::kHloText);
  EXPECT_EQ(p->graphs.size(), 1u);

  std::vector<Diagnostic> w;
  absl::StatusOr<std::vector<Graph>> r = ParseHloText(
      "HloModule m\n\nc {\n  a = f32[] parameter(0)\n  ROOT n = f32[] negate(a)\n}\n",
      "h", {}, &w);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].line, 3u);
  EXPECT_EQ((*r)[0].outputs, (std::vector<ValueRef>{{1, 0}}));

  // No ROOT marker: the last instruction is the root.
  r = ParseHloText("HloModule m\nENTRY c {\n  a = f32[] parameter(0)\n  n = f32[] negate(a)\n}\n", "h");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].outputs, (std::vector<ValueRef>{{1, 0}}));
}

TEST(HloError, ExactPositionsAndCaret) {
  const std::string head = "HloModule m\n\nENTRY e {\n  a = f32[] parameter(0)\n";
  EXPECT_EQ(ErrorOf(head + "  b f32[] add(a)\n}\n"),
            "h.txt:5:5: malformed instruction: expected '=' after the instruction name\n"
            "  b f32[] add(a)\n"
            "    ^");
  EXPECT_EQ(ErrorOf(head + "  b = f32[] add(a, zz)\n}\n"),
            "h.txt:5:20: undefined operand 'zz'\n"
            "  b = f32[] add(a, zz)\n"
            "                   ^");
  EXPECT_EQ(ErrorOf(head + "  %b = f32[] add(f32[] %a, f32[] %zz)\n}\n").substr(0, 45),
            "h.txt:5:35: undefined operand 'zz'\n  %b = f32");
  EXPECT_EQ(ErrorOf(head + "  b = f32[] add(a a\n}\n").substr(0, 44),
            "h.txt:6:1: mismatched closing bracket\n}\n^");
  // A computation cut short with instructions is kept, partial
  // (TolerantRead.UnclosedHloComputationIsKeptAsPartial); with none, there is
  // no graph to keep.
  const std::string bare = "HloModule m\n\nENTRY e {\n";
  EXPECT_EQ(ErrorOf(bare),
            "h.txt:4:1: unexpected end of text: computation 'e' (line 3) is not "
            "closed with '}'\n\n^");
  EXPECT_EQ(ErrorOf(head + "  b = f32[x] negate(a)\n}\n").substr(0, 32),
            "h.txt:5:11: malformed dimension\n");
  EXPECT_EQ(ErrorOf(head + "  b = f32[] parameter(x)\n}\n").substr(0, 60),
            "h.txt:5:23: parameter number must be a non-negative integer\n");
  EXPECT_EQ(ErrorOf(head + "  a = f32[] negate(a)\n}\n").substr(0, 45),
            "h.txt:5:3: duplicate instruction name 'a'\n  a");
  EXPECT_EQ(ErrorOf(head + "  b = f32[] add(c, a)\n  c = f32[] negate(b)\n}\n"),
            "h.txt:5:3: instruction 'b' is part of a dependency cycle\n"
            "  b = f32[] add(c, a)\n"
            "  ^");
  EXPECT_EQ(ErrorOf(head + "  b = f32[] add(a, \"x)\n}\n").substr(0, 39),
            "h.txt:5:20: unterminated string\n  b = f");
  EXPECT_EQ(ErrorOf(bare + "HloModule n\n").substr(0, 66),
            "h.txt:4:1: computation 'e' (line 3) is not closed before this line");
  EXPECT_EQ(ErrorOf(head + "  ROOT b = f32[] negate(a)\n  ROOT c = f32[] negate(a)\n}\n")
                .substr(0, 55),
            "h.txt:6:3: a second ROOT instruction in one computation");
  // Undefined operands are errors in every computation, not only ENTRY.
  EXPECT_EQ(ErrorOf("HloModule m\nf {\n  ROOT x = f32[] negate(q)\n}\n" + head.substr(13) +
                    "}\n")
                .substr(0, 40),
            "h.txt:3:25: undefined operand 'q'\n  ROOT");
}

TEST(HloError, EmptyGarbageAndTruncatedInputsNeverCrash) {
  EXPECT_EQ(ErrorOf(""), "h.txt:1:1: empty HLO text\n\n^");
  EXPECT_EQ(ErrorOf("just some words\n").substr(0, 32), "h.txt:1:1: no `HloModule` found\n");
  EXPECT_EQ(ErrorOf("HloModule m\n").substr(0, 41), "h.txt:1:1: module 'm' has no computations");
  EXPECT_EQ(ErrorOf("HloModule\n").substr(0, 34), "h.txt:1:10: expected a module name");

  std::string text = ReadTestdata("fixtures/hlo/long_form_fusion.txt");
  for (size_t n = 0; n <= text.size(); ++n) {
    absl::StatusOr<std::vector<Graph>> r = ParseHloText(text.substr(0, n), "p");
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << n;
    }
  }
  uint32_t seed = 7;
  auto next = [&] {
    seed = seed * 1103515245u + 12345u;
    return seed >> 16;
  };
  std::string garbage;
  for (int i = 0; i < 20000; ++i) garbage += static_cast<char>(next());
  EXPECT_FALSE(ParseHloText(garbage, "g").ok());
  EXPECT_FALSE(ParseHloText("HloModule m\nENTRY e {\n" + garbage, "g").ok());
  // Byte flips anywhere in a valid module: an error or a graph, never a crash.
  std::string short_form = ReadTestdata("fixtures/hlo/short_form_sync_tensors.txt");
  const char kBytes[] = "(){}[]%=,\"\n /*x0";
  for (int i = 0; i < 3000; ++i) {
    std::string mutated = short_form;
    mutated[next() % mutated.size()] = kBytes[next() % (sizeof(kBytes) - 1)];
    absl::StatusOr<std::vector<Graph>> r = ParseHloText(mutated, "m");
    if (r.ok()) {
      for (const Graph& g : *r) {
        for (uint32_t k = 0; k < g.nodes.size(); ++k) {
          for (ValueRef v : g.nodes[k].operands) ASSERT_LT(v.node, k);
        }
      }
    } else {
      EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
}

TEST(HloError, LimitsAreEnforced) {
  ParseOptions small;
  small.max_nodes_per_graph = 1;
  absl::StatusOr<std::vector<Graph>> r = ParseHloText(
      ReadTestdata("fixtures/hlo/short_form_sync_tensors.txt"), "s", small);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("more than 1 instructions"), std::string_view::npos);
  small = ParseOptions{};
  small.max_graphs = 1;
  r = ParseHloText(ReadTestdata("fixtures/hlo/two_modules.txt"), "s", small);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("more than 1 HLO modules"), std::string_view::npos);
}

// Calls reach computations through a chain as long as the text: the
// summary must not recurse once per level (a stack overflow at ~30,000
// levels before), and each level costs about the same.
TEST(HloCallees, DeepCallChainIsSummarisedWithoutRecursion) {
  constexpr int kDepth = 100000;
  std::string text = "HloModule m\n\nc0 {\n  ROOT n = f32[] negate()\n}\n";
  text.reserve(static_cast<size_t>(kDepth) * 48);
  for (int i = 1; i < kDepth; ++i) {
    text.append("c").append(std::to_string(i));
    text.append(" {\n  ROOT n = f32[] fusion(), calls=c").append(std::to_string(i - 1));
    text.append("\n}\n");
  }
  text += "ENTRY e {\n  p = f32[] parameter(0)\n  top = f32[] fusion(p), calls=c" +
          std::to_string(kDepth - 1) + "\n  mid = f32[] fusion(p), calls=c" +
          std::to_string(kDepth / 2) + "\n  ROOT low = f32[] call(p), to_apply=c1\n}\n";
  absl::StatusOr<std::vector<Graph>> r = ParseHloText(text, "deep.txt");
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->size(), 1u);
  const Graph& g = (*r)[0];
  EXPECT_EQ(Attrs(g, *Find(g, "top")),
            (AttrList{{"calls", "c99999"},
                      {"callee_instructions", "1"},
                      {"callee_ops", "99999 fusion, 1 negate"}}));
  EXPECT_EQ(g.attr(*Find(g, "mid"), "callee_ops").value_or(""), "50000 fusion, 1 negate");
  EXPECT_EQ(g.attr(*Find(g, "low"), "callee_ops").value_or(""), "1 fusion, 1 negate");
}

// Counts multiply through repeated calls (2^70 negates here): they stop at
// the largest count instead of overflowing.
TEST(HloCallees, CountsSaturateInsteadOfOverflowing) {
  std::string text = "HloModule m\n\nc0 {\n  ROOT n = f32[] negate()\n}\n";
  for (int i = 1; i <= 70; ++i) {
    std::string callee = "c" + std::to_string(i - 1);
    text += "c" + std::to_string(i) + " {\n  a = f32[] call(), to_apply=" + callee +
            "\n  ROOT b = f32[] call(), to_apply=" + callee + "\n}\n";
  }
  text += "ENTRY e {\n  ROOT r = f32[] call(), to_apply=c70\n}\n";
  absl::StatusOr<std::vector<Graph>> r = ParseHloText(text, "wide.txt");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)[0].attr((*r)[0].nodes[0], "callee_ops").value_or(""),
            "9223372036854775807 call, 9223372036854775807 negate");
}

// Each computation of a chain runs an opcode of its own, and the ENTRY
// calls every level: a full summary per caller would hold every opcode
// below it, quadratic in the text. Summaries keep the most frequent
// opcodes up to a cap (ties by name), said once in a warning.
TEST(HloCallees, SummariesOfManyDistinctOpcodesStayLinear) {
  constexpr int kDepth = 2000;
  constexpr size_t kCap = 256;
  std::string text = "HloModule m\n\nc0 {\n  ROOT n = f32[] op0()\n}\n";
  for (int i = 1; i < kDepth; ++i) {
    std::string k = std::to_string(i);
    text.append("c").append(k).append(" {\n  n = f32[] op").append(k);
    text.append("()\n  ROOT f = f32[] fusion(n), calls=c").append(std::to_string(i - 1));
    text.append("\n}\n");
  }
  text += "ENTRY e {\n  p = f32[] parameter(0)\n";
  for (int i = 0; i < kDepth; ++i) {
    std::string k = std::to_string(i);
    text.append("  f").append(k).append(" = f32[] fusion(p), calls=c").append(k).append("\n");
  }
  text += "}\n";
  std::vector<Diagnostic> w;
  absl::StatusOr<std::vector<Graph>> r = ParseHloText(text, "uniq.txt", {}, &w);
  ASSERT_TRUE(r.ok()) << r.status();
  const Graph& g = (*r)[0];
  EXPECT_EQ(g.attr(*Find(g, "f0"), "callee_ops").value_or(""), "1 op0");
  EXPECT_EQ(g.attr(*Find(g, "f2"), "callee_ops").value_or(""),
            "2 fusion, 1 op0, 1 op1, 1 op2");
  // Below the cap nothing is left out.
  std::string_view full = g.attr(*Find(g, "f254"), "callee_ops").value_or("");
  EXPECT_EQ(std::count(full.begin(), full.end(), ','), 255);
  // Above it: the fusions, then the first 255 opcode names.
  std::vector<std::string> names;
  for (int i = 0; i < kDepth; ++i) names.push_back("op" + std::to_string(i));
  std::sort(names.begin(), names.end());
  std::string expected = std::to_string(kDepth - 1) + " fusion";
  for (size_t i = 0; i + 1 < kCap; ++i) expected += ", 1 " + names[i];
  EXPECT_EQ(g.attr(*Find(g, "f" + std::to_string(kDepth - 1)), "callee_ops").value_or(""),
            expected);
  size_t attr_bytes = 0, over_cap = 0;
  for (const Node& n : g.nodes) {
    std::string_view ops = g.attr(n, "callee_ops").value_or("");
    over_cap += static_cast<size_t>(std::count(ops.begin(), ops.end(), ',')) >= kCap;
    attr_bytes += ops.size();
  }
  EXPECT_EQ(over_cap, 0u);
  // About 3 KB a node at most (256 items of "1 op1234, "), however deep the
  // chain; a summary of everything below is 18 MB here.
  EXPECT_LE(attr_bytes, static_cast<size_t>(kDepth) * kCap * 12);
  EXPECT_LE(g.MemoryBytes(), 40 * text.size());
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].message,
            "computation 'c255' and those it calls run more than 256 distinct opcodes: "
            "callee_ops keeps the 256 most frequent");
}

// One callee from several instructions, and more callees than are merged
// one by one: the same sums either way.
TEST(HloCallees, RepeatedAndManyCalleesAddUp) {
  std::string text = "HloModule m\n\n";
  for (int i = 0; i < 6; ++i) {
    text += "k" + std::to_string(i) + " {\n" + (i % 2 ? "  y = f32[] negate()\n" : "") +
            "  ROOT x = f32[] add()\n}\n";
  }
  text +=
      "w {\n  a = f32[] call(), to_apply=k0\n  b = f32[] call(), to_apply=k0\n"
      "  c = f32[] call(), to_apply=k1\n"
      "  ROOT d = f32[] conditional(), branch_computations={k2, %k3, k4, k5}\n}\n"
      "v {\n  ROOT e = f32[] call(), to_apply=k0\n}\n"
      "ENTRY e {\n  p = f32[] parameter(0)\n  r = f32[] call(p), to_apply=w\n"
      "  ROOT s = f32[] conditional(p), branch_computations={v, w, v}\n}\n";
  absl::StatusOr<std::vector<Graph>> r = ParseHloText(text, "many.txt");
  ASSERT_TRUE(r.ok()) << r.status();
  const Graph& g = (*r)[0];
  EXPECT_EQ(Attrs(g, *Find(g, "r")), (AttrList{{"to_apply", "w"},
                                               {"callee_instructions", "4"},
                                               {"callee_ops", "7 add, 3 call, 3 negate, "
                                                              "1 conditional"}}));
  EXPECT_EQ(g.attr(*Find(g, "s"), "callee_ops").value_or(""),
            "8 add, 4 call, 3 negate, 1 conditional");
}

// A malformed dump may call in a cycle: a computation being summarised
// adds nothing when reached again, and a self-call is left out.
TEST(HloCallees, CyclesAndMissingCalleesAreTolerated) {
  const std::string text =
      "HloModule m\n\n"
      "a {\n  x = f32[] fusion(), calls=b\n  ROOT y = f32[] add(x, x), to_apply=a\n}\n"
      "b {\n  ROOT z = f32[] call(), to_apply=a\n}\n"
      "ENTRY e {\n  p = f32[] parameter(0)\n  f = f32[] fusion(p), calls=a\n"
      "  g = f32[] call(p), to_apply=b\n  ROOT h = f32[] call(p), to_apply=nowhere\n}\n";
  absl::StatusOr<std::vector<Graph>> r = ParseHloText(text, "cycle.txt");
  ASSERT_TRUE(r.ok()) << r.status();
  const Graph& g = (*r)[0];
  EXPECT_EQ(Attrs(g, *Find(g, "f")), (AttrList{{"calls", "a"},
                                               {"callee_instructions", "2"},
                                               {"callee_ops", "1 add, 1 call, 1 fusion"}}));
  EXPECT_EQ(g.attr(*Find(g, "g"), "callee_ops").value_or(""), "1 call");
  EXPECT_EQ(Attrs(g, *Find(g, "h")), (AttrList{{"to_apply", "nowhere"}, {"ROOT", "true"}}));
}

}  // namespace
}  // namespace graphdiff

namespace graphdiff {
namespace {

// Everything of a parsed HLO graph, with its lines moved up by `up`.
std::string DescribeHlo(const Graph& g, uint32_t up) {
  std::string out = g.name + " | " + g.source.file + " | " + g.source.graph_name + " | " +
                    std::to_string(g.source.first_line - up) + "-" +
                    std::to_string(g.source.last_line - up) + " | " +
                    std::to_string(g.partial) + "\n" + EncodeGraph(g) + "\n";
  for (const Node& n : g.nodes) out += std::to_string(n.line - up) + " ";
  return out;
}

uint32_t Lines(const std::string& text) {
  return static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n'));
}

// A module printed again, byte for byte, is a copy of its first parse (its
// text skipped unread): each graph must be what parsing that module's text
// alone gives, at its own lines, and a module that only starts like an
// earlier one is parsed.
TEST(HloTextTest, RepeatedModulesAreTheirOwnParse) {
  const std::string a = testing::ReadTestdata("fixtures/hlo/short_form_sync_tensors.txt");
  const std::string b = testing::ReadTestdata("fixtures/hlo/long_form_fusion.txt");
  // `a` with one more computation after its ENTRY: the same text up to
  // there, then more.
  const std::string longer_a = a + "\nextra.1 {\n  p.2 = f32[] parameter(0)\n}\n";
  // With an elision line: a warning, so never a copy.
  const std::string elided =
      "HloModule Elided.1\n\nENTRY %e.1 (p0: f32[2]) -> f32[2] {\n  %p0 = f32[2]{0} "
      "parameter(0)\n  ...\n  ROOT %n = f32[2]{0} negate(f32[2]{0} %p0)\n}\n";
  const std::vector<const std::string*> order = {&a, &b, &a, &a, &elided, &b, &elided,
                                                 &longer_a, &a, &b, &b};
  std::string text;
  std::vector<uint32_t> first_lines;
  for (const std::string* m : order) {
    first_lines.push_back(Lines(text));
    text += *m;
  }
  std::vector<Diagnostic> warnings;
  absl::StatusOr<std::vector<Graph>> all = ParseHloText(text, "t.txt", {}, &warnings);
  ASSERT_TRUE(all.ok()) << all.status();
  ASSERT_EQ(all->size(), order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    absl::StatusOr<std::vector<Graph>> alone = ParseHloText(*order[i], "t.txt", {}, nullptr);
    ASSERT_TRUE(alone.ok()) << alone.status();
    ASSERT_EQ(alone->size(), 1u);
    EXPECT_EQ(DescribeHlo((*all)[i], first_lines[i]), DescribeHlo((*alone)[0], 0))
        << "module " << i;
    EXPECT_EQ((*all)[i].source.record_index, i);
  }
  // Each elided module warns at its own elision line.
  std::vector<uint32_t> lines;
  for (const Diagnostic& d : warnings) lines.push_back(d.line);
  EXPECT_EQ(lines, (std::vector<uint32_t>{first_lines[4] + 5, first_lines[6] + 5}));
}

}  // namespace
}  // namespace graphdiff
