// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// FX graph code in any printed form.
#include <vector>

#include "fuzz_target.h"
#include "graphdiff/parse.h"

GRAPHDIFF_FUZZ_TARGET(fx_code) {
  std::vector<graphdiff::Diagnostic> warnings;
  (void)graphdiff::ParseFxCode(graphdiff::fuzz::AsText(data, size), "fuzz", {}, &warnings);
  return 0;
}
