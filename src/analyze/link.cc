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
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
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

// Where a piece of evidence points: findings naming the same one link.
struct NodeKey {
  std::optional<Side> side;
  std::string_view source;
  uint32_t line;
  std::string_view node;
  bool operator==(const NodeKey& o) const {
    return side == o.side && line == o.line && source == o.source && node == o.node;
  }
  template <typename H>
  friend H AbslHashValue(H h, const NodeKey& k) {
    return H::combine(std::move(h), k.side.has_value() ? static_cast<int>(*k.side) + 1 : 0,
                      k.source, k.line, k.node);
  }
};

bool Close(int64_t a, int64_t b) {
  int64_t d = a > b ? a - b : b - a;
  return d <= std::max<int64_t>(2, std::max(a, b) / 10);
}

}  // namespace

void LinkFindings(std::vector<Finding>* findings, size_t max_evidence) {
  std::vector<Finding>& fs = *findings;
  std::set<std::pair<uint32_t, uint32_t>> links;
  {
    // Node key -> the findings that name it, in order; a later one links to
    // all earlier. Keys view the evidence, which does not change in here: a
    // finding of 285,712 duplicate copies built a string and a list a copy.
    size_t items = 0;
    for (const Finding& f : fs) items += f.evidence.size();
    absl::flat_hash_map<NodeKey, absl::InlinedVector<uint32_t, 2>> by_node;
    by_node.reserve(items);
    for (uint32_t i = 0; i < fs.size(); ++i) {
      for (const Evidence& e : fs[i].evidence) {
        if (e.node.empty()) continue;
        auto& owners = by_node[NodeKey{e.side, e.source, e.line, e.node}];
        if (!owners.empty() && owners.back() == i) continue;
        for (uint32_t j : owners) links.emplace(j, i);
        owners.push_back(i);
      }
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
