// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Synthetic graphs for benchmarks: large, realistic lazy-tensor-IR-shaped
// graphs (stacked transformer and conv blocks, shared parameters, multi-output
// batch/layer norms, constant+expand pairs) from a thousand to millions of
// nodes, and shuffled, lightly perturbed copies of them.
#ifndef GRAPHDIFF_BENCH_SYNTHETIC_H_
#define GRAPHDIFF_BENCH_SYNTHETIC_H_

#include <cstdint>
#include <string>

#include "graphdiff/graph.h"

namespace graphdiff::bench {

// A graph of about `target_nodes` nodes (never fewer), deterministic in
// `seed`.
Graph SyntheticModel(uint32_t target_nodes, uint64_t seed = 1);

// What ShuffledCopy did, for checking an alignment's plausibility.
struct CopyStats {
  uint32_t attribute_changes = 0;
  uint32_t op_substitutions = 0;
  uint32_t dead_nodes = 0;
};

// A copy with new names, a random topological order, and about
// `perturb_per_million` planted changes per million nodes (attribute edits,
// op substitutions, dead nodes).
Graph ShuffledCopy(const Graph& g, uint64_t seed, uint32_t perturb_per_million,
                   CopyStats* stats = nullptr);

// The graph as XLA-flavoured lazy-tensor IR text (`%3 = f32[4,8]{1,0}
// aten::addmm(%0, %1, %2.1), xla_shape=..., ROOT=0`), so a benchmark can
// time the parser on a dump of known size. Output positions beyond a node's
// first are not written: the text format has one ROOT per node.
std::string RenderIrText(const Graph& g);

}  // namespace graphdiff::bench

#endif  // GRAPHDIFF_BENCH_SYNTHETIC_H_
