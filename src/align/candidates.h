// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Candidate pairs of the similarity and relaxed matchers, ranked: both pick
// greedily from the best, so the ranking is what decides among look-alikes.
#ifndef GRAPHDIFF_SRC_ALIGN_CANDIDATES_H_
#define GRAPHDIFF_SRC_ALIGN_CANDIDATES_H_

#include <cstdint>
#include <vector>

#include "align/state.h"

namespace graphdiff::align {

struct Candidate {
  double score;              // the matcher's own evidence, higher first
  uint32_t left;
  uint32_t right;
  uint32_t depth = 0;        // rounds of colour refinement that agree
  uint32_t shape_depth = 0;  // the same with ops left out
};

// Sorts best first: by score; among equal scores by how far out the two
// nodes' surroundings agree (see candidates.cc), first with ops, then by
// shape alone; then in an order that mirrors when the sides are swapped.
// `st` is const but for its scratch index (State::node_index).
void RankCandidates(State& st, std::vector<Candidate>& candidates);

// Pairs ranked candidates best first, each while both its nodes are free.
// With `certain_only`, a candidate that ties in rank with another for one
// of its nodes (three changed copies' look-alike first ops, before anything
// tells the copies apart) is skipped: left for later evidence, such as the
// changed op's own pair, to decide. True if a pair was made.
bool PairRanked(State& st, const std::vector<Candidate>& ranked, bool certain_only,
                MatcherId how);

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_CANDIDATES_H_
