// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// extra-outputs, removed-outputs, outputs-replaced: values one graph returns
// and the other does not. Only added: extra-outputs; only removed:
// removed-outputs (its mirror); both: outputs-replaced. The kinds of the
// producing ops tell whether the values are what a training-style forward
// keeps for its backward pass.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

enum class SavedKind {
  kActivation,
  kLayerOutput,
  kNormStats,
  kEmptyPlaceholder,
  kInput,
  kSymbolic,
  kOther
};

bool IsActivation(std::string_view op) {
  std::string_view s = ShortOp(op);
  if (!s.empty() && s.back() == '_') s.remove_suffix(1);
  for (std::string_view a : {"relu", "relu6", "gelu", "silu", "sigmoid", "tanh", "hardtanh",
                             "leaky_relu", "elu", "selu", "hardswish", "hardsigmoid", "mish",
                             "softmax", "_softmax", "log_softmax", "_log_softmax", "threshold"}) {
    if (s == a) return true;
  }
  return false;
}

bool IsNormClass(std::string_view cls) {
  return cls == "batch_norm" || cls == "layer_norm" || cls == "group_norm" ||
         cls.find("batch_norm") != std::string_view::npos ||
         cls.find("layer_norm") != std::string_view::npos;
}

// Ops whose results a backward pass typically reads: layer outputs, pooling
// results and indices, reshapes of them, transposed weights.
bool IsLayerOutput(std::string_view cls, std::string_view op) {
  for (std::string_view c : {"convolution", "max_pool", "avg_pool", "adaptive_avg_pool", "mean",
                             "mm", "linear", "view", "permute", "embedding", "dropout"}) {
    if (cls == c) return true;
  }
  std::string_view s = ShortOp(op);
  for (std::string_view o : {"addmm", "bmm", "matmul", "baddbmm", "sum", "flatten", "squeeze",
                             "unsqueeze", "cat", "add", "mul"}) {
    if (s == o) return true;
  }
  return false;
}

SavedKind Classify(const Graph& g, const OpEquivalence& eq, ValueRef v) {
  const Node& n = g.nodes[v.node];
  std::string_view op = g.str(n.op);
  std::string_view cls = eq.ClassOf(op);
  // A SymInt is a size the caller passes back, not a tensor kept for backward.
  if (IsSymbolicScalar(g, n)) return SavedKind::kSymbolic;
  if (n.kind == NodeKind::kInput || n.kind == NodeKind::kGetAttr) return SavedKind::kInput;
  if (IsNormClass(cls)) return v.output > 0 ? SavedKind::kNormStats : SavedKind::kLayerOutput;
  if (IsEmptyResult(g, n)) {
    // Size-0 results built from a constant (expand of a scalar, empty) are
    // the placeholders a no-training batch norm returns for its statistics.
    bool from_constant = n.operands.empty();
    for (ValueRef o : n.operands) {
      if (o.node < g.nodes.size() && g.nodes[o.node].kind == NodeKind::kConstant) {
        from_constant = true;
      }
    }
    if (from_constant) return SavedKind::kEmptyPlaceholder;
  }
  if (IsActivation(op)) return SavedKind::kActivation;
  if (IsLayerOutput(cls, op)) return SavedKind::kLayerOutput;
  return SavedKind::kOther;
}

std::string_view KindNote(SavedKind k) {
  switch (k) {
    case SavedKind::kActivation: return "activation";
    case SavedKind::kLayerOutput: return "layer output";
    case SavedKind::kNormStats: return "normalisation statistic";
    case SavedKind::kEmptyPlaceholder: return "empty (size-0) placeholder";
    case SavedKind::kInput: return "graph input returned as is";
    case SavedKind::kSymbolic: return "symbolic size (SymInt), not a tensor";
    case SavedKind::kOther: return "other";
  }
  return "other";
}

// "batch-norm", "layer-norm", "group-norm": the norm a statistic belongs to.
std::string NormName(std::string_view cls, std::string_view op) {
  for (std::string_view k : {"batch_norm", "layer_norm", "group_norm", "instance_norm",
                             "rms_norm"}) {
    if (cls.find(k) != std::string_view::npos || op.find(k) != std::string_view::npos) {
      std::string s(k);
      s[s.find('_')] = '-';
      return s;
    }
  }
  return "normalisation";
}

