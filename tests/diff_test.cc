// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// End to end on the ResNet-18 case (pytorch/xla#5430): the findings the
// experts reached by hand must come out on their own; a dump against itself
// or a renumbered, reordered copy must come out the same with no findings.
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/parse.h"
#include "graphdiff/report.h"
#include "graphdiff/visual.h"
#include "gtest/gtest.h"
#include "testing/cli.h"
#include "testing/graph_mutate.h"
#include "testing/symmetric.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testing::TestdataPath;

constexpr char kBaseline[] = "resnet18-xla5430/torchxla_trace_once";
constexpr char kCandidate[] = "resnet18-xla5430/openxla";

class ResNetDiff : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<Dump> l = LoadDump(TestdataPath(kBaseline));
    absl::StatusOr<Dump> r = LoadDump(TestdataPath(kCandidate));
    ASSERT_TRUE(l.ok()) << l.status();
    ASSERT_TRUE(r.ok()) << r.status();
    left_ = new Dump(*std::move(l));
    right_ = new Dump(*std::move(r));
    absl::StatusOr<DiffResult> d = DiffDumps(*left_, *right_);
    ASSERT_TRUE(d.ok()) << d.status();
    result_ = new DiffResult(*std::move(d));
  }
  static void TearDownTestSuite() {
    delete result_;
    delete left_;
    delete right_;
  }

  // The finding `id` about the graph whose label contains `graph`.
  static const Finding* Find(std::string_view id, std::string_view graph) {
    for (const Finding& f : result_->findings) {
      if (f.id == id && f.graph.find(graph) != std::string::npos) return &f;
    }
    return nullptr;
  }

  static Dump* left_;
  static Dump* right_;
  static DiffResult* result_;
};
Dump* ResNetDiff::left_ = nullptr;
Dump* ResNetDiff::right_ = nullptr;
DiffResult* ResNetDiff::result_ = nullptr;

TEST_F(ResNetDiff, PairsEveryFile) {
  ASSERT_NE(result_, nullptr);
  EXPECT_EQ(result_->pairs.size(), 2u);  // ir.txt and fx_graph.txt
  EXPECT_EQ(result_->metrics.size(), 1u);
  EXPECT_TRUE(result_->unpaired.empty());
  EXPECT_FALSE(result_->identical());
}

TEST_F(ResNetDiff, EightyExtraOutputsWithNoGradHint) {
  for (std::string_view graph : {"ir.txt", "fx_graph.txt"}) {
    const Finding* f = Find("extra-outputs", graph);
    ASSERT_NE(f, nullptr) << graph;
    EXPECT_EQ(f->count, 80) << graph;
    EXPECT_THAT(f->title, HasSubstr("80 extra outputs on the right (1 -> 81)"));
    EXPECT_THAT(f->title, HasSubstr("batch-norm statistics"));
    EXPECT_THAT(f->explanation, HasSubstr("training-style forward"));
    EXPECT_THAT(f->hint, HasSubstr("torch.no_grad()"));
  }
}

TEST_F(ResNetDiff, FortyDeadSizeZeroExpandsAmongTheExtraOutputs) {
  const Finding* f = Find("dead-constant-expand", "ir.txt");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 40);
  EXPECT_THAT(f->title, HasSubstr("40 dead size-0 expands of constants"));
  EXPECT_THAT(f->explanation, HasSubstr("40 are only returned"));
  EXPECT_THAT(f->explanation, HasSubstr("save_mean/save_invstd"));
  EXPECT_THAT(f->related, Contains("extra-outputs"));
  EXPECT_THAT(f->related, Contains("size-delta"));
}

TEST_F(ResNetDiff, CloneCounterGrowthTiedToLiftedInputs) {
  const Finding* f = Find("clones", "metrics.txt");
  ASSERT_NE(f, nullptr);
  EXPECT_THAT(f->title, HasSubstr("xla::clone 1 -> 103"));
  EXPECT_THAT(f->related, Contains("lifted-inputs"));
}

