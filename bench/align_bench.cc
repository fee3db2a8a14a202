// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Speed of the graph pipeline on synthetic models from 10^3 to 10^6 nodes:
// parsing their IR text, aligning a model against its renumbered, reordered
// and lightly perturbed copy, and the whole diff (align, analyse) plus the
// text report.
#include <benchmark/benchmark.h>

#include <string>

#include "graphdiff/align.h"
#include "graphdiff/diff.h"
#include "graphdiff/parse.h"
#include "graphdiff/report.h"
#include "synthetic.h"

namespace graphdiff::bench {
namespace {

void Sizes(benchmark::internal::Benchmark* b) {
  for (int n : {1000, 10000, 100000, 1000000}) b->Arg(n);
  b->Unit(benchmark::kMillisecond)->UseRealTime();
}

void BM_ParseIrText(benchmark::State& state) {
  const std::string text = RenderIrText(SyntheticModel(static_cast<uint32_t>(state.range(0)), 1));
  size_t nodes = 0;
  for (auto _ : state) {
    absl::StatusOr<ParsedText> parsed = ParseText(text, "synthetic.txt");
    if (!parsed.ok() || parsed->graphs.size() != 1) {
      state.SkipWithError(parsed.ok() ? "expected one graph"
                                      : std::string(parsed.status().message()).c_str());
      return;
    }
    nodes = parsed->graphs[0].nodes.size();
    benchmark::DoNotOptimize(parsed->graphs[0].nodes.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["MB"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(BM_ParseIrText)->Apply(Sizes);

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
  // Every planted change shows up once: as a changed pair (attribute, op)
  // or as a right-only node (dead clone).
  if (changed + right_only != stats.attribute_changes + stats.op_substitutions +
                                  stats.dead_nodes ||
      left_only != 0) {
    state.SkipWithError("alignment does not account for exactly the planted changes");
  }
  state.counters["nodes"] = static_cast<double>(left.nodes.size());
  state.counters["pairs"] = static_cast<double>(pairs);
  state.counters["changed"] = static_cast<double>(changed);
  state.counters["planted"] = static_cast<double>(stats.attribute_changes +
                                                  stats.op_substitutions + stats.dead_nodes);
  state.counters["right_only"] = static_cast<double>(right_only);
  state.counters["nodes_per_s"] = benchmark::Counter(
      static_cast<double>(left.nodes.size() + right.nodes.size()),
      benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_AlignShuffledCopy)->Apply(Sizes);

void BM_DiffAndRenderText(benchmark::State& state) {
  Graph left = SyntheticModel(static_cast<uint32_t>(state.range(0)), 1);
  Graph right = ShuffledCopy(left, 2, /*perturb_per_million=*/100);
  size_t findings = 0, bytes = 0;
  for (auto _ : state) {
    absl::StatusOr<DiffResult> diff = DiffGraphs(left, right);
    if (!diff.ok()) {
      state.SkipWithError(std::string(diff.status().message()).c_str());
      return;
    }
    std::string text = RenderDiff(*diff, ReportFormat::kText);
    findings = diff->findings.size();
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.counters["nodes"] = static_cast<double>(left.nodes.size());
  state.counters["findings"] = static_cast<double>(findings);
  state.counters["report_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_DiffAndRenderText)->Apply(Sizes);

}  // namespace
}  // namespace graphdiff::bench

BENCHMARK_MAIN();
