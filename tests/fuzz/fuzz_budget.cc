// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// Budget JSON.
#include "fuzz_target.h"
#include "graphdiff/gate.h"

GRAPHDIFF_FUZZ_TARGET(budget) {
  (void)graphdiff::ParseBudget(graphdiff::fuzz::AsText(data, size), "fuzz.json");
  return 0;
}
