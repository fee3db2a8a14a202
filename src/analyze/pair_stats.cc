// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "analyze/pair_stats.h"

#include <algorithm>
#include <future>

#include "absl/container/flat_hash_map.h"
#include "analyze/analyze.h"
#include "model/stats_parts.h"

namespace graphdiff::analyze {

PairStats ComputePairStats(const Graph& left, const Graph& right, bool parallel) {
  PairStats out;
  StatsHistograms hist[2];
  // Each side's counts and live set on one thread. The op counts are left
  // unsorted: the two lists are matched by hashing, and only the changes,
  // usually few, are sorted.
  auto side = [&](int s) {
    const Graph& g = s == 0 ? left : right;
    ComputeStatsParts(g, s == 0 ? &out.left : &out.right, &hist[s], /*sort_ops=*/false);
    (s == 0 ? out.left_live : out.right_live) = ReachesOutput(g);
  };
  if (parallel) {
    std::future<void> other = std::async(std::launch::async, side, 0);
    side(1);
    other.get();
  } else {
    side(0);
    side(1);
  }
  absl::flat_hash_map<std::string_view, int64_t> delta;
  delta.reserve(std::max(hist[0].ops.size(), hist[1].ops.size()));
  for (const auto& [op, n] : hist[0].ops) delta[op] -= static_cast<int64_t>(n);
  for (const auto& [op, n] : hist[1].ops) delta[op] += static_cast<int64_t>(n);
  for (const auto& [op, n] : delta) {
    if (n != 0) out.op_delta.emplace_back(op, n);
  }
  std::sort(out.op_delta.begin(), out.op_delta.end());
  return out;
}

}  // namespace graphdiff::analyze
