// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The symmetry matcher's fast path. Individualising one pair of look-alikes
// at a time costs a refinement each: a graph of a thousand copies of a
// block pays a thousand refinements, each moving a copy's worth of nodes
// through the partition's cells (0.2 to 0.7 s of a 10^6-node diff). Nearly
// always, what those refinements arrive at is what the tie-breaks name
// directly: within each cell of look-alikes, the nodes at the same output
// place, or with the same frame or FX name, else the k-th left node with
// the k-th right one in node order. So
// every cell is guessed at once and the guess is checked against the
// graphs, and only what fails goes the slow way.
#ifndef GRAPHDIFF_SRC_ALIGN_SYMMETRY_GUESS_H_
#define GRAPHDIFF_SRC_ALIGN_SYMMETRY_GUESS_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "align/partition.h"
#include "align/state.h"

namespace graphdiff::align {

// Whether JointPartition element `element` is a pure alias (see
// SideView::alias): aliases are paired through their readers, never chosen.
inline bool AliasElement(const State& st, uint32_t element) {
  const uint32_t n0 = st.side[0].size;
  return element < n0 ? st.side[0].alias[element] != 0 : st.side[1].alias[element - n0] != 0;
}

// The corresponding entries of both sides' output lists (or input lists),
// as element ids: the lists of cells aligned by relative order, so an
// output added on one side shifts nothing. The strongest evidence among
// look-alikes, for the guess and for the one-by-one path alike.
std::vector<std::pair<uint32_t, uint32_t>> AlignedPositions(const State& st,
                                                            const JointPartition& p,
                                                            bool outputs);

// Guesses a counterpart for every node of every cell of look-alikes that
// holds both sides (aliases aside), with the evidence the one-by-one path
// weighs, in its order: places in the output and input lists, a model
// frame the cell holds once on each side, an FX name held once on each
// side, node order; each guess from places or order pulls in the
// pairs it determines (operands at the same place, users alone in their
// role) before the next. A guessed pair stands only when each operand and
// each user of either node corresponds under the guess or under pairs
// already made, and a pair next to one that falls falls with it: what
// stands is a union of whole components of look-alikes mapped onto each
// other exactly, which partition refinement cannot split, and which is set
// aside in `p`. The guesses are made "symmetry", what they determined
// "refine". Returns the pairs made. `scratch` is working memory, whatever
// it held (a vector the caller is done with saves fresh pages).
size_t GuessLookAlikes(State& st, JointPartition& p, std::vector<uint64_t>& scratch);

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_SYMMETRY_GUESS_H_
