// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <map>
#include <random>
#include <string>
#include <vector>

#include "graphdiff/parse.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

Graph MustParse(const std::string& text, std::vector<Diagnostic>* warnings = nullptr) {
  absl::StatusOr<Graph> g = ParseIrText(text, "t.ir", {}, warnings);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? *std::move(g) : Graph();
}

std::string ErrorOf(const std::string& text, const ParseOptions& options = {}) {
  absl::StatusOr<Graph> g = ParseIrText(text, "t.ir", options);
  EXPECT_FALSE(g.ok());
  return g.ok() ? "" : std::string(g.status().message());
}

// The message is "t.ir:L:C: ...", then the line, then a caret under column C.
void ExpectErrorAt(const std::string& message, int line, int col,
                   const std::string& line_text, const std::string& what) {
  std::string head = "t.ir:" + std::to_string(line) + ":" + std::to_string(col) + ": ";
  EXPECT_THAT(message, StartsWith(head));
  EXPECT_THAT(message, HasSubstr(what));
  size_t nl = message.find('\n');
  ASSERT_NE(nl, std::string::npos);
  size_t nl2 = message.find('\n', nl + 1);
  ASSERT_NE(nl2, std::string::npos);
  EXPECT_EQ(message.substr(nl + 1, nl2 - nl - 1), line_text);
  EXPECT_EQ(message.substr(nl2 + 1), std::string(col - 1, ' ') + "^");
}

std::map<std::string, int> OpCounts(const Graph& g) {
  std::map<std::string, int> counts;
  for (const Node& n : g.nodes) ++counts[std::string(g.str(n.op))];
  return counts;
}

constexpr char kXla[] =
    "IR {\n"
    "  %0 = f32[] prim::Constant(), xla_shape=f32[], value=0\n"
    "  %1 = f32[0]{0} aten::expand(%0), xla_shape=f32[0]{0}, size=(0), ROOT=2\n"
    "  %2 = f32[4,64]{1,0} xla::device_data(), xla_shape=f32[4,64]{1,0}, device=TPU:0\n"
    "  %9 = f32[64]{0} xla::device_data(), xla_shape=f32[64]{0}, device=TPU:0\n"
    "  %13 = (f32[4,64]{1,0}, f32[64]{0}, f32[64]{0}, f32[64]{0}) "
    "aten::native_batch_norm(%2, %9, %9, %9, %9), num_outputs=4, "
    "xla_shape=(f32[4,64]{1,0}, f32[64]{0}, f32[64]{0}, f32[64]{0}), training=0, eps=1e-05\n"
    "  %14 = f32[4,64]{1,0} aten::relu(%13.0), xla_shape=f32[4,64]{1,0}, ROOT=0\n"
    "  %15 = f32[64]{0} aten::neg(%13.3), xla_shape=f32[64]{0}, stride=(1, 1), ROOT=1\n"
    "}\n";

