// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "analyze/pair_memo.h"

#include <algorithm>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "graphdiff/align.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/parse.h"
#include "graphdiff/report.h"

namespace graphdiff::analyze {
namespace {

// Bare IR blocks: a block a record, in the order given.
std::string Blocks(const std::vector<std::string>& blocks) {
  std::string out;
  for (const std::string& b : blocks) out += "IR {\n" + b + "}\n\n";
  return out;
}

const char kA[] =
    "  %0 = f32[4]{0} xla::device_data(), device=CPU:0\n"
    "  %1 = f32[4]{0} aten::relu(%0)\n"
    "  %2 = f32[4]{0} aten::mul(%1, %0), ROOT=0\n";
// kA with one attribute more.
const char kAttr[] =
    "  %0 = f32[4]{0} xla::device_data(), device=CPU:0\n"
    "  %1 = f32[4]{0} aten::relu(%0), inplace=1\n"
    "  %2 = f32[4]{0} aten::mul(%1, %0), ROOT=0\n";
// kA with another type.
const char kType[] =
    "  %0 = f32[4]{0} xla::device_data(), device=CPU:0\n"
    "  %1 = f32[8]{0} aten::relu(%0)\n"
    "  %2 = f32[4]{0} aten::mul(%1, %0), ROOT=0\n";
// kA with its operands swapped.
const char kOperands[] =
    "  %0 = f32[4]{0} xla::device_data(), device=CPU:0\n"
    "  %1 = f32[4]{0} aten::relu(%0)\n"
    "  %2 = f32[4]{0} aten::mul(%0, %1), ROOT=0\n";
// kA renumbered: the same graph, other node names.
const char kNames[] =
    "  %7 = f32[4]{0} xla::device_data(), device=CPU:0\n"
    "  %8 = f32[4]{0} aten::relu(%7)\n"
    "  %9 = f32[4]{0} aten::mul(%8, %7), ROOT=0\n";
const char kB[] =
    "  %0 = f32[4]{0} xla::device_data(), device=CPU:0\n"
    "  %1 = f32[4]{0} aten::neg(%0), ROOT=0\n";

std::vector<Graph> Parse(const std::vector<std::string>& blocks) {
  absl::StatusOr<std::vector<Graph>> g = ParseSaveFile(Blocks(blocks), "save.txt");
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? *std::move(g) : std::vector<Graph>();
}

// `records` `times` over, kType between copies so that no record repeats
// the one before it.
std::vector<std::string> Repeated(const std::vector<std::string>& records, size_t times) {
  std::vector<std::string> out;
  for (size_t t = 0; t < times; ++t) {
    if (t > 0) out.push_back(kType);
    out.insert(out.end(), records.begin(), records.end());
  }
  return out;
}

TEST(PairMemo, EqualContentOnlyInOnePool) {
  // Records apart (a repeat next to its original folds into it).
  std::vector<Graph> g = Parse({kA, kB, kA, kAttr, kType, kOperands, kNames});
  ASSERT_EQ(g.size(), 7u);
  EXPECT_TRUE(SameGraphContent(g[0], g[2]));
  EXPECT_EQ(GraphContentHash(g[0]), GraphContentHash(g[2]));
  for (size_t i : {1, 3, 4, 5, 6}) {
    EXPECT_FALSE(SameGraphContent(g[0], g[i])) << i;
    EXPECT_NE(GraphContentHash(g[0]), GraphContentHash(g[i])) << i;
  }
  // The same text parsed again has a pool of its own: its ids are not
  // comparable, so it is not the same content here.
  std::vector<Graph> again = Parse({kA});
  ASSERT_EQ(again.size(), 1u);
  EXPECT_FALSE(SameGraphContent(g[0], again[0]));
}

void ExpectSameAlignment(const Alignment& got, const Alignment& want, size_t pair) {
  ASSERT_EQ(got.pairs.size(), want.pairs.size()) << "pair " << pair;
  for (size_t k = 0; k < got.pairs.size(); ++k) {
    EXPECT_EQ(got.pairs[k].left, want.pairs[k].left) << "pair " << pair;
    EXPECT_EQ(got.pairs[k].right, want.pairs[k].right) << "pair " << pair;
    EXPECT_EQ(got.pairs[k].matcher, want.pairs[k].matcher) << "pair " << pair;
    EXPECT_EQ(got.pairs[k].reasons, want.pairs[k].reasons) << "pair " << pair;
    EXPECT_EQ(got.pairs[k].detail, want.pairs[k].detail) << "pair " << pair;
  }
  EXPECT_EQ(got.left_only, want.left_only) << "pair " << pair;
  EXPECT_EQ(got.right_only, want.right_only) << "pair " << pair;
  EXPECT_EQ(got.matched_outputs, want.matched_outputs) << "pair " << pair;
  EXPECT_EQ(got.left_only_outputs, want.left_only_outputs) << "pair " << pair;
  EXPECT_EQ(got.right_only_outputs, want.right_only_outputs) << "pair " << pair;
}

// Two save files of the given records, loaded and diffed on `threads`
// threads, with their pairing: the diff's pairs are the pairing's, in its
// order.
struct Diffed {
  Dump left;
  Dump right;
  DiffResult result;
  Pairing pairing;
};
void LoadAndDiff(const std::vector<std::string>& left, const std::vector<std::string>& right,
                 unsigned threads, Diffed* out) {
  LoadOptions lo;
  lo.threads = threads;
  absl::StatusOr<Dump> l = LoadDumpFromMemory("l", {{"save.txt", Blocks(left)}}, lo);
  absl::StatusOr<Dump> r = LoadDumpFromMemory("r", {{"save.txt", Blocks(right)}}, lo);
  ASSERT_TRUE(l.ok() && r.ok());
  ASSERT_EQ(l->files[0].graphs.size(), left.size());
  DiffOptions options;
  options.threads = threads;
  absl::StatusOr<DiffResult> d = DiffDumps(*l, *r, options);
  ASSERT_TRUE(d.ok()) << d.status();
  out->pairing = PairDumps(*l, *r);
  ASSERT_EQ(d->pairs.size(), out->pairing.graphs.size());
  ASSERT_EQ(d->pairs.size(), left.size());
  out->left = *std::move(l);
  out->right = *std::move(r);
  out->result = *std::move(d);
}

// The diff of two save files: every pair has the alignment Align gives it
// alone.
void ExpectPairsAlignAsAlone(const std::vector<std::string>& left,
                             const std::vector<std::string>& right, unsigned threads) {
  SCOPED_TRACE(testing::Message() << threads << " threads");
  Diffed x;
  LoadAndDiff(left, right, threads, &x);
  if (::testing::Test::HasFatalFailure()) return;
  AlignOptions alone;
  alone.threads = 1;
  size_t changed = 0;
  for (size_t i = 0; i < x.result.pairs.size(); ++i) {
    const GraphPairing& p = x.pairing.graphs[i];
    absl::StatusOr<Alignment> want = Align(x.left.files[p.left.file].graphs[p.left.graph],
                                           x.right.files[p.right.file].graphs[p.right.graph], alone);
    ASSERT_TRUE(want.ok());
    ExpectSameAlignment(x.result.pairs[i].alignment, *want, i);
    changed += !x.result.pairs[i].identical();
  }
  // Look-alikes of a repeated pair among them, told apart.
  EXPECT_GE(changed, 2u);
  EXPECT_LT(changed, x.result.pairs.size());
}

// Dumps that repeat graphs, look-alikes of the repeats among them (a graph
// with an attribute, a type, operands or names of its own): each look-alike
// pairs with a repeat whose pair was aligned before it. Over eighty pairs,
// so that they go to the threads in several runs.
TEST(PairMemo, RepeatedGraphsAlignAsAlone) {
  // No record repeats the one before it (it would fold into it). Records
  // pair in order: each has the shape of its counterpart.
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{kA, kB, kA, kAttr, kA, kType, kA, kNames, kA, kB},
       {kA, kB, kAttr, kA, kOperands, kA, kNames, kA, kB, kA}},
      {{kA, kB, kAttr, kB, kType, kB, kOperands, kB, kNames},
       {kA, kB, kA, kB, kA, kB, kA, kB, kA}},
  };
  for (const auto& [left, right] : cases) {
    for (unsigned threads : {1u, 2u, 4u}) {
      ExpectPairsAlignAsAlone(Repeated(left, 9), Repeated(right, 9), threads);
    }
  }
}

