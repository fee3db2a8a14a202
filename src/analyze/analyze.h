// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The finding families: one function per family, each in its own file, all
// reading the same plain inputs. DiffDumps and LintDump only call them.
#ifndef GRAPHDIFF_SRC_ANALYZE_ANALYZE_H_
#define GRAPHDIFF_SRC_ANALYZE_ANALYZE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/pair_stats.h"
#include "graphdiff/align.h"
#include "graphdiff/diff.h"
#include "graphdiff/equivalence.h"
#include "graphdiff/findings.h"
#include "graphdiff/graph.h"
#include "graphdiff/metrics.h"
#include "graphdiff/stats.h"

namespace graphdiff::analyze {

// One aligned graph pair and what the families need around it.
struct PairContext {
  const Graph& left;
  const Graph& right;
  const Alignment& alignment;
  const OpEquivalence& equivalence;
  const DiffOptions& options;
  std::string label;  // Finding::graph: "ir.txt" or "a.txt <-> b.txt"
  // True when this context is the pair seen from the other side: `right` is
  // the user's left graph. The one-directional families run once each way so
  // that swapping the dumps mirrors every finding; in the mirrored run they
  // say "removed" where they would say "added".
  bool mirrored = false;
  // Statistics of `left` and `right` (in that order), when the caller has
  // them: on big graphs they cost a pass over every node, and the summary
  // needs them too.
  const PairStats* stats = nullptr;
  // ReachesOutput of `left` and `right`, when the caller has them: dead code
  // asks for both sides' in each direction, a pass over each graph a time.
  const std::vector<bool>* left_live = nullptr;
  const std::vector<bool>* right_live = nullptr;
  // When set, this context mirrors `pairs_from`: `alignment` holds only its
  // node and output lists seen from the other side (SwapAlignmentLists),
  // and its pairs are read through ForEachPair, sides swapped. A million
  // pairs copied and sorted again by the other side's node was the longest
  // part of a big pair's findings, for one family that reads them as a set.
  const Alignment* pairs_from = nullptr;

