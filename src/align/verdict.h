// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Verdicts: why a matched pair is not identical, in bits and in words.
#ifndef GRAPHDIFF_SRC_ALIGN_VERDICT_H_
#define GRAPHDIFF_SRC_ALIGN_VERDICT_H_

#include <cstdint>
#include <vector>

#include "align/state.h"
#include "graphdiff/align.h"

namespace graphdiff::align {

// Fills pair.reasons and pair.detail for (pair.left, pair.right).
// `group_left`/`group_right` list every node of a one-to-many pair's group
// (size 1 for an ordinary pair).
void ComputeVerdict(const State& st, const std::vector<uint32_t>& group_left,
                    const std::vector<uint32_t>& group_right, NodePair& pair);

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_VERDICT_H_
