// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The machine report (docs/gate.md, "check JSON"): stable key order, every
// changed metric with its limit.
#include "gate/gate_util.h"
#include "graphdiff/gate.h"
#include "util/json_text.h"

namespace graphdiff {

std::string RenderCheckJson(const CheckResult& result) {
  using Json = nlohmann::ordered_json;
  Json out;
  out["schema"] = "graphdiff-check";
  out["schema_version"] = 1;
  out["verdict"] = std::string(GateVerdictName(result.verdict));
  out["dump"] = result.dump;
  out["baseline"] = result.baseline_path;
  int failed = result.failed(), improved = result.improved();
  out["summary"] = {{"units", result.units.size()},
                    {"failed", failed},
                    {"improved", improved},
                    {"passed", static_cast<int>(result.units.size()) - failed - improved}};
  out["units"] = Json::array();
  for (const UnitCheck& u : result.units) {
    Json j;
    j["key"] = u.key;
    j["kind"] = std::string(GateUnitKindName(u.kind));
    j["verdict"] = std::string(GateVerdictName(u.verdict));
    j["status"] = u.is_new ? "new" : u.is_missing ? "missing" : "matched";
    j["baseline_key"] = u.baseline_key;
    j["matched_by"] = u.matched_by;
    j["reasons"] = u.reasons;
    j["changes"] = Json::array();
    for (const GateChange& c : u.changes) {
      Json m;
      m["metric"] = c.metric;
      m["old"] = c.old_value ? Json(*c.old_value) : Json(nullptr);
      m["new"] = c.new_value;
      m["delta"] = c.old_value ? gate_internal::DeltaJson(*c.old_value, c.new_value)
                               : Json(nullptr);
      m["limit"] = c.limit;
      m["breached"] = c.breached;
      m["improved"] = c.improved;
      j["changes"].push_back(std::move(m));
    }
    j["diff_findings"] = Json::array();
    for (const FindingNote& f : u.diff_findings) {
      j["diff_findings"].push_back(
          {{"id", f.id}, {"count", f.count}, {"title", f.title}, {"hint", f.hint}});
    }
    j["findings"] = Json::array();
    for (const FindingNote& f : u.findings) {
      j["findings"].push_back(
          {{"id", f.id}, {"count", f.count}, {"title", f.title}, {"hint", f.hint}});
    }
    out["units"].push_back(std::move(j));
  }
  out["update_command"] = result.update_command;
  out["skipped"] = Json::array();
  for (const auto& [file, reason] : result.skipped) {
    out["skipped"].push_back({{"path", file}, {"reason", reason}});
  }
  return DumpJson(out);
}

}  // namespace graphdiff
