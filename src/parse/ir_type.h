// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The result-type grammar of lazy-tensor IR lines, shared by the IR text and
// save-file parsers: XLA shapes (`f32[4,64]{1,0}`, `(f32[2], s64[<=5])`) and
// LTC shape lists (`[Float[4], Long[4]]`, `[]`).
#ifndef GRAPHDIFF_SRC_PARSE_IR_TYPE_H_
#define GRAPHDIFF_SRC_PARSE_IR_TYPE_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "graphdiff/graph.h"

namespace graphdiff {

// Where the type text that starts `line` at `begin` ends: the first space not
// preceded by a comma (tuple and list elements are joined by ", ").
// Returns npos when the line holds nothing after the type.
size_t FindIrTypeEnd(std::string_view line, size_t begin);

// Parses `text`, exactly one IR result type, appending one TensorType per
// tensor (tuples are flattened) to `out`; symbols and layouts are interned in
// `graph`. On failure returns false and sets `*error_at` to the offset in
// `text` where the grammar broke and `*error` to what was expected.
bool ParseIrType(std::string_view text, Graph* graph,
                 TypeList* out, size_t* error_at,
                 std::string_view* error);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_IR_TYPE_H_