TEST(IrTextTest, XlaFlavourNodesTypesAndOperands) {
  Graph g = MustParse(kXla);
  EXPECT_EQ(g.kind, GraphKind::kIr);
  ASSERT_EQ(g.nodes.size(), 7u);
  EXPECT_EQ(g.str(g.nodes[4].name), "%13");
  EXPECT_EQ(g.str(g.nodes[4].op), "aten::native_batch_norm");
  EXPECT_EQ(g.nodes[4].raw_op, g.nodes[4].op);
  EXPECT_EQ(g.nodes[0].kind, NodeKind::kConstant);
  EXPECT_EQ(g.nodes[2].kind, NodeKind::kInput);
  EXPECT_EQ(g.nodes[4].kind, NodeKind::kOp);
  EXPECT_THAT(g.inputs, ElementsAre(2u, 3u));

  // Tuple results: one TensorType per element, layouts kept.
  const Node& bn = g.nodes[4];
  ASSERT_EQ(g.results(bn).size(), 4u);
  EXPECT_EQ(g.results(bn)[0].dtype, DType::kF32);
  EXPECT_TRUE(g.results(bn)[0].rank_known);
  ASSERT_EQ(g.results(bn)[0].dims.size(), 2u);
  EXPECT_EQ(g.results(bn)[0].dims[0].value(), 4);
  EXPECT_EQ(g.results(bn)[0].dims[1].value(), 64);
  EXPECT_EQ(g.str(g.results(bn)[0].layout), "{1,0}");
  EXPECT_EQ(g.str(g.results(bn)[3].layout), "{0}");
  EXPECT_EQ(bn.operands.size(), 5u);
  EXPECT_EQ(bn.operands[0], (ValueRef{2, 0}));
  EXPECT_EQ(bn.operands[1], (ValueRef{3, 0}));

  // Scalars: rank known, no dims.
  ASSERT_EQ(g.results(g.nodes[0]).size(), 1u);
  EXPECT_TRUE(g.results(g.nodes[0])[0].rank_known);
  EXPECT_TRUE(g.results(g.nodes[0])[0].dims.empty());

  // `%13.0` and `%13.3` are outputs of %13.
  EXPECT_THAT(g.nodes[5].operands, ElementsAre(ValueRef{4, 0}));
  EXPECT_THAT(g.nodes[6].operands, ElementsAre(ValueRef{4, 3}));

  // Attributes in order; xla_shape dropped; values with ", " inside brackets intact.
  EXPECT_EQ(g.attr(bn, "xla_shape"), std::nullopt);
  ASSERT_EQ(bn.attrs.size(), 3u);
  EXPECT_EQ(g.str(bn.attrs[0].key), "num_outputs");
  EXPECT_EQ(g.str(bn.attrs[1].key), "training");
  EXPECT_EQ(g.str(bn.attrs[2].value), "1e-05");
  EXPECT_EQ(g.attr(g.nodes[6], "stride"), "(1, 1)");
  EXPECT_EQ(g.attr(g.nodes[0], "value"), "0");
  EXPECT_EQ(g.attr(g.nodes[2], "device"), "TPU:0");
  EXPECT_EQ(g.attr(g.nodes[1], "ROOT"), std::nullopt);

  // ROOT=k orders the outputs.
  EXPECT_THAT(g.outputs, ElementsAre(ValueRef{5, 0}, ValueRef{6, 0}, ValueRef{1, 0}));

  // Lines refer to the text; the block span is recorded.
  EXPECT_EQ(g.nodes[0].line, 2u);
  EXPECT_EQ(g.nodes[6].line, 8u);
  EXPECT_EQ(g.source.file, "t.ir");
  EXPECT_EQ(g.source.first_line, 1u);
  EXPECT_EQ(g.source.last_line, 9u);
}

