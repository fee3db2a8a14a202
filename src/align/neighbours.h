// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Neighbourhood evidence shared by the similarity and relaxed matchers: how
// many matched neighbours of a candidate pair agree, and which free nodes sit
// next to a node's matched neighbours.
#ifndef GRAPHDIFF_SRC_ALIGN_NEIGHBOURS_H_
#define GRAPHDIFF_SRC_ALIGN_NEIGHBOURS_H_

#include <cstdint>
#include <vector>

#include "align/state.h"

namespace graphdiff::align {

struct Agreement {
  uint32_t agree = 0;
  uint32_t disagree = 0;
  double Fraction() const {
    return agree == 0 ? 0.0 : static_cast<double>(agree) / (agree + disagree);
  }
};

// Compares matched neighbours of left `l` and right `r`. With `by_position`
// operands must sit at the same position; otherwise anywhere (ops that are
// different spellings order their operands differently). Free neighbours are
// neutral; extra operands count against unless they are free leaves.
Agreement CompareNeighbours(const State& st, uint32_t l, uint32_t r, bool by_position);

// Free nodes of the other side next to the counterparts of `v`'s matched
// neighbours (users of matched operands' counterparts, operands of matched
// users' counterparts), sorted, unique, at most `limit`. `same_class` keeps
// only candidates of v's op class.
void NearbyCandidates(const State& st, int side, uint32_t v, bool same_class,
                      uint32_t limit, std::vector<uint32_t>* out);

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_NEIGHBOURS_H_
