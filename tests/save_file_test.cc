// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/parse.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/shared_pool.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<Graph> MustParse(const std::string& text, std::vector<Diagnostic>* warnings = nullptr,
                             const ParseOptions& options = {}) {
  absl::StatusOr<std::vector<Graph>> gs = ParseSaveFile(text, "s.txt", options, warnings);
  EXPECT_TRUE(gs.ok()) << gs.status().message();
  return gs.ok() ? *std::move(gs) : std::vector<Graph>();
}

std::string Fixture(const std::string& name) {
  return testing::ReadTestdata("fixtures/ir/" + name);
}

TEST(SaveFileTest, OldHashesFramingFoldsRepeatsAndNamesByUserFrame) {
  std::vector<Graph> gs = MustParse(Fixture("xla_old_hashes.txt"));
  ASSERT_EQ(gs.size(), 2u);
  const Graph& a = gs[0];
  EXPECT_EQ(a.source.repeat_count, 2u);
  EXPECT_EQ(a.source.record_index, 0u);
  EXPECT_EQ(a.source.file, "s.txt");
  EXPECT_EQ(a.source.first_line, 1u);
  EXPECT_EQ(a.source.last_line, 16u);
  ASSERT_EQ(a.source.frames.size(), 3u);
  EXPECT_EQ(a.source.frames[1], "train_step (/home/user/train.py:15)");
  EXPECT_THAT(a.source.hashes, ElementsAre("8d1b7c3e0f2a4b5c6d7e8f9012345678"));
  EXPECT_TRUE(a.source.graph_hash.empty());
  // The innermost frame outside torch_xla names the graph.
  EXPECT_EQ(a.name, "train_step (/home/user/train.py:15)");
  ASSERT_EQ(a.nodes.size(), 3u);
  EXPECT_EQ(a.nodes[0].line, 11u);  // lines count from the file, not the record
  EXPECT_THAT(a.outputs, ElementsAre(ValueRef{2, 0}));

  const Graph& b = gs[1];
  EXPECT_EQ(b.source.repeat_count, 1u);
  EXPECT_EQ(b.source.record_index, 1u);
  EXPECT_EQ(b.source.first_line, 35u);
  EXPECT_EQ(b.source.last_line, 51u);
  EXPECT_EQ(b.source.hashes.size(), 2u);
  // Standard-library frames (contextlib) are skipped too.
  EXPECT_EQ(b.name, "eval_step (/home/user/train.py:27)");
  EXPECT_THAT(b.nodes[2].operands, ElementsAre(ValueRef{1, 0}));
  EXPECT_THAT(b.nodes[3].operands, ElementsAre(ValueRef{1, 1}));
  EXPECT_THAT(b.outputs, ElementsAre(ValueRef{3, 0}, ValueRef{2, 0}));
  EXPECT_EQ(b.nodes[0].line, 45u);
}

