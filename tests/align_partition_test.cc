// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The joint partition against colour refinement done the slow, obvious way:
// recolour every free node by its colour and its neighbours' colours per
// edge role until no class splits. The partition starts from one round and
// a queue of what that round split, never splits the pairs made before it,
// and refines again after each individualisation; whatever it does, its
// cells must be exactly the classes the obvious way finds.
#include "align/partition.h"

#include <algorithm>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "align/matchers.h"
#include "align/state.h"
#include "align/symmetry_guess.h"
#include "gtest/gtest.h"
#include "testing/graph_mutate.h"
#include "testing/random_blocks.h"

namespace graphdiff {
namespace {

using Colours = std::vector<uint64_t>;

// The coarsest stable refinement of `start`, with paired and covered nodes
// as fixed singleton colours per pair, computed round by round.
Colours Obvious(const align::State& st, Colours colour) {
  const uint32_t n0 = st.side[0].size;
  const uint32_t n = n0 + st.side[1].size;
  auto free = [&](uint32_t x) { return x < n0 ? st.free(0, x) : st.free(1, x - n0); };
  for (uint32_t x = 0; x < n; ++x) {
    if (free(x)) continue;
    const int s = x < n0 ? 0 : 1;
    const uint32_t v = x - (s == 0 ? 0 : n0);
    const uint32_t other = st.map[s][v];
    // One colour per pair, named by its left node; a covered node alone.
    colour[x] = other == align::kNone ? (1ull << 62) + x
                                      : (1ull << 63) + (s == 0 ? v : other);
  }
  auto classes = [&](const Colours& c) {
    std::vector<uint64_t> sorted(c);
    std::sort(sorted.begin(), sorted.end());
    return std::unique(sorted.begin(), sorted.end()) - sorted.begin();
  };
  for (;;) {
    std::map<std::vector<std::tuple<int, uint32_t, uint32_t, uint64_t>>, uint64_t> ids;
    std::map<std::pair<uint64_t, uint64_t>, uint64_t> names;
    Colours next(colour);
    for (uint32_t x = 0; x < n; ++x) {
      if (!free(x)) continue;
      const int s = x < n0 ? 0 : 1;
      const uint32_t off = s == 0 ? 0 : n0;
      const align::SideView& view = st.side[s];
      std::vector<std::tuple<int, uint32_t, uint32_t, uint64_t>> around;
      auto ops = view.operands(x - off);
      for (uint32_t i = 0; i < ops.size(); ++i) {
        around.emplace_back(0, i, ops[i].output, colour[off + ops[i].node]);
      }
      for (const align::Use& u : view.users(x - off)) {
        around.emplace_back(1, u.pos, u.output, colour[off + u.user]);
      }
      std::sort(around.begin(), around.end());
      const uint64_t id = ids.try_emplace(around, ids.size()).first->second;
      next[x] = names.try_emplace({colour[x], id}, names.size()).first->second;
    }
    if (classes(next) == classes(colour)) return colour;
    colour = std::move(next);
  }
}

// Whether the partition's cells, on the elements `keep` selects, are
// exactly the classes of `colour` there.
template <typename Keep>
void ExpectSameClassesOf(const align::JointPartition& p, const Colours& colour, Keep keep) {
  std::map<uint32_t, uint64_t> colour_of_cell;
  std::map<uint64_t, uint32_t> cell_of_colour;
  for (uint32_t x = 0; x < colour.size(); ++x) {
    if (!keep(x)) continue;
    const auto [a, added_a] = colour_of_cell.try_emplace(p.cell(x), colour[x]);
    EXPECT_EQ(a->second, colour[x]) << "cell " << p.cell(x) << " holds two classes";
    const auto [b, added_b] = cell_of_colour.try_emplace(colour[x], p.cell(x));
    EXPECT_EQ(b->second, p.cell(x)) << "a class is split over two cells, at element " << x;
  }
}

// The same on every element.
void ExpectSameClasses(const align::JointPartition& p, const Colours& colour) {
  ExpectSameClassesOf(p, colour, [](uint32_t) { return true; });
}

// Both graphs as the matchers see them.
struct Sides {
  Sides(const Graph& left, const Graph& right) {
    options.equivalence = &eq;
    status = align::Normalizer().Run(left, right, options, st);
  }
  OpEquivalence eq = OpEquivalence::BuiltIn();
  AlignOptions options;
  align::State st;
  absl::Status status;
};

// Every element's op class, as starting keys.
Colours ClassKeys(const align::State& st) {
  const uint32_t n0 = st.side[0].size;
  Colours key(n0 + st.side[1].size);
  for (int s = 0; s < 2; ++s) {
    for (uint32_t v = 0; v < st.side[s].size; ++v) {
      key[(s == 0 ? 0 : n0) + v] = st.side[s].cls[v];
    }
  }
  return key;
}

class PartitionTest : public ::testing::TestWithParam<int> {};

TEST_P(PartitionTest, CellsAreTheCoarsestStableColouring) {
  const uint64_t seed = static_cast<uint64_t>(GetParam());
  std::mt19937_64 rng(seed * 7919 + 1);
  const Graph left = testing::RandomBlocks(seed, 3 + static_cast<int>(seed % 5));
  const testing::Mutated renumbered = testing::Renumber(left, seed);
  const Graph right = seed % 3 == 0
                          ? renumbered.graph
                          : testing::InsertDeadNodes(renumbered.graph, 2, seed).graph;
  Sides sides(left, right);
  ASSERT_TRUE(sides.status.ok()) << sides.status;
  align::State& st = sides.st;
  // Built on two threads, as for big graphs, or on one: the same cells.
  st.parallel = seed % 2 == 1;
  const uint32_t n0 = st.side[0].size, n1 = st.side[1].size;
  // Some pairs made beforehand: fixed cells, which other cells still see.
  for (uint32_t l = 0; l < n0; ++l) {
    const uint32_t r = static_cast<uint32_t>(rng() % n1);
    if (rng() % 4 == 0 && st.free(0, l) && st.free(1, r)) {
      st.Match(l, r, align::MatcherId::kAnchor);
    }
  }
  if (n1 > 0 && st.free(1, n1 - 1)) st.Cover(1, n1 - 1);
  // Starting keys from the op class only: refinement has work to do.
  const Colours key = ClassKeys(st);
  align::JointPartition p(st, key);
  p.Refine();
  ExpectSameClasses(p, Obvious(st, key));

  // Individualising a pair of look-alikes refines as if the pair had had
  // a colour of its own from the start; undone when it is refused.
  for (uint32_t tries = 0; tries < 20; ++tries) {
    const uint32_t l = static_cast<uint32_t>(rng() % n0);
    if (!st.free(0, l)) continue;
    uint32_t r = align::kNone;
    for (const uint32_t* x = p.begin(p.cell(l)); x != p.end(p.cell(l)); ++x) {
      if (*x >= n0) r = std::min(r, *x);
    }
    if (r == align::kNone) continue;
    Colours before(n0 + n1), after(n0 + n1);
    for (uint32_t x = 0; x < n0 + n1; ++x) before[x] = p.cell(x);
    after = before;
    after[l] = after[r] = n0 + n1 + 1;
    if (p.Individualise(l, r)) {
      ExpectSameClasses(p, Obvious(st, after));
    } else {
      ExpectSameClasses(p, Obvious(st, before));
    }
  }
}

// Runs the guess on two graphs and checks it (see GuessLeavesAStablePartition).
void CheckGuess(const Graph& left, const Graph& right, bool same_order) {
  Sides sides(left, right);
  ASSERT_TRUE(sides.status.ok()) << sides.status;
  align::State& st = sides.st;
  // The threads big graphs get (partition, accepted pairs): small graphs
  // would not.
  st.parallel = true;
  const uint32_t n0 = st.side[0].size;
  const Colours key = ClassKeys(st);
  align::JointPartition p(st, key);
  p.Refine();
  uint32_t look_alikes = 0;  // left nodes in a cell with others like them
  for (uint32_t l = 0; l < n0; ++l) look_alikes += p.size(p.cell(l)) > 2;
  std::vector<uint64_t> scratch;
  const size_t made = align::GuessLookAlikes(st, p, scratch);

  // Pairs made, and those refinement left as cells of one left and one
  // right node (the symmetry matcher makes them last).
  auto mate = [&](uint32_t l) {
    if (st.map[0][l] != align::kNone) return st.map[0][l];
    const uint32_t c = p.cell(l);
    if (p.size(c) != 2 || p.left_count(c) != 1) return align::kNone;
    return (*p.begin(c) == l ? *(p.begin(c) + 1) : *p.begin(c)) - n0;
  };
  size_t paired = 0;
  for (uint32_t l = 0; l < n0; ++l) {
    const uint32_t r = st.map[0][l];
    if (r == align::kNone) continue;
    ++paired;
    EXPECT_EQ(st.map[1][r], l);
    const auto lo = st.side[0].operands(l), ro = st.side[1].operands(r);
    ASSERT_EQ(lo.size(), ro.size());
    for (size_t i = 0; i < lo.size(); ++i) {
      EXPECT_EQ(mate(lo[i].node), ro[i].node) << "operand " << i << " of " << l;
      EXPECT_EQ(lo[i].output, ro[i].output);
    }
    for (const align::Use& u : st.side[0].users(l)) {
      if (st.side[0].alias[u.user]) continue;
      const uint32_t w = mate(u.user);
      ASSERT_NE(w, align::kNone) << "a user of " << l << " left unpaired";
      ASSERT_LT(u.pos, st.side[1].operands(w).size());
      EXPECT_EQ(st.side[1].operands(w)[u.pos].node, r);
    }
  }
  EXPECT_EQ(paired, made);
  if (same_order) {
    EXPECT_EQ(made, look_alikes);
  }
  ExpectSameClassesOf(p, Obvious(st, key), [&](uint32_t x) {
    const int s = x < n0 ? 0 : 1;
    const uint32_t v = x - (s == 0 ? 0 : n0);
    return st.free(s, v) && !st.side[s].alias[v];
  });
}

// The guess pairs look-alikes without refining. What it pairs must be an
// exact correspondence (every operand and user of a pair's nodes paired
// with the other's, at the same place), and what it leaves must still be
// the coarsest stable colouring with its pairs as fixed colours. Against a
// renumbered copy in the same order it pairs every look-alike; against
// reordered ones, node order guesses wrong and the check must catch it.
TEST_P(PartitionTest, GuessLeavesAStablePartition) {
  const uint64_t seed = static_cast<uint64_t>(GetParam());
  const Graph left = testing::RandomBlocks(seed, 3 + static_cast<int>(seed % 5));
  const Graph renumbered = testing::Renumber(left, seed).graph;
  CheckGuess(left, renumbered, /*same_order=*/true);
  for (uint64_t k = 0; k < 6; ++k) {
    SCOPED_TRACE(k);
    CheckGuess(left, testing::Reorder(renumbered, seed * 6 + k).graph, /*same_order=*/false);
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, PartitionTest, ::testing::Range(0, 24));

}  // namespace
}  // namespace graphdiff
