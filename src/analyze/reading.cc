// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// What reading each side left out or tolerated, carried into the result so
// every report can say it: skipped files, parser warnings, and how much each
// dump held.
#include "analyze/reading.h"

#include <string_view>

namespace graphdiff::analyze {

void AddReadingNotes(const Dump& dump, Side side, DiffResult* result) {
  bool left = side == Side::kLeft;
  for (const auto& [path, reason] : dump.skipped) {
    result->skipped.push_back({side, path, reason});
  }
  uint64_t graphs = 0, metrics = 0;
  for (const DumpFile& f : dump.files) {
    graphs += f.graphs.size();
    metrics += f.metrics.size();
    for (const Diagnostic& d : f.warnings) result->warnings.push_back({side, d});
  }
  (left ? result->left_graphs : result->right_graphs) = graphs;
  (left ? result->left_metrics : result->right_metrics) = metrics;
}

}  // namespace graphdiff::analyze