TEST(IrTextTest, LtcFlavourListsEmptyResultsAndSpacedValues) {
  Graph g = MustParse(
      "IR {\n"
      "  %0 = [Float[4,5]] lazy_tensors::device_data(), device=CPU0, NodeType=N5torch4lazy10DeviceDataE\n"
      "  %1 = [Float[4], Long[4]] aten::max(%0), num_outputs=2, dim=1, keepdim=0, NodeType=N5torch4lazy6MaxDimE\n"
      "  %2 = [Float[4]] aten::mul(%1.0, %1.1), ROOT=0, NodeType=N5torch4lazy9MulTensorE\n"
      "  %3 = [] lazy_tensors::tensor_list(%0, %0), NodeType=N5torch4lazy10TensorListE\n"
      "  %5 = [Float[2,20]] aten::view_copy(%2), size=2 20, ROOT=1, NodeType=N5torch4lazy8ViewCopyE\n"
      "  %6 = [Long[], BFloat16[8]] prim::Constant(), num_outputs=2, value=3\n"
      "}\n");
  ASSERT_EQ(g.nodes.size(), 6u);
  EXPECT_EQ(g.nodes[0].kind, NodeKind::kInput);
  EXPECT_EQ(g.str(g.nodes[0].op), "lazy_tensors::device_data");
  EXPECT_THAT(g.inputs, ElementsAre(0u));
  ASSERT_EQ(g.results(g.nodes[1]).size(), 2u);
  EXPECT_EQ(g.results(g.nodes[1])[0].dtype, DType::kF32);
  EXPECT_EQ(g.results(g.nodes[1])[1].dtype, DType::kS64);
  EXPECT_TRUE(g.results(g.nodes[1])[1].layout.empty());
  EXPECT_THAT(g.nodes[2].operands, ElementsAre(ValueRef{1, 0}, ValueRef{1, 1}));
  EXPECT_TRUE(g.results(g.nodes[3]).empty());
  EXPECT_THAT(g.nodes[3].operands, ElementsAre(ValueRef{0, 0}, ValueRef{0, 0}));
  EXPECT_EQ(g.attr(g.nodes[4], "size"), "2 20");
  EXPECT_EQ(g.attr(g.nodes[4], "NodeType"), "N5torch4lazy8ViewCopyE");
  EXPECT_EQ(g.nodes[5].kind, NodeKind::kConstant);
  ASSERT_EQ(g.results(g.nodes[5]).size(), 2u);
  EXPECT_TRUE(g.results(g.nodes[5])[0].dims.empty());
  EXPECT_EQ(g.results(g.nodes[5])[1].dtype, DType::kBF16);
  EXPECT_THAT(g.outputs, ElementsAre(ValueRef{2, 0}, ValueRef{4, 0}));
}

TEST(IrTextTest, BoundedUnknownSymbolicDimsAndTiledLayouts) {
  Graph g = MustParse(
      "IR {\n"
      "  %0 = s64[<=5,?,s0,3]{3,2,1,0} xla::device_data(), device=TPU:0\n"
      "  %1 = f32[8,128]{1,0:T(8,128)(2,1)} aten::relu(%0), ROOT=0\n"
      "  %2 = (s32[], (f32[2]{0}, pred[])) xla::tuple_op(%1), num_outputs=3\n"
      "}\n");
  const TensorType& t = g.results(g.nodes[0]).at(0);
  EXPECT_EQ(t.dtype, DType::kS64);
  ASSERT_EQ(t.dims.size(), 4u);
  EXPECT_EQ(t.dims[0].kind(), Dim::Kind::kBounded);
  EXPECT_EQ(t.dims[0].value(), 5);
  EXPECT_EQ(t.dims[1].kind(), Dim::Kind::kUnknown);
  EXPECT_EQ(t.dims[2].kind(), Dim::Kind::kSymbolic);
  EXPECT_EQ(g.str(t.dims[2].symbol()), "s0");
  EXPECT_EQ(t.dims[3].kind(), Dim::Kind::kStatic);
  EXPECT_EQ(t.dims[3].value(), 3);
  EXPECT_EQ(g.str(t.layout), "{3,2,1,0}");
  EXPECT_EQ(g.str(g.results(g.nodes[1]).at(0).layout), "{1,0:T(8,128)(2,1)}");
  // Nested tuples are flattened in order.
  ASSERT_EQ(g.results(g.nodes[2]).size(), 3u);
  EXPECT_EQ(g.results(g.nodes[2])[0].dtype, DType::kS32);
  EXPECT_EQ(g.results(g.nodes[2])[1].dtype, DType::kF32);
  EXPECT_EQ(g.results(g.nodes[2])[2].dtype, DType::kBool);
  EXPECT_EQ(FormatType(g, t), "s64[<=5,?,s0,3]");
}

TEST(IrTextTest, RootPositionsWithGapsAreOrdered) {
  Graph g = MustParse(
      "IR {\n"
      "  %0 = f32[2]{0} xla::device_data(), ROOT=7\n"
      "  %1 = f32[2]{0} aten::abs(%0), ROOT=2\n"
      "  %2 = f32[2]{0} aten::neg(%1)\n"
      "  %3 = f32[2]{0} aten::exp(%2), ROOT=4\n"
      "}\n");
  EXPECT_THAT(g.outputs, ElementsAre(ValueRef{1, 0}, ValueRef{3, 0}, ValueRef{0, 0}));
}

