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
#include "absl/types/span.h"
#include "align/hash.h"
#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

// A node's fingerprint is built from a few dozen words (op, attributes,
// dimensions, operand fingerprints) and the loop below visits every node of
// a graph: each word costs one xor and one multiply, and only the finished
// fingerprint gets the full mixing. Multiplying by an odd constant is a
// bijection, so two sequences of words of one length that differ in one
// word differ in the state, and a word's high bits reach the low ones in
// the final mix.
class Accumulator {
 public:
  explicit Accumulator(uint64_t seed) : h_(seed) {}
  void Add(uint64_t v) { h_ = (h_ ^ v) * 0x9e3779b97f4a7c15ull; }
  uint64_t Done() const { return align::Mix(h_); }

 private:
  uint64_t h_;
};

bool NeverDuplicate(std::string_view op) {
  std::string_view s = ShortOp(op);
  if (!s.empty() && s.back() == '_') return true;  // in place
  for (std::string_view w : {"rand", "dropout", "bernoulli", "normal", "uniform", "multinomial",
                             "seed", "rng", "print", "assert", "sync", "send", "recv"}) {
    if (s.find(w) != std::string_view::npos) return true;
  }
  return false;
}

// A set of a few fingerprints' low bits, asked before the hash set of the
// fingerprints themselves: nearly every node of a big graph is none of the
// few asked about, and one bit test in 8 KiB answers for it.
class FingerprintFilter {
 public:
  void Add(uint64_t fp) { bits_[Slot(fp) / 64] |= uint64_t{1} << (Slot(fp) % 64); }
  bool MayHold(uint64_t fp) const { return bits_[Slot(fp) / 64] >> (Slot(fp) % 64) & 1; }

 private:
  static constexpr size_t kBits = size_t{1} << 16;
  static size_t Slot(uint64_t fp) { return fp & (kBits - 1); }
  std::vector<uint64_t> bits_ = std::vector<uint64_t>(kBits / 64, 0);
};

