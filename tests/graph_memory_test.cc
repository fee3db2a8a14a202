// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Graph memory per node (Graph::MemoryBytes), the figure the README records
// against its 250-byte target. Deterministic, unlike time, so it is
// asserted: IR graphs stay within the target, and a dump of many small HLO
// modules keeps its pools shrunk to fit.
#include <cctype>
#include <cstddef>
#include <string>

#include "fmt/format.h"
#include "graphdiff/graph.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

double BytesPerNode(const ParsedText& parsed) {
  size_t bytes = 0, nodes = 0;
  for (const Graph& g : parsed.graphs) {
    bytes += g.MemoryBytes();
    nodes += g.nodes.size();
  }
  return nodes == 0 ? 0.0 : static_cast<double>(bytes) / static_cast<double>(nodes);
}

// `copies` disjoint copies of the IR graph in `text`, renumbered (`%k`
// and `ROOT=k` shifted per copy): a real graph at the scale of the target.
std::string ReplicateIrText(const std::string& text, int copies) {
  size_t open = text.find("IR {\n"), close = text.rfind("\n}");
  std::string body = text.substr(open + 5, close + 1 - (open + 5));
  int nodes = 0, roots = 0;
  for (size_t at = 0; (at = body.find(" = ", at)) != std::string::npos; ++at) ++nodes;
  for (size_t at = 0; (at = body.find("ROOT=", at)) != std::string::npos; ++at) ++roots;
  std::string out = "IR {\n";
  for (int c = 0; c < copies; ++c) {
    for (size_t i = 0; i < body.size();) {
      bool id = body[i] == '%', root = body.compare(i, 5, "ROOT=") == 0;
      size_t digits = i + (id ? 1 : root ? 5 : 0);
      auto digit = [&](size_t at) {
        return at < body.size() && std::isdigit(static_cast<unsigned char>(body[at]));
      };
      if ((id || root) && digit(digits)) {
        size_t end = digits;
        while (digit(end)) ++end;
        long k = std::stol(body.substr(digits, end - digits)) +
                 static_cast<long>(c) * (id ? nodes : roots);
        out += body.substr(i, digits - i) + std::to_string(k);
        i = end;
      } else {
        out += body[i++];
      }
    }
  }
  return out + "}\n";
}

// The node record is most of a graph's memory, and on a machine where fresh
// pages are dear, most of a large parse's time. Its lists and the one
// tensor type it holds in place pack with 3 bytes of padding: a regrowth
// here costs every node of every graph. (graph.h asserts that the lists sit
// at 8-byte offsets, where leak checkers look for their heap pointers.)
TEST(GraphMemory, NodeRecordPacksItsLists) {
  if (sizeof(void*) != 8) GTEST_SKIP() << "sizes are for 64-bit targets";
  EXPECT_EQ(sizeof(Dim), 8u);
  EXPECT_EQ(alignof(Dim), 4u);
  EXPECT_EQ(sizeof(OperandList), 28u);
  EXPECT_EQ(sizeof(AttrList), 36u);
  EXPECT_EQ(sizeof(TensorType), 56u);
  EXPECT_EQ(sizeof(Node), 160u);
}

TEST(GraphMemory, RealIrAtScaleWithinTarget) {
  for (const char* file :
       {"generated/resnet18/ir_eager.txt", "generated/resnet18/ir_aot_forward.txt"}) {
    std::string text = ReplicateIrText(testing::ReadTestdata(file), 500);
    absl::StatusOr<ParsedText> parsed = ParseText(text, file, ParseOptions{});
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    ASSERT_EQ(parsed->graphs.size(), 1u) << file;
    ASSERT_GT(parsed->graphs[0].nodes.size(), 90000u) << file;
    EXPECT_LE(BytesPerNode(*parsed), 250.0) << file;
  }
  // A save file of several records: each record a graph of its own.
  absl::StatusOr<ParsedText> save = ParseText(
      testing::ReadTestdata("generated/resnet18/ltc_save.txt"), "ltc_save.txt", ParseOptions{});
  ASSERT_TRUE(save.ok()) << save.status();
  EXPECT_LE(BytesPerNode(*save), 250.0);
}

// 2,000 modules of four instructions: each module is a graph with its own
// string pool, whose spare room (chunk tail, views, table) was once most of
// the memory.
TEST(GraphMemory, ManySmallHloModulesShrinkTheirPools) {
  std::string text;
  for (int m = 0; m < 2000; ++m) {
    text += fmt::format(
        "HloModule SyncTensorsGraph.{0}\n\n"
        "ENTRY %main.{0} (p0.1: f32[4,64], p1.2: f32[64]) -> (f32[4,64]) {{\n"
        "  %p0.1 = f32[4,64]{{1,0}} parameter(0)\n"
        "  %p1.2 = f32[64]{{0}} parameter(1)\n"
        "  %broadcast.3 = f32[4,64]{{1,0}} broadcast(f32[64]{{0}} %p1.2), dimensions={{1}}\n"
        "  ROOT %add.4 = f32[4,64]{{1,0}} add(f32[4,64]{{1,0}} %p0.1, f32[4,64]{{1,0}} "
        "%broadcast.3), metadata={{op_type=\"aten__add\" op_name=\"aten__add\"}}\n"
        "}}\n\n",
        m);
  }
  absl::StatusOr<ParsedText> parsed = ParseText(text, "many.hlo", ParseOptions{});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->graphs.size(), 2000u);
  // Node records are 160 bytes; the rest is each module's own pool (about
  // 360 bytes a node in all when this was written, 502 unshrunk).
  EXPECT_LE(BytesPerNode(*parsed), 450.0);
}

}  // namespace
}  // namespace graphdiff
