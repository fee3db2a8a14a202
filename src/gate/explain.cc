// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "gate/explain.h"

#include <map>
#include <string>
#include <utility>

#include "fmt/format.h"
#include "graphdiff/diff.h"

namespace graphdiff::gate_internal {
namespace {

constexpr size_t kMaxDiffNotes = 5;

const GateUnit* FindUnit(const Baseline& b, std::string_view key) {
  for (const GateUnit& u : b.units) {
    if (u.kind == GateUnitKind::kGraph && u.key == key) return &u;
  }
  return nullptr;
}

}  // namespace

std::string StripNameCounter(std::string_view name) {
  size_t dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size()) {
    return std::string(name);
  }
  for (size_t i = dot + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return std::string(name);
  }
  return std::string(name.substr(0, dot));
}

void ExplainFailures(const Baseline& baseline, const Baseline& current, CheckResult* result) {
  for (UnitCheck& check : result->units) {
    if (check.kind != GateUnitKind::kGraph || check.verdict != GateVerdict::kFail ||
        check.is_new || check.is_missing || check.baseline_key.empty()) {
      continue;
    }
    const GateUnit* old_unit = FindUnit(baseline, check.baseline_key);
    const GateUnit* new_unit = FindUnit(current, check.key);
    if (old_unit == nullptr || new_unit == nullptr) continue;
    if (old_unit->structure.empty() || new_unit->structure.empty()) {
      check.diff_findings.push_back(
          {"no-structure", 0,
           "the baseline holds no graph structure for this unit, so the failure cannot be "
           "explained by a diff",
           "re-create the baseline with this graphdiff (`graphdiff snapshot`)"});
      continue;
    }
    absl::StatusOr<Graph> before = DecodeGraph(old_unit->structure, "baseline:" + old_unit->key);
    absl::StatusOr<Graph> after = DecodeGraph(new_unit->structure, new_unit->key);
    if (!before.ok() || !after.ok()) {
      const absl::Status& st = before.ok() ? after.status() : before.status();
      check.diff_findings.push_back(
          {"no-structure", 0, std::string(st.message()),
           "re-create the baseline with `graphdiff snapshot`"});
      continue;
    }
    absl::StatusOr<DiffResult> diff = DiffGraphs(*before, *after);
    if (!diff.ok()) {
      check.diff_findings.push_back({"no-structure", 0,
                                     fmt::format("the structural diff failed: {}",
                                                 std::string(diff.status().message())),
                                     ""});
      continue;
    }
    for (const Finding& f : diff->findings) {
      // Size deltas restate the gate's own reasons.
      if (f.id == "size-delta") continue;
      if (check.diff_findings.size() == kMaxDiffNotes) break;
      check.diff_findings.push_back({f.id, f.count, f.title, f.hint});
    }
  }
}

}  // namespace graphdiff::gate_internal