  // The user's name for the side `right` (and `left`) stands for.
  Side new_side() const { return mirrored ? Side::kLeft : Side::kRight; }
  Side old_side() const { return mirrored ? Side::kRight : Side::kLeft; }
};

// The node lists and output lists of `a` seen from the other side, without
// its pairs (PairContext::pairs_from).
Alignment SwapAlignmentLists(const Alignment& a);

// Calls f(left, right) for every pair of c's alignment, in c's orientation,
// in no order to rely on.
template <typename F>
void ForEachPair(const PairContext& c, F f) {
  if (c.pairs_from != nullptr) {
    for (const NodePair& p : c.pairs_from->pairs) f(p.right, p.left);
    return;
  }
  for (const NodePair& p : c.alignment.pairs) f(p.left, p.right);
}

// One metrics-report pair.
struct MetricsContext {
  const MetricsReport& left;
  const MetricsReport& right;
  const DiffOptions& options;
  std::string label;
};

// --- families over a graph pair (append to `out`) ---
// One-directional: what is new on `c.right`; run again on the mirrored
// context for what the left had (ids gain "-removed").
void FindDeadConstantExpands(const PairContext& c, std::vector<Finding>* out);
void FindNewDeadCode(const PairContext& c, std::vector<Finding>* out);
void FindNewDuplicates(const PairContext& c, std::vector<Finding>* out);
// Symmetric: both directions in one call (clones / clones-removed,
// lifted-inputs / removed-inputs).
void FindClonesAdded(const PairContext& c, std::vector<Finding>* out);
void FindLiftedInputs(const PairContext& c, std::vector<Finding>* out);
void FindOpSubstitutions(const PairContext& c, std::vector<Finding>* out);
void FindSizeDelta(const PairContext& c, std::vector<Finding>* out);

// Symmetric families: run once per pair, never mirrored.
void FindOutputChanges(const PairContext& c, std::vector<Finding>* out);
void FindAttributeChanges(const PairContext& c, std::vector<Finding>* out);
void FindTypeChanges(const PairContext& c, std::vector<Finding>* out);
void FindCollectiveChanges(const PairContext& c, std::vector<Finding>* out);
// Appends a finding that names what changed when no other finding is about
// this pair but the pair is not identical, so a verdict never says
// "different" without a reason.
void FindOtherChanges(const PairContext& c, const std::vector<Finding>& found,
                      std::vector<Finding>* out);

// --- families over a metrics pair ---
void FindCompilation(const MetricsContext& c, std::vector<Finding>* out);
void FindCloneCounters(const MetricsContext& c, std::vector<Finding>* out);
void FindCounterDeltas(const MetricsContext& c, std::vector<Finding>* out);
// The counters that differ at all, when no other finding is about this
// metrics pair although its counters differ.
void FindSmallCounterChanges(const MetricsContext& c, const std::vector<Finding>& found,
                             std::vector<Finding>* out);
// Counters and metrics the compilation family explains.
bool IsCompilationCounter(std::string_view name);

// --- single-graph families for lint ---
// `label` is Finding::graph ("ir.txt", "graphs.txt#3").
void LintDeadConstantExpands(const Graph& g, const std::string& label, std::vector<Finding>* out);
void LintClones(const Graph& g, const std::string& label, std::vector<Finding>* out);
void LintCloneCounters(const MetricsReport& m, const std::string& label,
                       std::vector<Finding>* out);
void LintDeadCode(const Graph& g, const std::string& label, std::vector<Finding>* out);
void LintDuplicates(const Graph& g, uint32_t min_ops, const std::string& label,
                    std::vector<Finding>* out);
void LintSizeFacts(const Graph& g, const std::string& label, std::vector<Finding>* out);

// Fills Finding::related: findings in one graph pair whose evidence names the
// same node explain each other; a clone counter that grew by about as many
// as the inputs that were lifted explains them. Then caps evidence.
void LinkFindings(std::vector<Finding>* findings, size_t max_evidence);

// --- shared helpers (helpers.cc) ---

// "%17", or "#17" when the dump gave the node no name.
std::string NodeName(const Graph& g, uint32_t node);
// An output value: the node name, with ".k" for multi-output nodes.
std::string ValueName(const Graph& g, ValueRef v);
// Evidence pointing at one node.
// `side` is none for single-dump findings.
Evidence NodeEvidence(const Graph& g, uint32_t node, std::optional<Side> side,
                      std::string note);
// Evidence past the cap (DiffOptions::max_evidence; 0 is none): LinkFindings
// reads its node key (side, source, line, name) and drops it unseen, so it
// carries no op and no note. A family that lists a whole node set (every
// copy of a duplicate, every added node) built and formatted hundreds of
// thousands of items to keep a thousand.
bool PastEvidenceCap(const Finding& f, size_t max_evidence);
Evidence LinkOnlyEvidence(const Graph& g, uint32_t node, std::optional<Side> side);
// NodeEvidence with `note` while `f` is under the cap, LinkOnlyEvidence past it.
Evidence CappedEvidence(const Finding& f, size_t max_evidence, const Graph& g, uint32_t node,
                        std::optional<Side> side, std::string_view note);
// " on the left" / " on the right"; "" for single-dump findings.
std::string OnTheSide(std::optional<Side> side);
// The op after the last "::" ("aten::expand" -> "expand").
std::string_view ShortOp(std::string_view op);
// expand / expand_copy / broadcast / broadcast_to / broadcast_in_dim.
bool IsExpandOp(std::string_view op);
// clone / copy / copy_ / _to_copy / _copy_from / lift_fresh_copy.
bool IsCloneOp(std::string_view op);
// A counter that counts clones: "xla::clone", "lazy::clone", "aten::clone".
bool IsCloneCounter(std::string_view name);
// "IR nodes", "FX nodes", "HLO instructions".
std::string_view NodeNoun(GraphKind kind);
// Users of each node through operands only (outputs not counted).
std::vector<uint32_t> CountNodeUsers(const Graph& g);
// Marks nodes from which some output is reachable.
std::vector<bool> ReachesOutput(const Graph& g);
// Marks `nodes` (indices into g, those out of range ignored): a node list
// as a set a pass over the graph can ask of.
std::vector<bool> NodeSet(const Graph& g, const std::vector<uint32_t>& nodes);
// The attribute of `n` whose key is `key` (an id of n's graph's pool, found
// once with StringPool::Find), or null; always null for an empty key. One id
// to compare per attribute, where Graph::attr compares strings.
const Attr* AttrWithKey(const Node& n, StrId key);
// "40 aten::expand, 40 prim::Constant" from an op -> count list, largest first.
std::string JoinOpCounts(std::vector<std::pair<std::string, int64_t>> counts,
                         size_t max_items, bool signed_counts);
// Result of a node is known to hold zero elements.
bool IsEmptyResult(const Graph& g, const Node& n);
// A SymInt/SymBool value (FX `Sym(...)` annotation, `sym_size`), not a tensor.
bool IsSymbolicScalar(const Graph& g, const Node& n);
// Ops that act by side effect: their operands are used even when nothing
// reads their result (asserts, in-place updates, prints, collectives, RNG
// state updates, host transfers).
bool HasSideEffects(std::string_view op);
// The collective an op performs ("all-reduce", "all-gather", ...), or "".
std::string_view CollectiveKind(std::string_view op);
// Attribute keys that describe where a node came from, not what it computes.
bool IsProvenanceKey(std::string_view key);
// Whether the graph calls modules (a module-level trace: symbolic_trace,
// Dynamo), which hides the copies and views its modules' aten ops make.
bool CallsModules(const Graph& g);
// One side of the pair calls modules and the other does not: module-level
// FX against an aten-level trace or the IR it ran as.
bool ModuleLevelDiffers(const PairContext& c);
// A call of a plain Python function that is no Python builtin
// (`builtins::torchvision_models_swin_transformer_shifted_window_attention`):
// a function `torch.fx.wrap` kept whole in a module-level trace. What it
// becomes one level down is its body, which no op table knows.
bool IsWrappedFunction(std::string_view op);
// "1 node" / "3 nodes".
std::string Plural(int64_t n, std::string_view one, std::string_view many);

}  // namespace graphdiff::analyze

#endif  // GRAPHDIFF_SRC_ANALYZE_ANALYZE_H_
