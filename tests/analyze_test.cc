// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// One test group per finding family, on small graphs built in code, plus the
// no-false-alarm property on renumbered and reordered copies.
#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "analyze/analyze.h"
#include "gmock/gmock.h"
#include "graphdiff/diff.h"
#include "gtest/gtest.h"
#include "testing/graph_builder.h"
#include "testing/graph_mutate.h"
#include "testing/random_blocks.h"

namespace graphdiff {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testing::GraphBuilder;

DumpFile MakeFile(std::string path, DumpFormat format) {
  DumpFile f;
  f.path = std::move(path);
  f.format = format;
  return f;
}

const Finding* Find(const DiffResult& r, std::string_view id) {
  for (const Finding& f : r.findings) {
    if (f.id == id) return &f;
  }
  return nullptr;
}

std::vector<std::string> Ids(const std::vector<Finding>& fs) {
  std::vector<std::string> ids;
  for (const Finding& f : fs) ids.push_back(f.id);
  return ids;
}

// conv -> batch norm (3 results) -> relu -> linear; the inference graph.
struct Net {
  uint32_t x, w, conv, bn, relu, out;
};
Net BuildNet(GraphBuilder& b) {
  Net n;
  n.x = b.Input("f32[4,3,8,8]");
  n.w = b.Input("f32[16,3,3,3]");
  uint32_t g = b.Input("f32[16]");
  uint32_t beta = b.Input("f32[16]");
  n.conv = b.Op("aten::convolution", {n.x, n.w}, "f32[4,16,8,8]", {{"stride", "(1, 1)"}});
  n.bn = b.Op("aten::native_batch_norm", {n.conv, g, beta}, "(f32[4,16,8,8], f32[16], f32[16])",
              {{"eps", "1e-05"}});
  n.relu = b.OpRefs("aten::relu", {{n.bn, 0}}, "f32[4,16,8,8]");
  n.out = b.Op("aten::mean", {n.relu}, "f32[4,16]", {{"dims", "(2, 3)"}});
  return n;
}

Graph Inference() {
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  Net n = BuildNet(b);
  b.Output(n.out);
  return b.Build();
}

// The same model as a training-style forward: it also returns the conv
// output, the activation and empty batch-norm statistics made by expanding
// a constant to size 0.
Graph TrainingForward() {
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  Net n = BuildNet(b);
  b.Output(n.out);
  b.Output(n.conv);
  b.Output(n.relu);
  for (int i = 0; i < 2; ++i) {
    uint32_t c = b.Constant("0");
    uint32_t e = b.Op("aten::expand", {c}, "f32[0]", {{"size", "(0)"}});
    b.Output(e);
  }
  return b.Build();
}

TEST(AnalyzeExtraOutputs, TrainingStyleForwardIsNamedWithHint) {
  absl::StatusOr<DiffResult> r = DiffGraphs(Inference(), TrainingForward());
  ASSERT_TRUE(r.ok()) << r.status();
  const Finding* f = Find(*r, "extra-outputs");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 4);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_THAT(f->title, HasSubstr("4 extra outputs on the right (1 -> 5)"));
  EXPECT_THAT(f->explanation, HasSubstr("training-style forward"));
  EXPECT_THAT(f->explanation, HasSubstr("2 empty (size-0) placeholders"));
  EXPECT_THAT(f->hint, HasSubstr("torch.no_grad()"));
  EXPECT_EQ(f->evidence.size(), 4u);
  EXPECT_FALSE(r->identical());
}

TEST(AnalyzeExtraOutputs, UnrelatedExtrasGetNoTrainingHint) {
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  Net n = BuildNet(b);
  uint32_t s = b.Op("aten::sin", {n.out}, "f32[4,16]");
  uint32_t c = b.Op("aten::cos", {n.out}, "f32[4,16]");
  b.Output(n.out);
  b.Output(s);
  b.Output(c);
  absl::StatusOr<DiffResult> r = DiffGraphs(Inference(), b.Build());
  ASSERT_TRUE(r.ok()) << r.status();
  const Finding* f = Find(*r, "extra-outputs");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 2);
  EXPECT_THAT(f->explanation, ::testing::Not(HasSubstr("training-style")));
  EXPECT_THAT(f->hint, ::testing::Not(HasSubstr("no_grad")));
}

