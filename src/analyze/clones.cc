// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// clones: copies the candidate makes that the baseline does not, seen as
// clone/copy nodes in a graph or as `*::clone` counters in a metrics report.
#include <map>
#include <string>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

enum class Change { kAdded, kRemoved, kNone };

// The copies a module-level graph's modules and wrapped functions make are
// inside them; the aten trace shows each one (a reshape of a permuted tensor
// is `clone` + `_unsafe_view`, a constant `lift_fresh_copy`). Against the
// other level every such copy is "added", though neither run made more.
constexpr std::string_view kAcrossLevels =
    " The left graph calls modules and the right does not: a module-level graph hides the "
    "copies its modules and wrapped functions make, and the aten level records them, so "
    "these copies are what the code always did, not new ones.";
// Two formats record copies each their own way: the lazy-tensor IR's
// tensors carry no strides, so making one contiguous is no copy there,
// while make_fx writes `clone` + `_unsafe_view` (Swin-T's IR against its
// make_fx: 79 clones "added").
constexpr std::string_view kAcrossFormats =
    " The graphs are of two formats, which record copies each their own way (make_fx writes "
    "a reshape of a permuted tensor as `clone` + `_unsafe_view`; lazy tensors carry no "
    "strides, so the IR makes no such copy): a copy on one side only is how it was traced, "
    "not one the run added.";

void ReportNodes(const Graph& g, const std::vector<uint32_t>& nodes, std::optional<Side> side,
                 std::string label, Change change, std::vector<Finding>* out,
                 std::string_view across = {}) {
  if (nodes.empty()) return;
  Finding f;
  f.id = change == Change::kRemoved ? "clones-removed" : "clones";
  f.severity =
      change == Change::kAdded && across.empty() ? Severity::kWarning : Severity::kInfo;
  f.graph = std::move(label);
  f.count = static_cast<int64_t>(nodes.size());
  std::map<std::string, int64_t> by_op;
  for (uint32_t i : nodes) {
    ++by_op[std::string(g.str(g.nodes[i].op))];
    f.evidence.push_back(NodeEvidence(g, i, side, FormatResults(g, g.nodes[i])));
  }
  std::string ops = JoinOpCounts({by_op.begin(), by_op.end()}, 0, false);
  f.title = change == Change::kAdded
                ? fmt::format("{} added on the right ({})",
                              Plural(f.count, "clone/copy node", "clone/copy nodes"), ops)
            : change == Change::kRemoved
                ? fmt::format("{} removed on the right ({})",
                              Plural(f.count, "clone/copy node", "clone/copy nodes"), ops)
                : fmt::format("{} ({})", Plural(f.count, "clone/copy node", "clone/copy nodes"),
                              ops);
  f.explanation = "Each clone or copy materialises a new buffer and costs a memory round trip; "
                  "copies of parameters or inputs usually mean something forced them out of "
                  "place (functionalization, inputs that are mutated, lifted parameters).";
  if (change == Change::kRemoved) {
    f.explanation += " The left makes these copies and the right does not.";
  } else if (!across.empty()) {
    f.explanation += across;
  } else {
    f.hint = "Look at what each copy feeds; a copy whose result is only returned or read "
             "once can usually be avoided.";
  }
  out->push_back(std::move(f));
}

}  // namespace

void FindClonesAdded(const PairContext& c, std::vector<Finding>* out) {
  auto clones = [](const Graph& g, const std::vector<uint32_t>& only) {
    std::vector<uint32_t> nodes;
    for (uint32_t i : only) {
      if (i < g.nodes.size() && IsCloneOp(g.str(g.nodes[i].op))) nodes.push_back(i);
    }
    return nodes;
  };
  std::vector<uint32_t> added = clones(c.right, c.alignment.right_only);
  // Only the module-level side hides copies: an aten graph against a
  // module-level one on its right shows no copies the right hides.
  std::string_view across;
  if (!added.empty()) {
    if (c.left.kind != c.right.kind) {
      across = kAcrossFormats;
    } else if (CallsModules(c.left) && !CallsModules(c.right)) {
      across = kAcrossLevels;
    }
  }
  ReportNodes(c.right, added, Side::kRight, c.label, Change::kAdded, out, across);
  ReportNodes(c.left, clones(c.left, c.alignment.left_only), Side::kLeft, c.label,
              Change::kRemoved, out);
}

