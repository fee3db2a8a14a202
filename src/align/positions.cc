// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Graph output positions (and input positions where the format makes them a
// signature) as evidence for what structure could not pair: the outputs of a
// component that changed pair with the outputs at the same relative place
// on the other side, and propagation then grows the pairs through the
// component instead of later matchers mixing look-alike components.
#include <algorithm>
#include <utility>
#include <vector>

#include "align/hash.h"
#include "align/matchers.h"
#include "align/sequence.h"

namespace graphdiff::align {
namespace {

constexpr uint64_t kPairedSeed = 0x706f73706169ULL;

// One symbol per list entry. A paired node is named by its pair, so the
// alignment hinges on what is already known; a free one by its op class and
// kind, so only like pairs with like.
std::vector<uint64_t> Symbols(const State& st, int s, const std::vector<ValueRef>& values) {
  const SideView& v = st.side[s];
  std::vector<uint64_t> out;
  out.reserve(values.size());
  for (const ValueRef& r : values) {
    if (r.node >= v.size) {
      out.push_back(0);
      continue;
    }
    const uint32_t pair = st.map[s][r.node];
    if (pair != kNone) {
      out.push_back(Combine(kPairedSeed, s == 0 ? r.node : pair) ^ r.output);
    } else {
      out.push_back(Combine(Combine(v.cls[r.node], v.leaf[r.node] * 2 + v.module[r.node]),
                            r.output + 1));
    }
  }
  return out;
}

// A node listed twice may meet two partners; the side-symmetric order
// decides which, so swapping the graphs mirrors the pairs.
using KeyedPairs = std::vector<std::pair<uint64_t, std::pair<uint32_t, uint32_t>>>;
void MatchInOrder(State& st, KeyedPairs& pairs) {
  std::sort(pairs.begin(), pairs.end());
  for (const auto& [key, lr] : pairs) {
    if (st.free(0, lr.first) && st.free(1, lr.second)) {
      st.Match(lr.first, lr.second, MatcherId::kPosition);
    }
  }
}

void PairByPosition(State& st, const std::vector<ValueRef>& left,
                    const std::vector<ValueRef>& right) {
  const std::vector<uint64_t> a = Symbols(st, 0, left), b = Symbols(st, 1, right);
  KeyedPairs pairs;
  for (const auto& [i, j] : AlignSequences(a, b)) {
    const uint32_t l = left[i].node, r = right[j].node;
    if (l >= st.side[0].size || r >= st.side[1].size) continue;
    pairs.push_back({SymKey(l, r), {l, r}});
  }
  MatchInOrder(st, pairs);
}

// Outputs between two aligned neighbours, as many on both sides, taken in
// order: the same outputs, their ops changed (three copies' returned
// `flatten` now a `gelu`). Each pair must be two free ops of the same
// result types. Only ops: an input or constant in its place is a different
// value, not a changed computation; and a result of another shape is
// another computation (a `relu` output replaced by a chain of `add`s).
void PairGaps(State& st, const std::vector<ValueRef>& left, const std::vector<ValueRef>& right) {
  const std::vector<uint64_t> a = Symbols(st, 0, left), b = Symbols(st, 1, right);
  std::vector<std::pair<uint32_t, uint32_t>> aligned = AlignSequences(a, b);
  aligned.emplace_back(static_cast<uint32_t>(a.size()), static_cast<uint32_t>(b.size()));
  KeyedPairs pairs;
  uint32_t next_i = 0, next_j = 0;  // the first entries after the last aligned pair
  for (const auto& [i, j] : aligned) {
    if (i - next_i == j - next_j) {
      for (uint32_t k = 0; k < i - next_i; ++k) {
        const ValueRef& x = left[next_i + k];
        const ValueRef& y = right[next_j + k];
        if (x.node < st.side[0].size && y.node < st.side[1].size && x.output == y.output &&
            st.free(0, x.node) && st.free(1, y.node) && !st.side[0].leaf[x.node] &&
            !st.side[1].leaf[y.node] &&
            (!st.use_types || st.side[0].type_hash[x.node] == st.side[1].type_hash[y.node])) {
          pairs.push_back({SymKey(x.node, y.node), {x.node, y.node}});
        }
      }
    }
    next_i = i + 1;
    next_j = j + 1;
  }
  MatchInOrder(st, pairs);
}

// The inputs that are a signature: lifted parameters are not the user's.
std::vector<ValueRef> Inputs(const SideView& s) {
  const Graph& g = *s.graph;
  std::vector<ValueRef> out;
  out.reserve(g.inputs.size());
  for (uint32_t v : g.inputs) {
    if (v >= s.size || !s.lifted[v]) out.push_back(ValueRef{v, 0});
  }
  return out;
}

}  // namespace

void PositionMatcher::RunSignature(State& st) {
  const Graph& lg = *st.side[0].graph;
  const Graph& rg = *st.side[1].graph;
  if (!OrderedInputs(lg) || !OrderedInputs(rg)) return;
  std::vector<uint32_t> free[2];
  for (int s = 0; s < 2; ++s) {
    for (const ValueRef& r : Inputs(st.side[s])) {
      if (r.node < st.side[s].size && st.free(s, r.node)) free[s].push_back(r.node);
    }
  }
  // Unequal counts: an input was added or removed, and which one only
  // structure can say; the positions wait for it (Run).
  if (free[0].size() != free[1].size()) return;
  const bool names = lg.kind == GraphKind::kFx && rg.kind == GraphKind::kFx;
  for (size_t i = 0; i < free[0].size(); ++i) {
    const uint32_t l = free[0][i], r = free[1][i];
    if (st.side[0].cls[l] != st.side[1].cls[r] ||
        st.side[0].type_hash[l] != st.side[1].type_hash[r] ||
        (names && lg.str(lg.nodes[l].name) != rg.str(rg.nodes[r].name))) {
      return;  // the signatures differ: nothing here is a position's say
    }
  }
  for (size_t i = 0; i < free[0].size(); ++i) {
    st.Match(free[0][i], free[1][i], MatcherId::kPosition);
  }
}

void PositionMatcher::Run(State& st) {
  if (!st.AnyFree(0) || !st.AnyFree(1)) return;
  const Graph& lg = *st.side[0].graph;
  const Graph& rg = *st.side[1].graph;
  PairByPosition(st, lg.outputs, rg.outputs);
  if (OrderedInputs(lg) && OrderedInputs(rg)) {
    PairByPosition(st, Inputs(st.side[0]), Inputs(st.side[1]));
  }
}

void PositionMatcher::RunGaps(State& st) {
  if (!st.AnyFree(0) || !st.AnyFree(1)) return;
  PairGaps(st, st.side[0].graph->outputs, st.side[1].graph->outputs);
}

}  // namespace graphdiff::align
