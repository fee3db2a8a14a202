// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// other-changes: the pair differs but no other family had anything to say
// (operands rewired, outputs reordered, a node swapped for one of the same
// op). A verdict that says "different" always names what differs.
#include <map>
#include <string>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {

void FindOtherChanges(const PairContext& c, const std::vector<Finding>& found,
                      std::vector<Finding>* out) {
  for (const Finding& f : found) {
    if (f.graph == c.label) return;
  }
  const Alignment& a = c.alignment;
  std::map<std::string, int64_t> reasons;
  Finding f;
  f.id = "other-changes";
  f.severity = Severity::kInfo;
  f.graph = c.label;
  int64_t changed = 0;
  for (const NodePair& p : a.pairs) {
    if (!p.changed() || p.right >= c.right.nodes.size()) continue;
    ++changed;
    for (const std::string& r : ChangeReasonNames(p.reasons)) ++reasons[r];
    f.evidence.push_back(NodeEvidence(c.right, p.right, Side::kRight, p.detail));
  }
  for (uint32_t i : a.left_only) {
    if (i < c.left.nodes.size()) f.evidence.push_back(NodeEvidence(c.left, i, Side::kLeft, "removed"));
  }
  for (uint32_t i : a.right_only) {
    if (i < c.right.nodes.size()) f.evidence.push_back(NodeEvidence(c.right, i, Side::kRight, "added"));
  }
  bool reordered = false;
  for (const auto& [l, r] : a.matched_outputs) reordered = reordered || l != r;
  std::vector<std::string> parts;
  if (changed > 0) {
    parts.push_back(fmt::format("{} changed ({})", Plural(changed, "matched node", "matched nodes"),
                                JoinOpCounts({reasons.begin(), reasons.end()}, 0, false)));
  }
  if (!a.left_only.empty()) parts.push_back(Plural(static_cast<int64_t>(a.left_only.size()), "node removed", "nodes removed"));
  if (!a.right_only.empty()) parts.push_back(Plural(static_cast<int64_t>(a.right_only.size()), "node added", "nodes added"));
  if (reordered) parts.push_back("outputs returned in another order");
  if (parts.empty()) return;
  f.count = changed + static_cast<int64_t>(a.left_only.size() + a.right_only.size());
  for (size_t i = 0; i < parts.size(); ++i) f.title += (i ? ", " : "") + parts[i];
  f.explanation = "The graphs compute the same ops with the same types and attributes, but "
                  "the alignment found these differences: matched nodes that read other "
                  "operands, nodes with no counterpart of the same op, or outputs in another "
                  "order. See the changed pairs for each one.";
  out->push_back(std::move(f));
}

}  // namespace graphdiff::analyze
