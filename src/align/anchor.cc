// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Exact anchors: equal fingerprints that occur exactly once among the free
// nodes of each side.
#include <algorithm>
#include <tuple>
#include <vector>

#include "align/matchers.h"
#include "align/radix_sort.h"

namespace graphdiff::align {
namespace {

struct Entry {
  uint64_t key;
  uint32_t side;
  uint32_t node;
  bool operator<(const Entry& o) const {
    return std::tie(key, side, node) < std::tie(o.key, o.side, o.node);
  }
};

struct Candidate {
  uint32_t height;
  uint64_t sym;
  uint32_t left;
  uint32_t right;
};

// Operands already matched must agree with the pair more than they disagree.
bool Verify(const State& st, uint32_t l, uint32_t r) {
  auto lo = st.side[0].operands(l);
  auto ro = st.side[1].operands(r);
  int agree = 0, conflict = 0;
  for (size_t i = 0; i < lo.size() && i < ro.size(); ++i) {
    uint32_t m = st.map[0][lo[i].node];
    if (m == kNone) continue;
    if (m == ro[i].node && lo[i].output == ro[i].output) {
      ++agree;
    } else {
      ++conflict;
    }
  }
  return conflict == 0 || agree > conflict;
}

// The lists of a pass, kept for the next: on a graph of a million nodes
// each is tens of MB, fresh pages every time it was made anew.
struct AnchorScratch {
  std::vector<Entry> entries, entries_sorted;
  std::vector<Candidate> cands, cands_sorted;
};

void AnchorPass(State& st, const std::vector<uint64_t>& left_keys,
                const std::vector<uint64_t>& right_keys, AnchorScratch& scratch) {
  const std::vector<uint64_t>* keys[2] = {&left_keys, &right_keys};
  std::vector<Entry>& entries = scratch.entries;
  entries.clear();
  size_t free_nodes = 0;
  for (uint32_t s = 0; s < 2; ++s) {
    for (uint32_t v = 0; v < st.side[s].size; ++v) free_nodes += st.free(s, v);
  }
  entries.reserve(free_nodes);
  for (uint32_t s = 0; s < 2; ++s) {
    for (uint32_t v = 0; v < st.side[s].size; ++v) {
      if (st.free(s, v)) entries.push_back({(*keys[s])[v], s, v});
    }
  }
  // Made in (side, node) order, so a stable sort by key alone gives the
  // (key, side, node) order.
  if (entries.size() < kRadixMin) {
    std::sort(entries.begin(), entries.end());
  } else {
    RadixSort(entries, [](const Entry& e) { return e.key; }, 64, scratch.entries_sorted);
  }
  std::vector<Candidate>& cands = scratch.cands;
  cands.clear();
  for (size_t i = 0; i < entries.size();) {
    size_t j = i;
    while (j < entries.size() && entries[j].key == entries[i].key) ++j;
    // A unique pair is exactly one left entry followed by one right entry.
    if (j - i == 2 && entries[i].side == 0 && entries[i + 1].side == 1) {
      uint32_t l = entries[i].node, r = entries[i + 1].node;
      uint32_t h = std::max(st.side[0].height[l], st.side[1].height[r]);
      cands.push_back({h, SymKey(l, r), l, r});
    }
    i = j;
  }
  // Tallest first: a tall match explains its whole subtree. Then SymKey and
  // the left index (folded into `sym`'s free low bit, as SymKey's max is
  // below 2^31), so the order is total.
  for (Candidate& c : cands) {
    c.sym = (c.sym & 0xffffffff00000000ULL) | ((c.sym & 0xffffffffULL) << 1) |
            (c.left > c.right ? 1 : 0);
  }
  if (cands.size() < kRadixMin) {
    std::sort(cands.begin(), cands.end(), [](const Candidate& a, const Candidate& b) {
      if (a.height != b.height) return a.height > b.height;
      return a.sym < b.sym;
    });
  } else {
    RadixSort(cands, [](const Candidate& c) { return c.sym; }, 64, scratch.cands_sorted);
    RadixSort(cands, [](const Candidate& c) { return uint64_t{~c.height}; }, 32,
              scratch.cands_sorted);
  }
  for (const Candidate& c : cands) {
    if (!st.free(0, c.left) || !st.free(1, c.right)) continue;
    if (!Verify(st, c.left, c.right)) continue;
    st.Match(c.left, c.right, MatcherId::kAnchor);
  }
}

}  // namespace

void AnchorMatcher::Run(State& st) {
  for (int s = 0; s < 2; ++s) {
    if (st.side[s].size == 0) return;
  }
  // Nothing left to anchor on one side: skip the fingerprinting work.
  auto any_free = [&](int s) {
    for (uint32_t v = 0; v < st.side[s].size; ++v) {
      if (st.free(s, v)) return true;
    }
    return false;
  };
  if (!any_free(0) || !any_free(1)) return;
  ForBothSides(st.parallel, [&](int s) { st.fp[s] = ComputeFingerprints(st, s, level_); });
  ++st.fp_generation;
  // Later matchers read only the full level's context key: it is moved
  // there, not copied with the others (three arrays a node, each side, of
  // fresh memory the kernel zeroes first; on this VM a tenth of a diff of
  // one FX graph of 10^6 nodes went to pages).
  const std::vector<uint64_t>* context[2] = {&st.fp[0].context, &st.fp[1].context};
  if (level_ == Level::kFull && st.full_fp[0].context.empty()) {
    for (int s = 0; s < 2; ++s) {
      st.full_fp[s].context = std::move(st.fp[s].context);
      context[s] = &st.full_fp[s].context;
    }
  }
  // Strictest key first; each later pass only sees what is still free, so
  // a key that was ambiguous before can be unique now.
  AnchorScratch scratch;
  AnchorPass(st, *context[0], *context[1], scratch);
  AnchorPass(st, st.fp[0].bottom_up, st.fp[1].bottom_up, scratch);
  AnchorPass(st, st.fp[0].top_down, st.fp[1].top_down, scratch);
}

}  // namespace graphdiff::align
