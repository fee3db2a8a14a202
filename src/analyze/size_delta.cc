// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// size-delta: how much bigger or smaller the right graph is, with every
// added or removed node accounted for by op (the op histogram delta sums to
// the node delta). size-facts: the same numbers for one graph (lint).
#include <string>
#include <utility>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"
#include "graphdiff/stats.h"

namespace graphdiff::analyze {
namespace {

std::string Bytes(uint64_t b) {
  if (b >= (1ull << 30)) return fmt::format("{:.1f} GiB", static_cast<double>(b) / (1ull << 30));
  if (b >= (1ull << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(b) / (1ull << 20));
  if (b >= (1ull << 10)) return fmt::format("{:.1f} KiB", static_cast<double>(b) / (1ull << 10));
  return fmt::format("{} B", b);
}

}  // namespace

void FindSizeDelta(const PairContext& c, std::vector<Finding>* out) {
  PairStats own;  // only when the caller has none
  const PairStats& stats =
      c.stats != nullptr ? *c.stats : (own = ComputePairStats(c.left, c.right, false));
  const GraphStats& l = stats.left;
  const GraphStats& r = stats.right;
  std::vector<std::pair<std::string, int64_t>> changed;
  int64_t added = 0;
  int64_t removed = 0;
  for (const auto& [op, d] : stats.op_delta) {
    changed.emplace_back(op, d);
    (d > 0 ? added : removed) += d > 0 ? d : -d;
  }
  if (changed.empty() && l.nodes == r.nodes && l.inputs == r.inputs && l.outputs == r.outputs &&
      l.parameter_bytes == r.parameter_bytes) {
    return;
  }
  Finding f;
  f.id = "size-delta";
  f.severity = Severity::kInfo;
  f.graph = c.label;
  f.count = std::max(added, removed);
  int64_t net = static_cast<int64_t>(r.nodes) - static_cast<int64_t>(l.nodes);
  bool only_added = removed == 0;
  bool only_removed = added == 0;
  std::vector<std::pair<std::string, int64_t>> shown = changed;
  if (only_removed) {
    for (auto& [op, d] : shown) d = -d;
  }
  std::string ops = JoinOpCounts(shown, 4, !(only_added || only_removed));
  f.title = fmt::format("{} -> {} {}", l.nodes, r.nodes, NodeNoun(c.right.kind));
  if (!changed.empty()) f.title += fmt::format(" ({:+}: {})", net, ops);
  // Long histograms (a module-level graph against an aten-level one) are
  // capped here; GraphPairDiff::op_delta keeps every op.
  std::string full = JoinOpCounts(changed, 16, true);
  // Bytes cover inputs of known size only; when sizes became unknown
  // (symbolic shapes, SymInt inputs) the byte totals are not comparable.
  auto bytes = [](const GraphStats& s) {
    if (s.inputs_unknown_size == 0) return Bytes(s.parameter_bytes);
    if (s.parameter_bytes == 0) return std::string("unknown");
    return fmt::format("{} (+{} of unknown size)", Bytes(s.parameter_bytes),
                             Plural(static_cast<int64_t>(s.inputs_unknown_size), "input",
                                    "inputs"));
  };
  f.explanation = fmt::format(
      "Nodes {} -> {} ({:+}): {} added and {} removed by op{}{}. Inputs {} -> {}, outputs "
      "{} -> {}, input bytes {} -> {}.",
      l.nodes, r.nodes, net, added, removed, changed.empty() ? "" : ": ", full, l.inputs,
      r.inputs, l.outputs, r.outputs, bytes(l), bytes(r));
  f.evidence.reserve(c.alignment.right_only.size() + c.alignment.left_only.size());
  auto add = [&](const Graph& g, uint32_t i, Side side, const char* note) {
    if (i >= g.nodes.size() || g.nodes[i].kind == NodeKind::kGetAttr) return;
    f.evidence.push_back(CappedEvidence(f, c.options.max_evidence, g, i, side, note));
  };
  for (uint32_t i : c.alignment.right_only) add(c.right, i, Side::kRight, "added");
  for (uint32_t i : c.alignment.left_only) add(c.left, i, Side::kLeft, "removed");
  out->push_back(std::move(f));
}

void LintSizeFacts(const Graph& g, const std::string& label, std::vector<Finding>* out) {
  GraphStats s = ComputeStats(g);
  Finding f;
  f.id = "size-facts";
  f.severity = Severity::kInfo;
  f.graph = label;
  f.count = static_cast<int64_t>(s.nodes);
  std::vector<std::pair<std::string, int64_t>> ops;
  for (const auto& [op, n] : s.ops) ops.emplace_back(op, static_cast<int64_t>(n));
  f.title = fmt::format("{} {}, {} inputs, {} outputs", s.nodes, NodeNoun(g.kind), s.inputs,
                        s.outputs);
  f.explanation = fmt::format("Ops: {}. Input bytes {}{}.", JoinOpCounts(ops, 0, false),
                              Bytes(s.parameter_bytes),
                              s.inputs_unknown_size > 0
                                  ? fmt::format(" ({} inputs of unknown size)", s.inputs_unknown_size)
                                  : "");
  out->push_back(std::move(f));
}

}  // namespace graphdiff::analyze
