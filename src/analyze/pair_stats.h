// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// PairStats: what a pair's summary, its size-delta finding and dead code
// (in both directions) read about the two graphs, computed once.
#ifndef GRAPHDIFF_SRC_ANALYZE_PAIR_STATS_H_
#define GRAPHDIFF_SRC_ANALYZE_PAIR_STATS_H_

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "graphdiff/graph.h"
#include "graphdiff/stats.h"

namespace graphdiff::analyze {

// Each side's counts and live set, and how the op histogram changed.
// Neither side's histograms are kept: a symbolic_trace graph has an op per
// module call, and building two ordered maps of a million names each, to
// merge them into a handful of changes, was a fifth of diffing such a pair.
struct PairStats {
  GraphStats left;  // ComputeStats without source, ops and dtypes
  GraphStats right;
  // (op, right's count - left's count) for every op whose count changed,
  // by op name (bytewise). An empty op counts as "?". The names view the
  // graphs' strings (or static text): good while both graphs live.
  std::vector<std::pair<std::string_view, int64_t>> op_delta;
  // ReachesOutput of each side: dead code reads both sides' in each
  // direction, a pass over each graph a time.
  std::vector<bool> left_live;
  std::vector<bool> right_live;
};

// `parallel`: work the two sides out on two threads (worth it for big
// graphs only).
PairStats ComputePairStats(const Graph& left, const Graph& right, bool parallel);

}  // namespace graphdiff::analyze

#endif  // GRAPHDIFF_SRC_ANALYZE_PAIR_STATS_H_
