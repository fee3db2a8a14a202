// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// Metrics reports.
#include <vector>

#include "fuzz_target.h"
#include "graphdiff/parse.h"

GRAPHDIFF_FUZZ_TARGET(metrics) {
  std::vector<graphdiff::Diagnostic> warnings;
  (void)graphdiff::ParseMetrics(graphdiff::fuzz::AsText(data, size), "fuzz", &warnings);
  return 0;
}
