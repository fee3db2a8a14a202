// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Bounded similarity: what anchors and propagation left, paired by how well
// the neighbourhoods agree. Candidates come from both sides, so the result
// mirrors when the sides are swapped.
#include <algorithm>
#include <vector>

#include "align/candidates.h"
#include "align/matchers.h"
#include "align/neighbours.h"

namespace graphdiff::align {
namespace {

double Score(const State& st, uint32_t l, uint32_t r) {
  Agreement a = CompareNeighbours(st, l, r, /*by_position=*/true);
  if (a.agree == 0) return 0.0;
  double score = 0.6 * a.Fraction();
  if (!st.use_types || st.side[0].type_hash[l] == st.side[1].type_hash[r]) score += 0.2;
  if (!st.same_kind || st.side[0].attr_hash[l] == st.side[1].attr_hash[r]) score += 0.2;
  return score;
}

}  // namespace

void SimilarityMatcher::Run(State& st) {
  const uint32_t limit = std::max<uint32_t>(1, st.options->similarity_candidates);
  std::vector<Candidate> edges;
  std::vector<uint32_t> cands;
  for (int s = 0; s < 2; ++s) {
    for (uint32_t v = 0; v < st.side[s].size; ++v) {
      // Aliases pair by propagation, through their readers' operands as
      // written: they have no readers in the resolved view, so look-alike
      // aliases of one shared input would otherwise tie across copies.
      if (!st.free(s, v) || st.side[s].alias[v]) continue;
      NearbyCandidates(st, s, v, /*same_class=*/true, limit, &cands);
      for (uint32_t c : cands) {
        uint32_t l = s == 0 ? v : c, r = s == 0 ? c : v;
        double score = Score(st, l, r);
        if (score >= st.options->similarity_threshold) {
          edges.push_back({score, l, r});
        }
      }
    }
  }
  RankCandidates(st, edges);
  PairRanked(st, edges, certain_only_, MatcherId::kSimilarity);
}

}  // namespace graphdiff::align