TEST(AnalyzeDeadConstantExpand, CountsSizeZeroAndLinksToExtraOutputs) {
  absl::StatusOr<DiffResult> r = DiffGraphs(Inference(), TrainingForward());
  ASSERT_TRUE(r.ok()) << r.status();
  const Finding* f = Find(*r, "dead-constant-expand");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 2);
  EXPECT_THAT(f->title, HasSubstr("2 dead size-0 expands of constants"));
  EXPECT_THAT(f->explanation, HasSubstr("2 have a size-0 result"));
  EXPECT_THAT(f->related, Contains("extra-outputs"));
  EXPECT_THAT(f->related, Contains("size-delta"));
  const Finding* extra = Find(*r, "extra-outputs");
  ASSERT_NE(extra, nullptr);
  EXPECT_THAT(extra->related, Contains("dead-constant-expand"));
}

TEST(AnalyzeDeadConstantExpand, UsedExpandIsNotDead) {
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  Net n = BuildNet(b);
  uint32_t c = b.Constant("1");
  uint32_t e = b.Op("aten::expand", {c}, "f32[4,16]", {{"size", "(4, 16)"}});
  uint32_t m = b.Op("aten::mul", {n.out, e}, "f32[4,16]");
  b.Output(m);
  Dump d;
  d.files.push_back(MakeFile("ir.txt", DumpFormat::kIrText));
  d.files[0].graphs.push_back(b.Build());
  for (const Finding& f : LintDump(d)) EXPECT_NE(f.id, "dead-constant-expand") << f.title;
}

TEST(AnalyzeSizeDelta, EveryAddedNodeAccountedForByOp) {
  absl::StatusOr<DiffResult> r = DiffGraphs(Inference(), TrainingForward());
  ASSERT_TRUE(r.ok()) << r.status();
  const Finding* f = Find(*r, "size-delta");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->title, "8 -> 12 IR nodes (+4: 2 aten::expand, 2 prim::Constant)");
  EXPECT_EQ(f->count, 4);
  EXPECT_EQ(f->severity, Severity::kInfo);
  ASSERT_EQ(r->pairs.size(), 1u);
  EXPECT_EQ(r->pairs[0].op_delta.at("aten::expand"), 2);
  EXPECT_EQ(r->pairs[0].op_delta.at("prim::Constant"), 2);
  EXPECT_EQ(r->pairs[0].right_only.size(), 4u);
}

// A chain of one node per op, each using the one before.
Graph ChainOfOps(const std::vector<std::string>& ops) {
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  uint32_t x = b.Input("f32[4]");
  for (const std::string& op : ops) x = b.Op(op, {x}, "f32[4]");
  b.Output(x);
  return b.Build();
}

// op_delta merges the two sorted histograms: ops on one side only, ops whose
// count changed, and none whose count stayed.
TEST(AnalyzeSizeDelta, OpDeltaHasEveryChangedCountAndNoOther) {
  absl::StatusOr<DiffResult> r = DiffGraphs(
      ChainOfOps({"aten::abs", "aten::relu", "aten::relu", "aten::tanh", "aten::zeta"}),
      ChainOfOps({"aten::add", "aten::relu", "aten::tanh", "aten::tanh", "aten::zeta"}));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->pairs.size(), 1u);
  const std::map<std::string, int64_t> want = {
      {"aten::abs", -1}, {"aten::add", 1}, {"aten::relu", -1}, {"aten::tanh", 1}};
  EXPECT_EQ(r->pairs[0].op_delta, want);
}

