// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// XLA save files ([ScheduleSyncTensorsGraph] records).
#include <vector>

#include "fuzz_target.h"
#include "graphdiff/parse.h"

GRAPHDIFF_FUZZ_TARGET(save_file) {
  std::vector<graphdiff::Diagnostic> warnings;
  (void)graphdiff::ParseSaveFile(graphdiff::fuzz::AsText(data, size), "fuzz", {}, &warnings);
  return 0;
}