TEST_F(ResNetDiff, LiftedInputs) {
  const Finding* f = Find("lifted-inputs", "fx_graph.txt");
  ASSERT_NE(f, nullptr);
  EXPECT_THAT(f->title, HasSubstr("102 new graph inputs on the right (1 -> 103): parameters and buffers"));
  EXPECT_EQ(Find("lifted-inputs", "ir.txt"), nullptr);  // 103 device_data on both sides
}

TEST_F(ResNetDiff, BatchNormSubstitutionAtFxLevel) {
  const Finding* found = nullptr;
  for (const Finding& f : result_->findings) {
    if (f.id == "op-substitution" &&
        f.title.find("_native_batch_norm_legit_no_training") != std::string::npos) {
      found = &f;
    }
  }
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->count, 20);
  EXPECT_EQ(found->graph, "fx_graph.txt");
  EXPECT_THAT(found->title, HasSubstr("batch_norm"));
  // In the IR both sides use aten::native_batch_norm: no substitution there.
  for (const Finding& f : result_->findings) {
    if (f.id == "op-substitution" && f.graph == "ir.txt") {
      EXPECT_THAT(f.title, ::testing::Not(HasSubstr("batch_norm"))) << f.title;
    }
  }
}

TEST_F(ResNetDiff, IrSizeDeltaAccountsForEveryAddedNode) {
  const Finding* f = Find("size-delta", "ir.txt");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->title, "197 -> 277 IR nodes (+80: 40 aten::expand, 40 prim::Constant)");
  const GraphPairDiff* ir = nullptr;
  for (const GraphPairDiff& p : result_->pairs) {
    if (p.left_source == "ir.txt") ir = &p;
  }
  ASSERT_NE(ir, nullptr);
  EXPECT_EQ(ir->left_nodes, 197u);
  EXPECT_EQ(ir->right_nodes, 277u);
  EXPECT_EQ(ir->right_only.size(), 80u);
  EXPECT_TRUE(ir->left_only.empty());
  EXPECT_EQ(ir->matched_outputs, 1u);
  EXPECT_EQ(ir->right_only_outputs.size(), 80u);
}

TEST_F(ResNetDiff, EmptySymintCounterMoved) {
  const Finding* f = Find("counter-delta", "metrics.txt");
  ASSERT_NE(f, nullptr);
  EXPECT_THAT(f->title, HasSubstr("xla::empty_symint 120 -> 80"));
}

TEST_F(ResNetDiff, DumpAgainstItselfIsSame) {
  for (const Dump* d : {left_, right_}) {
    absl::StatusOr<DiffResult> r = DiffDumps(*d, *d);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->identical());
    EXPECT_TRUE(r->findings.empty()) << r->findings[0].id << ": " << r->findings[0].title;
  }
}

TEST_F(ResNetDiff, RenumberedAndReorderedCopyIsSame) {
  for (const Dump* d : {left_, right_}) {
    Dump copy = *d;
    uint64_t seed = 7;
    for (DumpFile& f : copy.files) {
      for (Graph& g : f.graphs) {
        testing::Mutated renumbered = testing::Renumber(g, seed);
        testing::Mutated reordered = testing::Reorder(renumbered.graph, seed + 1);
        reordered.graph.source = g.source;
        g = std::move(reordered.graph);
        seed += 2;
      }
    }
    absl::StatusOr<DiffResult> r = DiffDumps(*d, copy);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_TRUE(r->identical()) << d->root;
    EXPECT_TRUE(r->findings.empty()) << r->findings[0].id << ": " << r->findings[0].title;
  }
}

TEST_F(ResNetDiff, GraphSelectorKeepsMatchingPairsOnly) {
  DiffOptions o;
  o.graph_selector = "ir.txt";
  absl::StatusOr<DiffResult> r = DiffDumps(*left_, *right_, o);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->pairs.size(), 1u);
  EXPECT_EQ(r->pairs[0].left_source, "ir.txt");
  EXPECT_TRUE(r->metrics.empty());
  for (const Finding& f : r->findings) EXPECT_EQ(f.graph, "ir.txt");
}