// What one side's unmatched outputs are, as counts a title and explanation
// both read.
struct OutputSet {
  std::vector<Evidence> evidence;
  std::map<std::string, int64_t> by_op;
  std::map<SavedKind, int64_t> by_kind;
  std::set<std::string> norms;  // norms whose statistics are among them
  int64_t count() const { return static_cast<int64_t>(evidence.size()); }
  int64_t saved() const {
    int64_t n = 0;
    for (SavedKind k : {SavedKind::kActivation, SavedKind::kLayerOutput,
                        SavedKind::kNormStats, SavedKind::kEmptyPlaceholder,
                        SavedKind::kInput}) {
      auto it = by_kind.find(k);
      if (it != by_kind.end()) n += it->second;
    }
    return n;
  }
  int64_t kind(SavedKind k) const {
    auto it = by_kind.find(k);
    return it == by_kind.end() ? 0 : it->second;
  }
};

OutputSet Collect(const Graph& g, const OpEquivalence& eq, const std::vector<uint32_t>& positions,
                  Side side, std::string_view verb) {
  OutputSet s;
  for (uint32_t pos : positions) {
    if (pos >= g.outputs.size()) continue;
    ValueRef v = g.outputs[pos];
    if (v.node >= g.nodes.size()) continue;
    const Node& n = g.nodes[v.node];
    std::string op(g.str(n.op));
    std::string label = n.num_outputs() > 1 || v.output > 0
                            ? fmt::format("{} (output {})", op, v.output)
                            : op;
    ++s.by_op[label];
    SavedKind kind = Classify(g, eq, v);
    ++s.by_kind[kind];
    if (kind == SavedKind::kNormStats) s.norms.insert(NormName(eq.ClassOf(op), op));
    s.evidence.push_back(NodeEvidence(
        g, v.node, side,
        fmt::format("{} {} = {}: {}", verb, pos, ValueName(g, v), KindNote(kind))));
  }
  return s;
}

std::string JoinNames(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    out += (i == 0 ? "" : (i + 1 == parts.size() ? " and " : ", ")) + parts[i];
  }
  return out;
}

std::string NormWords(const OutputSet& s) {
  std::vector<std::string> names(s.norms.begin(), s.norms.end());
  return JoinNames(names);
}

// "40 activations and layer outputs and 40 batch-norm statistics".
std::string Kinds(const OutputSet& s) {
  std::vector<std::string> parts;
  int64_t acts = s.kind(SavedKind::kActivation) + s.kind(SavedKind::kLayerOutput);
  if (acts > 0) parts.push_back(fmt::format("{} activations and layer outputs", acts));
  if (s.kind(SavedKind::kNormStats) > 0) {
    parts.push_back(fmt::format("{} normalisation ({}) statistics",
                                s.kind(SavedKind::kNormStats), NormWords(s)));
  }
  if (s.kind(SavedKind::kEmptyPlaceholder) > 0) {
    parts.push_back(fmt::format(
        "{} empty (size-0) placeholders built from constants, the shape of the "
        "statistics a no-training batch norm returns",
        s.kind(SavedKind::kEmptyPlaceholder)));
  }
  if (s.kind(SavedKind::kInput) > 0) {
    parts.push_back(fmt::format("{} graph inputs returned unchanged", s.kind(SavedKind::kInput)));
  }
  if (s.kind(SavedKind::kSymbolic) > 0) {
    parts.push_back(fmt::format("{} symbolic sizes (SymInt values, not tensors)",
                                s.kind(SavedKind::kSymbolic)));
  }
  if (s.kind(SavedKind::kOther) > 0) {
    parts.push_back(fmt::format("{} other values", s.kind(SavedKind::kOther)));
  }
  return JoinNames(parts);
}

// The training-forward shape: nearly every such output is something a
// backward pass reads, including activations. Symbolic sizes are neither
// evidence for nor against: AOTAutograd returns them for the backward too.
bool TrainingForward(const OutputSet& s) {
  int64_t acts = s.kind(SavedKind::kActivation) + s.kind(SavedKind::kLayerOutput);
  int64_t tensors = s.count() - s.kind(SavedKind::kSymbolic);
  return acts > 0 && s.saved() * 4 >= tensors * 3;
}

std::string SavedTitle(const OutputSet& s) {
  int64_t stats = s.kind(SavedKind::kNormStats) + s.kind(SavedKind::kEmptyPlaceholder);
  if (stats == 0) return "activations saved for a backward pass";
  std::string norms = s.norms.empty() ? std::string("batch-norm") : NormWords(s);
  return fmt::format("activations and {} statistics saved for backward", norms);
}

