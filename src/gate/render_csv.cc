// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// CSV for trend dashboards: every fact of every unit, both sides, so a
// spreadsheet or a time-series store can plot nodes per graph run by run.
#include <map>
#include <optional>
#include <set>
#include <string>

#include "fmt/format.h"
#include "gate/gate_util.h"
#include "graphdiff/gate.h"
#include "graphdiff/sanitize.h"

namespace graphdiff {
namespace {

// RFC 4180: quote fields holding a comma, quote or line break. A leading
// `=` or `@`, or `+`/`-` not starting a number (limits such as `+2%` are
// fine), is prefixed with `'` so spreadsheets do not run it.
std::string Field(std::string_view s) {
  std::string v(s);
  bool number_follows = v.size() > 1 && v[1] >= '0' && v[1] <= '9';
  if (!v.empty() && (v[0] == '=' || v[0] == '@' ||
                     ((v[0] == '+' || v[0] == '-') && !number_follows))) {
    v = "'" + v;
  }
  if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
  std::string out = "\"";
  for (char c : v) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string Number(std::optional<int64_t> v) { return v ? std::to_string(*v) : std::string(); }

}  // namespace

std::string RenderCheckCsv(const CheckResult& result) {
  std::string out = "unit,kind,metric,baseline,current,delta,limit,status\n";
  for (const UnitCheck& u : result.units) {
    std::map<std::string, const GateChange*> changes;
    for (const GateChange& c : u.changes) changes[c.metric] = &c;
    std::set<std::string> metrics;
    for (const auto& [m, v] : u.old_values) metrics.insert(m);
    for (const auto& [m, v] : u.new_values) metrics.insert(m);
    for (const auto& [m, c] : changes) metrics.insert(m);
    std::string unit_status = u.is_new       ? "new"
                              : u.is_missing ? "missing"
                                             : std::string(GateVerdictName(u.verdict));
    if (metrics.empty()) {
      out += fmt::format("{},{},,,,,,{}\n", Field(u.key), GateUnitKindName(u.kind), unit_status);
      continue;
    }
    for (const std::string& m : metrics) {
      std::optional<int64_t> before, now;
      if (auto it = u.old_values.find(m); it != u.old_values.end()) before = it->second;
      if (auto it = u.new_values.find(m); it != u.new_values.end()) now = it->second;
      // A fact absent from one side of a known unit is zero there.
      if (!u.is_new && !before && now) before = 0;
      if (!u.is_missing && !now && before) now = 0;
      std::string limit, status = "same";
      if (auto it = changes.find(m); it != changes.end()) {
        limit = it->second->limit;
        status = it->second->breached ? "FAIL" : it->second->improved ? "IMPROVED" : "changed";
      }
      if (u.is_new) status = "new";
      if (u.is_missing) status = "missing";
      std::string delta = before && now ? gate_internal::PlainDelta(*before, *now) : std::string();
      out += fmt::format("{},{},{},{},{},{},{},{}\n", Field(u.key), GateUnitKindName(u.kind),
                         Field(m), Number(before), Number(now), delta, Field(limit), status);
    }
  }
  MakeTerminalSafe(&out);
  return out;
}

}  // namespace graphdiff