// The pair's op delta, worked out by hashing unsorted histograms, is the
// difference of the two sides' ComputeStats maps: every op whose count
// changed, in name order, and none other; an empty op and a literal "?"
// count as one. The scalar counts are ComputeStats' too, and the live sets
// ReachesOutput's.
TEST(AnalyzePairStats, OpDeltaIsTheDifferenceOfTheHistograms) {
  std::mt19937_64 rng(7);
  auto random_graph = [&](int ops, int nodes) {
    GraphBuilder b(GraphKind::kFx, "g");
    uint32_t x = b.Input("f32[4]");
    for (int i = 0; i < nodes; ++i) {
      const uint64_t k = rng() % static_cast<uint64_t>(ops + 2);
      const std::string op = k == 0 ? "" : k == 1 ? "?" : "op" + std::to_string(k * 7919 % 1000);
      x = b.Op(op, {x}, rng() % 2 ? "f32[4]" : "s64[2]");
    }
    b.Output(x);
    return b.Build();
  };
  for (int trial = 0; trial < 24; ++trial) {
    const Graph l = random_graph(3 + trial * 5, 50 + trial * 30);
    const Graph r = random_graph(3 + (trial % 7) * 9, 60 + trial * 20);
    const GraphStats ls = ComputeStats(l), rs = ComputeStats(r);
    std::map<std::string, int64_t> want;
    for (const auto& [op, n] : ls.ops) want[op] -= static_cast<int64_t>(n);
    for (const auto& [op, n] : rs.ops) want[op] += static_cast<int64_t>(n);
    for (auto it = want.begin(); it != want.end();) it = it->second == 0 ? want.erase(it) : ++it;
    for (bool parallel : {false, true}) {
      const analyze::PairStats got = analyze::ComputePairStats(l, r, parallel);
      std::vector<std::pair<std::string, int64_t>> delta(got.op_delta.begin(), got.op_delta.end());
      using Delta = std::vector<std::pair<std::string, int64_t>>;
      EXPECT_EQ(delta, Delta(want.begin(), want.end())) << "trial " << trial;
      EXPECT_EQ(got.left.nodes, ls.nodes);
      EXPECT_EQ(got.right.nodes, rs.nodes);
      EXPECT_EQ(got.left.inputs, ls.inputs);
      EXPECT_EQ(got.right.outputs, rs.outputs);
      EXPECT_EQ(got.left.parameter_bytes, ls.parameter_bytes);
      EXPECT_EQ(got.right.inputs_unknown_size, rs.inputs_unknown_size);
      EXPECT_EQ(got.left_live, analyze::ReachesOutput(l));
      EXPECT_EQ(got.right_live, analyze::ReachesOutput(r));
    }
  }
}

// The same for a graph and an edited copy, whose op lists run side by side
// with gaps (ComputePairStats walks them together before hashing): ops
// removed, added, renamed, moved, and counts changed, alone and in runs
// longer than the walk looks ahead, with "?" and the empty op among them.
TEST(AnalyzePairStats, OpDeltaOfEditedCopies) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<std::string> left;
    const int n = 200 + trial * 50;
    for (int i = 0; i < n; ++i) {
      const uint64_t k = rng() % 50;
      left.push_back(k == 0 ? "" : k == 1 ? "?" : k < 10 ? "op" + std::to_string(k)
                                                      : "module::m" + std::to_string(i));
    }
    std::vector<std::string> right = left;
    const int edits = 1 + trial % 12;
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % right.size();
      const size_t run = rng() % 3 == 0 ? 1 + rng() % 30 : 1;  // some past the look ahead
      switch (rng() % 5) {
        case 0: {  // removed
          const size_t end = std::min(right.size(), at + run);
          right.erase(right.begin() + static_cast<std::ptrdiff_t>(at),
                      right.begin() + static_cast<std::ptrdiff_t>(end));
          break;
        }
        case 1:  // added
          for (size_t k = 0; k < run; ++k) {
            right.insert(right.begin() + static_cast<std::ptrdiff_t>(at),
                         "module::new" + std::to_string(trial) + "_" + std::to_string(e) + "_" +
                             std::to_string(k));
          }
          break;
        case 2:  // renamed to an op used elsewhere: counts change
          right[at] = right[rng() % right.size()];
          break;
        case 3:  // moved
          std::swap(right[at], right[rng() % right.size()]);
          break;
        default:  // used once more
          right.insert(right.begin() + static_cast<std::ptrdiff_t>(at), right[at]);
          break;
      }
      if (right.empty()) right.push_back("op1");
    }
    const Graph l = ChainOfOps(left), r = ChainOfOps(right);
    const GraphStats ls = ComputeStats(l), rs = ComputeStats(r);
    std::map<std::string, int64_t> want;
    for (const auto& [op, c] : ls.ops) want[op] -= static_cast<int64_t>(c);
    for (const auto& [op, c] : rs.ops) want[op] += static_cast<int64_t>(c);
    for (auto it = want.begin(); it != want.end();) it = it->second == 0 ? want.erase(it) : ++it;
    const analyze::PairStats got = analyze::ComputePairStats(l, r, /*parallel=*/false);
    using Delta = std::vector<std::pair<std::string, int64_t>>;
    EXPECT_EQ(Delta(got.op_delta.begin(), got.op_delta.end()), Delta(want.begin(), want.end()))
        << "trial " << trial;
  }
}

