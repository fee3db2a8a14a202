// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// duplicate-subgraph: the same computation done twice, a missed common
// subexpression. Bottom-up Merkle fingerprints (op, attributes, result types,
// operand fingerprints in order) find identical subgraphs; inputs are
// distinct by identity, constants equal by value. Only the topmost copy of a
// duplicated chain is reported, with the ops each copy really repeats (the
// cones of two copies walked together up to where they share a node), and
// random or side-effecting ops are never duplicates.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

uint64_t Mix(uint64_t h, uint64_t v) {
  // splitmix64 finaliser over the combined value: cheap and well spread.
  uint64_t x = h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

bool NeverDuplicate(std::string_view op) {
  std::string_view s = ShortOp(op);
  if (!s.empty() && s.back() == '_') return true;  // in place
  for (std::string_view w : {"rand", "dropout", "bernoulli", "normal", "uniform", "multinomial",
                             "seed", "rng", "print", "assert", "sync", "send", "recv"}) {
    if (s.find(w) != std::string_view::npos) return true;
  }
  return false;
}

struct DuplicateGroup {
  std::vector<uint32_t> members;  // ascending
  uint64_t ops = 0;               // operation nodes computed again by each copy
};

// Operation nodes that copy `b` computes again although copy `a` already
// has them: the two cones walked in lockstep, stopping where they share a
// node (one `select` read by 30 broadcasts is computed once, so each
// broadcast copy repeats one op, not the select's whole cone).
uint64_t RepeatedOps(const Graph& g, uint32_t a, uint32_t b) {
  std::vector<std::pair<uint32_t, uint32_t>> stack = {{a, b}};
  absl::flat_hash_set<uint64_t> seen;
  uint64_t ops = 0;
  size_t budget = 4 * g.nodes.size() + 16;
  while (!stack.empty() && budget-- > 0) {
    auto [x, y] = stack.back();
    stack.pop_back();
    if (x == y || x >= g.nodes.size() || y >= g.nodes.size()) continue;
    if (!seen.insert((static_cast<uint64_t>(x) << 32) | y).second) continue;
    const Node& nx = g.nodes[x];
    const Node& ny = g.nodes[y];
    if (nx.kind == NodeKind::kOp || nx.kind == NodeKind::kMethodCall ||
        nx.kind == NodeKind::kModuleCall) {
      ++ops;
    }
    size_t k = std::min(nx.operands.size(), ny.operands.size());
    for (size_t i = 0; i < k; ++i) stack.emplace_back(nx.operands[i].node, ny.operands[i].node);
  }
  return ops;
}

// The duplicate groups of g worth reporting; with `wanted`, only those with
// a wanted member.
std::vector<DuplicateGroup> FindGroups(const Graph& g, uint32_t min_ops,
                                       const std::vector<bool>* wanted = nullptr) {
  size_t n = g.nodes.size();
  std::vector<uint64_t> fp(n, 0);
  std::vector<uint64_t> ops(n, 0);
  // A graph has few distinct ops and many nodes: decide each op once.
  absl::flat_hash_map<uint32_t, bool> never_duplicate;
  auto never = [&](StrId op) {
    auto [it, inserted] = never_duplicate.try_emplace(op.id, false);
    if (inserted) it->second = NeverDuplicate(g.str(op));
    return it->second;
  };
  for (uint32_t i = 0; i < n; ++i) {
    const Node& node = g.nodes[i];
    uint64_t h = Mix(static_cast<uint64_t>(node.kind) + 1, node.op.id);
    bool is_op = node.kind == NodeKind::kOp || node.kind == NodeKind::kMethodCall ||
                 node.kind == NodeKind::kModuleCall;
    if (node.kind == NodeKind::kInput || (is_op && never(node.op))) {
      h = Mix(h, 0x1000000000ull + i);  // distinct by identity
    }
    // One mix per attribute, dimension and operand, each pair of ids packed
    // into one word (a fingerprint is 64 random bits, so adding a small
    // output number to it collides no likelier than any two fingerprints):
    // this loop visits every node of the graph, for each direction.
    for (const Attr& a : node.attrs) h = Mix(h, (uint64_t{a.key.id} << 32) | a.value.id);
    for (uint32_t r = 0; r < node.num_results(); ++r) {
      const TensorType& t = g.result(node, r);
      h = Mix(h, static_cast<uint64_t>(t.dtype));
      for (const Dim& d : t.dims) {
        h = Mix(h, (static_cast<uint64_t>(d.value()) * 0x9e3779b97f4a7c15ull) ^ d.symbol().id);
      }
    }
    uint64_t count = is_op ? 1 : 0;
    for (ValueRef v : node.operands) {
      if (v.node >= n) continue;
      h = Mix(h, fp[v.node] + v.output);
      count = std::min<uint64_t>(count + ops[v.node], 1u << 30);
    }
    fp[i] = h;
    ops[i] = count;
  }
  auto groupable = [&](uint32_t i) {
    const NodeKind k = g.nodes[i].kind;
    return k != NodeKind::kInput && k != NodeKind::kConstant && k != NodeKind::kGetAttr;
  };
  // Only the groups of wanted nodes are built, when the caller wants some:
  // in a graph of a million nodes nearly all alike in their own way, a
  // group per node was most of the family's time.
  absl::flat_hash_set<uint64_t> wanted_fps;
  if (wanted != nullptr) {
    for (uint32_t i = 0; i < n && i < wanted->size(); ++i) {
      if ((*wanted)[i] && groupable(i)) wanted_fps.insert(fp[i]);
    }
  }
  // Groups in order of first member, so output order follows the graph.
  absl::flat_hash_map<uint64_t, uint32_t> group_of;
  std::vector<DuplicateGroup> groups;
  std::vector<int32_t> node_group(n, -1);
  for (uint32_t i = 0; i < n; ++i) {
    if (!groupable(i) || (wanted != nullptr && !wanted_fps.contains(fp[i]))) continue;
    auto [it, inserted] = group_of.try_emplace(fp[i], static_cast<uint32_t>(groups.size()));
    if (inserted) groups.push_back({{}, ops[i]});
    groups[it->second].members.push_back(i);
    node_group[i] = static_cast<int32_t>(it->second);
  }
  // How many nodes share the fingerprint of a user of a grouped node that
  // is not grouped itself (only when groups were left out).
  absl::flat_hash_map<uint64_t, uint32_t> others;
  if (wanted != nullptr) {
    for (uint32_t i = 0; i < n; ++i) {
      if (!groupable(i) || node_group[i] >= 0) continue;
      for (ValueRef v : g.nodes[i].operands) {
        if (v.node < n && node_group[v.node] >= 0) {
          others.try_emplace(fp[i], 0);
          break;
        }
      }
    }
    for (uint32_t i = 0; i < n && !others.empty(); ++i) {
      if (!groupable(i) || node_group[i] >= 0) continue;
      if (auto it = others.find(fp[i]); it != others.end()) ++it->second;
    }
  }
  auto group_size = [&](uint32_t i) -> size_t {
    if (node_group[i] >= 0) return groups[node_group[i]].members.size();
    if (!groupable(i)) return 0;
    auto it = others.find(fp[i]);
    return it == others.end() ? 0 : it->second;
  };
  // A copy is covered when it is not returned and every user is itself a
  // duplicate: then a larger duplicate above it is the one to report.
  std::vector<bool> uncovered(n, false);
  for (ValueRef v : g.outputs) {
    if (v.node < n) uncovered[v.node] = true;
  }
  for (uint32_t i = 0; i < n; ++i) {
    int alone = -1;  // whether i's group has fewer than two members, once asked
    for (ValueRef v : g.nodes[i].operands) {
      if (v.node >= n || node_group[v.node] < 0) continue;
      if (alone < 0) alone = group_size(i) < 2 ? 1 : 0;
      if (alone == 1) uncovered[v.node] = true;
    }
  }
  std::vector<DuplicateGroup> out;
  for (DuplicateGroup& grp : groups) {
    if (grp.members.size() < 2 || grp.ops < min_ops) continue;
    bool report = false;
    for (uint32_t m : grp.members) report = report || uncovered[m];
    if (!report) continue;
    grp.ops = RepeatedOps(g, grp.members[0], grp.members[1]);
    if (grp.ops >= min_ops) out.push_back(std::move(grp));
  }
  return out;
}

void Report(const Graph& g, const std::vector<DuplicateGroup>& groups, std::optional<Side> side,
            std::string label, bool mirrored, size_t max_evidence, std::vector<Finding>* out) {
  if (groups.empty()) return;
  Finding f;
  f.id = mirrored ? "duplicate-subgraph-removed" : "duplicate-subgraph";
  f.severity = mirrored ? Severity::kInfo : Severity::kWarning;
  f.graph = std::move(label);
  size_t members = 0;
  for (const DuplicateGroup& grp : groups) members += grp.members.size();
  f.evidence.reserve(members);
  for (const DuplicateGroup& grp : groups) {
    f.count += static_cast<int64_t>(grp.members.size()) - 1;
    std::string first = NodeName(g, grp.members[0]);
    for (uint32_t m : grp.members) {
      if (PastEvidenceCap(f, max_evidence)) {
        f.evidence.push_back(LinkOnlyEvidence(g, m, side));
        continue;
      }
      f.evidence.push_back(NodeEvidence(
          g, m, side,
          m == grp.members[0]
              ? fmt::format("computed {} times ({} ops repeated by each copy)",
                            grp.members.size(), grp.ops)
              : fmt::format("same computation as {}", first)));
    }
  }
  f.title = fmt::format("{} of {} computation{}{}{}", Plural(f.count, "redundant copy",
                                                          "redundant copies"),
                        groups.size(), groups.size() == 1 ? "" : "s",
                        OnTheSide(side),
                        mirrored ? ", gone on the right" : "");
  if (mirrored) {
    f.explanation = "The left computes the same operations on the same values more than once "
                    "(identical subgraphs by fingerprint); the right does not.";
    out->push_back(std::move(f));
    return;
  }
  f.explanation = "The same operations run on the same values more than once (identical "
                  "subgraphs by fingerprint: op, attributes, types and operands). A common "
                  "subexpression pass would compute each once.";
  f.hint = "Compute the value once in the model and reuse it, or check why the backend's CSE "
           "did not merge them.";
  out->push_back(std::move(f));
}

}  // namespace

void FindNewDuplicates(const PairContext& c, std::vector<Finding>* out) {
  // A new duplicate has a member only the right has; none, nothing to find.
  if (c.alignment.right_only.empty()) return;
  std::vector<bool> right_only(c.right.nodes.size(), false);
  for (uint32_t i : c.alignment.right_only) {
    if (i < right_only.size()) right_only[i] = true;
  }
  Report(c.right, FindGroups(c.right, c.options.duplicate_min_ops, &right_only), c.new_side(),
         c.label, c.mirrored, c.options.max_evidence, out);
}

void LintDuplicates(const Graph& g, uint32_t min_ops, const std::string& label,
                    std::vector<Finding>* out) {
  Report(g, FindGroups(g, min_ops), std::nullopt, label, false, /*max_evidence=*/0, out);
}

}  // namespace graphdiff::analyze
