// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// dead-code: operations from which no graph output, no ROOT instruction and
// no side effect can be reached. Inputs, constants, attribute fetches and
// symbolic sizes are left out (an unused parameter or SymInt is not work),
// and so are the side-effecting ops themselves: in-place ops (`add_`),
// asserts, prints, collectives, RNG state updates.
#include <map>
#include <string>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

// ReachesOutput(g): `known` when the caller has it, else worked out into `own`.
const std::vector<bool>& Live(const Graph& g, const std::vector<bool>* known,
                              std::vector<bool>* own) {
  if (known != nullptr) return *known;
  *own = ReachesOutput(g);
  return *own;
}

// `live_known`: ReachesOutput(g), or null to work it out.
std::vector<uint32_t> DeadNodes(const Graph& g, const std::vector<bool>* candidates,
                                const std::vector<bool>* live_known) {
  std::vector<uint32_t> dead;
  if (g.outputs.empty()) return dead;  // nothing to reach: no verdict
  std::vector<bool> own;
  const std::vector<bool>& live = Live(g, live_known, &own);
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    if (live[i] || (candidates && !(*candidates)[i])) continue;
    const Node& n = g.nodes[i];
    if (n.kind != NodeKind::kOp && n.kind != NodeKind::kMethodCall &&
        n.kind != NodeKind::kModuleCall) {
      continue;
    }
    if (HasSideEffects(g.str(n.op)) || IsSymbolicScalar(g, n)) continue;
    // An unused uninitialised or size-0 allocation computes nothing (make_fx
    // leaves one `empty([0])` per batch norm as its reserve buffer).
    if (IsEmptyResult(g, n) || ShortOp(g.str(n.op)).substr(0, 5) == "empty") continue;
    dead.push_back(i);
  }
  return dead;
}

void Report(const Graph& g, const std::vector<uint32_t>& dead, std::optional<Side> side,
            std::string label, bool mirrored, size_t max_evidence, std::vector<Finding>* out) {
  if (dead.empty()) return;
  Finding f;
  f.id = mirrored ? "dead-code-removed" : "dead-code";
  f.severity = mirrored ? Severity::kInfo : Severity::kWarning;
  f.graph = std::move(label);
  f.count = static_cast<int64_t>(dead.size());
  std::map<std::string, int64_t> by_op;
  f.evidence.reserve(dead.size());
  for (uint32_t i : dead) {
    ++by_op[std::string(g.str(g.nodes[i].op))];
    f.evidence.push_back(CappedEvidence(f, max_evidence, g, i, side, "reaches no output"));
  }
  f.title = fmt::format("{} no output{}{} ({})", Plural(f.count, "node reaches", "nodes reach"),
                        OnTheSide(side),
                        mirrored ? ", gone or used on the right" : "",
                        JoinOpCounts({by_op.begin(), by_op.end()}, 3, false));
  if (mirrored) {
    f.explanation = "These operations of the left feed nothing the left graph returns; on the "
                    "right they are gone or their results are used.";
    out->push_back(std::move(f));
    return;
  }
  f.explanation = "These operations feed nothing the graph returns. Backends usually prune "
                  "them, but they still cost tracing and compilation time, and in a dump they "
                  "hide the real computation.";
  f.hint = "Find the Python code that computes them (the node frames or FX `# File:` lines) "
           "and drop it, or make sure its result is used.";
  out->push_back(std::move(f));
}

}  // namespace

void FindNewDeadCode(const PairContext& c, std::vector<Finding>* out) {
  // New dead code: dead on the right and either new, or live on the left.
  std::vector<bool> own;
  const std::vector<bool>& left_live = Live(c.left, c.left_live, &own);
  std::vector<bool> candidate = NodeSet(c.right, c.alignment.right_only);
  ForEachPair(c, [&](uint32_t left, uint32_t right) {
    if (right < candidate.size() && left < left_live.size() && left_live[left]) {
      candidate[right] = true;
    }
  });
  Report(c.right, DeadNodes(c.right, &candidate, c.right_live), c.new_side(), c.label, c.mirrored,
         c.options.max_evidence, out);
}

void LintDeadCode(const Graph& g, const std::string& label, std::vector<Finding>* out) {
  Report(g, DeadNodes(g, nullptr, nullptr), std::nullopt, label, false, /*max_evidence=*/0, out);
}

}  // namespace graphdiff::analyze
