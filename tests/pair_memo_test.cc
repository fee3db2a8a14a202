// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "analyze/pair_memo.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "graphdiff/align.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/parse.h"

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

// The diff of two save files: every pair has the alignment Align gives it
// alone.
void ExpectPairsAlignAsAlone(const std::vector<std::string>& left,
                             const std::vector<std::string>& right, unsigned threads) {
  SCOPED_TRACE(testing::Message() << threads << " threads");
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
  // The diff's pairs are the pairing's, in its order.
  const Pairing pairing = PairDumps(*l, *r);
  ASSERT_EQ(d->pairs.size(), pairing.graphs.size());
  ASSERT_EQ(d->pairs.size(), left.size());
  AlignOptions alone;
  alone.threads = 1;
  size_t changed = 0;
  for (size_t i = 0; i < d->pairs.size(); ++i) {
    const GraphPairing& p = pairing.graphs[i];
    absl::StatusOr<Alignment> want = Align(l->files[p.left.file].graphs[p.left.graph],
                                           r->files[p.right.file].graphs[p.right.graph], alone);
    ASSERT_TRUE(want.ok());
    ExpectSameAlignment(d->pairs[i].alignment, *want, i);
    changed += !d->pairs[i].identical();
  }
  // Look-alikes of a repeated pair among them, told apart.
  EXPECT_GE(changed, 2u);
  EXPECT_LT(changed, d->pairs.size());
}

// Dumps that repeat graphs, look-alikes of the repeats among them (a graph
// with an attribute, a type, operands or names of its own): each look-alike
// pairs with a repeat whose pair was aligned before it.
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
    for (unsigned threads : {1u, 2u, 4u}) ExpectPairsAlignAsAlone(left, right, threads);
  }
}

}  // namespace
}  // namespace graphdiff::analyze
