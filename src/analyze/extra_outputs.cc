// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// extra-outputs: values the right graph returns and the left does not. The
// kinds of the producing ops tell whether the extras are what a
// training-style forward keeps for its backward pass.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

enum class SavedKind { kActivation, kLayerOutput, kNormStats, kEmptyPlaceholder, kInput, kOther };

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

SavedKind Classify(const PairContext& c, ValueRef v) {
  const Graph& g = c.right;
  const Node& n = g.nodes[v.node];
  std::string_view op = g.str(n.op);
  std::string_view cls = c.equivalence.ClassOf(op);
  if (n.kind == NodeKind::kInput || n.kind == NodeKind::kGetAttr) return SavedKind::kInput;
  if (IsNormClass(cls)) return v.output > 0 ? SavedKind::kNormStats : SavedKind::kLayerOutput;
  if (IsEmptyResult(n)) {
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
    case SavedKind::kOther: return "other";
  }
  return "other";
}

}  // namespace

void FindExtraOutputs(const PairContext& c, std::vector<Finding>* out) {
  const Alignment& a = c.alignment;
  if (a.right_only_outputs.empty()) return;
  const Graph& g = c.right;
  std::map<std::string, int64_t> by_op;
  std::map<SavedKind, int64_t> by_kind;
  Finding f;
  f.id = "extra-outputs";
  f.severity = Severity::kWarning;
  f.graph = c.label;
  for (uint32_t pos : a.right_only_outputs) {
    if (pos >= g.outputs.size()) continue;
    ValueRef v = g.outputs[pos];
    if (v.node >= g.nodes.size()) continue;
    std::string op(g.str(g.nodes[v.node].op));
    std::string label = g.nodes[v.node].num_outputs() > 1 || v.output > 0
                            ? fmt::format("{} (output {})", op, v.output)
                            : op;
    ++by_op[label];
    SavedKind kind = Classify(c, v);
    ++by_kind[kind];
    f.evidence.push_back(NodeEvidence(
        g, v.node, "right",
        fmt::format("output {} = {}: {}", pos, ValueName(g, v), KindNote(kind))));
  }
  f.count = static_cast<int64_t>(f.evidence.size());
  if (f.count == 0) return;
  std::vector<std::pair<std::string, int64_t>> ops(by_op.begin(), by_op.end());
  std::string grouped = JoinOpCounts(ops, 0, false);

  int64_t saved = 0;
  for (SavedKind k : {SavedKind::kActivation, SavedKind::kLayerOutput, SavedKind::kNormStats,
                      SavedKind::kEmptyPlaceholder, SavedKind::kInput}) {
    saved += by_kind[k];
  }
  int64_t stats = by_kind[SavedKind::kNormStats] + by_kind[SavedKind::kEmptyPlaceholder];
  int64_t acts = by_kind[SavedKind::kActivation] + by_kind[SavedKind::kLayerOutput];
  // The training-forward shape: nearly every extra output is something a
  // backward pass reads, including activations, while the left's own
  // outputs are all still there.
  bool training_forward = a.left_only_outputs.empty() && acts > 0 &&
                          saved * 4 >= f.count * 3;
  std::vector<std::string> parts;
  if (acts > 0) parts.push_back(fmt::format("{} activations and layer outputs", acts));
  if (by_kind[SavedKind::kNormStats] > 0) {
    parts.push_back(fmt::format("{} normalisation (batch-norm) statistics",
                                by_kind[SavedKind::kNormStats]));
  }
  if (by_kind[SavedKind::kEmptyPlaceholder] > 0) {
    parts.push_back(fmt::format(
        "{} empty (size-0) placeholders built from constants, the shape of the "
        "statistics a no-training batch norm returns",
        by_kind[SavedKind::kEmptyPlaceholder]));
  }
  if (by_kind[SavedKind::kInput] > 0) {
    parts.push_back(fmt::format("{} graph inputs returned unchanged", by_kind[SavedKind::kInput]));
  }
  if (by_kind[SavedKind::kOther] > 0) {
    parts.push_back(fmt::format("{} other values", by_kind[SavedKind::kOther]));
  }
  std::string kinds;
  for (size_t i = 0; i < parts.size(); ++i) {
    kinds += (i == 0 ? "" : (i + 1 == parts.size() ? " and " : ", ")) + parts[i];
  }
  f.title = fmt::format("{} extra outputs on the right ({} -> {})", f.count,
                        c.left.outputs.size(), g.outputs.size());
  if (training_forward) {
    f.title += stats > 0 ? ": activations and batch-norm statistics saved for backward"
                         : ": activations saved for a backward pass";
    f.explanation = fmt::format(
        "The right graph returns {} values the left does not: {}. By producing op: "
        "{}. This is a training-style forward graph, as AOTAutograd builds it when "
        "the model's parameters require grad: it also returns what the backward "
        "pass would read, although no backward runs. Every extra output is "
        "materialised and copied out on each step.",
        f.count, kinds, grouped);
    f.hint =
        "Run inference under `torch.no_grad()` or `torch.inference_mode()`, make the "
        "parameters not require grad (`model.requires_grad_(False)`), or use the "
        "backend's non-AOT (inference) variant.";
  } else {
    f.explanation = fmt::format(
        "The right graph returns {} values the left does not: {}. By producing op: "
        "{}. Each extra output is kept alive and copied out of the graph.",
        f.count, kinds, grouped);
    f.hint = "Check whether the caller needs these values; outputs nobody reads cost memory "
             "and transfers.";
  }
  out->push_back(std::move(f));
}

}  // namespace graphdiff::analyze