// The op spellings of collectives across formats; a dotted module path is
// never one, whatever its last part.
TEST(AnalyzeCollectiveKind, SpellingsAcrossFormats) {
  EXPECT_EQ(analyze::CollectiveKind("_c10d_functional::all_reduce"), "all-reduce");
  EXPECT_EQ(analyze::CollectiveKind("hlo::all-reduce-start"), "all-reduce");
  EXPECT_EQ(analyze::CollectiveKind("hlo::all-reduce-done"), "");
  EXPECT_EQ(analyze::CollectiveKind("xla::cross_replica_sum"), "all-reduce");
  EXPECT_EQ(analyze::CollectiveKind("hlo::all-gather"), "all-gather");
  EXPECT_EQ(analyze::CollectiveKind("c10d::broadcast_"), "broadcast (c10d)");
  EXPECT_EQ(analyze::CollectiveKind("hlo::broadcast"), "");
  EXPECT_EQ(analyze::CollectiveKind("module::all_reduce"), "all-reduce");
  EXPECT_EQ(analyze::CollectiveKind("module::layers.0.all_reduce"), "");
  EXPECT_EQ(analyze::CollectiveKind("module::features.denseblock1.denselayer1.norm1"), "");
  EXPECT_EQ(analyze::CollectiveKind("aten::add"), "");
}

TEST(AnalyzeClones, CloneNodesAdded) {
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  Net n = BuildNet(b);
  uint32_t c = b.Op("aten::clone", {n.out}, "f32[4,16]");
  b.Output(c);
  absl::StatusOr<DiffResult> r = DiffGraphs(Inference(), b.Build());
  ASSERT_TRUE(r.ok()) << r.status();
  const Finding* f = Find(*r, "clones");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 1);
  EXPECT_THAT(f->title, HasSubstr("1 aten::clone"));
}

MetricsReport Report(std::string source, std::vector<std::pair<std::string, int64_t>> counters) {
  MetricsReport m;
  m.source = std::move(source);
  uint32_t line = 1;
  for (auto& [name, v] : counters) {
    m.counters.push_back({name, v, line});
    line += 2;
  }
  return m;
}

Dump OneFileDump(const std::string& root, std::vector<DumpFile> files) {
  Dump d;
  d.root = root;
  d.files = std::move(files);
  return d;
}

