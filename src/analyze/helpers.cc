// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {

std::string NodeName(const Graph& g, uint32_t node) {
  std::string_view name = g.str(g.nodes[node].name);
  return name.empty() ? fmt::format("#{}", node) : std::string(name);
}

std::string ValueName(const Graph& g, ValueRef v) {
  if (v.node >= g.nodes.size()) return fmt::format("#{}", v.node);
  std::string name = NodeName(g, v.node);
  if (g.nodes[v.node].num_outputs() > 1 || v.output > 0) {
    name += fmt::format(".{}", v.output);
  }
  return name;
}

Evidence NodeEvidence(const Graph& g, uint32_t node, std::string_view side,
                      std::string note) {
  Evidence e;
  e.side = std::string(side);
  e.source = g.source.file;
  e.line = g.nodes[node].line;
  e.node = NodeName(g, node);
  e.op = std::string(g.str(g.nodes[node].op));
  e.note = std::move(note);
  return e;
}

std::string_view ShortOp(std::string_view op) {
  size_t p = op.rfind("::");
  return p == std::string_view::npos ? op : op.substr(p + 2);
}

bool IsExpandOp(std::string_view op) {
  std::string_view s = ShortOp(op);
  return s == "expand" || s == "expand_copy" || s == "broadcast" ||
         s == "broadcast_to" || s == "broadcast_in_dim";
}

bool IsCloneOp(std::string_view op) {
  std::string_view s = ShortOp(op);
  return s == "clone" || s == "copy" || s == "copy_" || s == "_to_copy" ||
         s == "_copy_from" || s == "lift_fresh_copy" || s == "clone_";
}

bool IsCloneCounter(std::string_view name) {
  return ShortOp(name) == "clone" && name.find("::") != std::string_view::npos;
}

std::string_view NodeNoun(GraphKind kind) {
  switch (kind) {
    case GraphKind::kIr: return "IR nodes";
    case GraphKind::kFx: return "FX nodes";
    case GraphKind::kHlo: return "HLO instructions";
  }
  return "nodes";
}

std::vector<uint32_t> CountNodeUsers(const Graph& g) {
  std::vector<uint32_t> users(g.nodes.size(), 0);
  for (const Node& n : g.nodes) {
    for (ValueRef v : n.operands) {
      if (v.node < users.size()) ++users[v.node];
    }
  }
  return users;
}

std::vector<bool> ReachesOutput(const Graph& g) {
  std::vector<bool> live(g.nodes.size(), false);
  for (ValueRef v : g.outputs) {
    if (v.node < live.size()) live[v.node] = true;
  }
  // Nodes are topologically ordered, so one backward sweep suffices.
  for (size_t i = g.nodes.size(); i-- > 0;) {
    if (!live[i]) continue;
    for (ValueRef v : g.nodes[i].operands) {
      if (v.node < live.size()) live[v.node] = true;
    }
  }
  return live;
}

std::string JoinOpCounts(std::vector<std::pair<std::string, int64_t>> counts,
                         size_t max_items, bool signed_counts) {
  std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
    int64_t ma = a.second < 0 ? -a.second : a.second;
    int64_t mb = b.second < 0 ? -b.second : b.second;
    if (ma != mb) return ma > mb;
    return a.first < b.first;
  });
  std::string out;
  size_t shown = 0;
  for (const auto& [op, n] : counts) {
    if (max_items != 0 && shown == max_items) {
      out += fmt::format(", ... {} more ops", counts.size() - shown);
      break;
    }
    if (!out.empty()) out += ", ";
    out += signed_counts ? fmt::format("{:+} {}", n, op) : fmt::format("{} {}", n, op);
    ++shown;
  }
  return out;
}

bool IsEmptyResult(const Node& n) {
  if (n.results.empty()) return false;
  for (const TensorType& t : n.results) {
    std::optional<int64_t> elems = t.NumElements();
    if (!elems || *elems != 0) return false;
  }
  return true;
}

}  // namespace graphdiff::analyze