// Without alignments in the summaries (DiffOptions::alignments off, as for
// reports that draw nothing), the memo keeps those of pairs whose findings
// a repeat runs again: the result is the same but for the alignments.
TEST(PairMemo, SummariesWithoutAlignmentsDiffTheSame) {
  const std::vector<std::string> left = Repeated({kA, kB, kAttr, kB, kType, kB, kNames}, 9);
  const std::vector<std::string> right = Repeated({kA, kB, kA, kB, kA, kB, kA}, 9);
  absl::StatusOr<Dump> l = LoadDumpFromMemory("l", {{"save.txt", Blocks(left)}});
  absl::StatusOr<Dump> r = LoadDumpFromMemory("r", {{"save.txt", Blocks(right)}});
  ASSERT_TRUE(l.ok() && r.ok());
  for (unsigned threads : {1u, 2u}) {
    DiffOptions with;
    with.threads = threads;
    DiffOptions without = with;
    without.alignments = false;
    absl::StatusOr<DiffResult> a = DiffDumps(*l, *r, with);
    absl::StatusOr<DiffResult> b = DiffDumps(*l, *r, without);
    ASSERT_TRUE(a.ok() && b.ok());
    ASSERT_FALSE(a->findings.empty());
    EXPECT_EQ(DiffResultToJson(*a), DiffResultToJson(*b));
    size_t kept = 0;
    for (const GraphPairDiff& p : a->pairs) kept += p.alignment.pairs.size();
    for (const GraphPairDiff& p : b->pairs) EXPECT_TRUE(p.alignment.pairs.empty());
    EXPECT_GT(kept, 0u);
  }
}

