// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Twins: interchangeable leftovers pair in node order.
#include <algorithm>
#include <tuple>
#include <vector>

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

std::vector<Twin> FreeTwins(const State& st, int s) {
  std::vector<Twin> out;
  const std::vector<uint64_t>& context = st.full_fp[s].context;
  if (context.size() != st.side[s].size) return out;
  for (uint32_t v = 0; v < st.side[s].size; ++v) {
    if (st.free(s, v)) out.push_back({context[v], v});
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

void TwinMatcher::Run(State& st) {
  std::vector<Twin> a = FreeTwins(st, 0);
  std::vector<Twin> b = FreeTwins(st, 1);
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].key != b[j].key) {
      if (a[i].key < b[j].key) {
        ++i;
      } else {
        ++j;
      }
      continue;
    }
    size_t ie = i, je = j;
    while (ie < a.size() && a[ie].key == a[i].key) ++ie;
    while (je < b.size() && b[je].key == b[j].key) ++je;
    // Unequal counts still pair as far as they go: which of the surplus is
    // "new" cannot be known, only how many.
    for (size_t k = 0; k < std::min(ie - i, je - j); ++k) {
      st.Match(a[i + k].node, b[j + k].node, MatcherId::kPosition);
    }
    i = ie;
    j = je;
  }
}

}  // namespace graphdiff::align