TEST(AnalyzeCounters, CloneCounterGrowthAndCounterDeltas) {
  DumpFile l = MakeFile("metrics.txt", DumpFormat::kMetrics);
  DumpFile r = l;
  l.metrics.push_back(Report("metrics.txt", {{"xla::clone", 1}, {"xla::empty_symint", 120},
                                             {"UncachedCompile", 1}}));
  r.metrics.push_back(Report("metrics.txt", {{"xla::clone", 103}, {"xla::empty_symint", 80},
                                             {"UncachedCompile", 1}, {"aten::nonzero", 2}}));
  absl::StatusOr<DiffResult> res =
      DiffDumps(OneFileDump("a", {l}), OneFileDump("b", {r}));
  ASSERT_TRUE(res.ok()) << res.status();
  const Finding* clones = Find(*res, "clones");
  ASSERT_NE(clones, nullptr);
  EXPECT_THAT(clones->title, HasSubstr("xla::clone 1 -> 103"));
  EXPECT_EQ(clones->count, 102);
  std::vector<const Finding*> deltas;
  for (const Finding& f : res->findings) {
    if (f.id == "counter-delta") deltas.push_back(&f);
  }
  ASSERT_EQ(deltas.size(), 2u);
  // The new fallback is the warning and sorts first.
  EXPECT_EQ(deltas[0]->severity, Severity::kWarning);
  EXPECT_THAT(deltas[0]->title, HasSubstr("aten::nonzero"));
  EXPECT_THAT(deltas[1]->title, HasSubstr("xla::empty_symint 120 -> 80"));
  EXPECT_THAT(deltas[1]->title, ::testing::Not(HasSubstr("UncachedCompile")));
  EXPECT_THAT(deltas[1]->title, ::testing::Not(HasSubstr("xla::clone")));
  ASSERT_EQ(res->metrics.size(), 1u);
  EXPECT_FALSE(res->metrics[0].identical());
  EXPECT_FALSE(res->identical());
  // Mirrored: the fallback is gone, its own info finding, the rest moved.
  res = DiffDumps(OneFileDump("b", {r}), OneFileDump("a", {l}));
  ASSERT_TRUE(res.ok());
  deltas.clear();
  for (const Finding& f : res->findings) {
    if (f.id == "counter-delta") deltas.push_back(&f);
  }
  ASSERT_EQ(deltas.size(), 2u);
  EXPECT_THAT(deltas[0]->title + deltas[1]->title, HasSubstr("1 CPU fallbacks gone: aten::nonzero (2)"));
  EXPECT_EQ(deltas[0]->count + deltas[1]->count, 2);
}

TEST(AnalyzeCounters, ThresholdsSuppressSmallMoves) {
  DumpFile l = MakeFile("metrics.txt", DumpFormat::kMetrics);
  DumpFile r = l;
  l.metrics.push_back(Report("metrics.txt", {{"CachedCompile", 1000}}));
  r.metrics.push_back(Report("metrics.txt", {{"CachedCompile", 1010}}));
  absl::StatusOr<DiffResult> res = DiffDumps(OneFileDump("a", {l}), OneFileDump("b", {r}));
  ASSERT_TRUE(res.ok()) << res.status();
  // Below the thresholds: no compilation finding, only the one info line
  // that keeps a "different" verdict from going unexplained.
  ASSERT_EQ(res->findings.size(), 1u) << res->findings[0].title;
  EXPECT_EQ(res->findings[0].id, "counter-delta");
  EXPECT_EQ(res->findings[0].severity, Severity::kInfo);
  EXPECT_THAT(res->findings[0].title, HasSubstr("below the thresholds: CachedCompile 1000 -> 1010"));
  DiffOptions strict;
  strict.counter_min_rel = 0.0;
  res = DiffDumps(OneFileDump("a", {l}), OneFileDump("b", {r}), strict);
  ASSERT_TRUE(res.ok());
  EXPECT_THAT(Ids(res->findings), Contains("compilation"));
}

TEST(AnalyzeOpSubstitution, KnownEquivalentIsInfo) {
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  Net n = BuildNet(b);
  b.Output(n.out);
  Graph right = b.Build();
  right.nodes[n.bn].op = right.intern("aten::_native_batch_norm_legit_no_training");
  absl::StatusOr<DiffResult> r = DiffGraphs(Inference(), right);
  ASSERT_TRUE(r.ok()) << r.status();
  const Finding* f = Find(*r, "op-substitution");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_EQ(f->count, 1);
  EXPECT_THAT(f->title, HasSubstr("aten::native_batch_norm -> "
                                  "aten::_native_batch_norm_legit_no_training x1 (known "
                                  "equivalent)"));
  EXPECT_EQ(f->evidence.size(), 2u);
}

TEST(AnalyzeOpSubstitution, RealSubstitutionIsWarning) {
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  Net n = BuildNet(b);
  b.Output(n.out);
  Graph right = b.Build();
  right.nodes[n.relu].op = right.intern("aten::gelu");
  absl::StatusOr<DiffResult> r = DiffGraphs(Inference(), right);
  ASSERT_TRUE(r.ok()) << r.status();
  const Finding* f = Find(*r, "op-substitution");
  ASSERT_NE(f, nullptr) << "aligner did not pair relu with gelu";
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_THAT(f->title, HasSubstr("aten::relu -> aten::gelu x1"));
}

