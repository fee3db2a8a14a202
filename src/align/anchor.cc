// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Exact anchors: equal fingerprints that occur exactly once among the free
// nodes of each side.
#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "align/matchers.h"
#include "align/radix_sort.h"

namespace graphdiff::align {
namespace {

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

// Fingerprints are mixed already: their own bits are a good hash.
struct KeyHash {
  size_t operator()(uint64_t key) const { return static_cast<size_t>(key); }
};

// Free left nodes past which two threads count the keys.
constexpr size_t kSplitKeys = 1 << 16;

// Which free node holds a key on each side: kNone for none yet, kMany for
// more than one.
constexpr uint32_t kMany = kNone - 1;
struct Holders {
  uint32_t left, right;
};

// What a pass keeps for the next: on a graph of a million nodes each is
// tens of MB, fresh pages every time it was made anew.
struct AnchorScratch {
  absl::flat_hash_map<uint64_t, Holders, KeyHash> holders[2];
  std::vector<Candidate> cands, cands_sorted, more;
};

void AnchorPass(State& st, const std::vector<uint64_t>& left_keys,
                const std::vector<uint64_t>& right_keys, AnchorScratch& scratch) {
  // Keys held by exactly one free node on each side, counted in a table of
  // distinct keys: graphs of look-alikes have few, and sorting every node's
  // key to find the unique ones cost more than the rest of the matcher.
  // The keys are mixed already: their top bit splits them in two halves,
  // each counted in a table of its own, on a thread of its own where the
  // aligner has two. The sort below orders the candidates either way.
  size_t free_left = 0;
  for (uint32_t v = 0; v < st.side[0].size; ++v) free_left += st.free(0, v);
  const bool split = st.parallel && free_left >= kSplitKeys;
  auto count = [&](int half, std::vector<Candidate>& cands) {
    auto& holders = scratch.holders[half];
    holders.clear();
    // Sized once: grown step by step, a graph of a million distinct keys
    // moved every entry about twice.
    holders.reserve(split ? free_left / 2 : free_left);
    auto mine = [&](uint64_t key) { return !split || static_cast<int>(key >> 63) == half; };
    for (uint32_t v = 0; v < st.side[0].size; ++v) {
      if (!st.free(0, v) || !mine(left_keys[v])) continue;
      auto [it, added] = holders.try_emplace(left_keys[v], Holders{v, kNone});
      if (!added) it->second.left = kMany;
    }
    for (uint32_t v = 0; v < st.side[1].size; ++v) {
      if (!st.free(1, v) || !mine(right_keys[v])) continue;
      auto it = holders.find(right_keys[v]);
      if (it == holders.end() || it->second.left == kMany) continue;
      it->second.right = it->second.right == kNone ? v : kMany;
    }
    cands.clear();
    // The table's order is no order at all; the sort below gives one.
    for (const auto& [key, h] : holders) {
      if (h.left >= kMany || h.right >= kMany) continue;
      const uint32_t l = h.left, r = h.right;
      cands.push_back({std::max(st.side[0].height[l], st.side[1].height[r]), SymKey(l, r), l, r});
    }
  };
  std::vector<Candidate>& cands = scratch.cands;
  if (split) {
    ForBothSides(true, [&](int half) { count(half, half == 0 ? cands : scratch.more); });
    cands.insert(cands.end(), scratch.more.begin(), scratch.more.end());
  } else {
    count(0, cands);
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
    // Only the digits the keys use: heights rarely pass 2^16.
    uint64_t max_sym = 0;
    uint32_t max_height = 0;
    for (const Candidate& c : cands) {
      max_sym = std::max(max_sym, c.sym);
      max_height = std::max(max_height, c.height);
    }
    auto bits = [](uint64_t max) { return max == 0 ? 1 : 64 - __builtin_clzll(max); };
    RadixSort(cands, [](const Candidate& c) { return c.sym; }, bits(max_sym), scratch.cands_sorted);
    RadixSort(cands, [max_height](const Candidate& c) { return uint64_t{max_height - c.height}; },
              bits(max_height), scratch.cands_sorted);
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
  if (!st.AnyFree(0) || !st.AnyFree(1)) return;
  // The full level's context of every node is kept for later matchers
  // (below); after it, only free nodes' keys are read.
  const bool keep_context = level_ == Level::kFull && st.full_fp[0].context.empty();
  ForBothSides(st.parallel, [&](int s) {
    if (keep_context) {
      st.fp[s] = ComputeFingerprints(st, s, level_);
    } else {
      RefreshFingerprints(st, s, level_, &st.fp[s]);
    }
  });
  ++st.fp_generation;
  // Later matchers read only the full level's context key: it is moved
  // there, not copied with the others (three arrays a node, each side, of
  // fresh memory the kernel zeroes first; on this VM a tenth of a diff of
  // one FX graph of 10^6 nodes went to pages).
  const std::vector<uint64_t>* context[2] = {&st.fp[0].context, &st.fp[1].context};
  if (keep_context) {
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