TEST(SaveFileTest, NewFramingGraphNameRootHashesGraphHash) {
  std::vector<Diagnostic> warnings;
  std::vector<Graph> gs = MustParse(Fixture("xla_new_root_hashes.txt"), &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings[0].ToString();
  ASSERT_EQ(gs.size(), 2u);
  const Graph& a = gs[0];
  EXPECT_EQ(a.name, "my_step");
  EXPECT_EQ(a.source.graph_name, "my_step");
  EXPECT_THAT(a.source.hashes, ElementsAre("1436329e82afaefef67b56ba9c737f05"));
  EXPECT_EQ(a.source.graph_hash, "9e1c4f2b8a7d6e5f4c3b2a1908f7e6d5");
  EXPECT_EQ(a.source.first_line, 1u);
  EXPECT_EQ(a.source.last_line, 19u);
  ASSERT_EQ(a.nodes.size(), 4u);
  EXPECT_EQ(a.results(a.nodes[0]).at(0).dims.at(0).kind(), Dim::Kind::kBounded);
  EXPECT_EQ(a.str(a.results(a.nodes[1]).at(0).layout), "{1,0:T(8,128)}");
  EXPECT_EQ(a.str(a.nodes[2].frame), "forward@model.py:31");
  EXPECT_EQ(a.attr(a.nodes[2], "scope"), "model.fc");
  EXPECT_THAT(a.outputs, ElementsAre(ValueRef{3, 0}, ValueRef{2, 0}));

  const Graph& b = gs[1];
  EXPECT_EQ(b.name, "<module> (/home/user/train.py:20)");
  EXPECT_TRUE(b.source.graph_name.empty());
  EXPECT_THAT(b.source.hashes, ElementsAre("ab12", "cd34"));
  EXPECT_EQ(b.source.graph_hash, "77aa88bb");
  EXPECT_EQ(b.source.first_line, 21u);
  EXPECT_EQ(b.source.last_line, 36u);
}

TEST(SaveFileTest, HloBodiesGoToTheHloParserAndShardingBlocksAreSkipped) {
  std::vector<Diagnostic> warnings;
  std::vector<Graph> gs = MustParse(Fixture("xla_hlo_sharding.txt"), &warnings);
  ASSERT_EQ(gs.size(), 2u);
  const Graph& hlo = gs[0];
  EXPECT_EQ(hlo.kind, GraphKind::kHlo);
  EXPECT_EQ(hlo.name, "hlo_step");
  EXPECT_EQ(hlo.source.graph_name, "hlo_step");
  EXPECT_EQ(hlo.source.graph_hash, "0123abcd");
  EXPECT_EQ(hlo.source.first_line, 1u);
  EXPECT_EQ(hlo.source.last_line, 34u);
  EXPECT_FALSE(hlo.nodes.empty());
  for (const Node& n : hlo.nodes) {
    // The body spans lines 10-23 of the file.
    EXPECT_GE(n.line, 10u);
    EXPECT_LE(n.line, 23u);
  }
  const Graph& ir = gs[1];
  EXPECT_EQ(ir.kind, GraphKind::kIr);
  EXPECT_EQ(ir.source.graph_hash, "4567ef01");
  EXPECT_EQ(ir.source.last_line, 57u);
  EXPECT_EQ(ir.nodes.size(), 2u);
  for (const Diagnostic& d : warnings) {
    EXPECT_THAT(d.message, ::testing::Not(HasSubstr("outside any graph record")));
  }
}

TEST(SaveFileTest, BareIrBlocksAreManyGraphs) {
  std::vector<Graph> gs = MustParse(Fixture("bare_blocks.txt"));
  ASSERT_EQ(gs.size(), 2u);
  EXPECT_EQ(gs[0].source.repeat_count, 2u);
  EXPECT_EQ(gs[0].name, "graph 0");
  EXPECT_EQ(gs[0].source.first_line, 1u);
  EXPECT_EQ(gs[0].source.last_line, 3u);
  EXPECT_EQ(gs[1].name, "graph 1");
  EXPECT_EQ(gs[1].source.first_line, 9u);
  ASSERT_EQ(gs[1].nodes.size(), 5u);
  EXPECT_TRUE(gs[1].results(gs[1].nodes[3]).empty());
  EXPECT_EQ(gs[1].nodes[4].line, 14u);
}

// The records' graphs share one string pool, which holds each node name,
// op and attribute once for all of them; a string interned into one graph
// after the parse is not seen by the others, and a parse in pieces gives
// the same graphs.
TEST(SaveFileTest, RecordsShareTheirStrings) {
  std::string text;
  for (int r = 0; r < 3; ++r) {
    text += "IR {\n"
            "  %0 = f32[4]{0} xla::device_data(), xla_shape=f32[4]{0}, device=CPU:0\n"
            "  %1 = f32[4]{0} aten::relu(%0), xla_shape=f32[4]{0}, ROOT=0\n"
            "}\n\n";
    text += "IR {\n"
            "  %0 = f32[4]{0} xla::device_data(), xla_shape=f32[4]{0}, device=CPU:0\n"
            "  %1 = f32[4]{0} aten::neg(%0), xla_shape=f32[4]{0}\n"
            "  %2 = f32[4]{0} aten::add(%1, %0), xla_shape=f32[4]{0}, ROOT=0\n"
            "}\n\n";
  }
  std::vector<Graph> gs = MustParse(text);
  ASSERT_EQ(gs.size(), 6u);
  EXPECT_TRUE(gs[0].strings.shared());
  EXPECT_EQ(gs[0].nodes[1].name, gs[1].nodes[1].name);  // `%1` stored once
  EXPECT_EQ(gs[1].str(gs[1].nodes[2].op), "aten::add");
  EXPECT_EQ(gs[4].str(gs[4].nodes[1].op), "aten::relu");
  testing::ExpectWriteStaysInOneGraph(gs[0], gs[1], gs[0].nodes[1].name, "%1");
}

// A training loop alternates a few stacks (the step, a metric's .item());
// a record's frames are then one block shared with every record of the same
// stack, not a string per frame per record.
TEST(SaveFileTest, RecordsOfOneStackShareItsFrames) {
  auto record = [](int line, const char* op) {
    return fmt::format(
        "[ScheduleSyncTensorsGraph]\n"
        "TensorsGraphInfo:\n"
        "  mark_step (/usr/lib/python3.10/site-packages/torch_xla/core/xla_model.py:1055)\n"
        "  train_loop_fn (/home/user/train.py:{})\n"
        "  <module> (/home/user/train.py:260)\n"
        "\n"
        "Hashes: (aaaa{}, bbbb)\n"
        "\n"
        "## BEGIN_GRAPH\n"
        "IR {{\n"
        "  %0 = [Float[4]] lazy_tensors::device_data(), device=CPU0\n"
        "  %1 = [Float[4]] aten::{}(%0), ROOT=0\n"
        "}}\n"
        "\n"
        "## END_GRAPH\n\n",
        line, line, op);
  };
  std::string text = record(142, "relu") + record(150, "neg") + record(142, "sin") +
                     record(150, "cos") + record(142, "tan");
  std::vector<Graph> gs = MustParse(text);
  ASSERT_EQ(gs.size(), 5u);
  EXPECT_THAT(gs[2].source.frames,
              ElementsAre("mark_step (/usr/lib/python3.10/site-packages/torch_xla/core/"
                          "xla_model.py:1055)",
                          "train_loop_fn (/home/user/train.py:142)",
                          "<module> (/home/user/train.py:260)"));
  EXPECT_THAT(gs[3].source.hashes, ElementsAre("aaaa150", "bbbb"));
  EXPECT_EQ(gs[0].name, "train_loop_fn (/home/user/train.py:142)");
  EXPECT_EQ(gs[1].name, "train_loop_fn (/home/user/train.py:150)");
  EXPECT_EQ(gs[4].name, gs[0].name);
  // One block a stack: the same bytes, not equal copies.
  EXPECT_EQ(gs[0].source.frames[0].data(), gs[2].source.frames[0].data());
  EXPECT_EQ(gs[0].source.frames[0].data(), gs[4].source.frames[0].data());
  EXPECT_EQ(gs[1].source.frames[0].data(), gs[3].source.frames[0].data());
  EXPECT_NE(gs[0].source.frames, gs[1].source.frames);
  EXPECT_NE(gs[0].source.frames[0].data(), gs[1].source.frames[0].data());
}

TEST(SaveFileTest, RealLtcSaveFile) {
  // LTC_SAVE_TENSORS_FILE output of PyTorch 1.13 (TorchScript backend):
  // "Python Stacktrace:" with the no-frames placeholder, old "Hashes:".
  std::vector<Graph> gs = MustParse(Fixture("ltc_real_save.txt"));
  ASSERT_EQ(gs.size(), 6u);
  for (const Graph& g : gs) {
    EXPECT_TRUE(g.source.frames.empty());
    EXPECT_EQ(g.source.repeat_count, 1u);
  }
  EXPECT_EQ(gs[0].nodes.size(), 1u);
  EXPECT_EQ(gs[0].source.hashes.size(), 1u);
  const Graph& g = gs[1];
  ASSERT_EQ(g.nodes.size(), 9u);
  EXPECT_EQ(g.source.hashes.size(), 5u);
  EXPECT_EQ(g.outputs.size(), 5u);
  EXPECT_EQ(g.inputs.size(), 3u);
  EXPECT_EQ(g.name, "graph 1");
  EXPECT_EQ(g.str(g.nodes[6].op), "aten::max");
  EXPECT_THAT(g.nodes[7].operands, ElementsAre(ValueRef{6, 0}, ValueRef{6, 1}));
  EXPECT_EQ(g.attr(g.nodes[8], "size"), "2 2");
  EXPECT_EQ(g.nodes[0].line, 23u);
}

TEST(SaveFileTest, CrlfSaveFile) {
  std::string text = Fixture("xla_new_root_hashes.txt"), crlf;
  for (char c : text) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  std::vector<Graph> gs = MustParse(crlf);
  ASSERT_EQ(gs.size(), 2u);
  EXPECT_EQ(gs[0].name, "my_step");
  EXPECT_EQ(gs[0].source.graph_hash, "9e1c4f2b8a7d6e5f4c3b2a1908f7e6d5");
  EXPECT_THAT(gs[0].source.hashes, ElementsAre("1436329e82afaefef67b56ba9c737f05"));
  ASSERT_EQ(gs[1].source.frames.size(), 2u);
  EXPECT_EQ(gs[1].source.frames[1], "<module> (/home/user/train.py:20)");
  EXPECT_EQ(gs[1].nodes.at(1).line, 31u);
}

TEST(SaveFileTest, ErrorsInARecordCiteFileLines) {
  std::string text =
      "[ScheduleSyncTensorsGraph]\nTensorsGraphInfo:\n  f (a.py:1)\n\nHashes: (1)\n\n"
      "## BEGIN_GRAPH\nIR {\n  %0 = f32[] aten::neg(%4)\n}\n\n## END_GRAPH\n";
  absl::StatusOr<std::vector<Graph>> gs = ParseSaveFile(text, "s.txt");
  ASSERT_FALSE(gs.ok());
  EXPECT_THAT(std::string(gs.status().message()),
              StartsWith("s.txt:9:24: operand %4 refers to a node not defined"));
}

TEST(SaveFileTest, TruncatedLastRecordIsKeptAsPartialWithAWarning) {
  std::string text = Fixture("xla_new_root_hashes.txt");
  std::string cut = text.substr(0, text.find("aten::sin"));
  std::vector<Diagnostic> warnings;
  std::vector<Graph> gs = MustParse(cut, &warnings);
  ASSERT_EQ(gs.size(), 2u);
  EXPECT_FALSE(gs[0].partial);
  EXPECT_TRUE(gs[1].partial);
  EXPECT_FALSE(gs[1].nodes.empty());
  ASSERT_FALSE(warnings.empty());
  EXPECT_THAT(warnings.back().message, HasSubstr("marked partial"));
  // A file whose only record is cut short keeps it too.
  std::string only = text.substr(0, text.find("  %3 = "));
  std::vector<Diagnostic> only_warnings;
  std::vector<Graph> one = MustParse(only, &only_warnings);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_TRUE(one[0].partial);
  EXPECT_THAT(only_warnings.back().message, HasSubstr("no closing '}'"));
}

TEST(SaveFileTest, LimitsAndEmptyInput) {
  ParseOptions options;
  options.max_graphs = 1;
  absl::StatusOr<std::vector<Graph>> gs =
      ParseSaveFile(Fixture("xla_old_hashes.txt"), "s.txt", options);
  ASSERT_FALSE(gs.ok());
  EXPECT_THAT(std::string(gs.status().message()), StartsWith("s.txt:35:1: more than 1 graphs"));
  // Folded repeats do not count against the limit.
  options.max_graphs = 2;
  EXPECT_TRUE(ParseSaveFile(Fixture("xla_old_hashes.txt"), "s.txt", options).ok());

  ParseOptions nodes;
  nodes.max_nodes_per_graph = 2;
  gs = ParseSaveFile(Fixture("xla_old_hashes.txt"), "s.txt", nodes);
  ASSERT_FALSE(gs.ok());
  EXPECT_THAT(std::string(gs.status().message()), StartsWith("s.txt:13:3: graph has more than 2"));

  gs = ParseSaveFile("", "s.txt");
  ASSERT_FALSE(gs.ok());
  EXPECT_THAT(std::string(gs.status().message()), StartsWith("s.txt:1:1: empty text"));
  gs = ParseSaveFile("[ScheduleSyncTensorsGraph]\nHashes: (1)\n", "s.txt");
  ASSERT_FALSE(gs.ok());
  EXPECT_THAT(std::string(gs.status().message()), HasSubstr("no graph found"));
}

TEST(SaveFileTest, UnknownBodiesAndStrayLinesWarn) {
  std::string text =
      "[ScheduleSyncTensorsGraph]\nTensorsGraphInfo:\n\nHashes: (1)\n\n## BEGIN_GRAPH\n"
      "digraph G {\n  node1 -> node2\n}\n\n## END_GRAPH\n\nstray text\n"
      "IR {\n  %0 = f32[] prim::Constant(), ROOT=0\n}\n";
  std::vector<Diagnostic> warnings;
  std::vector<Graph> gs = MustParse(text, &warnings);
  ASSERT_EQ(gs.size(), 1u);
  EXPECT_EQ(gs[0].nodes.at(0).line, 15u);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0].line, 7u);
  EXPECT_EQ(warnings[1].line, 13u);
}

