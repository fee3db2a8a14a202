// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Diff: the whole pipeline on two dumps (or two graphs) in one call: pair,
// align every graph pair, compare metrics, analyse, and return plain data
// that every report format renders. Also the single-dump analysis behind
// `graphdiff lint`.
//
// Sameness has one name: `identical()` (here and on Alignment: the same up to
// numbering and order), the "identical" keys of the JSON documents, and the
// Python properties `identical`. "same" is only a word of the text reports.
#ifndef GRAPHDIFF_DIFF_H_
#define GRAPHDIFF_DIFF_H_

#include "graphdiff/export.h"
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphdiff/align.h"
#include "graphdiff/dump.h"
#include "graphdiff/findings.h"
#include "graphdiff/graph.h"
#include "graphdiff/metrics.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// Thresholds and caps of the analysis. Defaults suit real dumps.
struct DiffOptions {
  AlignOptions align;
  // Keep only graph pairs and metrics pairs whose source path or graph name
  // on either side equals this, or whose source path contains it. Empty: all.
  std::string graph_selector;
  // counter-delta: a counter moved when |right - left| >= counter_min_abs and
  // |right - left| / max(min(|left|, |right|), 1) >= counter_min_rel (symmetric:
  // swapping the runs never changes whether a counter moved).
  int64_t counter_min_abs = 1;
  double counter_min_rel = 0.05;
  // Metrics (not counters) move when their accumulator changes by at least
  // this fraction. Time metrics vary from run to run; they are compared only
  // when compare_timings is set.
  double metric_min_rel = 0.25;
  bool compare_timings = false;
  // duplicate-subgraph: the smallest duplicated computation worth reporting,
  // in operation nodes (inputs and constants do not count).
  uint32_t duplicate_min_ops = 2;
  // Evidence items kept per finding; the rest are counted in
  // Finding::evidence_omitted. Counts and titles always cover everything.
  size_t max_evidence = 1000;
  // Graph pairs are diffed in parallel on this many threads; 0 = one per
  // core, 1 = all on the caller's thread. The result never depends on it.
  unsigned threads = 0;
  // GraphPairDiff::pairs holds a row for every matched node pair, or only
  // for the changed ones. A row costs about 250 bytes, more than the node
  // it names, so reports that list only changes (text, Markdown) leave the
  // unchanged ones out; JSON and the drawings need them all.
  bool unchanged_rows = true;
  // GraphPairDiff::alignment holds each pair's alignment, or stays empty.
  // Only the drawings (HTML, DOT, Model Explorer) read it; at 48 bytes a
  // node pair it was a tenth of a big diff's memory for reports that never
  // look at it.
  bool alignments = true;
};

// One matched node pair in reportable form.
struct PairRow {
  std::string left;   // node names as the dumps write them
  std::string right;
  uint32_t reasons = 0;  // ChangeReason bits; 0 = unchanged
  Matcher matcher = Matcher::kNone;
  std::string detail;
  std::string left_op;
  std::string right_op;
};

// The comparison of one graph pair.
struct GraphPairDiff {
  std::string left_source;  // dump file paths as LoadDump gives them
  std::string right_source;
  std::string left_graph;  // graph names (may be empty)
  std::string right_graph;
  PairRule how = PairRule::kPath;
  GraphKind kind = GraphKind::kIr;
  uint64_t left_nodes = 0;  // as GraphStats counts them
  uint64_t right_nodes = 0;
  uint64_t left_inputs = 0;
  uint64_t right_inputs = 0;
  uint64_t left_outputs = 0;
  uint64_t right_outputs = 0;
  uint64_t matched = 0;  // matched node pairs
  uint64_t changed = 0;  // of which changed
  uint64_t matched_outputs = 0;
  std::map<std::string, int64_t> op_delta;  // op -> right count - left count, non-zero only
  // Every matched pair in alignment order; only the changed ones when
  // DiffOptions::unchanged_rows is false (`matched` counts them all).
  std::vector<PairRow> pairs;
  std::vector<std::string> left_only;       // node names
  std::vector<std::string> right_only;
  // Of left_only / right_only, the get_attr nodes (FX parameter and buffer
  // fetches), which left_nodes / right_nodes do not count: the one-line
  // summary counts both on one basis. A module-level trace fetches none that
  // its aten trace does (make_fx's `_param_constantN`), a hundred on ResNet.
  uint64_t left_only_get_attrs = 0;
  uint64_t right_only_get_attrs = 0;
  std::vector<std::string> left_only_outputs;  // output value names ("%13.1")
  std::vector<std::string> right_only_outputs;
  // A side's graph is incomplete in its dump (Graph::partial): the diff
  // shows what the dump holds, which may be less than the model ran.
  bool left_partial = false;
  bool right_partial = false;
  // The alignment itself (indices into the graphs). In memory only: not
  // serialised, empty after DiffResultFromJson and when
  // DiffOptions::alignments is off.
  Alignment alignment;