void LintClones(const Graph& g, const std::string& label, std::vector<Finding>* out) {
  std::vector<uint32_t> nodes;
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    if (IsCloneOp(g.str(g.nodes[i].op))) nodes.push_back(i);
  }
  ReportNodes(g, nodes, std::nullopt, label, Change::kNone, out);
}

void FindCloneCounters(const MetricsContext& c, std::vector<Finding>* out) {
  // Sorted by name so the evidence order never depends on the report's.
  std::map<std::string, std::pair<const Counter*, const Counter*>> counters;
  for (const Counter& x : c.left.counters) {
    if (IsCloneCounter(x.name)) counters[x.name].first = &x;
  }
  for (const Counter& x : c.right.counters) {
    if (IsCloneCounter(x.name)) counters[x.name].second = &x;
  }
  for (bool grew : {true, false}) {
    Finding f;
    f.id = grew ? "clones" : "clones-removed";
    f.severity = grew ? Severity::kWarning : Severity::kInfo;
    f.graph = c.label;
    std::string parts;
    for (const auto& [name, lr] : counters) {
      int64_t before = lr.first ? lr.first->value : 0;
      int64_t after = lr.second ? lr.second->value : 0;
      if (grew ? after <= before : after >= before) continue;
      f.count += grew ? after - before : before - after;
      const Counter* at = lr.second ? lr.second : lr.first;
      Evidence e;
      e.side = lr.second ? Side::kRight : Side::kLeft;
      e.source = lr.second ? c.right.source : c.left.source;
      e.line = at->line;
      e.node = name;
      e.note = fmt::format("counter {} -> {}", before, after);
      f.evidence.push_back(std::move(e));
      parts += fmt::format("{}{} {} -> {}", parts.empty() ? "" : ", ", name, before, after);
    }
    if (f.evidence.empty()) continue;
    f.title = fmt::format("clone counters {}: {}", grew ? "grew" : "shrank", parts);
    if (grew) {
      f.explanation = fmt::format(
          "The backend cloned {} more tensors on the right. Clones copy whole buffers on the "
          "device; a growth close to the number of parameters means every parameter (or "
          "input) was copied, as happens when parameters are lifted to graph inputs and "
          "functionalized.",
          f.count);
      f.hint = "Compare with lifted-inputs: if parameters became graph inputs, run without "
               "autograd tracing (`torch.no_grad()` / inference mode) so they stay constants.";
    } else {
      f.explanation = fmt::format(
          "The backend cloned {} fewer tensors on the right. A drop close to the number of "
          "parameters means the left copied every parameter (or input), as happens when "
          "parameters are lifted to graph inputs and functionalized.",
          f.count);
    }
    out->push_back(std::move(f));
  }
}

void LintCloneCounters(const MetricsReport& m, const std::string& label,
                       std::vector<Finding>* out) {
  for (const Counter& c : m.counters) {
    if (!IsCloneCounter(c.name) || c.value <= 0) continue;
    Finding f;
    f.id = "clones";
    f.severity = Severity::kInfo;
    f.graph = label;
    f.count = c.value;
    f.title = fmt::format("{} = {}", c.name, c.value);
    f.explanation = "The backend cloned tensors this many times; compare with a baseline to "
                    "see whether it grew.";
    Evidence e;
    e.source = m.source;
    e.line = c.line;
    e.node = c.name;
    e.note = fmt::format("counter {}", c.value);
    f.evidence.push_back(std::move(e));
    out->push_back(std::move(f));
  }
}

}  // namespace graphdiff::analyze
