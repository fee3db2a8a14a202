// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Positions: inputs and outputs are ordered lists, so leftovers that no
// structure can tell apart (forty identical dead outputs, unused equal
// parameters) pair in list order when both sides hold the same number.
#include <algorithm>
#include <tuple>
#include <vector>

#include "align/key_groups.h"
#include "align/matchers.h"

namespace graphdiff::align {
namespace {

struct Item {
  uint64_t key;
  uint32_t order;
  uint32_t node;
  bool operator<(const Item& o) const {
    return std::tie(key, order, node) < std::tie(o.key, o.order, o.node);
  }
};

std::vector<Item> FreeItems(const State& st, int s, bool outputs) {
  const Graph& g = *st.side[s].graph;
  std::vector<uint32_t> nodes;
  if (outputs) {
    for (const ValueRef& r : g.outputs) nodes.push_back(r.node);
  } else {
    nodes = g.inputs;
  }
  std::vector<uint8_t> seen(st.side[s].size, 0);
  std::vector<Item> items;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    uint32_t v = nodes[i];
    if (v >= st.side[s].size || seen[v] || !st.free(s, v)) continue;
    seen[v] = 1;
    items.push_back({st.fp[s].bottom_up.empty() ? st.side[s].cls[v]
                                                : st.fp[s].bottom_up[v],
                     static_cast<uint32_t>(items.size()), v});
  }
  std::sort(items.begin(), items.end());
  return items;
}

}  // namespace

void PositionMatcher::Run(State& st) {
  for (bool outputs : {false, true}) {
    std::vector<Item> a = FreeItems(st, 0, outputs);
    std::vector<Item> b = FreeItems(st, 1, outputs);
    // A group pairs by position only when both sides hold as many of it.
    ForEachCommonKey(a, b, [&](size_t i, size_t ie, size_t j, size_t je) {
      if (ie - i != je - j) return;
      for (size_t k = 0; k < ie - i; ++k) {
        st.Match(a[i + k].node, b[j + k].node, MatcherId::kPosition);
      }
    });
  }
}

}  // namespace graphdiff::align
