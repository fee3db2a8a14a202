// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/candidates.h"

#include <algorithm>

#include "align/hash.h"
#include "align/matchers.h"

namespace graphdiff::align {
namespace {

constexpr uint64_t kMatchedSeed = 0x776c6d61746368ULL;
constexpr uint64_t kCoveredSeed = 0x776c636f76ULL;
constexpr uint64_t kOutputSeed = 0x776c6f7574ULL;
// Rounds of colouring that break a tie. A tie inside a changed copy is
// a pair of look-alike branches (the query and key projections of one
// attention block) that differ a few hops away, at their weights, or two
// changed copies that differ only where their outputs sit, twenty hops on.
// Each round costs the free part of the graphs: past a few rounds, only as
// many as a budget of a few passes over both graphs allows.
constexpr uint32_t kMinTieRounds = 8;
constexpr uint32_t kMaxTieRounds = 64;
constexpr uint64_t kTieBudgetPasses = 8;

// For how many rounds of colour refinement, run on both sides by hashing
// (matched nodes coloured by their pair, so colours compare across the
// sides), an edge's two nodes keep one colour. Equal scores are only the
// matched neighbours agreeing; two look-alike candidates for one node
// usually differ further out, where nothing is matched yet, and breaking
// the tie by node order pairs whole branches crosswise.
//
// With `shape_only`, free nodes start from their output position alone, not
// their op: the copies of a block whose changed op each copy returns (three
// `relu`s become `gelu`s) are told apart past the change by where their
// outputs sit.
void TieDepths(State& st, bool shape_only, std::vector<Candidate>& edges) {
  // Only free nodes change colour: a paired node's is its pair's, a
  // covered one's its own, worked out where it is read. The free nodes'
  // colours are lists found through the state's per-node index: ranking a
  // few changed nodes' candidates in a graph of a million took two arrays
  // of the whole graph a side, each call, fresh pages every time.
  std::vector<uint32_t> free_nodes[2];
  std::vector<uint64_t> cur[2], next[2];
  for (int s = 0; s < 2; ++s) {
    const SideView& view = st.side[s];
    std::vector<uint32_t>& index = st.node_index[s];
    if (index.size() != view.size) index.assign(view.size, kNone);
    for (uint32_t v = 0; v < view.size; ++v) {
      if (!st.free(s, v)) continue;
      index[v] = static_cast<uint32_t>(free_nodes[s].size());
      free_nodes[s].push_back(v);
      cur[s].push_back(shape_only ? Combine(kOutputSeed, view.out_pos[v]) : LocalKey(st, s, v));
    }
    next[s].resize(cur[s].size());
  }
  auto colour = [&](int s, uint32_t v) {
    const uint32_t i = st.node_index[s][v];
    if (i != kNone) return cur[s][i];
    const uint32_t pair = st.map[s][v];
    return pair != kNone ? Combine(kMatchedSeed, s == 0 ? v : pair)
                         : Combine(Combine(kCoveredSeed, s), v);
  };
  uint64_t work = 1, total = 0;
  for (int s = 0; s < 2; ++s) {
    const SideView& view = st.side[s];
    total += view.size + view.ops.size();
    for (uint32_t v : free_nodes[s]) {
      work += 1 + (view.op_begin[v + 1] - view.op_begin[v]) +
              (view.use_begin[v + 1] - view.use_begin[v]);
    }
  }
  const auto rounds = static_cast<uint32_t>(std::clamp<uint64_t>(
      kTieBudgetPasses * total / work, kMinTieRounds, kMaxTieRounds));
  uint32_t Candidate::*depth = shape_only ? &Candidate::shape_depth : &Candidate::depth;
  for (Candidate& e : edges) e.*depth = colour(0, e.left) == colour(1, e.right);
  for (uint32_t round = 1; round <= rounds; ++round) {
    bool live = false;
    for (const Candidate& e : edges) live |= e.*depth == round;
    if (!live) break;
    for (int s = 0; s < 2; ++s) {
      const SideView& view = st.side[s];
      for (size_t i = 0; i < free_nodes[s].size(); ++i) {
        const uint32_t v = free_nodes[s][i];
        uint64_t h = cur[s][i];
        for (const ValueRef& r : view.operands(v)) {
          h = Combine(h, Combine(colour(s, r.node), r.output));
        }
        uint64_t users = 0;  // a sum: user order is not structure
        for (const Use& u : view.users(v)) {
          users += Combine(Combine(colour(s, u.user), u.pos), u.output);
        }
        next[s][i] = Combine(h, users);
      }
      cur[s].swap(next[s]);
    }
    for (Candidate& e : edges) {
      e.*depth += e.*depth == round && colour(0, e.left) == colour(1, e.right);
    }
  }
  for (int s = 0; s < 2; ++s) {
    for (uint32_t v : free_nodes[s]) st.node_index[s][v] = kNone;
  }
}

}  // namespace

void RankCandidates(State& st, std::vector<Candidate>& candidates) {
  if (candidates.empty()) return;
  TieDepths(st, /*shape_only=*/false, candidates);
  TieDepths(st, /*shape_only=*/true, candidates);
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.depth != b.depth) return a.depth > b.depth;
    if (a.shape_depth != b.shape_depth) return a.shape_depth > b.shape_depth;
    const uint64_t x = SymKey(a.left, a.right), y = SymKey(b.left, b.right);
    if (x != y) return x < y;
    return a.left < b.left;
  });
  // Both sides propose a pair they agree on; once is enough, and a pair
  // counted twice would look like its own rival.
  candidates.erase(std::unique(candidates.begin(), candidates.end(),
                               [](const Candidate& a, const Candidate& b) {
                                 return a.left == b.left && a.right == b.right;
                               }),
                   candidates.end());
}

bool PairRanked(State& st, const std::vector<Candidate>& ranked, bool certain_only,
                MatcherId how) {
  auto same_rank = [](const Candidate& a, const Candidate& b) {
    return a.score == b.score && a.depth == b.depth && a.shape_depth == b.shape_depth;
  };
  // Per node, the group's candidates whose nodes are both free when the
  // group starts; zero between groups.
  std::vector<uint32_t> count[2];
  if (certain_only) {
    count[0].assign(st.side[0].size, 0);
    count[1].assign(st.side[1].size, 0);
  }
  bool made = false;
  for (size_t i = 0; i < ranked.size();) {
    size_t end = i + 1;
    while (end < ranked.size() && same_rank(ranked[i], ranked[end])) ++end;
    if (certain_only) {
      for (size_t k = i; k < end; ++k) {
        const Candidate& e = ranked[k];
        if (!st.free(0, e.left) || !st.free(1, e.right)) continue;
        ++count[0][e.left];
        ++count[1][e.right];
      }
    }
    for (size_t k = i; k < end; ++k) {
      const Candidate& e = ranked[k];
      if (!st.free(0, e.left) || !st.free(1, e.right)) continue;
      if (certain_only && (count[0][e.left] > 1 || count[1][e.right] > 1)) continue;
      st.Match(e.left, e.right, how);
      made = true;
    }
    if (certain_only) {
      for (size_t k = i; k < end; ++k) count[0][ranked[k].left] = count[1][ranked[k].right] = 0;
    }
    i = end;
  }
  return made;
}

}  // namespace graphdiff::align
