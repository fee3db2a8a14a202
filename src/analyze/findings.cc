// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/findings.h"

#include <algorithm>
#include <iterator>

namespace graphdiff {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo: return "info";
    case Severity::kWarning: return "warning";
    case Severity::kError: return "error";
  }
  return "info";
}

bool ParseSeverity(std::string_view name, Severity* out) {
  for (Severity s : {Severity::kInfo, Severity::kWarning, Severity::kError}) {
    if (SeverityName(s) == name) {
      *out = s;
      return true;
    }
  }
  return false;
}

namespace {

// Story order: a reader should meet the cause (the graph returns more) before
// what follows from it (dead expands feeding those outputs, lifted inputs,
// clones of them, counters that moved, sizes that grew). Counts alone would
// put 102 lifted inputs above the 80 outputs that explain them.
int FamilyRank(const std::string& id) {
  static const char* const kOrder[] = {
      "extra-outputs", "dead-constant-expand", "lifted-inputs",
      "clones",        "op-substitution",      "counter-delta",
      "dead-code",     "duplicate-subgraph",   "size-delta",
      "size-facts"};
  for (size_t i = 0; i < std::size(kOrder); ++i) {
    if (id == kOrder[i]) return static_cast<int>(i);
  }
  return static_cast<int>(std::size(kOrder));
}

}  // namespace

void SortFindings(std::vector<Finding>* findings) {
  std::stable_sort(findings->begin(), findings->end(),
                   [](const Finding& a, const Finding& b) {
                     if (a.severity != b.severity) return a.severity > b.severity;
                     int ra = FamilyRank(a.id), rb = FamilyRank(b.id);
                     if (ra != rb) return ra < rb;
                     if (a.count != b.count) return a.count > b.count;
                     if (a.id != b.id) return a.id < b.id;
                     return a.graph < b.graph;
                   });
}

}  // namespace graphdiff
