// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Graphs full of look-alikes, built from real graphs: the shapes where an
// aligner must use position evidence because structure alone cannot tell
// nodes apart (replicated heads, chained identical layers, N identical
// parameter updates, parameters returned as outputs).
#ifndef GRAPHDIFF_TESTS_TESTING_SYMMETRIC_H_
#define GRAPHDIFF_TESTS_TESTING_SYMMETRIC_H_

#include <cstdint>
#include <vector>

#include "graphdiff/graph.h"

namespace graphdiff::testing {

// `n` disjoint copies of `g`. Inputs and outputs are concatenated copy by
// copy, so outputs are numbered densely as one graph of n heads would be.
// offsets[k] is the index of copy k's first node (copy k's node v is
// offsets[k] + v).
Graph Replicate(const Graph& g, uint32_t n, std::vector<uint32_t>* offsets = nullptr);

// `n` copies of `block` that all read one set of its inputs, as the steps
// of an unrolled loop read the same weights. Outputs are concatenated copy by
// copy. (*maps)[k][v] is where copy k put the block's node v.
Graph ShareInputs(const Graph& block, uint32_t n,
                  std::vector<std::vector<ValueRef>>* maps = nullptr);

// `n` copies of `block` in a chain: copy k reads copy k-1's first output
// where the block reads its first input. Outputs are the last copy's.
Graph Chain(const Graph& block, uint32_t n);

// An SGD-with-momentum step over the parameters of `model` (one update
// chain per typed input of it: param, grad and momentum buffer in, new
// param and buffer out; learning rate and momentum shared constants).
// Parameters of equal shape make identical chains.
Graph OptimizerStep(const Graph& model);

// `g` returning its inputs after its own outputs, as an AOT forward returns
// the parameters the backward needs.
Graph ReturnInputs(const Graph& g);

}  // namespace graphdiff::testing

#endif  // GRAPHDIFF_TESTS_TESTING_SYMMETRIC_H_
