// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// Baseline JSON: parse, write back, check a baseline against itself.
#include "fuzz_target.h"
#include "graphdiff/gate.h"

GRAPHDIFF_FUZZ_TARGET(baseline) {
  using namespace graphdiff;
  absl::StatusOr<Baseline> b = ParseBaseline(fuzz::AsText(data, size), "fuzz.json");
  if (!b.ok()) return 0;
  std::string json = BaselineToJson(*b);
  fuzz::CheckJsonOutput(json, "BaselineToJson");
  absl::StatusOr<Baseline> again = ParseBaseline(json, "again.json");
  if (!again.ok()) __builtin_trap();  // what we write, we read
  CheckResult r = CheckAgainstBaseline(*b, *again, DefaultBudget(), {}, "fuzz.json");
  fuzz::CheckCleanOutput(RenderCheckText(r), "check text");
  fuzz::CheckJsonOutput(RenderCheckJson(r), "check json");
  return 0;
}
