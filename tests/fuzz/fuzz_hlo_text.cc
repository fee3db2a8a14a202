// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// HLO module text.
#include <vector>

#include "fuzz_target.h"
#include "graphdiff/parse.h"

GRAPHDIFF_FUZZ_TARGET(hlo_text) {
  std::vector<graphdiff::Diagnostic> warnings;
  (void)graphdiff::ParseHloText(graphdiff::fuzz::AsText(data, size), "fuzz", {}, &warnings);
  return 0;
}
