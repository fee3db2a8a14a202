// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// Format detection and dispatch, as the loader calls it; then stats of
// every graph found, in text and JSON.
#include "fuzz_target.h"
#include "graphdiff/parse.h"
#include "graphdiff/stats.h"

GRAPHDIFF_FUZZ_TARGET(parse_text) {
  using namespace graphdiff;
  std::string_view text = fuzz::AsText(data, size);
  (void)DetectFormat(text);
  absl::StatusOr<ParsedText> parsed = ParseText(text, "fuzz");
  if (!parsed.ok()) return 0;
  StatsReport report;
  for (const Graph& g : parsed->graphs) report.graphs.push_back(ComputeStats(g));
  report.metrics = parsed->metrics;
  fuzz::CheckCleanOutput(RenderStatsText(report, 0), "stats text");
  fuzz::CheckJsonOutput(StatsToJson(report), "stats json");
  return 0;
}