TEST(IrTextTest, LocationScopeAndDynamicDimsTags) {
  std::vector<Diagnostic> warnings;
  Graph g = MustParse(
      "IR {\n"
      "  %0 = f32[4]{0} xla::device_data(), location=<module>@train.py:12, xla_shape=f32[4]{0}, device=TPU:0, dynamic_dims: (0, 1)\n"
      "  %1 = f32[4]{0} aten::add(%0, %0), location=forward@model.py:31, scope=model.fc, ROOT=0, dynamic_dims: ()\n"
      "}\n",
      &warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(g.str(g.nodes[0].frame), "<module>@train.py:12");
  EXPECT_EQ(g.str(g.nodes[1].frame), "forward@model.py:31");
  EXPECT_EQ(g.attr(g.nodes[1], "location"), std::nullopt);
  EXPECT_EQ(g.attr(g.nodes[1], "scope"), "model.fc");
  ASSERT_EQ(g.nodes[0].attrs.size(), 1u);
  EXPECT_EQ(g.str(g.nodes[0].attrs[0].key), "device");
  EXPECT_THAT(g.outputs, ElementsAre(ValueRef{1, 0}));
}

TEST(IrTextTest, CrlfParsesLikeLf) {
  std::string crlf;
  for (char c : std::string(kXla)) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  Graph a = MustParse(kXla);
  Graph b = MustParse(crlf);
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    EXPECT_EQ(a.str(a.nodes[i].op), b.str(b.nodes[i].op));
    EXPECT_EQ(a.nodes[i].line, b.nodes[i].line);
    EXPECT_EQ(a.nodes[i].attrs.size(), b.nodes[i].attrs.size());
  }
  EXPECT_EQ(b.attr(b.nodes[6], "ROOT"), std::nullopt);
  EXPECT_EQ(b.outputs, a.outputs);
}

TEST(IrTextTest, LeadingAndTrailingTextWarns) {
  std::vector<Diagnostic> warnings;
  Graph g = MustParse("log line\nIR {\n  %0 = f32[] prim::Constant(), value=1, ROOT=0\n}\ntrailer\n",
                      &warnings);
  EXPECT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].line, 3u);
  EXPECT_EQ(g.source.first_line, 2u);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].line, 1u);
  EXPECT_EQ(warnings[1].line, 5u);
}

TEST(IrTextTest, ErrorDanglingReference) {
  ExpectErrorAt(ErrorOf("IR {\n  %0 = f32[] prim::Constant()\n  %1 = f32[] aten::add(%0, %7)\n}\n"),
                3, 28, "  %1 = f32[] aten::add(%0, %7)", "%7 refers to a node not defined");
}

TEST(IrTextTest, ErrorDuplicateId) {
  ExpectErrorAt(ErrorOf("IR {\n  %0 = f32[] prim::Constant()\n  %0 = f32[] prim::Constant()\n}\n"),
                3, 3, "  %0 = f32[] prim::Constant()", "duplicate node id %0 (first defined on line 2)");
}

TEST(IrTextTest, ErrorOutputIndexBeyondResults) {
  ExpectErrorAt(ErrorOf("IR {\n  %0 = (f32[], f32[]) aten::f()\n  %1 = f32[] aten::g(%0.1, %0.2)\n}\n"),
                3, 28, "  %1 = f32[] aten::g(%0.1, %0.2)", "uses output 2 but %0 has 2 outputs");
  ExpectErrorAt(ErrorOf("IR {\n  %0 = f32[] aten::f()\n  %1 = f32[] aten::g(%0.1)\n}\n"),
                3, 22, "  %1 = f32[] aten::g(%0.1)", "has 1 output");
}

