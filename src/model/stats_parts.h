// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// ComputeStats in two parts: the scalar facts, and the op and dtype
// histograms as lists of views. A text report of 10^5 small graphs needs
// the histograms only long enough to print them, and building the
// GraphStats maps (a node and a string a distinct op, freed again) was a
// third of writing their stats.
#ifndef GRAPHDIFF_SRC_MODEL_STATS_PARTS_H_
#define GRAPHDIFF_SRC_MODEL_STATS_PARTS_H_

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "graphdiff/graph.h"
#include "graphdiff/stats.h"

namespace graphdiff {

// GraphStats::ops and ::dtypes as (name, count) lists in the maps' order
// (by name, each name once), unless asked for unsorted ops. Names view the
// graph's strings or static text: good while the graph lives.
struct StatsHistograms {
  std::vector<std::pair<std::string_view, uint64_t>> ops;
  std::vector<std::pair<std::string_view, uint64_t>> dtypes;
};

// ComputeStats(graph) with its source and maps left empty in `*stats` (a
// caller writing a graph's text names its source itself: copying the file
// name, a heap block per graph, only to replace it was waste) and the
// maps' contents in `*hist` (cleared first; its vectors keep their room, so
// one StatsHistograms serves graph after graph).
// With `sort_ops` false the ops are left in no order and a name may come
// twice (an empty op counts as "?", and so does a literal "?"): a caller
// that only matches them against another graph's (ComputePairStats) hashes
// them, where sorting a million module paths cost more than the match.
void ComputeStatsParts(const Graph& graph, GraphStats* stats, StatsHistograms* hist,
                       bool sort_ops = true);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_MODEL_STATS_PARTS_H_