struct DuplicateGroup {
  std::vector<uint32_t> members;  // ascending
  uint64_t ops = 0;               // operation nodes computed again by each copy
  // The redundant copies to report, ascending: in a diff, the copies only the
  // new side has; empty for every member but the first.
  std::vector<uint32_t> added;
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
    Accumulator h((uint64_t{node.op.id} << 8) | static_cast<uint64_t>(node.kind));
    bool is_op = node.kind == NodeKind::kOp || node.kind == NodeKind::kMethodCall ||
                 node.kind == NodeKind::kModuleCall;
    if (node.kind == NodeKind::kInput || (is_op && never(node.op))) {
      h.Add(0x1000000000ull + i);  // distinct by identity
    }
    // Each pair of ids packed into one word; the counts keep lists of
    // different lengths apart. A fingerprint is 64 random bits, so adding a
    // small output number to it collides no likelier than any two
    // fingerprints.
    h.Add((uint64_t{node.attrs.size()} << 32) | node.num_results());
    for (const Attr& a : node.attrs) h.Add((uint64_t{a.key.id} << 32) | a.value.id);
    for (uint32_t r = 0; r < node.num_results(); ++r) {
      const TensorType& t = g.result(node, r);
      h.Add((uint64_t{t.dims.size()} << 8) | static_cast<uint64_t>(t.dtype));
      for (const Dim& d : t.dims) {
        // The size or bound, or the symbol (one of them is 0), and the kind.
        h.Add((static_cast<uint64_t>(d.value()) << 2 | uint64_t{d.symbol().id} << 2) |
              static_cast<uint64_t>(d.kind()));
      }
    }
    uint64_t count = is_op ? 1 : 0;
    h.Add(node.operands.size());
    for (ValueRef v : node.operands) {
      if (v.node >= n) continue;
      h.Add(fp[v.node] + v.output);
      count = std::min<uint64_t>(count + ops[v.node], 1u << 30);
    }
    fp[i] = h.Done();
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
  FingerprintFilter wanted_filter;
  if (wanted != nullptr) {
    for (uint32_t i = 0; i < n && i < wanted->size(); ++i) {
      if ((*wanted)[i] && groupable(i)) {
        wanted_fps.insert(fp[i]);
        wanted_filter.Add(fp[i]);
      }
    }
  }
  // Groups in order of first member, so output order follows the graph.
  absl::flat_hash_map<uint64_t, uint32_t> group_of;
  std::vector<DuplicateGroup> groups;
  std::vector<int32_t> node_group(n, -1);
  // node_group as bits, for the walks over every edge: an eighth of a MiB
  // stays in cache where 4 MiB would not.
  std::vector<bool> grouped(n, false);
  for (uint32_t i = 0; i < n; ++i) {
    if (wanted != nullptr && (!wanted_filter.MayHold(fp[i]) || !wanted_fps.contains(fp[i]))) {
      continue;
    }
    if (!groupable(i)) continue;
    auto [it, inserted] = group_of.try_emplace(fp[i], static_cast<uint32_t>(groups.size()));
    if (inserted) groups.push_back({{}, ops[i], {}});
    groups[it->second].members.push_back(i);
    node_group[i] = static_cast<int32_t>(it->second);
    grouped[i] = true;
  }
  // With `wanted` the groups are few, and so are the edges into them
  // (user, grouped operand): kept from one walk over every edge. How many
  // nodes share the fingerprint of such a user that is not grouped itself
  // is counted for them alone.
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  absl::flat_hash_map<uint64_t, uint32_t> others;
  if (wanted != nullptr) {
    for (uint32_t i = 0; i < n; ++i) {
      for (ValueRef v : g.nodes[i].operands) {
        if (v.node < n && grouped[v.node]) edges.emplace_back(i, v.node);
      }
    }
    FingerprintFilter others_filter;
    for (const auto& [user, operand] : edges) {
      if (grouped[user] || !groupable(user)) continue;
      others.try_emplace(fp[user], 0);
      others_filter.Add(fp[user]);
    }
    for (uint32_t i = 0; i < n && !others.empty(); ++i) {
      if (!others_filter.MayHold(fp[i]) || grouped[i] || !groupable(i)) continue;
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
  if (wanted != nullptr) {
    for (const auto& [user, operand] : edges) {
      if (group_size(user) < 2) uncovered[operand] = true;
    }
  } else {
    for (uint32_t i = 0; i < n; ++i) {
      int alone = -1;  // whether i's group has fewer than two members, once asked
      for (ValueRef v : g.nodes[i].operands) {
        if (v.node >= n || !grouped[v.node]) continue;
        if (alone < 0) alone = group_size(i) < 2 ? 1 : 0;
        if (alone == 1) uncovered[v.node] = true;
      }
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
    // The copy the others repeat: the first that is not itself a new copy.
    uint32_t original = grp.members[0];
    absl::Span<const uint32_t> copies = absl::MakeConstSpan(grp.members).subspan(1);
    if (!grp.added.empty()) {
      copies = grp.added;
      for (uint32_t m : grp.members) {
        if (!std::binary_search(copies.begin(), copies.end(), m)) {
          original = m;
          break;
        }
      }
    }
    f.count += static_cast<int64_t>(copies.size());
    f.evidence.push_back(CappedEvidence(
        f, max_evidence, g, original, side,
        fmt::format("computed {} times ({} ops repeated by each copy)", grp.members.size(),
                    grp.ops)));
    const std::string same = fmt::format("same computation as {}", NodeName(g, original));
    for (uint32_t m : copies) {
      f.evidence.push_back(CappedEvidence(f, max_evidence, g, m, side, same));
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
  const std::vector<bool> right_only = NodeSet(c.right, c.alignment.right_only);
  std::vector<DuplicateGroup> groups =
      FindGroups(c.right, c.options.duplicate_min_ops, &right_only);
  // What is new is the copies the right adds: a computation done 500 times
  // on both sides, one copy of it changed on the right, is one copy fewer
  // there, not 499 new ones. The members the left has too (paired) are the
  // copies it already had; with none, the first member is the computation
  // itself and the rest its new copies.
  for (DuplicateGroup& grp : groups) {
    for (uint32_t m : grp.members) {
      if (right_only[m]) grp.added.push_back(m);
    }
    if (grp.added.size() == grp.members.size()) grp.added.erase(grp.added.begin());
  }
  Report(c.right, groups, c.new_side(), c.label, c.mirrored, c.options.max_evidence, out);
}

void LintDuplicates(const Graph& g, uint32_t min_ops, const std::string& label,
                    std::vector<Finding>* out) {
  Report(g, FindGroups(g, min_ops), std::nullopt, label, false, /*max_evidence=*/0, out);
}

}  // namespace graphdiff::analyze