TEST(SaveFileTest, GarbageAndTruncationNeverCrash) {
  std::string text = Fixture("xla_old_hashes.txt") + Fixture("xla_new_root_hashes.txt");
  for (size_t n = 0; n <= text.size(); n += 7) {
    (void)ParseSaveFile(text.substr(0, n), "s.txt");
  }
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage += static_cast<char>((i * 7919) % 256);
  (void)ParseSaveFile(garbage, "s.txt");
  (void)ParseSaveFile("## BEGIN_GRAPH\n" + garbage, "s.txt");
  (void)ParseSaveFile("#OUTPUT_SHARDING_BEGIN\n" + garbage, "s.txt");
}

}  // namespace
}  // namespace graphdiff

namespace graphdiff {
namespace {

TEST(SaveFileTest, UnclosedRecordFollowedByAnotherIsKeptAsPartial) {
  std::string text = Fixture("xla_new_root_hashes.txt");
  size_t close = text.find("\n}\n");
  ASSERT_NE(close, std::string::npos);
  text.erase(close + 1, 2);  // the first record loses its closing brace
  std::vector<Diagnostic> warnings;
  std::vector<Graph> gs = MustParse(text, &warnings);
  ASSERT_EQ(gs.size(), 2u);
  EXPECT_TRUE(gs[0].partial);
  EXPECT_EQ(gs[0].nodes.size(), 4u);
  EXPECT_FALSE(gs[1].partial);
  std::string all;
  for (const Diagnostic& d : warnings) all += d.ToString() + "\n";
  EXPECT_THAT(all, HasSubstr("not closed with '}'"));
}

}  // namespace
}  // namespace graphdiff