// Module-level FX writes Python calls (`y.view(2, 8)`, `y.sum(dim = 1)`),
// aten-level FX the schema (`view(y, [2, 8])`, `sum(y, [1])`): the same
// values are no attribute change; other values still are.
TEST(AnalyzeAttributeChange, CallSpellingsAcrossLevelsAreNoChange) {
  GraphBuilder lb(GraphKind::kFx, "fx.txt");
  uint32_t x = lb.Input();
  uint32_t fc = lb.Module("fc", {x});
  uint32_t v = lb.Op("aten::view", {fc}, "", {{"arg1", "2"}, {"arg2", "8"}});
  uint32_t s = lb.Op("aten::sum", {v}, "", {{"dim", "1"}});
  lb.Output(s);
  Graph left = lb.Build();
  for (const char* shape : {"[2, 8]", "[4, 4]"}) {
    GraphBuilder rb(GraphKind::kFx, "fx.txt");
    uint32_t w = rb.Input();
    uint32_t b = rb.Input();
    uint32_t rx = rb.Input();
    uint32_t t = rb.Op("aten::t", {w});
    uint32_t mm = rb.Op("aten::addmm", {b, rx, t});
    uint32_t rv = rb.Op("aten::view", {mm}, "", {{"arg1", shape}});
    uint32_t rs = rb.Op("aten::sum", {rv}, "", {{"arg1", "[1]"}});
    rb.Output(rs);
    absl::StatusOr<DiffResult> r = DiffGraphs(left, rb.Build());
    ASSERT_TRUE(r.ok()) << r.status();
    const Finding* f = Find(*r, "attribute-change");
    if (std::string(shape) == "[2, 8]") {
      EXPECT_EQ(f, nullptr) << f->title;
    } else {
      ASSERT_NE(f, nullptr) << shape;
      EXPECT_EQ(f->count, 1);
      EXPECT_THAT(f->title, HasSubstr("aten::view"));
    }
  }
}

TEST(AnalyzeLiftedInputs, ParametersBecomeInputs) {
  // Left: module-level FX, parameters inside the modules.
  GraphBuilder lb(GraphKind::kFx, "fx.txt");
  uint32_t x = lb.Input("f32[4,3,8,8]");
  uint32_t conv = lb.Module("conv1", {x});
  uint32_t relu = lb.Module("relu", {conv});
  lb.Output(relu);
  // Right: aten-level with the weight lifted to an input.
  GraphBuilder rb(GraphKind::kFx, "fx.txt");
  uint32_t w = rb.Input("f32[16,3,3,3]");
  uint32_t bias = rb.Input("f32[16]");
  uint32_t rx = rb.Input("f32[4,3,8,8]");
  uint32_t rconv = rb.Op("aten::convolution", {rx, w, bias}, "f32[4,16,8,8]");
  uint32_t rrelu = rb.Op("aten::relu", {rconv}, "f32[4,16,8,8]");
  rb.Output(rrelu);
  absl::StatusOr<DiffResult> r = DiffGraphs(lb.Build(), rb.Build());
  ASSERT_TRUE(r.ok()) << r.status();
  const Finding* f = Find(*r, "lifted-inputs");
  ASSERT_NE(f, nullptr);
  EXPECT_THAT(f->title, HasSubstr("2 new graph inputs on the right (1 -> 3): parameters and buffers lifted"));
  EXPECT_EQ(f->count, 2);
  EXPECT_THAT(f->explanation, HasSubstr("AOTAutograd lifts parameters"));
}

TEST(AnalyzeDeadCode, NewUnusedComputationOnTheRight) {
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  Net n = BuildNet(b);
  uint32_t s = b.Op("aten::sin", {n.relu}, "f32[4,16,8,8]");
  b.Op("aten::exp", {s}, "f32[4,16,8,8]");
  b.Op("aten::add_", {n.relu, n.relu}, "f32[4,16,8,8]");  // in place: may act by side effect
  b.Output(n.out);
  absl::StatusOr<DiffResult> r = DiffGraphs(Inference(), b.Build());
  ASSERT_TRUE(r.ok()) << r.status();
  const Finding* f = Find(*r, "dead-code");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 2);
  EXPECT_THAT(f->title, HasSubstr("2 nodes reach no output on the right"));
}

