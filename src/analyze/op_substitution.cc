// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// op-substitution: matched nodes whose ops differ, grouped by op pair. Known
// equivalents (one class of the op table) are named as such; anything else
// is a real substitution. A module call on one side stands for the op its
// name suggests (bn -> batch_norm); a module lowered to exactly that op is a
// level difference, not a substitution.
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "align/module_class.h"
#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

struct Side {
  std::string label;  // what the node does: an op, or "module call (aten::batch_norm)"
  std::string op;     // the op to compare classes with
  bool module = false;
};

std::optional<Side> Describe(const Graph& g, const Node& n) {
  Side s;
  if (n.kind == NodeKind::kModuleCall) {
    std::optional<std::string_view> target = g.attr(n, "target");
    std::string_view path = target ? *target : g.str(n.op);
    std::string_view op = align::ModuleOpFromName(path);
    if (op.empty()) return std::nullopt;  // the name says nothing to compare
    s.op = std::string(op);
    s.label = fmt::format("module call ({})", op);
    s.module = true;
    return s;
  }
  if (n.kind != NodeKind::kOp && n.kind != NodeKind::kMethodCall) return std::nullopt;
  s.op = std::string(g.str(n.op));
  s.label = s.op;
  return s;
}

struct Group {
  int64_t count = 0;
  bool known = false;
  bool module = false;
  std::vector<std::pair<uint32_t, uint32_t>> nodes;
};

}  // namespace

void FindOpSubstitutions(const PairContext& c, std::vector<Finding>* out) {
  std::map<std::pair<std::string, std::string>, Group> groups;
  for (const NodePair& p : c.alignment.pairs) {
    if (!(p.reasons & kChangedOp)) continue;
    if (p.left >= c.left.nodes.size() || p.right >= c.right.nodes.size()) continue;
    std::optional<Side> l = Describe(c.left, c.left.nodes[p.left]);
    std::optional<Side> r = Describe(c.right, c.right.nodes[p.right]);
    if (!l || !r || l->op == r->op) continue;
    // A stand-in for a node an elided dump left out is no substitution.
    if (l->op == kElidedOp || r->op == kElidedOp) continue;
    Group& g = groups[{l->label, r->label}];
    ++g.count;
    g.module = l->module || r->module;
    g.known = c.equivalence.KnownEquivalent(l->op, r->op);
    g.nodes.emplace_back(p.left, p.right);
  }
  for (auto& [key, g] : groups) {
    const auto& [left_label, right_label] = key;
    Finding f;
    f.id = "op-substitution";
    f.graph = c.label;
    f.count = g.count;
    // A module name only suggests its op, so a mismatch there is no alarm.
    f.severity = g.known || g.module ? Severity::kInfo : Severity::kWarning;
    f.title = fmt::format("{} -> {} x{}{}", left_label, right_label, g.count,
                          g.known ? " (known equivalent)" : "");
    if (g.known) {
      f.explanation = fmt::format(
          "{} matched nodes compute the same operation under different names: {} on the "
          "left, {} on the right (one class in the op-equivalence table). Variants can "
          "still differ in cost and in what they return.",
          g.count, left_label, right_label);
      if (right_label.find("no_training") != std::string::npos) {
        f.explanation +=
            " The `_no_training` variant is what AOTAutograd's functionalized graphs use "
            "for batch norm in eval mode.";
      }
    } else if (g.module) {
      f.explanation = fmt::format(
          "{} module calls on one side line up with {} on the other; the module name "
          "suggests a different op, so check that the lowering is the expected one.",
          g.count, right_label);
    } else {
      f.explanation = fmt::format(
          "{} matched nodes use {} on the left but {} on the right, and the op table does "
          "not know them as equivalent: the computation itself may have changed.",
          g.count, left_label, right_label);
      f.hint = "If the two ops are the same computation, add them to an --equiv file.";
    }
    for (const auto& [l, r] : g.nodes) {
      f.evidence.push_back(NodeEvidence(c.left, l, "left", "before"));
      f.evidence.push_back(NodeEvidence(c.right, r, "right", "after"));
    }
    out->push_back(std::move(f));
  }
}

}  // namespace graphdiff::analyze