  // Same up to numbering and order.
  bool identical() const;
};

// One counter (or metric accumulator) on both sides; nullopt = absent.
struct CounterValues {
  std::string name;
  std::optional<int64_t> left;
  std::optional<int64_t> right;
};
struct MetricValues {
  std::string name;
  MetricUnit unit = MetricUnit::kNumber;
  std::optional<double> left;  // accumulator
  std::optional<double> right;
};

// The comparison of one metrics-report pair: every counter and metric of
// either side, sorted by name.
struct MetricsPairDiff {
  std::string left_source;
  std::string right_source;
  PairRule how = PairRule::kPath;
  std::vector<CounterValues> counters;
  std::vector<MetricValues> metrics;
  // Every counter has the same value on both sides (metrics, which are
  // mostly timings, do not count).
  bool identical() const;
};

// What an unpaired item is.
enum class UnpairedKind : uint8_t { kGraph, kMetrics };
std::string_view UnpairedKindName(UnpairedKind kind);  // "graph", "metrics"
// Inverse of UnpairedKindName; false when `name` is not one.
bool ParseUnpairedKind(std::string_view name, UnpairedKind* out);

// A graph or metrics report of one side with no counterpart.
struct UnpairedItem {
  Side side = Side::kLeft;
  UnpairedKind what = UnpairedKind::kGraph;
  std::string source;
  std::string graph;  // graph name; empty for metrics
};

// A file of one side's dump that was not read as a dump, and why (Dump::skipped).
struct SkippedFile {
  Side side = Side::kLeft;
  std::string path;  // inside that side's dump
  std::string reason;
};

// What reading one side's dump tolerated: a warning of a file's parser
// (Diagnostic::source names the file).
struct ReadingWarning {
  Side side = Side::kLeft;
  Diagnostic diagnostic;
};

// Everything `graphdiff diff` knows, as plain data.
struct DiffResult {
  std::string left_root;  // what the user named (Dump::root)
  std::string right_root;
  std::vector<GraphPairDiff> pairs;
  std::vector<MetricsPairDiff> metrics;
  std::vector<UnpairedItem> unpaired;
  std::vector<Finding> findings;  // sorted by SortFindings
  // What was not compared and what reading tolerated, both sides, left
  // first, in dump order: reports list them so nothing is dropped silently.
  std::vector<SkippedFile> skipped;
  std::vector<ReadingWarning> warnings;
  // Graphs and metrics reports each side's dump held, selected or not.
  uint64_t left_graphs = 0;
  uint64_t right_graphs = 0;
  uint64_t left_metrics = 0;
  uint64_t right_metrics = 0;

  // Nothing was compared: no graph pair and no metrics pair. A caller must
  // not call that "same" (the CLI exits 2 and says why).
  bool empty() const { return pairs.empty() && metrics.empty(); }

  // Same up to numbering and order: every graph pair identical, nothing
  // unpaired, every counter equal. Decides `graphdiff diff`'s exit code.
  bool identical() const;
};

// Pairs the dumps (PairDumps), aligns each graph pair, compares metrics and
// analyses. Errors: an alignment failed.
absl::StatusOr<DiffResult> DiffDumps(const Dump& left, const Dump& right,
                                     const DiffOptions& options = {});

// The same for two graphs alone (how = PairRule::kGraphs).
absl::StatusOr<DiffResult> DiffGraphs(const Graph& left, const Graph& right,
                                      const DiffOptions& options = {});

// Options of the single-dump analysis.
struct LintOptions {
  std::string graph_selector;  // as DiffOptions::graph_selector
  uint32_t duplicate_min_ops = 2;
  size_t max_evidence = 1000;
};

// Findings on one dump alone: dead-code, dead-constant-expand, clones,
// duplicate-subgraph, and size-facts per graph; sorted by SortFindings.
std::vector<Finding> LintDump(const Dump& dump, const LintOptions& options = {});

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_DIFF_H_
