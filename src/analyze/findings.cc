// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/findings.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <vector>

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
  const std::vector<std::string_view>& order = FindingIds();
  for (size_t i = 0; i < order.size(); ++i) {
    if (id == order[i]) return static_cast<int>(i);
  }
  return static_cast<int>(order.size());
}

}  // namespace

const std::vector<std::string_view>& FindingIds() {
  // Recompilation first: it is the first question of two runs. Then what
  // the graph returns and takes, what it copies and communicates, what its
  // nodes compute, and last the consequences and improvements.
  static const std::vector<std::string_view> kOrder = {
      "compilation",
      "extra-outputs",
      "removed-outputs",
      "outputs-replaced",
      "dead-constant-expand",
      "lifted-inputs",
      "removed-inputs",
      "clones",
      "clones-removed",
      "collectives",
      "dtype-change",
      "shape-change",
      "attribute-change",
      "op-substitution",
      "counter-delta",
      "dead-code",
      "duplicate-subgraph",
      "dead-constant-expand-removed",
      "dead-code-removed",
      "duplicate-subgraph-removed",
      "other-changes",
      "size-delta",
      "size-facts"};
  return kOrder;
}

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
