// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// lifted-inputs: the right graph takes more inputs. When the left reads
// parameters from the module (module calls, get_attr) and the right takes
// them as inputs, they were lifted, as AOTAutograd does (`primals_*`).
#include <string>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {

void FindLiftedInputs(const PairContext& c, std::vector<Finding>* out) {
  if (c.right.inputs.size() <= c.left.inputs.size()) return;
  std::vector<bool> right_only(c.right.nodes.size(), false);
  for (uint32_t i : c.alignment.right_only) {
    if (i < right_only.size()) right_only[i] = true;
  }
  Finding f;
  f.id = "lifted-inputs";
  f.severity = Severity::kWarning;
  f.graph = c.label;
  uint64_t bytes = 0;
  uint64_t unknown = 0;
  for (uint32_t i : c.right.inputs) {
    if (i >= right_only.size() || !right_only[i]) continue;
    const Node& n = c.right.nodes[i];
    std::optional<int64_t> elems;
    if (n.results.size() == 1) elems = n.results[0].NumElements();
    int width = n.results.size() == 1 ? DTypeBytes(n.results[0].dtype) : 0;
    if (elems && width > 0) {
      bytes += static_cast<uint64_t>(*elems) * width;
    } else {
      ++unknown;
    }
    f.evidence.push_back(NodeEvidence(
        c.right, i, "right",
        n.results.empty() ? std::string("new input")
                          : fmt::format("new input {}", FormatResults(c.right, n))));
  }
  f.count = static_cast<int64_t>(f.evidence.size());
  if (f.count == 0) return;
  // The left holding its parameters inside the module is what makes the new
  // inputs "lifted" rather than merely new.
  bool left_holds_params = false;
  for (const Node& n : c.left.nodes) {
    if (n.kind == NodeKind::kModuleCall || n.kind == NodeKind::kGetAttr) {
      left_holds_params = true;
      break;
    }
  }
  std::string size = unknown == static_cast<uint64_t>(f.count)
                         ? std::string()
                         : fmt::format(", {} bytes of known size", bytes);
  f.title = fmt::format("{} -> {} graph inputs (+{}{})", c.left.inputs.size(),
                        c.right.inputs.size(), f.count,
                        left_holds_params ? ": parameters and buffers lifted to inputs" : "");
  if (left_holds_params) {
    f.explanation = fmt::format(
        "The left graph reads its parameters and buffers from the module; the right graph "
        "takes {} more tensors as inputs{}. AOTAutograd lifts parameters and buffers to "
        "graph inputs (named primals_*) when it traces for autograd; each lifted input is "
        "passed, and often copied, on every call.",
        f.count, size);
    f.hint = "Parameters stay inside the graph when the model runs without autograd "
             "tracing: `torch.no_grad()` / `torch.inference_mode()`, or parameters that "
             "do not require grad.";
  } else {
    f.explanation = fmt::format(
        "The right graph takes {} inputs the left does not{}; values that were computed "
        "or constant inside the graph are now passed in.",
        f.count, size);
  }
  out->push_back(std::move(f));
}

}  // namespace graphdiff::analyze
