// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Twins: interchangeable leftovers pair in node order.
#include <algorithm>
#include <tuple>
#include <vector>

#include "align/key_groups.h"
#include "align/matchers.h"

namespace graphdiff::align {
namespace {

struct Twin {
  uint64_t key;
  uint32_t node;
  bool operator<(const Twin& o) const {
    return std::tie(key, node) < std::tie(o.key, o.node);
  }
};

std::vector<Twin> FreeTwins(const State& st, int s, const std::vector<uint64_t>& keys,
                           bool aliases) {
  std::vector<Twin> out;
  if (keys.size() != st.side[s].size) return out;
  for (uint32_t v = 0; v < st.side[s].size; ++v) {
    if (st.free(s, v) && (aliases || !st.side[s].alias[v])) out.push_back({keys[v], v});
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Nothing reads any of twins[begin, end) and none is returned.
bool AllDead(const State& st, int s, const std::vector<Twin>& twins, size_t begin, size_t end) {
  for (size_t k = begin; k < end; ++k) {
    const uint32_t v = twins[k].node;
    if (!st.side[s].users(v).empty() || st.side[s].out_pos[v] != kNone) return false;
  }
  return true;
}

void PairTwins(State& st, const std::vector<uint64_t>& left_keys,
               const std::vector<uint64_t>& right_keys, bool unique_only, bool aliases) {
  std::vector<Twin> a = FreeTwins(st, 0, left_keys, aliases);
  std::vector<Twin> b = FreeTwins(st, 1, right_keys, aliases);
  ForEachCommonKey(a, b, [&](size_t i, size_t ie, size_t j, size_t je) {
    // Unequal counts still pair as far as they go: which of the surplus is
    // "new" cannot be known, only how many. With `unique_only`, several
    // look-alikes pair only when one side's are all dead: their readers
    // were rewired away (three copies' weights no longer read), so which
    // reader each had tells nothing, and the nodes are still there; left
    // unpaired they would read as weights removed and others added.
    const bool several = ie - i != 1 || je - j != 1;
    const bool dead = AllDead(st, 0, a, i, ie) || AllDead(st, 1, b, j, je);
    const size_t n = unique_only && several && !dead ? 0 : std::min(ie - i, je - j);
    for (size_t k = 0; k < n; ++k) {
      st.Match(a[i + k].node, b[j + k].node, MatcherId::kTwins);
    }
  });
}

}  // namespace

void TwinMatcher::Run(State& st) {
  // Alike in everything, users included.
  PairTwins(st, st.full_fp[0].context, st.full_fp[1].context, /*unique_only=*/false, aliases_);
  if (!st.AnyFree(0) || !st.AnyFree(1)) return;
  // Then a last free node on each side that computes the same thing from
  // the same matched operands, whoever reads it: the one of twenty unused
  // `empty` allocations that gained a reader. Only one-to-one: several free
  // look-alikes (constants under a changed region) are not interchangeable,
  // since their readers differ; unless one side's have no readers at all.
  PairTwins(st, BottomUpFingerprints(st, 0, Level::kFull),
            BottomUpFingerprints(st, 1, Level::kFull), /*unique_only=*/true, aliases_);
}

}  // namespace graphdiff::align