TEST(IrTextTest, ErrorMalformedLines) {
  ExpectErrorAt(ErrorOf("IR {\n  %0 = f32[ prim::Constant()\n}\n"), 2, 12,
                "  %0 = f32[ prim::Constant()", "malformed result type");
  ExpectErrorAt(ErrorOf("IR {\n  %0 = f32[] prim::Constant\n}\n"), 2, 28,
                "  %0 = f32[] prim::Constant", "expected '(' after the op name");
  ExpectErrorAt(ErrorOf("IR {\n  %0 = f32[] prim::Constant()\n  %1 = f32[] aten::g(0)\n}\n"), 3, 22,
                "  %1 = f32[] aten::g(0)", "expected an operand");
  ExpectErrorAt(ErrorOf("IR {\n  hello world\n}\n"), 2, 3, "  hello world", "expected a node line");
  ExpectErrorAt(ErrorOf("IR {\n  %x = f32[] prim::Constant()\n}\n"), 2, 4,
                "  %x = f32[] prim::Constant()", "expected a node id");
  ExpectErrorAt(ErrorOf("IR {\n  %0 = f32[] prim::Constant(), ROOT=x\n}\n"), 2, 37,
                "  %0 = f32[] prim::Constant(), ROOT=x", "ROOT=");
}

TEST(IrTextTest, MissingClosingBraceKeepsAPartialGraph) {
  // A dump cut short keeps what it holds, marked partial, with a warning.
  std::vector<Diagnostic> w;
  Graph g = MustParse("IR {\n  %0 = f32[] prim::Constant()\n", &w);
  EXPECT_TRUE(g.partial);
  EXPECT_EQ(g.nodes.size(), 1u);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].line, 1u);
  EXPECT_THAT(w[0].message, HasSubstr("no closing '}'"));
  // So does one whose writer died mid-line: the torn line is dropped.
  std::vector<Diagnostic> torn;
  Graph t = MustParse("IR {\n  %0 = f32[] prim::Constant()\n  %1 = f32[] aten::ne", &torn);
  EXPECT_TRUE(t.partial);
  EXPECT_EQ(t.nodes.size(), 1u);
  ASSERT_FALSE(torn.empty());
  // A block with no node at all is still an error.
  ExpectErrorAt(ErrorOf("IR {\n\n"), 2, 1, "", "no closing '}'");
  // Other text at column 0 ends a cut-short block the same way.
  std::vector<Diagnostic> cut;
  Graph c = MustParse("IR {\n  %0 = f32[] prim::Constant()\n## END_GRAPH\n", &cut);
  EXPECT_TRUE(c.partial);
  EXPECT_EQ(c.nodes.size(), 1u);
  ASSERT_FALSE(cut.empty());
  EXPECT_EQ(cut[0].line, 3u);
  EXPECT_THAT(cut[0].message, HasSubstr("not closed with '}'"));
  ExpectErrorAt(ErrorOf("IR {\n## END_GRAPH\n"), 2, 1, "## END_GRAPH", "not closed with '}'");
}

TEST(IrTextTest, ErrorEmptyAndNoBlock) {
  ExpectErrorAt(ErrorOf(""), 1, 1, "", "empty text");
  ExpectErrorAt(ErrorOf("hello\n"), 1, 1, "hello", "no 'IR {' block");
}

TEST(IrTextTest, ErrorTooManyNodes) {
  ParseOptions options;
  options.max_nodes_per_graph = 1;
  ExpectErrorAt(ErrorOf("IR {\n  %0 = f32[] prim::Constant()\n  %1 = f32[] prim::Constant()\n}\n",
                        options),
                3, 3, "  %1 = f32[] prim::Constant()", "more than 1 nodes");
}

