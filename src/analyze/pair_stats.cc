// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "analyze/pair_stats.h"

#include <algorithm>
#include <cstdint>
#include <future>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "analyze/analyze.h"
#include "graphdiff/strings.h"
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
  // The lists are in pool order, the order ops were first used, which two
  // dumps of one model share nearly everywhere: the lists are walked side
  // by side, and an op at the matching place in both with the same count
  // cancels without the table. Where they part, a short look ahead finds
  // the place again (an op only one side uses); what it does not find goes
  // to the table. A graph of 10^6 module calls has as many distinct ops,
  // and hashing each pair's two million into a table was a tenth of its
  // diff. (An op may come twice in a list, "?"; cancelling a pair of equal
  // counts changes no sum.)
  const auto& ops0 = hist[0].ops;
  const auto& ops1 = hist[1].ops;
  std::vector<uint8_t> to_table[2] = {std::vector<uint8_t>(ops0.size(), 1),
                                      std::vector<uint8_t>(ops1.size(), 1)};
  size_t cancels = 0;
  {
    constexpr size_t kLookAhead = 8;
    // Lists with little in common (other models, other op orders) stop
    // looking after this many misses in a row: the table takes the rest.
    constexpr size_t kGiveUp = 64;
    size_t i = 0, j = 0, misses = 0;
    while (i < ops0.size() && j < ops1.size() && misses < kGiveUp) {
      if (ops0[i].first == ops1[j].first) {
        if (ops0[i].second == ops1[j].second) {
          to_table[0][i] = to_table[1][j] = 0;
          ++cancels;
        }
        ++i;
        ++j;
        misses = 0;
        continue;
      }
      size_t d = 1;
      for (; d <= kLookAhead; ++d) {
        if (i + d < ops0.size() && ops0[i + d].first == ops1[j].first) {
          i += d;
          break;
        }
        if (j + d < ops1.size() && ops0[i].first == ops1[j + d].first) {
          j += d;
          break;
        }
      }
      if (d > kLookAhead) {
        ++i;
        ++j;
        ++misses;
      }
    }
  }
  absl::flat_hash_map<std::string_view, int64_t, StringViewHash> delta;
  delta.reserve(std::max(ops0.size(), ops1.size()) - cancels);
  for (size_t k = 0; k < ops0.size(); ++k) {
    if (to_table[0][k]) delta[ops0[k].first] -= static_cast<int64_t>(ops0[k].second);
  }
  for (size_t k = 0; k < ops1.size(); ++k) {
    if (to_table[1][k]) delta[ops1[k].first] += static_cast<int64_t>(ops1[k].second);
  }
  for (const auto& [op, n] : delta) {
    if (n != 0) out.op_delta.emplace_back(op, n);
  }
  std::sort(out.op_delta.begin(), out.op_delta.end());
  return out;
}

}  // namespace graphdiff::analyze