// Graph pairs are diffed on several threads; the report must be the same
// bytes as when one thread does everything, run after run.
// The drawings find each pair's graphs by its rows: a result with rows for
// changed pairs only says so instead of not finding the graphs.
TEST_F(ResNetDiff, DrawingNeedsEveryRow) {
  ASSERT_TRUE(FindPairGraphs(*result_, *left_, *right_).ok());
  DiffOptions lean;
  lean.unchanged_rows = false;
  absl::StatusOr<DiffResult> r = DiffDumps(*left_, *right_, lean);
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<std::vector<PairGraphs>> found = FindPairGraphs(*r, *left_, *right_);
  ASSERT_FALSE(found.ok());
  EXPECT_EQ(found.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(found.status().message()), HasSubstr("unchanged_rows"));
}

TEST_F(ResNetDiff, ThreadsChangeNothing) {
  DiffOptions one;
  one.threads = 1;
  absl::StatusOr<DiffResult> serial = DiffDumps(*left_, *right_, one);
  ASSERT_TRUE(serial.ok()) << serial.status();
  ASSERT_GE(serial->pairs.size(), 2u);  // else nothing ran in parallel
  const std::string expected = RenderDiff(*serial, ReportFormat::kJson, {});
  for (unsigned threads : {0u, 2u, 4u}) {
    for (int run = 0; run < 3; ++run) {
      DiffOptions many;
      many.threads = threads;
      absl::StatusOr<DiffResult> parallel = DiffDumps(*left_, *right_, many);
      ASSERT_TRUE(parallel.ok()) << parallel.status();
      EXPECT_EQ(RenderDiff(*parallel, ReportFormat::kJson, {}), expected)
          << "threads " << threads << ", run " << run;
    }
  }
}

// One big pair is diffed with threads inside it (both sides normalised and
// fingerprinted at once, verdicts in halves, rows on the pool); the result
// must be the single thread's, byte for byte. Big enough to cross every
// threshold (10^5 nodes a side), with changes planted so that changed rows
// and findings are in the comparison too.
TEST(DiffThreads, OneBigPairChangesNothing) {
  absl::StatusOr<ParsedText> parsed = ParseText(
      testing::ReadTestdata("generated/resnet18/ir_eager.txt"), "ir_eager.txt");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->graphs.size(), 1u);
  const Graph replicated = testing::Replicate(parsed->graphs[0], 420);
  ASSERT_GT(replicated.nodes.size(), 100000u);
  testing::Mutated right = testing::Renumber(replicated, 7);
  right = testing::AddExtraOutputs(right.graph, 3, 11);
  right = testing::InsertDeadNodes(right.graph, 5, 13);
  // Dead nodes on the left too: findings seen from each side, which the
  // families of the two directions make on two threads.
  const Graph base = testing::InsertDeadNodes(replicated, 4, 17).graph;
  DiffOptions one;
  one.threads = 1;
  absl::StatusOr<DiffResult> serial = DiffGraphs(base, right.graph, one);
  ASSERT_TRUE(serial.ok()) << serial.status();
  ASSERT_FALSE(serial->identical());
  ASSERT_GT(serial->pairs.at(0).pairs.size(), 100000u);
  std::set<std::string> ids;
  for (const Finding& f : serial->findings) ids.insert(f.id);
  EXPECT_TRUE(ids.count("dead-code") && ids.count("dead-code-removed")) << ids.size();
  const std::string expected = RenderDiff(*serial, ReportFormat::kJson, {});
  for (unsigned threads : {0u, 2u}) {
    DiffOptions many;
    many.threads = threads;
    absl::StatusOr<DiffResult> parallel = DiffGraphs(base, right.graph, many);
    ASSERT_TRUE(parallel.ok()) << parallel.status();
    EXPECT_EQ(RenderDiff(*parallel, ReportFormat::kJson, {}), expected) << "threads " << threads;
  }
}