TEST(IrTextTest, GarbageTruncationAndHugeLinesNeverCrash) {
  std::mt19937_64 rng(42);
  std::string text(kXla);
  for (size_t n = 0; n <= text.size(); ++n) {
    std::vector<Diagnostic> w;
    absl::StatusOr<Graph> g = ParseIrText(text.substr(0, n), "t.ir", {}, &w);
    if (n < text.size() - 1 && g.ok()) {
      // Cut short after a node: kept, but marked partial and said so.
      EXPECT_TRUE(g->partial) << n;
      std::string all;
      for (const Diagnostic& d : w) all += d.message + "\n";
      EXPECT_THAT(all, HasSubstr("no closing '}'")) << n;
    }
  }
  for (int i = 0; i < 300; ++i) {
    std::string garbage(rng() % 400, '\0');
    for (char& c : garbage) c = static_cast<char>(rng());
    std::string mixed = "IR {\n  %0 = " + garbage + "\n}\n";
    (void)ParseIrText(garbage, "t.ir");
    (void)ParseIrText(mixed, "t.ir");
    std::string flipped = text;
    for (int k = 0; k < 3; ++k) flipped[rng() % flipped.size()] = static_cast<char>(rng());
    (void)ParseIrText(flipped, "t.ir");
  }
  std::string deep = "IR {\n  %0 = " + std::string(100000, '(') + " aten::f()\n}\n";
  absl::StatusOr<Graph> g = ParseIrText(deep, "t.ir");
  ASSERT_FALSE(g.ok());
  EXPECT_LT(g.status().message().size(), 1000u);
  std::string huge = "IR {\n  %0 = f32[] aten::f(), v=" + std::string(1 << 22, 'x') + "\n}\n";
  EXPECT_TRUE(ParseIrText(huge, "t.ir").ok());
}

TEST(IrTextTest, SparseIdsUseTheFallbackMap) {
  Graph g = MustParse(
      "IR {\n  %900000000000 = f32[] prim::Constant()\n  %5 = f32[] aten::neg(%900000000000), ROOT=0\n}\n");
  EXPECT_THAT(g.nodes[1].operands, ElementsAre(ValueRef{0, 0}));
  EXPECT_EQ(g.str(g.nodes[0].name), "%900000000000");
}

TEST(IrTextTest, ResNet18OpenXlaFacts) {
  std::string text = testing::ReadTestdata("resnet18-xla5430/openxla/ir.txt");
  Graph g = MustParse(text);
  EXPECT_EQ(g.nodes.size(), 277u);
  EXPECT_EQ(g.outputs.size(), 81u);
  EXPECT_EQ(g.inputs.size(), 103u);
  std::map<std::string, int> ops = OpCounts(g);
  EXPECT_EQ(ops["xla::device_data"], 103);
  EXPECT_EQ(ops["prim::Constant"], 48);
  EXPECT_EQ(ops["aten::expand"], 48);
  EXPECT_EQ(ops["aten::native_batch_norm"], 20);
  for (const Node& n : g.nodes) {
    for (const ValueRef& r : n.operands) EXPECT_LT(r.node, &n - g.nodes.data());
  }
}

TEST(IrTextTest, ResNet18TraceOnceFacts) {
  Graph g = MustParse(testing::ReadTestdata("resnet18-xla5430/torchxla_trace_once/ir.txt"));
  EXPECT_EQ(g.nodes.size(), 197u);
  EXPECT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.inputs.size(), 103u);
}

TEST(IrTextTest, RealLtcDumpIr) {
  // Written by torch._lazy.debug.dump_ir (PyTorch 1.13, TorchScript backend).
  Graph g = MustParse(testing::ReadTestdata("fixtures/ir/ltc_real_dump_ir.txt"));
  ASSERT_EQ(g.nodes.size(), 2u);
  EXPECT_EQ(g.inputs.size(), 2u);
  EXPECT_THAT(g.outputs, ElementsAre(ValueRef{0, 0}, ValueRef{1, 0}));
  EXPECT_EQ(g.results(g.nodes[1]).at(0).dims.size(), 2u);
}

}  // namespace
}  // namespace graphdiff
