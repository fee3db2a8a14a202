// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// Reading a diff report back (DiffResultFromJson), then rendering it.
#include "fuzz_target.h"
#include "graphdiff/report.h"

GRAPHDIFF_FUZZ_TARGET(diff_json) {
  using namespace graphdiff;
  absl::StatusOr<DiffResult> r = DiffResultFromJson(fuzz::AsText(data, size));
  if (!r.ok()) return 0;
  fuzz::CheckJsonOutput(RenderDiff(*r, ReportFormat::kJson, {}), "diff json");
  fuzz::CheckCleanOutput(RenderDiff(*r, ReportFormat::kText, {}), "diff text");
  fuzz::CheckCleanOutput(RenderDiff(*r, ReportFormat::kMarkdown, {}), "diff markdown");
  return 0;
}
