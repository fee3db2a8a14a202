// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// FX type annotations in every printed form: `f32[2, 4]` (2.0),
// `f32[64, 3, 7, 7][147, 49, 7, 1]cpu` (dtype, shape, strides, device),
// `f32[s0, 3]`, `Sym(s0)`, and Python scalar types (`int`, `float`, `bool`).
#ifndef GRAPHDIFF_SRC_PARSE_FX_TYPE_H_
#define GRAPHDIFF_SRC_PARSE_FX_TYPE_H_

#include <string_view>

#include "graphdiff/graph.h"

namespace graphdiff {

// Parses annotation `text` (quotes already removed). Returns false when the
// annotation says nothing about dtype or shape (`torch.Tensor`). For
// `Sym(expr)` the result is a rank-0 s64 (bool for relations) and `*symbol`
// receives the expression, interned in `graph`.
bool ParseFxTypeAnnotation(std::string_view text, Graph* graph, TensorType* out,
                           StrId* symbol);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_FX_TYPE_H_