TEST(AnalyzeDuplicateSubgraph, MissedCommonSubexpression) {
  auto build = [](bool twice) {
    GraphBuilder b(GraphKind::kIr, "ir.txt");
    uint32_t x = b.Input("f32[8]");
    uint32_t y = b.Input("f32[8]");
    uint32_t m1 = b.Op("aten::mul", {x, y}, "f32[8]");
    uint32_t e1 = b.Op("aten::exp", {m1}, "f32[8]");
    uint32_t e2 = e1;
    if (twice) {
      uint32_t m2 = b.Op("aten::mul", {x, y}, "f32[8]");
      e2 = b.Op("aten::exp", {m2}, "f32[8]");
    }
    b.Output(b.Op("aten::add", {e1, e2}, "f32[8]"));
    return b.Build();
  };
  absl::StatusOr<DiffResult> r = DiffGraphs(build(false), build(true));
  ASSERT_TRUE(r.ok()) << r.status();
  const Finding* f = Find(*r, "duplicate-subgraph");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 1);
  // The topmost copy (exp) is reported, not the mul under it.
  ASSERT_EQ(f->evidence.size(), 2u);
  EXPECT_EQ(f->evidence[0].op, "aten::exp");
  // Different inputs are different computations.
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  uint32_t x = b.Input("f32[8]");
  uint32_t y = b.Input("f32[8]");
  uint32_t e1 = b.Op("aten::exp", {b.Op("aten::neg", {x}, "f32[8]")}, "f32[8]");
  uint32_t e2 = b.Op("aten::exp", {b.Op("aten::neg", {y}, "f32[8]")}, "f32[8]");
  b.Output(b.Op("aten::add", {e1, e2}, "f32[8]"));
  Dump d;
  d.files.push_back(MakeFile("ir.txt", DumpFormat::kIrText));
  d.files[0].graphs.push_back(b.Build());
  EXPECT_THAT(Ids(LintDump(d)), ::testing::Not(Contains("duplicate-subgraph")));
  d.files[0].graphs[0] = build(true);
  EXPECT_THAT(Ids(LintDump(d)), Contains("duplicate-subgraph"));
}

// The duplicates of a diff are found among the groups of new nodes only,
// not by grouping the whole graph: they must be exactly the single-graph
// groups that have a new member. What each reports is the copies that are
// new, after the copy they repeat: the first member the old side has too
// (or, when every member is new, the first member, the rest its copies).
TEST(AnalyzeDuplicateSubgraph, NewCopiesAreTheNewMembersOfTheGroups) {
  auto groups_of = [](const std::vector<Finding>& found) {
    std::vector<std::vector<std::string>> groups;
    for (const Finding& f : found) {
      for (const Evidence& e : f.evidence) {
        if (e.note.rfind("computed", 0) == 0) groups.emplace_back();
        if (!groups.empty()) groups.back().push_back(e.node);
      }
    }
    return groups;
  };
  size_t checked = 0;
  size_t partly_new = 0;
  for (uint64_t seed = 0; seed < 32; ++seed) {
    const Graph g = testing::RandomBlocks(seed, 2 + static_cast<int>(seed % 5));
    DiffOptions options;
    std::vector<Finding> lint;
    analyze::LintDuplicates(g, options.duplicate_min_ops, "g", &lint);
    const std::vector<std::vector<std::string>> all = groups_of(lint);
    std::mt19937_64 rng(seed);
    for (int trial = 0; trial < 6; ++trial) {
      Alignment a;
      std::set<std::string> fresh;
      for (uint32_t i = 0; i < g.nodes.size(); ++i) {
        if (rng() % (2 + trial * 3) == 0) {
          a.right_only.push_back(i);
          fresh.insert(analyze::NodeName(g, i));
        }
      }
      const OpEquivalence eq = OpEquivalence::BuiltIn();
      const analyze::PairContext c{g, g, a, eq, options, "g"};
      std::vector<Finding> found;
      analyze::FindNewDuplicates(c, &found);
      std::vector<std::vector<std::string>> expected;
      int64_t copies = 0;
      for (const std::vector<std::string>& grp : all) {
        std::vector<std::string> added, old;
        for (const std::string& m : grp) (fresh.count(m) != 0 ? added : old).push_back(m);
        if (added.empty()) continue;
        if (old.empty()) {
          expected.push_back(grp);
        } else {
          expected.push_back({old[0]});
          expected.back().insert(expected.back().end(), added.begin(), added.end());
          ++partly_new;
        }
        copies += static_cast<int64_t>(expected.back().size()) - 1;
      }
      EXPECT_EQ(found.empty() ? 0 : found[0].count, copies) << "seed " << seed;
      EXPECT_EQ(groups_of(found), expected) << "seed " << seed << " trial " << trial;
      checked += !expected.empty();
    }
  }
  EXPECT_GT(checked, 20u);
  EXPECT_GT(partly_new, 20u);
}

