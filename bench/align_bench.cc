// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Align speed: a synthetic model against its renumbered, reordered and
// lightly perturbed copy, from 10^3 to 10^6 nodes.
#include <benchmark/benchmark.h>

#include <cstdio>

#include "graphdiff/align.h"
#include "synthetic.h"

namespace graphdiff::bench {
namespace {

void BM_AlignShuffledCopy(benchmark::State& state) {
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  Graph left = SyntheticModel(n, 1);
  CopyStats stats;
  Graph right = ShuffledCopy(left, 2, /*perturb_per_million=*/100, &stats);
  size_t pairs = 0, changed = 0, left_only = 0, right_only = 0;
  for (auto _ : state) {
    absl::StatusOr<Alignment> a = Align(left, right);
    if (!a.ok()) {
      state.SkipWithError(std::string(a.status().message()).c_str());
      return;
    }
    pairs = a->pairs.size();
    changed = 0;
    for (const NodePair& p : a->pairs) changed += p.changed();
    left_only = a->left_only.size();
    right_only = a->right_only.size();
    benchmark::DoNotOptimize(a->pairs.data());
  }
  state.counters["nodes"] = static_cast<double>(left.nodes.size());
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["changed"] = static_cast<double>(changed);
  state.counters["planted"] = static_cast<double>(stats.attribute_changes +
                                                  stats.op_substitutions + stats.dead_nodes);
  state.counters["left_only"] = static_cast<double>(left_only);
  state.counters["right_only"] = static_cast<double>(right_only);
  state.counters["nodes_per_s"] = benchmark::Counter(
      static_cast<double>(left.nodes.size() + right.nodes.size()),
      benchmark::Counter::kIsIterationInvariantRate);
}

BENCHMARK(BM_AlignShuffledCopy)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace graphdiff::bench

BENCHMARK_MAIN();