// A pair's summary as JSON, less what names where it is: its sources, its
// graphs' names and the rule that paired it.
std::string SummaryJson(GraphPairDiff p) {
  p.left_source = p.right_source = p.left_graph = p.right_graph = "";
  p.how = PairRule::kPath;
  DiffResult r;
  r.pairs.push_back(std::move(p));
  return DiffResultToJson(r);
}

// Findings as JSON, one each, sorted, less what names where they are (the
// graph label, evidence sources) and the links between them.
std::vector<std::string> FindingsJson(const std::vector<Finding>& findings) {
  std::vector<std::string> out;
  for (Finding f : findings) {
    f.graph.clear();
    f.related.clear();
    for (Evidence& e : f.evidence) e.source.clear();
    DiffResult r;
    r.findings.push_back(std::move(f));
    out.push_back(DiffResultToJson(r));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The diff of two save files: every pair's summary is the one DiffGraphs
// gives it alone (with its own sources and names), and the findings are
// those of all pairs diffed alone.
void ExpectPairsDiffAsAlone(const std::vector<std::string>& left,
                            const std::vector<std::string>& right, unsigned threads) {
  SCOPED_TRACE(testing::Message() << threads << " threads");
  Diffed x;
  LoadAndDiff(left, right, threads, &x);
  if (::testing::Test::HasFatalFailure()) return;
  DiffOptions alone;
  alone.threads = 1;
  std::vector<Finding> want_findings;
  size_t with_findings = 0;
  for (size_t i = 0; i < x.result.pairs.size(); ++i) {
    SCOPED_TRACE(testing::Message() << "pair " << i);
    const GraphPairing& p = x.pairing.graphs[i];
    const Graph& lg = x.left.files[p.left.file].graphs[p.left.graph];
    const Graph& rg = x.right.files[p.right.file].graphs[p.right.graph];
    absl::StatusOr<DiffResult> want = DiffGraphs(lg, rg, alone);
    ASSERT_TRUE(want.ok());
    ASSERT_EQ(want->pairs.size(), 1u);
    const GraphPairDiff& got = x.result.pairs[i];
    EXPECT_EQ(SummaryJson(got), SummaryJson(want->pairs[0]));
    ExpectSameAlignment(got.alignment, want->pairs[0].alignment, i);
    EXPECT_EQ(got.left_source, "save.txt");
    EXPECT_EQ(got.right_source, "save.txt");
    EXPECT_EQ(got.left_graph, lg.name);
    EXPECT_EQ(got.right_graph, rg.name);
    EXPECT_EQ(got.how, p.how);
    with_findings += !want->findings.empty();
    for (const Finding& f : want->findings) want_findings.push_back(f);
  }
  EXPECT_EQ(FindingsJson(x.result.findings), FindingsJson(want_findings));
  // Repeats of pairs with findings and of pairs without.
  EXPECT_GE(with_findings, 2u);
  EXPECT_LE(with_findings + 3, x.result.pairs.size());
}

// Pairs that repeat, with and without findings: a repeat of a pair with
// none takes that pair's summary, and one with findings finds them anew
// (in its own records: their lines are its own). Over a hundred pairs, so
// that they go to the threads in several runs.
TEST(PairMemo, RepeatedPairsDiffAsAlone) {
  const std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> cases = {
      {{kA, kB, kA, kAttr, kA, kType, kA, kNames, kA, kB, kA, kB},
       {kA, kB, kAttr, kA, kOperands, kA, kNames, kA, kB, kA, kAttr, kA}},
      {{kA, kB, kAttr, kB, kType, kB, kA, kB, kNames, kB},
       {kNames, kB, kA, kB, kA, kB, kNames, kB, kA, kB}},
  };
  for (const auto& [left, right] : cases) {
    for (unsigned threads : {1u, 2u, 4u}) {
      ExpectPairsDiffAsAlone(Repeated(left, 9), Repeated(right, 9), threads);
    }
  }
}

}  // namespace
}  // namespace graphdiff::analyze
