// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "gate/finding_map.h"

#include <string_view>

#include "fmt/format.h"

namespace graphdiff::gate_internal {
namespace {

// The one graph or metrics unit for which `match` holds, or units.size().
template <typename Pred>
size_t UniqueUnit(const std::vector<GateUnit>& units, Pred match) {
  size_t found = units.size();
  for (size_t i = 0; i < units.size(); ++i) {
    if (units[i].kind == GateUnitKind::kDump || !match(units[i])) continue;
    if (found != units.size()) return units.size();
    found = i;
  }
  return found;
}

bool NamesFile(const GateUnit& u, std::string_view s) {
  return s == u.file || (!u.source.empty() && s == u.source);
}

}  // namespace

size_t UnitForFinding(const std::vector<GateUnit>& units, const Finding& finding) {
  std::string_view g = finding.graph;
  if (!g.empty()) {
    size_t i = UniqueUnit(units, [&](const GateUnit& u) { return u.key == g; });
    if (i != units.size()) return i;
    i = UniqueUnit(units, [&](const GateUnit& u) { return NamesFile(u, g); });
    if (i != units.size()) return i;
    // "file#record": split at the last '#' so paths holding '#' still work.
    size_t hash = g.rfind('#');
    if (hash != std::string_view::npos) {
      std::string_view file = g.substr(0, hash);
      std::string_view record = g.substr(hash + 1);
      i = UniqueUnit(units, [&](const GateUnit& u) {
        return NamesFile(u, file) && record == fmt::format("{}", u.record_index);
      });
      if (i != units.size()) return i;
    }
    i = UniqueUnit(units, [&](const GateUnit& u) { return !u.name.empty() && u.name == g; });
    if (i != units.size()) return i;
  }
  for (const Evidence& e : finding.evidence) {
    if (e.source.empty()) continue;
    size_t i = UniqueUnit(units, [&](const GateUnit& u) { return NamesFile(u, e.source); });
    if (i != units.size()) return i;
  }
  return units.size();
}

}  // namespace graphdiff::gate_internal