// Rows for changed pairs only: the same changed rows in the same order,
// the same counts, and the text report (which lists only changes) unchanged,
// with threads inside the pair or not.
TEST(DiffRows, ChangedRowsOnlyKeepCountsAndTextReport) {
  absl::StatusOr<ParsedText> parsed = ParseText(
      testing::ReadTestdata("generated/resnet18/ir_eager.txt"), "ir_eager.txt");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const Graph base = testing::Replicate(parsed->graphs.at(0), 3);
  testing::Mutated right = testing::Renumber(base, 7);
  right = testing::AddExtraOutputs(right.graph, 3, 11);
  for (size_t k = 1; k <= 5; ++k) {
    uint32_t node = static_cast<uint32_t>(right.graph.nodes.size() * k / 6);
    while (right.graph.nodes[node].kind != NodeKind::kOp) ++node;
    right = testing::ChangeAttribute(right.graph, node, "planted", std::to_string(k));
  }
  DiffOptions all;
  all.threads = 1;
  absl::StatusOr<DiffResult> full = DiffGraphs(base, right.graph, all);
  ASSERT_TRUE(full.ok()) << full.status();
  const GraphPairDiff& f = full->pairs.at(0);
  std::vector<const PairRow*> changed;
  for (const PairRow& row : f.pairs) {
    if (row.reasons != 0) changed.push_back(&row);
  }
  ASSERT_FALSE(changed.empty());
  ASSERT_GT(f.pairs.size(), changed.size());
  RenderOptions verbose;
  verbose.verbose = true;
  verbose.max_items = 0;
  for (unsigned threads : {1u, 2u}) {
    DiffOptions some;
    some.threads = threads;
    some.unchanged_rows = false;
    absl::StatusOr<DiffResult> part = DiffGraphs(base, right.graph, some);
    ASSERT_TRUE(part.ok()) << part.status();
    const GraphPairDiff& p = part->pairs.at(0);
    EXPECT_EQ(p.matched, f.matched);
    EXPECT_EQ(p.changed, f.changed);
    ASSERT_EQ(p.pairs.size(), changed.size()) << "threads " << threads;
    for (size_t i = 0; i < changed.size(); ++i) {
      EXPECT_EQ(p.pairs[i].left, changed[i]->left);
      EXPECT_EQ(p.pairs[i].right, changed[i]->right);
      EXPECT_EQ(p.pairs[i].reasons, changed[i]->reasons);
      EXPECT_EQ(p.pairs[i].detail, changed[i]->detail);
    }
    for (ReportFormat format : {ReportFormat::kText, ReportFormat::kMarkdown}) {
      EXPECT_EQ(RenderDiff(*part, format, verbose), RenderDiff(*full, format, verbose))
          << "threads " << threads;
    }
  }
}

// Text wrapped at 80 columns, with every line break and indent turned back
// into one space, so phrases can be searched whatever the wrapping.
std::string Unwrap(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
      out += ' ';
    } else {
      out += text[i];
    }
  }
  return out;
}

