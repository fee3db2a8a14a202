// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Synthetic graphs for benchmarks: large, realistic lazy-tensor-IR-shaped
// graphs (stacked transformer and conv blocks, shared parameters, multi-output
// batch/layer norms, constant+expand pairs) from a thousand to millions of
// nodes, and shuffled, lightly perturbed copies of them.
#ifndef GRAPHDIFF_BENCH_SYNTHETIC_H_
#define GRAPHDIFF_BENCH_SYNTHETIC_H_

#include <cstdint>

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

}  // namespace graphdiff::bench

#endif  // GRAPHDIFF_BENCH_SYNTHETIC_H_
