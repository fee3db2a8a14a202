// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The linker: findings that explain each other point at each other, so a
// report reads as one story. Two rules, both from evidence:
//  - findings whose evidence names the same node (side, file, line, name)
//    are about the same thing (the dead expands are among the extra outputs,
//    and are the nodes size-delta counts as added);
//  - a clone counter that grew by about as many as the inputs that were
//    lifted explains them (each lifted parameter is copied once), and one
//    that shrank by about as many as the inputs removed, mirrored.
#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "analyze/analyze.h"

namespace graphdiff::analyze {
namespace {

void Link(std::vector<Finding>* fs, size_t a, size_t b) {
  if (a == b || (*fs)[a].id == (*fs)[b].id) return;
  auto add = [](Finding& f, const std::string& id) {
    if (std::find(f.related.begin(), f.related.end(), id) == f.related.end()) {
      f.related.push_back(id);
    }
  };
  add((*fs)[a], (*fs)[b].id);
  add((*fs)[b], (*fs)[a].id);
}

bool Close(int64_t a, int64_t b) {
  int64_t d = a > b ? a - b : b - a;
  return d <= std::max<int64_t>(2, std::max(a, b) / 10);
}

}  // namespace

void LinkFindings(std::vector<Finding>* findings, size_t max_evidence) {
  std::vector<Finding>& fs = *findings;
  // Node key -> first finding that names it; later ones link to all earlier.
  absl::flat_hash_map<std::string, std::vector<uint32_t>> by_node;
  std::set<std::pair<uint32_t, uint32_t>> links;
  for (uint32_t i = 0; i < fs.size(); ++i) {
    for (const Evidence& e : fs[i].evidence) {
      if (e.node.empty()) continue;
      std::string key = std::string(SideName(e.side)) + '\x1f' + e.source + '\x1f' + std::to_string(e.line) + '\x1f' +
                        e.node;
      std::vector<uint32_t>& owners = by_node[key];
      if (!owners.empty() && owners.back() == i) continue;
      for (uint32_t j : owners) links.emplace(j, i);
      owners.push_back(i);
    }
  }
  for (size_t i = 0; i < fs.size(); ++i) {
    bool grew = fs[i].id == "clones";
    if (!(grew || fs[i].id == "clones-removed") || fs[i].evidence.empty() ||
        fs[i].evidence[0].op != "") {
      continue;
    }
    for (size_t j = 0; j < fs.size(); ++j) {
      if (fs[j].id == (grew ? "lifted-inputs" : "removed-inputs") &&
          Close(fs[i].count, fs[j].count)) {
        links.emplace(static_cast<uint32_t>(std::min(i, j)), static_cast<uint32_t>(std::max(i, j)));
      }
    }
  }
  // std::set iterates in order, so related lists come out the same every run.
  for (const auto& [a, b] : links) Link(findings, a, b);
  for (Finding& f : fs) {
    std::sort(f.related.begin(), f.related.end());
    if (max_evidence != 0 && f.evidence.size() > max_evidence) {
      f.evidence_omitted += static_cast<int64_t>(f.evidence.size() - max_evidence);
      f.evidence.resize(max_evidence);
    }
  }
}

}  // namespace graphdiff::analyze