constexpr const char* kTrainingHint =
    "Run inference under `torch.no_grad()` or `torch.inference_mode()`, make the "
    "parameters not require grad (`model.requires_grad_(False)`), or use the "
    "backend's non-AOT (inference) variant.";

constexpr const char* kTrainingWhy =
    "This is a training-style forward graph, as AOTAutograd builds it when the model's "
    "parameters require grad: it also returns what the backward pass would read, although "
    "no backward runs. Every extra output is materialised and copied out on each step.";

}  // namespace

void FindOutputChanges(const PairContext& c, std::vector<Finding>* out) {
  const Alignment& a = c.alignment;
  OutputSet added = Collect(c.right, c.equivalence, a.right_only_outputs, Side::kRight, "output");
  OutputSet removed = Collect(c.left, c.equivalence, a.left_only_outputs, Side::kLeft, "output");
  if (added.count() == 0 && removed.count() == 0) return;
  size_t lo = c.left.outputs.size(), ro = c.right.outputs.size();
  Finding f;
  f.graph = c.label;
  if (removed.count() == 0) {
    f.id = "extra-outputs";
    f.severity = Severity::kWarning;
    f.count = added.count();
    f.title = fmt::format("{} on the right ({} -> {})",
                          Plural(f.count, "extra output", "extra outputs"), lo, ro);
    std::string grouped = JoinOpCounts({added.by_op.begin(), added.by_op.end()}, 0, false);
    f.explanation = fmt::format("The right graph returns {} values the left does not: {}. "
                                "By producing op: {}.",
                                f.count, Kinds(added), grouped);
    if (TrainingForward(added)) {
      f.title += ": " + SavedTitle(added);
      f.explanation += std::string(" ") + kTrainingWhy;
      f.hint = kTrainingHint;
    } else {
      f.explanation += " Each extra output is kept alive and copied out of the graph.";
      f.hint = "Check whether the caller needs these values; outputs nobody reads cost "
               "memory and transfers.";
    }
    f.evidence = std::move(added.evidence);
  } else if (added.count() == 0) {
    f.id = "removed-outputs";
    f.severity = Severity::kInfo;
    f.count = removed.count();
    f.title = fmt::format("{} on the right ({} -> {})",
                          Plural(f.count, "output removed", "outputs removed"), lo, ro);
    std::string grouped = JoinOpCounts({removed.by_op.begin(), removed.by_op.end()}, 0, false);
    f.explanation = fmt::format("The left graph returns {} values the right does not: {}. "
                                "By producing op: {}.",
                                f.count, Kinds(removed), grouped);
    if (TrainingForward(removed)) {
      f.title += ": " + SavedTitle(removed) + " no longer returned";
      f.explanation +=
          " The left is a training-style forward graph (AOTAutograd returns what a "
          "backward pass would read); the right returns only what the caller asked for, as "
          "under `torch.no_grad()` or with parameters that do not require grad.";
    } else {
      f.explanation += " Whoever read these outputs on the left gets them no longer.";
    }
    for (Evidence& e : removed.evidence) e.note = "no longer returned: " + e.note;
    f.evidence = std::move(removed.evidence);
  } else {
    f.id = "outputs-replaced";
    // Graphs of two levels return the same values in other forms (FX batch-
    // norm statistics, size-0 IR placeholders): information, not an alarm.
    f.severity = c.left.kind == c.right.kind ? Severity::kWarning : Severity::kInfo;
    f.count = added.count() + removed.count();
    f.title = fmt::format("outputs replaced: {} removed, {} added ({} -> {})",
                          removed.count(), added.count(), lo, ro);
    f.explanation = fmt::format(
        "{} of the left's {} outputs have no counterpart on the right ({}) and {} of the "
        "right's {} outputs have none on the left ({}): the graph returns different values, "
        "not merely more or fewer.",
        removed.count(), lo, Kinds(removed), added.count(), ro, Kinds(added));
    if (TrainingForward(added) && !TrainingForward(removed)) {
      f.explanation += std::string(" The added outputs look like ") + SavedTitle(added) + ".";
      f.hint = kTrainingHint;
    } else if (TrainingForward(removed) && !TrainingForward(added)) {
      f.explanation += std::string(" The removed outputs look like ") + SavedTitle(removed) +
                       ".";
    }
    for (Evidence& e : removed.evidence) e.note = "no longer returned: " + e.note;
    f.evidence = std::move(removed.evidence);
    for (Evidence& e : added.evidence) f.evidence.push_back(std::move(e));
  }
  out->push_back(std::move(f));
}

}  // namespace graphdiff::analyze
