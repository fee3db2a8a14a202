// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// LintDump: the findings one dump supports without a baseline.
#include <string>
#include <vector>

#include "analyze/analyze.h"
#include "analyze/select.h"
#include "fmt/format.h"
#include "graphdiff/diff.h"

namespace graphdiff {

std::vector<Finding> LintDump(const Dump& dump, const LintOptions& options) {
  std::vector<Finding> findings;
  for (const DumpFile& f : dump.files) {
    for (const Graph& g : f.graphs) {
      if (!analyze::Selected(options.graph_selector, f.path, g.name)) continue;
      std::string label = f.graphs.size() > 1
                              ? fmt::format("{}#{}", f.path, g.source.record_index)
                              : f.path;
      size_t first = findings.size();
      analyze::LintDeadCode(g, label, &findings);
      analyze::LintDeadConstantExpands(g, label, &findings);
      analyze::LintClones(g, label, &findings);
      analyze::LintDuplicates(g, options.duplicate_min_ops, label, &findings);
      analyze::LintSizeFacts(g, label, &findings);
      // Evidence names the file by its path inside the dump, as labels do.
      for (size_t i = first; i < findings.size(); ++i) {
        for (Evidence& e : findings[i].evidence) {
          if (e.source == g.source.file) e.source = f.path;
        }
      }
    }
    for (const MetricsReport& m : f.metrics) {
      if (!analyze::Selected(options.graph_selector, f.path, "")) continue;
      MetricsReport renamed = m;
      renamed.source = f.path;
      analyze::LintCloneCounters(renamed, f.path, &findings);
    }
  }
  analyze::LinkFindings(&findings, options.max_evidence);
  SortFindings(&findings);
  return findings;
}

}  // namespace graphdiff