namespace graphdiff {
namespace {

// A graph as text without its line numbers and source: what a record must
// parse to whether it is read alone or after other records.
std::string GraphBody(const Graph& g) {
  std::string out;
  for (const Node& n : g.nodes) {
    out += std::string(g.str(n.name)) + " = " + std::string(g.str(n.op)) + "(";
    for (const ValueRef& r : n.operands) {
      out += std::to_string(r.node) + "." + std::to_string(r.output) + " ";
    }
    out += ") ->";
    for (const TensorType& t : g.results(n)) {
      out += " " + std::string(DTypeName(t.dtype)) + "[";
      for (const Dim& d : t.dims) out += std::to_string(d.value()) + ",";
      out += "]" + std::string(g.str(t.layout)) + "@" + std::string(g.str(t.device));
    }
    for (const Attr& a : n.attrs) {
      out += " | " + std::string(g.str(a.key)) + "=" + std::string(g.str(a.value));
    }
    out += " frame=" + std::string(g.str(n.frame)) + "\n";
  }
  out += "outputs";
  for (const ValueRef& r : g.outputs) out += " " + std::to_string(r.node);
  return out;
}

// A record body of two nodes, which draws no warning.
constexpr char kReluBlock[] =
    "IR {\n"
    "  %0 = f32[4,8]{1,0} xla::device_data(), xla_shape=f32[4,8]{1,0}, device=CPU:0\n"
    "  %1 = f32[4,8]{1,0} aten::relu(%0), location=fwd@m.py:3, ROOT=0\n"
    "}\n";

// The records of a save file are read through one cache of strings, tails
// and types (IrBlockCache): each must still parse as it does alone, with
// its own outputs, and a tag that draws a warning draws it in every record.
TEST(SaveFileTest, RecordsReadThroughOneCacheParseAsEachAlone) {
  const std::vector<std::string> blocks = {
      kReluBlock,
      "IR {\n"
      "  %0 = f32[4,8]{1,0} xla::device_data(), xla_shape=f32[4,8]{1,0}, device=CPU:0\n"
      "  %1 = (f32[4,8]{1,0}, s64[4]{0}) aten::max(%0), dim=1, oddtag\n"
      "  %2 = f32[4,8]{1,0} aten::relu(%0), location=fwd@m.py:3\n"
      "  %3 = f32[4,8]{1,0} aten::add(%2, %1.0), ROOT=1\n"
      "  %4 = s64[4]{0} aten::neg(%1.1), ROOT=0\n"
      "}\n",
      "IR {\n"
      "  %0 = [Float[4, 8]] lazy_tensors::device_data(), device=CPU0\n"
      "  %1 = [Float[4, 8]] aten::relu(%0), location=fwd@m.py:3, ROOT=0\n"
      "  %2 = [Long[4]] aten::neg(%0), oddtag, ROOT=1\n"
      "}\n",
      "IR {\n"
      "  %0 = f32[4,8]{0,1} xla::device_data(), xla_shape=f32[4,8]{0,1}, device=CPU:0\n"
      "  %1 = f32[4,8]{1,0} aten::relu(%0), location=fwd@m.py:3, ROOT=0\n"
      "}\n",
  };
  std::string text;
  // No record repeats the one before it: that one is folded, not parsed.
  const std::vector<size_t> order = {0, 1, 2, 3, 1, 0, 2, 3, 0, 1};
  for (size_t b : order) text += "[ScheduleSyncTensorsGraph]\n## BEGIN_GRAPH\n" + blocks[b] + "\n";
  std::vector<Diagnostic> warnings;
  std::vector<Graph> gs = MustParse(text, &warnings);
  ASSERT_EQ(gs.size(), order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    absl::StatusOr<Graph> alone = ParseIrText(blocks[order[i]], "alone.txt");
    ASSERT_TRUE(alone.ok()) << alone.status().message();
    EXPECT_EQ(GraphBody(gs[i]), GraphBody(*alone)) << "record " << i;
  }
  size_t odd = 0;
  for (const Diagnostic& d : warnings) {
    odd += d.message.find("not key=value: 'oddtag'") != std::string::npos;
  }
  EXPECT_EQ(odd, 5u);  // the records of blocks 1 and 2
}

// A body seen before (not just before: that one folds) is copied from its
// first parse, moved to its own lines; one whose parse warned is parsed
// again, and warns again.
TEST(SaveFileTest, ABodySeenBeforeIsItsFirstParseOnItsOwnLines) {
  const std::vector<std::string> blocks = {
      kReluBlock,
      "IR {\n"
      "  %0 = f32[4,8]{1,0} xla::device_data(), xla_shape=f32[4,8]{1,0}, device=CPU:0\n"
      "  %1 = (f32[4,8]{1,0}, s64[4]{0}) aten::max(%0), dim=1\n"
      "  %2 = f32[4,8]{1,0} aten::add(%0, %1.0), ROOT=1\n"
      "  %3 = s64[4]{0} aten::neg(%1.1), ROOT=0\n"
      "}\n",
      "IR {\n"
      "  %0 = f32[4,8]{1,0} xla::device_data(), xla_shape=f32[4,8]{1,0}, device=CPU:0\n"
      "  ...\n"
      "  %5 = f32[4,8]{1,0} aten::relu(%0), ROOT=0\n"
      "}\n",
  };
  // A body that starts as a kept one does and goes on differently.
  const std::string relu = kReluBlock;
  const std::string longer = relu.substr(0, relu.size() - 2) +
                             "  %2 = f32[4,8]{1,0} aten::neg(%1), ROOT=1\n}\n";
  std::vector<std::string> all = blocks;
  all.push_back(longer);
  const std::vector<size_t> order = {0, 1, 0, 2, 1, 3, 0, 2, 3, 1, 0};
  std::string text;
  std::vector<uint32_t> ir_lines;
  uint32_t line = 1;
  for (size_t i = 0; i < order.size(); ++i) {
    // Stacks of several lengths, so that lines move by different amounts.
    const std::string header = fmt::format(
        "[ScheduleSyncTensorsGraph]\nTensorsGraphInfo:\n{}\n## BEGIN_GRAPH\n",
        fmt::join(std::vector<std::string>(i % 3 + 1, "  step (train.py:7)"), "\n"));
    text += header;
    line += static_cast<uint32_t>(std::count(header.begin(), header.end(), '\n'));
    ir_lines.push_back(line);
    text += all[order[i]] + "\n";
    line += static_cast<uint32_t>(std::count(all[order[i]].begin(), all[order[i]].end(), '\n')) + 1;
  }
  std::vector<Diagnostic> warnings;
  std::vector<Graph> gs = MustParse(text, &warnings);
  ASSERT_EQ(gs.size(), order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    SCOPED_TRACE(i);
    // The block alone, on the lines it has in the file.
    absl::StatusOr<Graph> alone =
        ParseIrText(std::string(ir_lines[i] - 1, '\n') + all[order[i]], "alone.txt");
    ASSERT_TRUE(alone.ok()) << alone.status().message();
    EXPECT_EQ(GraphBody(gs[i]), GraphBody(*alone));
    EXPECT_EQ(gs[i].partial, alone->partial);
    EXPECT_EQ(gs[i].source.last_line, alone->source.last_line);
    ASSERT_EQ(gs[i].nodes.size(), alone->nodes.size());
    for (size_t k = 0; k < gs[i].nodes.size(); ++k) {
      EXPECT_EQ(gs[i].nodes[k].line, alone->nodes[k].line) << "node " << k;
    }
  }
  size_t elisions = 0;
  for (const Diagnostic& d : warnings) elisions += d.message.find("elision") != std::string::npos;
  EXPECT_EQ(elisions, 2u);  // block 2 is in the file twice
}

// A block's vectors are sized by its own node lines: blocks indented under
// their markers were each sized for every line left in the file.
TEST(SaveFileTest, IndentedBlocksAreSizedByTheirOwnNodes) {
  std::string text;
  for (int r = 0; r < 2000; ++r) {
    // Two records in turn: a repeat of the one before would be folded.
    text += std::string("[ScheduleSyncTensorsGraph]\n## BEGIN_GRAPH\n") +
            "  IR {\n"
            "    %0 = f32[4]{0} xla::device_data(), device=CPU:0\n"
            "    %1 = f32[4]{0} " + (r % 2 ? "aten::neg" : "aten::relu") + "(%0), ROOT=0\n"
            "  }\n"
            "## END_GRAPH\n\n";
  }
  std::vector<Graph> gs = MustParse(text);
  ASSERT_EQ(gs.size(), 2000u);
  for (size_t i : {0, 1000}) {
    EXPECT_EQ(gs[i].nodes.size(), 2u);
    EXPECT_LE(gs[i].nodes.capacity(), 4u);
  }
}

}  // namespace
}  // namespace graphdiff
