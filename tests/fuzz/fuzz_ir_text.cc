// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// Lazy-tensor IR text (one `IR { ... }` block).
#include "fuzz_target.h"
#include "graphdiff/parse.h"

GRAPHDIFF_FUZZ_TARGET(ir_text) {
  (void)graphdiff::ParseIrText(graphdiff::fuzz::AsText(data, size), "fuzz");
  return 0;
}