TEST(AnalyzeNoFalseAlarms, RenumberedAndReorderedCopiesAreSame) {
  for (const Graph& g : {Inference(), TrainingForward()}) {
    for (uint64_t seed : {1u, 2u, 3u}) {
      testing::Mutated renumbered = testing::Renumber(g, seed);
      testing::Mutated m = testing::Then(renumbered, testing::Reorder(renumbered.graph, seed));
      absl::StatusOr<DiffResult> r = DiffGraphs(g, m.graph);
      ASSERT_TRUE(r.ok()) << r.status();
      EXPECT_TRUE(r->identical()) << "seed " << seed;
      EXPECT_TRUE(r->findings.empty()) << r->findings[0].id << ": " << r->findings[0].title;
    }
  }
}

TEST(AnalyzeLint, SingleDumpFindings) {
  Dump d;
  d.root = "dump";
  d.files.push_back(MakeFile("ir.txt", DumpFormat::kIrText));
  d.files[0].graphs.push_back(TrainingForward());
  d.files.push_back(MakeFile("metrics.txt", DumpFormat::kMetrics));
  d.files[1].metrics.push_back(Report("metrics.txt", {{"xla::clone", 7}}));
  std::vector<Finding> fs = LintDump(d);
  EXPECT_THAT(Ids(fs), Contains("dead-constant-expand"));
  EXPECT_THAT(Ids(fs), Contains("size-facts"));
  EXPECT_THAT(Ids(fs), Contains("clones"));
  EXPECT_THAT(Ids(fs), ::testing::Not(Contains("dead-code")));
  // Sorted: warnings before info.
  EXPECT_EQ(fs[0].id, "dead-constant-expand");
  LintOptions only;
  only.graph_selector = "metrics";
  EXPECT_EQ(Ids(LintDump(d, only)), std::vector<std::string>{"clones"});
}

TEST(AnalyzeEvidence, CappedButCounted) {
  DiffOptions o;
  o.max_evidence = 1;
  absl::StatusOr<DiffResult> r = DiffGraphs(Inference(), TrainingForward(), o);
  ASSERT_TRUE(r.ok());
  const Finding* f = Find(*r, "extra-outputs");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->evidence.size(), 1u);
  EXPECT_EQ(f->evidence_omitted, 3);
  EXPECT_EQ(f->count, 4);
  // Links are made before the cap.
  EXPECT_THAT(f->related, Contains("dead-constant-expand"));
}

TEST(AnalyzeSort, MostImportantFirst) {
  std::vector<Finding> fs(4);
  fs[0].id = "b"; fs[0].severity = Severity::kInfo; fs[0].count = 100;
  fs[1].id = "a"; fs[1].severity = Severity::kWarning; fs[1].count = 1;
  fs[2].id = "c"; fs[2].severity = Severity::kWarning; fs[2].count = 5;
  fs[3].id = "a"; fs[3].severity = Severity::kWarning; fs[3].count = 5; fs[3].graph = "x";
  SortFindings(&fs);
  EXPECT_EQ(fs[0].id, "a");
  EXPECT_EQ(fs[0].graph, "x");
  EXPECT_EQ(fs[1].id, "c");
  EXPECT_EQ(fs[2].id, "a");
  EXPECT_EQ(fs[3].id, "b");
}

}  // namespace
}  // namespace graphdiff
