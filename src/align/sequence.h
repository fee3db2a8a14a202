// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Aligning two ordered lists (graph outputs, graph inputs) by their
// content, so that entries inserted on one side shift nothing else.
#ifndef GRAPHDIFF_SRC_ALIGN_SEQUENCE_H_
#define GRAPHDIFF_SRC_ALIGN_SEQUENCE_H_

#include <cstdint>
#include <utility>
#include <vector>

namespace graphdiff::align {

// Positions (i, j), ascending in both, with a[i] == b[j]: the common prefix,
// the common suffix, and between them a minimal edit script (substitutions
// count, so a changed entry keeps its neighbours' partners in place), or
// for a middle too large to compare element by element, positions counted
// from whichever end agrees more. Only pairs that aligning in both
// directions gives are kept, so swapping a and b swaps the result.
std::vector<std::pair<uint32_t, uint32_t>> AlignSequences(const std::vector<uint64_t>& a,
                                                          const std::vector<uint64_t>& b);

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_SEQUENCE_H_
