// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// PairDumps: which graph is compared with which, and by what rule.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graphdiff/dump.h"
#include "gtest/gtest.h"
#include "load_test_helpers.h"

namespace graphdiff {
namespace {

using testing_load::MakeArchive;
using testing_load::ReadTestFile;
using testing_load::ResnetDir;
using testing_load::ResnetEntries;
using testing_load::ScratchDir;
using testing_load::WriteTestFile;

std::string PathOf(const Dump& dump, GraphRef ref) { return dump.files[ref.file].path; }

// One save-file record: header with optional name and frames, then an IR body
// whose single constant value tells the records apart.
std::string Record(const std::string& name, const std::string& frame, int value) {
  std::string out = "[ScheduleSyncTensorsGraph]\n";
  if (!name.empty()) out += "Graph Name: " + name + "\n";
  out += "TensorsGraphInfo:\n";
  out += "  mark_step (/usr/lib/python3/dist-packages/torch_xla/core/xla_model.py:787)\n";
  if (!frame.empty()) out += "  " + frame + "\n";
  out += "\nRoot Hashes: (1436329e82afaefef67b56ba9c737f05)\n\n## BEGIN_GRAPH\nIR {\n";
  out += "  %0 = f32[] prim::Constant(), value=" + std::to_string(value) + ", ROOT=0\n}\n\n";
  out += "## END_GRAPH\n\n";
  return out;
}

Dump MemoryDump(const std::vector<std::pair<std::string, std::string>>& files) {
  absl::StatusOr<Dump> dump = LoadDumpFromMemory("mem", files);
  EXPECT_TRUE(dump.ok()) << dump.status();
  return dump.ok() ? *std::move(dump) : Dump();
}

// The constant's value identifies a record in these tests.
std::string ValueOf(const Dump& dump, GraphRef ref) {
  const Graph& g = dump.files[ref.file].graphs[ref.graph];
  auto v = g.attr(g.nodes.at(0), "value");
  return v ? std::string(*v) : "?";
}

TEST(PairDumps, ResnetDirectoriesPairByPath) {
  absl::StatusOr<Dump> left = LoadDump(ResnetDir("torchxla_trace_once"));
  absl::StatusOr<Dump> right = LoadDump(ResnetDir("openxla"));
  ASSERT_TRUE(left.ok()) << left.status();
  ASSERT_TRUE(right.ok()) << right.status();
  Pairing p = PairDumps(*left, *right);
  ASSERT_EQ(p.graphs.size(), 2u);
  EXPECT_EQ(PathOf(*left, p.graphs[0].left), "fx_graph.txt");
  EXPECT_EQ(PathOf(*right, p.graphs[0].right), "fx_graph.txt");
  EXPECT_EQ(p.graphs[0].how, PairRule::kPath);
  EXPECT_EQ(PathOf(*left, p.graphs[1].left), "ir.txt");
  EXPECT_EQ(PathOf(*right, p.graphs[1].right), "ir.txt");
  EXPECT_EQ(p.graphs[1].how, PairRule::kPath);
  ASSERT_EQ(p.metrics.size(), 1u);
  EXPECT_EQ(left->files[p.metrics[0].left_file].path, "metrics.txt");
  EXPECT_EQ(right->files[p.metrics[0].right_file].path, "metrics.txt");
  EXPECT_EQ(p.metrics[0].how, PairRule::kPath);
  EXPECT_TRUE(p.left_unpaired.empty());
  EXPECT_TRUE(p.right_unpaired.empty());
  EXPECT_TRUE(p.left_unpaired_metrics.empty());
  EXPECT_TRUE(p.right_unpaired_metrics.empty());
}

TEST(PairDumps, ArchivesWithDifferentTopFoldersPairByPath) {
  ScratchDir dir;
  WriteTestFile(dir.Join("a.zip"),
                MakeArchive("zip", "", ResnetEntries("torchxla_trace_once", "torchxla_trace_once/")));
  // The right side is a directory holding a tarball of a deeper tree.
  WriteTestFile(dir.Join("b/run.tar.gz"),
                MakeArchive("tar", "gzip", ResnetEntries("openxla", "home/me/openxla/")));
  absl::StatusOr<Dump> left = LoadDump(dir.Join("a.zip"));
  absl::StatusOr<Dump> right = LoadDump(dir.Join("b"));
  ASSERT_TRUE(left.ok()) << left.status();
  ASSERT_TRUE(right.ok()) << right.status();
  Pairing p = PairDumps(*left, *right);
  ASSERT_EQ(p.graphs.size(), 2u);
  for (const GraphPairing& g : p.graphs) {
    EXPECT_EQ(g.how, PairRule::kPath);
    EXPECT_EQ(left->files[g.left.file].format, right->files[g.right.file].format);
  }
  EXPECT_EQ(PathOf(*left, p.graphs[1].left), "torchxla_trace_once/ir.txt");
  EXPECT_EQ(PathOf(*right, p.graphs[1].right), "run.tar.gz!home/me/openxla/ir.txt");
  ASSERT_EQ(p.metrics.size(), 1u);
  EXPECT_EQ(p.metrics[0].how, PairRule::kPath);
}

// TORCH_COMPILE_DEBUG names a directory per run; two runs of one model pair
// by path all the same, rank by rank (a rank is a real key, not a stamp).
TEST(PairDumps, RunStampedDirectoriesPairByPathKeepingRanks) {
  ScratchDir dir;
  const std::string a = "a/torch_compile_debug/run_2024_01_01_12_00_00_000000-pid_111/";
  const std::string b = "b/torch_compile_debug/run_2024_01_02_08_30_00_000000-pid_222/";
  WriteTestFile(dir.Join(a + "rank_0/graphs.txt"), Record("", "", 10));
  WriteTestFile(dir.Join(a + "rank_1/graphs.txt"), Record("", "", 11));
  WriteTestFile(dir.Join("a/torch_compile_debug/other/graphs.txt"), Record("", "", 12));
  WriteTestFile(dir.Join(b + "rank_1/graphs.txt"), Record("", "", 11));
  WriteTestFile(dir.Join("b/torch_compile_debug/other/graphs.txt"), Record("", "", 12));
  absl::StatusOr<Dump> left = LoadDump(dir.Join("a"));
  absl::StatusOr<Dump> right = LoadDump(dir.Join("b"));
  ASSERT_TRUE(left.ok()) << left.status();
  ASSERT_TRUE(right.ok()) << right.status();
  Pairing p = PairDumps(*left, *right);
  ASSERT_EQ(p.graphs.size(), 2u);
  for (const GraphPairing& g : p.graphs) {
    EXPECT_EQ(g.how, PairRule::kPath) << PathOf(*left, g.left);
    EXPECT_EQ(ValueOf(*left, g.left), ValueOf(*right, g.right));
  }
  ASSERT_EQ(p.left_unpaired.size(), 1u);
  EXPECT_EQ(ValueOf(*left, p.left_unpaired[0]), "10");
  EXPECT_TRUE(p.right_unpaired.empty());
}

TEST(PairDumps, SaveFileRecordsPairByPathAndPosition) {
  Dump left = MemoryDump({{"graphs.txt", Record("", "", 1) + Record("", "", 2)}});
  Dump right = MemoryDump({{"graphs.txt", Record("", "", 1) + Record("", "", 2) +
                                              Record("", "", 3)}});
  ASSERT_EQ(left.files.at(0).graphs.size(), 2u);
  ASSERT_EQ(right.files.at(0).graphs.size(), 3u);
  Pairing p = PairDumps(left, right);
  ASSERT_EQ(p.graphs.size(), 2u);
  EXPECT_EQ(p.graphs[0].how, PairRule::kPath);
  EXPECT_EQ(ValueOf(left, p.graphs[1].left), "2");
  EXPECT_EQ(ValueOf(right, p.graphs[1].right), "2");
  ASSERT_EQ(p.right_unpaired.size(), 1u);
  EXPECT_EQ(ValueOf(right, p.right_unpaired[0]), "3");
  EXPECT_TRUE(p.left_unpaired.empty());
}

// A record of `nodes` constants (its shape) whose first value tells it apart.
std::string ShapedRecord(int nodes, int value) {
  std::string r = Record("", "", value);
  std::string more;
  for (int k = 1; k < nodes; ++k) {
    more += "  %" + std::to_string(k) + " = f32[] prim::Constant(), value=0, ROOT=" +
            std::to_string(k) + "\n";
  }
  r.insert(r.find("}\n\n## END_GRAPH"), more);
  return r;
}

// A step that compiled once more on one side, or one fewer, shifts no pair
// after it: records pair as a line diff pairs lines, by shape (ops,
// counts) along the longest common run, the rest in order between.
TEST(PairDumps, SaveFileRecordsAlignAroundAnExtraRecord) {
  const std::string a = ShapedRecord(1, 1), b = ShapedRecord(2, 2), c = ShapedRecord(3, 3),
                    d = ShapedRecord(4, 4), x = ShapedRecord(5, 9);
  Dump left = MemoryDump({{"graphs.txt", a + b + c + d}});
  Dump right = MemoryDump({{"graphs.txt", a + x + b + c + d}});
  ASSERT_EQ(right.files.at(0).graphs.size(), 5u);
  Pairing p = PairDumps(left, right);
  ASSERT_EQ(p.graphs.size(), 4u);
  for (const GraphPairing& g : p.graphs) {
    EXPECT_EQ(g.how, PairRule::kPath);
    EXPECT_EQ(ValueOf(left, g.left), ValueOf(right, g.right));
  }
  ASSERT_EQ(p.right_unpaired.size(), 1u);
  EXPECT_EQ(ValueOf(right, p.right_unpaired[0]), "9");
  // One record fewer, and one changed in its place: the changed one pairs
  // with the one it replaced, the missing one is unpaired.
  const std::string c2 = ShapedRecord(7, 3);
  Dump fewer = MemoryDump({{"graphs.txt", a + c2 + d}});
  p = PairDumps(left, fewer);
  ASSERT_EQ(p.graphs.size(), 3u);
  EXPECT_EQ(ValueOf(left, p.graphs[0].left), "1");
  EXPECT_EQ(ValueOf(fewer, p.graphs[0].right), "1");
  EXPECT_EQ(ValueOf(left, p.graphs[1].left), "2");  // in order within the gap
  EXPECT_EQ(ValueOf(fewer, p.graphs[1].right), "3");
  EXPECT_EQ(ValueOf(left, p.graphs[2].left), "4");
  EXPECT_EQ(ValueOf(fewer, p.graphs[2].right), "4");
  ASSERT_EQ(p.left_unpaired.size(), 1u);
  EXPECT_EQ(ValueOf(left, p.left_unpaired[0]), "3");
  // Across files with nothing else to go by, graphs align the same way.
  Dump left_files = MemoryDump({{"l.txt", a + b + c + d}});
  Dump right_files = MemoryDump({{"r.txt", a + x + b + c + d}});
  p = PairDumps(left_files, right_files);
  ASSERT_EQ(p.graphs.size(), 4u);
  for (const GraphPairing& g : p.graphs) {
    EXPECT_EQ(g.how, PairRule::kOrder);
    EXPECT_EQ(ValueOf(left_files, g.left), ValueOf(right_files, g.right));
  }
}

// Two runs' TORCH_TRACE logs at the same path: the second recompiled frame
// 0 before compiling frame 1. Each graph pairs with the graph of the same
// record and compile; the recompile's graphs are left over, though their
// shapes equal frame 1's in the first run.
TEST(PairDumps, TorchTraceGraphsPairByRecordAndCompile) {
  const std::string log = ReadTestFile(std::string(GRAPHDIFF_TESTDATA_DIR) + "/fixtures/fx/torch_trace_v2_5.log");
  const size_t second = log.find("{\"str\"", log.find("{\"str\"") + 1);
  ASSERT_NE(second, std::string::npos);
  const size_t second_line = log.rfind('\n', second) + 1;
  std::string recompile = log.substr(0, second_line);
  for (auto [from, to] : {std::pair<std::string, std::string>{"[0/0]", "[0/1]"},
                          {"\"frame_compile_id\": 0", "\"frame_compile_id\": 1"}}) {
    for (size_t at = recompile.find(from); at != std::string::npos;
         at = recompile.find(from, at + to.size())) {
      recompile.replace(at, from.size(), to);
    }
  }
  const std::string right_log = log.substr(0, second_line) + recompile + log.substr(second_line);
  Dump left = MemoryDump({{"trace.log", log}});
  Dump right = MemoryDump({{"trace.log", right_log}});
  ASSERT_EQ(left.files.at(0).graphs.size(), 12u);
  ASSERT_EQ(right.files.at(0).graphs.size(), 18u);
  Pairing p = PairDumps(left, right);
  ASSERT_EQ(p.graphs.size(), 12u);
  for (const GraphPairing& g : p.graphs) {
    EXPECT_EQ(g.how, PairRule::kPath);
    EXPECT_EQ(left.files[0].graphs[g.left.graph].name, right.files[0].graphs[g.right.graph].name);
  }
  ASSERT_EQ(p.right_unpaired.size(), 6u);
  for (const GraphRef& ref : p.right_unpaired) {
    EXPECT_NE(right.files[0].graphs[ref.graph].name.find("[0/1]"), std::string::npos);
  }
}

TEST(PairDumps, ByNameAcrossFiles) {
  Dump left = MemoryDump({{"l1.txt", Record("train_step", "", 1)},
                          {"l2.txt", Record("eval_step", "", 2)}});
  Dump right = MemoryDump({{"r1.txt", Record("eval_step", "", 3)},
                           {"r2.txt", Record("other", "", 4)},
                           {"r3.txt", Record("train_step", "", 5)}});
  Pairing p = PairDumps(left, right);
  ASSERT_EQ(p.graphs.size(), 2u);
  EXPECT_EQ(p.graphs[0].how, PairRule::kName);
  EXPECT_EQ(ValueOf(left, p.graphs[0].left), "1");
  EXPECT_EQ(ValueOf(right, p.graphs[0].right), "5");
  EXPECT_EQ(p.graphs[1].how, PairRule::kName);
  EXPECT_EQ(ValueOf(left, p.graphs[1].left), "2");
  EXPECT_EQ(ValueOf(right, p.graphs[1].right), "3");
  ASSERT_EQ(p.right_unpaired.size(), 1u);
  EXPECT_EQ(ValueOf(right, p.right_unpaired[0]), "4");
}

TEST(PairDumps, ByUserFrameIgnoringLibraryFrames) {
  Dump left = MemoryDump({{"a.txt", Record("", "train (train.py:10)", 1) +
                                        Record("", "evaluate (train.py:40)", 2)}});
  // Another torch_xla version: library frames moved, user frames did not.
  std::string r1 = Record("", "evaluate (train.py:40)", 3);
  std::string r2 = Record("", "train (train.py:10)", 4);
  for (std::string* r : {&r1, &r2}) {
    size_t at = r->find("xla_model.py:787");
    r->replace(at, 16, "xla_model.py:1010");
  }
  Dump right = MemoryDump({{"b.txt", r1 + r2}});
  Pairing p = PairDumps(left, right);
  ASSERT_EQ(p.graphs.size(), 2u);
  EXPECT_EQ(p.graphs[0].how, PairRule::kFrame);
  EXPECT_EQ(ValueOf(left, p.graphs[0].left), "1");
  EXPECT_EQ(ValueOf(right, p.graphs[0].right), "4");
  EXPECT_EQ(p.graphs[1].how, PairRule::kFrame);
  EXPECT_EQ(ValueOf(right, p.graphs[1].right), "3");
}

TEST(PairDumps, ByOrderWhenNothingElseTellsGraphsApart) {
  std::string ir_a = ReadTestFile(ResnetDir("torchxla_trace_once") + "/ir.txt");
  std::string ir_b = ReadTestFile(ResnetDir("openxla") + "/ir.txt");
  Dump left = MemoryDump({{"before.txt", ir_a}, {"m1.txt", "Counter: x\n  Value: 1\n"}});
  Dump right = MemoryDump({{"after.txt", ir_b}, {"m2.txt", "Counter: x\n  Value: 2\n"},
                           {"m3.txt", "Counter: x\n  Value: 3\n"}});
  Pairing p = PairDumps(left, right);
  ASSERT_EQ(p.graphs.size(), 1u);
  EXPECT_EQ(p.graphs[0].how, PairRule::kOrder);
  EXPECT_EQ(left.files[p.graphs[0].left.file].path, "before.txt");
  EXPECT_EQ(right.files[p.graphs[0].right.file].path, "after.txt");
  ASSERT_EQ(p.metrics.size(), 1u);
  EXPECT_EQ(p.metrics[0].how, PairRule::kOrder);
  EXPECT_EQ(right.files[p.metrics[0].right_file].path, "m2.txt");
  ASSERT_EQ(p.right_unpaired_metrics.size(), 1u);
  EXPECT_EQ(right.files[p.right_unpaired_metrics[0].first].path, "m3.txt");
  EXPECT_TRUE(p.left_unpaired_metrics.empty());
}

TEST(PairDumps, DifferentKindsPairWhenEachSideHoldsOneGraph) {
  // An aten-level FX graph against the IR it ran as, named explicitly: the
  // user means these two, so they are compared (issue 10).
  Dump left = MemoryDump({{"ir.txt", ReadTestFile(ResnetDir("openxla") + "/ir.txt")}});
  Dump right = MemoryDump({{"ir.txt", ReadTestFile(ResnetDir("openxla") + "/fx_graph.txt")}});
  Pairing p = PairDumps(left, right);
  ASSERT_EQ(p.graphs.size(), 1u);
  EXPECT_EQ(p.graphs[0].how, PairRule::kOnly);
  EXPECT_TRUE(p.left_unpaired.empty());
  EXPECT_TRUE(p.right_unpaired.empty());
  Pairing empty = PairDumps(left, Dump());
  EXPECT_TRUE(empty.graphs.empty());
  EXPECT_EQ(empty.left_unpaired.size(), 1u);
}

TEST(PairDumps, DifferentKindsInDirectoriesStayUnpaired) {
  // Two files per side: the FX graphs pair by kind; the IR graph on the left
  // and the HLO module on the right are listed, not compared with each other.
  std::string fx = ReadTestFile(ResnetDir("openxla") + "/fx_graph.txt");
  Dump left = MemoryDump({{"fx.txt", fx}, {"ir.txt", ReadTestFile(ResnetDir("openxla") + "/ir.txt")}});
  Dump right = MemoryDump(
      {{"fx.txt", fx},
       {"module.hlo", ReadTestFile(std::string(GRAPHDIFF_TESTDATA_DIR) + "/fixtures/hlo/short_form_sync_tensors.txt")}});
  Pairing p = PairDumps(left, right);
  ASSERT_EQ(p.graphs.size(), 1u);
  EXPECT_EQ(p.graphs[0].how, PairRule::kPath);
  EXPECT_EQ(p.left_unpaired.size(), 1u);
  EXPECT_EQ(p.right_unpaired.size(), 1u);
}

}  // namespace
}  // namespace graphdiff
