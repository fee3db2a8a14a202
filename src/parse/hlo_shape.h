// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// HLO shapes: `f32[4,64]{1,0}`, `s64[]`, `f32[<=8,?]`, `bf16[8,128]{1,0:T(8,128)}`,
// `(f32[4]{0}, s32[])`, `token[]`, `()`.
#ifndef GRAPHDIFF_SRC_PARSE_HLO_SHAPE_H_
#define GRAPHDIFF_SRC_PARSE_HLO_SHAPE_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "graphdiff/graph.h"
#include "parse/hlo_scan.h"

namespace graphdiff {

// Parses the shape at text[*pos] and advances *pos past it. A tuple yields
// one TensorType per top-level element (a nested tuple element becomes one
// type of unknown dtype and rank); an array yields one. Layout text is
// interned as written, tiling included. On failure fills `error` (offset
// into `text`) and returns false.
bool ParseHloShape(std::string_view text, size_t* pos, Graph* graph,
                   TypeList* out, HloScanError* error);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_HLO_SHAPE_H_
