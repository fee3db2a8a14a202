// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// dead-constant-expand: expand/broadcast of a constant that no node reads;
// at most the output list holds it. Size-0 ones are the empty statistics a
// no-training batch norm returns when a training-style graph asks for them.
#include <algorithm>
#include <string>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

// Nodes of `g` that are such expands, restricted to `candidates` (all nodes
// when null).
std::vector<uint32_t> DeadExpands(const Graph& g, const std::vector<bool>* candidates) {
  // Expands of constants first, users only if there are any: counting them
  // is a pass over every node, and the candidates of a diff (nodes one side
  // added) are a handful that are seldom such expands.
  std::vector<uint32_t> found;
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    if (candidates && !(*candidates)[i]) continue;
    const Node& n = g.nodes[i];
    if (n.operands.empty() || !IsExpandOp(g.str(n.op))) continue;
    ValueRef src = n.operands[0];
    if (src.node >= g.nodes.size() || g.nodes[src.node].kind != NodeKind::kConstant) continue;
    found.push_back(i);
  }
  if (found.empty()) return found;
  const std::vector<uint32_t> users = CountNodeUsers(g);
  found.erase(std::remove_if(found.begin(), found.end(), [&](uint32_t i) { return users[i] != 0; }),
              found.end());
  return found;
}

void Report(const Graph& g, const std::vector<uint32_t>& nodes, std::optional<Side> side,
            std::string graph_label, bool mirrored, std::vector<Finding>* out) {
  if (nodes.empty()) return;
  std::vector<bool> is_output(g.nodes.size(), false);
  for (ValueRef v : g.outputs) {
    if (v.node < is_output.size()) is_output[v.node] = true;
  }
  Finding f;
  f.id = mirrored ? "dead-constant-expand-removed" : "dead-constant-expand";
  f.severity = mirrored ? Severity::kInfo : Severity::kWarning;
  f.graph = std::move(graph_label);
  f.count = static_cast<int64_t>(nodes.size());
  int64_t empty = 0;
  int64_t returned = 0;
  for (uint32_t i : nodes) {
    const Node& n = g.nodes[i];
    bool is_empty = IsEmptyResult(g, n);
    empty += is_empty;
    returned += is_output[i];
    std::string note = fmt::format("{} of constant {} ({}){}{}", ShortOp(g.str(n.op)),
                                   NodeName(g, n.operands[0].node), FormatResults(g, n),
                                   is_empty ? ", size 0" : "",
                                   is_output[i] ? ", only returned" : ", unused");
    f.evidence.push_back(NodeEvidence(g, i, side, std::move(note)));
  }
  std::string where = OnTheSide(side);
  if (side && mirrored) where += " gone on the right";
  f.title = empty == f.count
                ? fmt::format("{} dead size-0 expands of constants{}", f.count, where)
                : fmt::format("{} dead expands of constants{} ({} of size 0)", f.count, where,
                              empty);
  f.explanation = fmt::format(
      "{} expand/broadcast nodes read only a constant and are read by no node; {} are only "
      "returned as graph outputs. {} have a size-0 result: these are the empty "
      "placeholders a batch norm without training statistics returns for "
      "save_mean/save_invstd when the graph is asked to return them.",
      f.count, returned, empty);
  if (mirrored) {
    f.explanation += " The right graph no longer has them.";
  } else {
    f.hint = empty > 0 ? "They disappear when the graph stops returning batch-norm statistics "
                       "(see extra-outputs)."
                     : "Nothing needs these values; find who asks the graph to return them.";
  }
  out->push_back(std::move(f));
}

}  // namespace

void FindDeadConstantExpands(const PairContext& c, std::vector<Finding>* out) {
  const std::vector<bool> right_only = NodeSet(c.right, c.alignment.right_only);
  Report(c.right, DeadExpands(c.right, &right_only), c.new_side(), c.label, c.mirrored, out);
}

void LintDeadConstantExpands(const Graph& g, const std::string& label,
                             std::vector<Finding>* out) {
  Report(g, DeadExpands(g, nullptr), std::nullopt, label, false, out);
}

}  // namespace graphdiff::analyze
