// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Propagation remembers the pairs whose visit did nothing and skips them
// while their neighbourhood stays as it was. Skipping must change nothing:
// after every step of a run of matchers, with other pairs made and nodes
// covered between the runs as later matchers do, the mapping must be
// exactly the one a propagation that forgets everything before each run
// makes.
#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "align/matchers.h"
#include "align/roles.h"
#include "align/state.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "testing/graph_mutate.h"
#include "testing/random_blocks.h"
#include "testing/symmetric.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

struct Twin {
  align::State remembers, forgets;
};

class PropagationMemoTest : public ::testing::TestWithParam<int> {
 protected:
  // The same step on both states; `propagation` steps forget first on one.
  template <typename Step>
  void Both(Step step, bool propagation = false) {
    step(t_.remembers);
    if (propagation) t_.forgets.quiet.clear();
    step(t_.forgets);
    remembered_ += t_.remembers.quiet.size();
    ASSERT_EQ(t_.remembers.map[0], t_.forgets.map[0]);
    ASSERT_EQ(t_.remembers.map[1], t_.forgets.map[1]);
    ASSERT_EQ(t_.remembers.how[0], t_.forgets.how[0]);
  }
  Twin t_;
  size_t remembered_ = 0;
};

Graph Load(const std::string& relative) {
  absl::StatusOr<ParsedText> parsed =
      ParseText(testing::ReadTestdata(relative), testing::TestdataPath(relative));
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok() || parsed->graphs.empty()) return Graph();
  return std::move(parsed->graphs[0]);
}

Graph Left(int seed) {
  if (seed % 4 != 3) return testing::RandomBlocks(static_cast<uint64_t>(seed), 3 + seed % 6);
  // A real block read by copies over shared weights: hubs with many users.
  const std::vector<std::string> real = {"generated/mlp/ir_eager.txt",
                                         "generated/resnet18/fx_symbolic_trace.txt"};
  return testing::ShareInputs(Load(real[(seed / 4) % real.size()]), 12);
}

TEST_P(PropagationMemoTest, SkippingQuietPairsChangesNothing) {
  const int seed = GetParam();
  std::mt19937_64 rng(static_cast<uint64_t>(seed) * 104729 + 7);
  const Graph left = Left(seed);
  ASSERT_GT(left.nodes.size(), 0u);
  const testing::Mutated renumbered = testing::Renumber(left, static_cast<uint64_t>(seed));
  const Graph& r0 = renumbered.graph;
  const uint32_t some = static_cast<uint32_t>(rng() % r0.nodes.size());
  Graph right;
  switch (seed % 4) {
    case 0: right = testing::SubstituteOp(r0, some, "aten::sub").graph; break;
    case 1: right = testing::InsertDeadNodes(r0, 3, static_cast<uint64_t>(seed)).graph; break;
    case 2:  // the left's own block, with casts inserted in one copy
      right = testing::RandomBlocks(static_cast<uint64_t>(seed), 3 + seed % 6, 1);
      break;
    default: right = r0; break;
  }
  AlignOptions options;
  OpEquivalence eq = OpEquivalence::BuiltIn();
  options.equivalence = &eq;
  ASSERT_TRUE(align::Normalizer().Run(left, right, options, t_.remembers).ok());
  ASSERT_TRUE(align::Normalizer().Run(left, right, options, t_.forgets).ok());
  align::PropagationMatcher exact(/*exact_only=*/true), guess;
  const uint32_t n0 = t_.remembers.side[0].size, n1 = t_.remembers.side[1].size;
  // What a later matcher might do between runs: pair a few free nodes of
  // one class, or cover one.
  auto others = [&] {
    const uint64_t pick = rng();
    Both([&](align::State& st) {
      std::mt19937_64 same(pick);
      for (int k = 0; k < 4; ++k) {
        const uint32_t l = static_cast<uint32_t>(same() % n0);
        const uint32_t r = static_cast<uint32_t>(same() % n1);
        if (!st.free(0, l) || !st.free(1, r)) continue;
        if (k == 3) {
          st.Cover(1, r);
        } else if (st.side[0].cls[l] == st.side[1].cls[r]) {
          st.Match(l, r, align::MatcherId::kPosition);
        }
      }
    });
  };
  Both([](align::State& st) { align::AnchorMatcher(align::Level::kFull).Run(st); });
  for (int round = 0; round < 8; ++round) {
    Both([&](align::State& st) { exact.Run(st); }, /*propagation=*/true);
    others();
    Both([&](align::State& st) { exact.Run(st); }, /*propagation=*/true);
    if (round == 2 || round == 5) {
      Both([](align::State& st) { align::AnchorMatcher(align::Level::kStructure).Run(st); });
    }
    if (round == 4) Both([](align::State& st) { align::SymmetryMatcher().Run(st); });
    if (round >= 3) Both([&](align::State& st) { guess.Run(st); }, /*propagation=*/true);
  }
  // Small graphs pair nearly everything at once; the memo must at least
  // have been consulted on the bigger ones for this to test anything.
  if (seed % 4 == 3) {
    EXPECT_GT(remembered_, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, PropagationMemoTest, ::testing::Range(0, 96));

// Long users lists are grouped by role and fingerprint rather than sorted
// element by element: the order must be the sort's, on lists in node order
// with few roles or many, a user reading the node at several positions.
TEST(SortRolesTest, GroupedIsSorted) {
  std::mt19937_64 rng(5);
  for (size_t size : {size_t{3}, align::kGroupedRoles - 1, align::kGroupedRoles, size_t{500},
                      size_t{5000}}) {
    for (uint64_t kinds : {1u, 3u, 40u, 100000u}) {
      std::vector<align::Role> roles;
      uint32_t node = 0;
      while (roles.size() < size) {
        node += 1 + static_cast<uint32_t>(rng() % 3);
        const uint32_t reads = 1 + static_cast<uint32_t>(rng() % 4 == 0);
        for (uint32_t pos = 0; pos < reads; ++pos) {
          roles.push_back({rng() % kinds, static_cast<uint32_t>(rng() % 2) + pos,
                           static_cast<uint32_t>(rng() % 2), rng() % kinds, node});
        }
      }
      std::vector<align::Role> want = roles;
      std::sort(want.begin(), want.end());
      align::SortRoles(&roles);
      ASSERT_EQ(roles.size(), want.size());
      for (size_t i = 0; i < roles.size(); ++i) {
        EXPECT_FALSE(roles[i] < want[i] || want[i] < roles[i])
            << "size " << size << ", kinds " << kinds << ", at " << i;
      }
    }
  }
}

}  // namespace
}  // namespace graphdiff
