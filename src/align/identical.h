// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Graphs equal node for node: the same nodes, by value, in the same order,
// with the same inputs and outputs. Most pairs of a real diff are: a run
// compared with its rerun changes a few graphs of a directory, a save file
// repeats its step graph. Their alignment is node i with node i, which the
// matchers would find too, at the price of fingerprinting and refining the
// whole pair; on a directory of 10,000 small graph files, aligning pairs
// equal node for node was a fifth of the diff.
#ifndef GRAPHDIFF_SRC_ALIGN_IDENTICAL_H_
#define GRAPHDIFF_SRC_ALIGN_IDENTICAL_H_

#include "absl/status/statusor.h"
#include "graphdiff/align.h"
#include "graphdiff/graph.h"

namespace graphdiff::align {

// Whether `a` and `b` are equal node for node: every field the matchers or
// verdicts read (kind, op, raw op, overload, name, frame, operands,
// attributes, result types by value, output count), the inputs, outputs,
// graph kind and partial flag. Strings compare by value, by id when the two
// graphs share a string pool. Lines and names of the graphs and their
// sources only label what a diff finds. Stops at the first difference.
bool EqualNodeForNode(const Graph& a, const Graph& b);

// The alignment of two graphs equal node for node: node i with node i
// (matcher `identical`), output i with output i.
Alignment NodeForNode(const Graph& g);

// Align() without the shortcut: the matchers' pipeline, whatever the graphs.
// For tests that hold the shortcut to what the matchers give.
absl::StatusOr<Alignment> AlignByMatchers(const Graph& left, const Graph& right,
                                          const AlignOptions& options);

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_IDENTICAL_H_
