// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// lifted-inputs and removed-inputs: graph inputs one side has and the other
// does not. When the side without them reads parameters from the module
// (module calls, get_attr) they were lifted, as AOTAutograd does
// (`primals_*`). Symbolic sizes (SymInt placeholders) are inputs but not
// tensors: they carry no bytes and are named apart.
#include <string>
#include <utility>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"
#include "util/checked.h"

namespace graphdiff::analyze {
namespace {

bool HoldsParams(const Graph& g) {
  for (const Node& n : g.nodes) {
    if (n.kind == NodeKind::kModuleCall || n.kind == NodeKind::kGetAttr) return true;
  }
  return false;
}

struct InputSet {
  std::vector<Evidence> evidence;
  int64_t symbolic = 0;
  int64_t unknown = 0;  // tensors of unknown size
  uint64_t bytes = 0;
  int64_t count() const { return static_cast<int64_t>(evidence.size()); }
  int64_t tensors() const { return count() - symbolic; }
};

// Inputs of `g` that the other graph does not take: unmatched, or matched
// with a parameter the other graph fetches from its module (`get_attr`):
// that parameter was lifted to an input. `matched` needs to hold only the
// pairs of g's inputs.
InputSet Collect(const Graph& g, const Graph& other, const std::vector<uint32_t>& only,
                 const std::vector<std::pair<uint32_t, uint32_t>>& matched,
                 Side side, std::string_view note) {
  std::vector<bool> is_only = NodeSet(g, only);
  for (const auto& [mine, theirs] : matched) {
    if (mine < is_only.size() && theirs < other.nodes.size() &&
        other.nodes[theirs].kind == NodeKind::kGetAttr) {
      is_only[mine] = true;
    }
  }
  InputSet s;
  for (uint32_t i : g.inputs) {
    if (i >= is_only.size() || !is_only[i]) continue;
    const Node& n = g.nodes[i];
    if (IsSymbolicScalar(g, n)) {
      ++s.symbolic;
      std::optional<std::string_view> sym = g.attr(n, "sym");
      s.evidence.push_back(NodeEvidence(
          g, i, side, fmt::format("{} symbolic size {}", note, sym ? *sym : "(SymInt)")));
      continue;
    }
    std::optional<int64_t> elems;
    if (n.num_results() == 1) elems = g.result(n, 0).NumElements();
    int width = n.num_results() == 1 ? DTypeBytes(g.result(n, 0).dtype) : 0;
    if (elems && width > 0) {
      s.bytes = SaturatingAdd(
          s.bytes, SaturatingMul(static_cast<uint64_t>(*elems), static_cast<uint64_t>(width)));
    } else {
      ++s.unknown;
    }
    s.evidence.push_back(NodeEvidence(
        g, i, side,
        n.num_results() == 0 ? std::string(note)
                          : fmt::format("{} {}", note, FormatResults(g, n))));
  }
  return s;
}

// ", 12 of them symbolic sizes (SymInt), 4096 bytes in tensors of known size".
std::string Sizes(const InputSet& s) {
  std::string out;
  if (s.symbolic > 0) {
    out += fmt::format(", {} of them symbolic sizes (SymInt values, no tensor data)",
                       s.symbolic);
  }
  if (s.tensors() > s.unknown) {
    out += fmt::format(", {} bytes in the {} tensors of known size", s.bytes,
                       s.tensors() - s.unknown);
  }
  return out;
}

}  // namespace

void FindLiftedInputs(const PairContext& c, std::vector<Finding>* out) {
  size_t li = c.left.inputs.size(), ri = c.right.inputs.size();
  // Only the pairs of inputs: Collect asks of no other node, and a big graph
  // has a million pairs and few inputs.
  const std::vector<bool> left_input = NodeSet(c.left, c.left.inputs);
  const std::vector<bool> right_input = NodeSet(c.right, c.right.inputs);
  std::vector<std::pair<uint32_t, uint32_t>> right_left, left_right;
  for (const NodePair& p : c.alignment.pairs) {
    if (p.right < right_input.size() && right_input[p.right]) {
      right_left.emplace_back(p.right, p.left);
    }
    if (p.left < left_input.size() && left_input[p.left]) left_right.emplace_back(p.left, p.right);
  }
  InputSet added =
      Collect(c.right, c.left, c.alignment.right_only, right_left, Side::kRight, "new input");
  if (added.count() > 0) {
    Finding f;
    f.id = "lifted-inputs";
    f.graph = c.label;
    f.count = added.count();
    // Only symbolic sizes: the graph became dynamic, nothing was lifted.
    // Graphs of two levels (FX against the IR it ran as) pass parameters
    // differently by design: an IR graph takes each one as device data.
    bool same_level = c.left.kind == c.right.kind;
    f.severity = added.tensors() > 0 && same_level ? Severity::kWarning : Severity::kInfo;
    bool lifted = added.tensors() > 0 && same_level && HoldsParams(c.left);
    f.title = fmt::format("{} on the right ({} -> {}){}",
                          Plural(f.count, "new graph input", "new graph inputs"), li, ri,
                          lifted ? ": parameters and buffers lifted to inputs"
                          : added.tensors() == 0 ? ": symbolic sizes (SymInt)"
                                                 : "");
    if (lifted) {
      f.explanation = fmt::format(
          "The left graph reads its parameters and buffers from the module; the right graph "
          "takes {} more inputs{}. AOTAutograd lifts parameters and buffers to graph inputs "
          "(named primals_*) when it traces for autograd; each lifted input is passed, and "
          "often copied, on every call.",
          f.count, Sizes(added));
      f.hint = "Parameters stay inside the graph when the model runs without autograd "
               "tracing: `torch.no_grad()` / `torch.inference_mode()`, or parameters that "
               "do not require grad.";
    } else if (added.tensors() == 0) {
      f.explanation = fmt::format(
          "The right graph takes {} symbolic sizes as inputs: it was traced with dynamic "
          "shapes, and the caller passes the sizes on each call. They hold no tensor data.",
          f.count);
    } else if (!same_level) {
      f.explanation = fmt::format(
          "The right graph ({}) takes {} inputs the left ({}) does not{}. Graphs of different "
          "levels pass values differently: lazy-tensor IR and HLO take every parameter and "
          "scalar as device data, where FX reads parameters from the module.",
          GraphKindName(c.right.kind), f.count, GraphKindName(c.left.kind), Sizes(added));
    } else {
      f.explanation = fmt::format(
          "The right graph takes {} inputs the left does not{}; values that were computed "
          "or constant inside the graph, or graph inputs of another shape, are now passed in.",
          f.count, Sizes(added));
    }
    f.evidence = std::move(added.evidence);
    out->push_back(std::move(f));
  }
  InputSet removed = Collect(c.left, c.right, c.alignment.left_only, left_right, Side::kLeft,
                             "input no longer taken:");
  if (removed.count() > 0) {
    Finding f;
    f.id = "removed-inputs";
    f.severity = Severity::kInfo;
    f.graph = c.label;
    f.count = removed.count();
    bool unlifted = removed.tensors() > 0 && c.left.kind == c.right.kind && HoldsParams(c.right);
    f.title = fmt::format("{} on the right ({} -> {}){}",
                          Plural(f.count, "graph input removed", "graph inputs removed"), li,
                          ri,
                          unlifted ? ": parameters and buffers back inside the module"
                          : removed.tensors() == 0 ? ": symbolic sizes (SymInt)"
                                                   : "");
    if (unlifted) {
      f.explanation = fmt::format(
          "The left graph takes {} inputs the right does not{}, and the right reads its "
          "parameters and buffers from the module: the left had them lifted to inputs, as "
          "AOTAutograd does when it traces for autograd.",
          f.count, Sizes(removed));
    } else if (removed.tensors() == 0) {
      f.explanation = fmt::format(
          "The left graph takes {} symbolic sizes as inputs that the right does not: the "
          "right was traced with static shapes.",
          f.count);
    } else {
      f.explanation = fmt::format(
          "The left graph takes {} inputs the right does not{}; the right computes them "
          "inside the graph, holds them as constants, or no longer needs them.",
          f.count, Sizes(removed));
    }
    f.evidence = std::move(removed.evidence);
    out->push_back(std::move(f));
  }
}

}  // namespace graphdiff::analyze