TEST(DiffCli, ResNetDifferentExitsOneAndExplains) {
  testing::CliResult r = testing::RunCli({"diff", kBaseline, kCandidate, "--color=never"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  r.out = Unwrap(r.out);
  EXPECT_THAT(r.out, HasSubstr("80 extra outputs on the right"));
  EXPECT_THAT(r.out, HasSubstr("torch.no_grad()"));
  EXPECT_THAT(r.out, HasSubstr("xla::clone 1 -> 103"));
  EXPECT_THAT(r.out, HasSubstr("102 new graph inputs on the right (1 -> 103)"));
  // One screen: the info findings are counted by id; the IR node counts are
  // in the graph-pair lines.
  EXPECT_THAT(r.out, HasSubstr("+ 9 info findings: op-substitution x6"));
  EXPECT_THAT(r.out, HasSubstr("ir.txt [IR]: nodes 197->277 (+80 -0 ~0)"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("\x1b[")));
  // The info findings in full are behind --verbose.
  testing::CliResult v =
      testing::RunCli({"diff", kBaseline, kCandidate, "--color=never", "--verbose"});
  EXPECT_EQ(v.exit_code, 1) << v.err;
  v.out = Unwrap(v.out);
  EXPECT_THAT(v.out, HasSubstr("_native_batch_norm_legit_no_training x20"));
  EXPECT_THAT(v.out, HasSubstr("197 -> 277 IR nodes (+80: 40 aten::expand, 40 prim::Constant)"));
}

// Every format takes --stat and --brief: the drawing formats still look up
// the graphs behind each pair, which needs every pair's row, and the text
// formats do without the unchanged ones.
TEST(DiffCli, StatAndBriefWithEveryFormat) {
  for (const char* mode : {"--stat", "--brief"}) {
    for (const char* format : {"text", "json", "markdown", "html", "dot"}) {
      testing::CliResult r = testing::RunCli({"diff", kBaseline, kCandidate, mode, "--format",
                                              format});
      EXPECT_EQ(r.exit_code, 1) << mode << " --format " << format << ": " << r.err;
      EXPECT_FALSE(r.out.empty()) << mode << " --format " << format;
    }
  }
  const std::string dir = ::testing::TempDir() + "/stat-model-explorer";
  testing::CliResult me = testing::RunCli(
      {"diff", kBaseline, kCandidate, "--stat", "--format", "model-explorer", "-o", dir});
  EXPECT_EQ(me.exit_code, 1) << me.err;
}

TEST(DiffCli, SameDumpExitsZero) {
  testing::CliResult r = testing::RunCli({"diff", kCandidate, kCandidate});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Same up to numbering and order"));
}

TEST(DiffCli, FormatsAndColor) {
  testing::CliResult j = testing::RunCli({"diff", kBaseline, kCandidate, "--format", "json"});
  EXPECT_EQ(j.exit_code, 1) << j.err;
  EXPECT_EQ(j.out.rfind("{\n  \"schema_version\": 2,", 0), 0u);
  testing::CliResult m = testing::RunCli({"diff", kBaseline, kCandidate, "--format=markdown"});
  EXPECT_EQ(m.exit_code, 1) << m.err;
  EXPECT_THAT(m.out, HasSubstr("### Findings"));
  testing::CliResult c = testing::RunCli({"diff", kBaseline, kCandidate, "--color=always"});
  EXPECT_THAT(c.out, HasSubstr("\x1b["));
  testing::CliResult few = testing::RunCli({"diff", kBaseline, kCandidate, "--max-items", "2"});
  EXPECT_THAT(few.out, HasSubstr("... and 2 more (--verbose lists them)"));
  testing::CliResult few_verbose =
      testing::RunCli({"diff", kBaseline, kCandidate, "--max-items", "2", "--verbose"});
  EXPECT_THAT(few_verbose.out, HasSubstr("... and 78 more"));
}

TEST(DiffCli, TroubleExitsTwo) {
  testing::CliResult r = testing::RunCli({"diff", "no/such/dir", kCandidate});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("graphdiff: "));
  std::string bad = testing::WriteTempFile("bad_equiv.json", "{\"classes\": 3}");
  r = testing::RunCli({"diff", kBaseline, kCandidate, "--equiv", bad});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad_equiv.json"));
  std::string broken = testing::WriteTempFile("broken_ir.txt", "IR {\n  %0 = f32[] aten::relu(%7)\n}\n");
  r = testing::RunCli({"diff", broken, broken});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("broken_ir.txt:2:"));
  EXPECT_THAT(r.err, HasSubstr("^"));
}

TEST(DiffCli, LintReportsSingleDumpFindings) {
  testing::CliResult r = testing::RunCli({"lint", kCandidate});
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the dead expands are warnings
  EXPECT_THAT(r.out, HasSubstr("dead-constant-expand"));
  EXPECT_THAT(r.out, HasSubstr("40 dead size-0 expands of constants"));
  testing::CliResult j = testing::RunCli({"lint", kBaseline, "--format", "json"});
  EXPECT_NE(j.exit_code, 2) << j.err;
  EXPECT_THAT(j.out, HasSubstr("\"size-facts\""));
}

}  // namespace
}  // namespace graphdiff
