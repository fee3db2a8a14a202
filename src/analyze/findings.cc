// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/findings.h"

#include <algorithm>

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

void SortFindings(std::vector<Finding>* findings) {
  std::stable_sort(findings->begin(), findings->end(),
                   [](const Finding& a, const Finding& b) {
                     if (a.severity != b.severity) return a.severity > b.severity;
                     if (a.count != b.count) return a.count > b.count;
                     if (a.id != b.id) return a.id < b.id;
                     return a.graph < b.graph;
                   });
}

}  // namespace graphdiff
