// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Gate: a CI regression gate on graph size. A baseline is a snapshot of one
// dump's size facts (per graph: nodes, inputs, outputs, op histogram,
// parameter bytes, single-dump findings; per metrics report: counters); a
// budget says how much each fact may grow; a check compares a fresh dump with
// the baseline under the budget and says PASS, FAIL (with reasons) or
// IMPROVED (the baseline can be tightened). Formats are documented in
// docs/gate.md.
#ifndef GRAPHDIFF_GATE_H_
#define GRAPHDIFF_GATE_H_

#include "graphdiff/export.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphdiff/dump.h"
#include "graphdiff/findings.h"
#include "graphdiff/graph.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// What a baseline entry describes.
enum class GateUnitKind : uint8_t { kGraph, kMetrics, kDump };
std::string_view GateUnitKindName(GateUnitKind kind);  // "graph", "metrics", "dump"

// The facts of one graph, one metrics report, or the dump as a whole
// (dump-wide findings), keyed so that the next run recognises it.
struct GateUnit {
  GateUnitKind kind = GateUnitKind::kGraph;
  // Graph: `path[#record][:name][@frame]` (record only when the file holds
  // several graphs). Metrics: `path[#report]`. Dump: "(dump)".
  std::string key;
  std::string file;          // path inside the dump
  std::string name;          // graph name ("" when the dump gives none)
  std::string frame;         // innermost Python frame of a save-file record
  std::string graph_kind;    // "ir", "fx", "hlo" for graphs
  uint32_t record_index = 0;
  // Structural fingerprint (hash of graph kind, op histogram and output
  // count): recognises a graph whose file or record moved.
  std::string fingerprint;
  // Every fact by metric name: "nodes", "inputs", "outputs", "constants",
  // "parameter_bytes", "op:<op>", "counter:<name>", "finding:<id>".
  std::map<std::string, int64_t> values;
  // Graphs: the graph itself in a compact structural encoding (EncodeGraph),
  // so `check` can align the baseline graph with the fresh one and explain a
  // failure with the diff's findings. Empty for metrics and dump units.
  std::string structure;
  // The graph was partial in its dump (Graph::partial).
  bool partial = false;
  // The source name the loader gave the graph or report (the path as typed,
  // or inside an archive); findings name graphs by it. Not stored in the
  // baseline file and not compared.
  std::string source;

  int64_t value(std::string_view metric) const;  // 0 when absent
  friend bool operator==(const GateUnit& a, const GateUnit& b);
};

// A snapshot of a dump. Units are in dump order (files by path, graphs by
// record), then metrics reports, then the dump-wide unit when there is one.
struct Baseline {
  static constexpr int kSchemaVersion = 1;
  std::string dump;  // the path the snapshot was taken from (informational)
  std::vector<GateUnit> units;
  friend bool operator==(const Baseline& a, const Baseline& b);
};

// A graph as a compact, compressed, base64 text: nodes (op, kind, name,
// operands, result types, attributes, frame), inputs and outputs, enough for
// a structural diff; line numbers and the source name are not kept.
std::string EncodeGraph(const Graph& graph);
// Inverse of EncodeGraph; `source` names the graph in the result and in errors.
absl::StatusOr<Graph> DecodeGraph(std::string_view encoded, std::string_view source);

// The unit key part of a dump path: run-stamped directory components
// (`run_2024_01_01_12_00_00_000000-pid_111`, `rank_3`) become `run_*` and
// `rank_*`, so keys stay the same from run to run.
std::string NormalizeUnitPath(std::string_view path);

// Snapshots a dump. `findings` are single-dump findings of that dump
// (LintDump); each is counted on the graph or metrics report its
// Finding::graph names, else on the dump as a whole. "size-facts" and
// "size-delta" restate the size facts and are not counted again.
Baseline SnapshotDump(const Dump& dump, const std::vector<Finding>& findings = {});

// The documented baseline JSON, pretty-printed with a trailing newline.
std::string BaselineToJson(const Baseline& baseline);
// Parses baseline JSON. Errors name `source`, with line:col for syntax errors.
absl::StatusOr<Baseline> ParseBaseline(std::string_view json_text, std::string_view source);

// One limit on one metric: "+N" (growth by at most N), "+P%" (growth by at
// most P percent of the baseline), "N" (never more than N).
struct GateLimit {
  enum class Kind : uint8_t { kAbsoluteGrowth, kRelativeGrowth, kCeiling };
  Kind kind = Kind::kAbsoluteGrowth;
  double amount = 0;
  std::string text;  // as written, for reports
  // True when `new_value` breaks the limit; `old_value` is nullopt for a
  // unit the baseline does not have (only ceilings apply then).
  bool Breached(std::optional<int64_t> old_value, int64_t new_value) const;
};
// Parses "+N", "+P%", "N"; error text names what is accepted.
absl::StatusOr<GateLimit> ParseGateLimit(std::string_view text);

// Limits for one scope: metric name or glob ("op:*", "counter:*clone*") ->
// limits (all must hold). Ordered as written.
using GateLimits = std::vector<std::pair<std::string, std::vector<GateLimit>>>;

// A budget. Without a budget file, DefaultBudget() applies.
struct Budget {
  GateLimits defaults;                                 // "default"
  std::vector<std::pair<std::string, GateLimits>> graphs;  // unit-key glob -> limits
  std::vector<std::string> allow;  // metric names/globs never checked
  bool new_graphs = false;         // a graph the baseline lacks passes
  bool missing_graphs = false;     // a baseline graph the dump lacks passes
  // A decrease counts as an improvement only beyond this (absolute or %).
  std::optional<GateLimit> noise;
};
// No growth in nodes, inputs, outputs, clone counters, clone ops or findings;
// new and missing graphs fail.
Budget DefaultBudget();
// Parses budget JSON (docs/gate.md). Errors name `source`, with line:col for
// syntax errors and the list of valid metric names for unknown ones.
absl::StatusOr<Budget> ParseBudget(std::string_view json_text, std::string_view source);

// Metric names a budget may use; prefixed names take any op/counter name or glob.
const std::vector<std::string>& GateMetricNames();

enum class GateVerdict : uint8_t { kPass, kImproved, kFail };
std::string_view GateVerdictName(GateVerdict v);  // "PASS", "IMPROVED", "FAIL"

// One metric of one unit that changed, broke its limit, or improved.
struct GateChange {
  std::string metric;
  std::optional<int64_t> old_value;  // nullopt: the baseline has no such unit
  int64_t new_value = 0;
  std::string limit;  // the limit that applied, "" when none ("allowed" when allowed)
  bool breached = false;
  bool improved = false;
};

// The short form of a finding that explains a failure.
struct FindingNote {
  std::string id;
  int64_t count = 0;
  std::string title;
  std::string hint;
};

// The verdict on one unit.
struct UnitCheck {
  GateUnitKind kind = GateUnitKind::kGraph;
  std::string key;           // current key (baseline key for missing units)
  std::string baseline_key;  // "" when new
  std::string matched_by;    // "key", "name", "fingerprint", "only", "" (new/missing)
  bool is_new = false;
  bool is_missing = false;
  GateVerdict verdict = GateVerdict::kPass;
  std::vector<std::string> reasons;    // one line per failure reason
  std::vector<GateChange> changes;   // every changed metric, breaches first
  std::vector<FindingNote> findings;   // current findings on this unit, top first
  // A failing graph unit with both structures: the findings of the
  // structural diff baseline -> current, which explain the failure.
  std::vector<FindingNote> diff_findings;
  // Every fact of the unit in the baseline and now (for CSV trends).
  std::map<std::string, int64_t> old_values;
  std::map<std::string, int64_t> new_values;
};

// The whole check.
struct CheckResult {
  GateVerdict verdict = GateVerdict::kPass;
  std::string dump;
  std::string baseline_path;
  std::vector<UnitCheck> units;  // current dump order, then missing units
  // The command that accepts the current dump as the new baseline.
  std::string update_command;
  // Files of the dump that were not read as dumps, (path, reason): set by
  // the caller that loaded the dump (Dump::skipped); reports list them.
  std::vector<std::pair<std::string, std::string>> skipped;
  int failed() const;
  int improved() const;
};

// Compares `current` (SnapshotDump of the fresh dump) with `baseline` under
// `budget`. `findings` are the fresh dump's findings, used to explain a
// failure; `baseline_path` goes into the update command.
CheckResult CheckAgainstBaseline(const Baseline& baseline, const Baseline& current,
                                 const Budget& budget,
                                 const std::vector<Finding>& findings = {},
                                 std::string_view baseline_path = "baseline.json");

// Reports. Text for terminals, JSON (stable key order), Markdown for
// $GITHUB_STEP_SUMMARY / PR comments, JUnit XML (one testcase per unit).
std::string RenderCheckText(const CheckResult& result);
std::string RenderCheckJson(const CheckResult& result);
std::string RenderCheckMarkdown(const CheckResult& result);
std::string RenderCheckJunit(const CheckResult& result);
// CSV for trend dashboards: a header, then one row per unit and fact
// (`unit,kind,metric,baseline,current,delta,limit,status`), RFC 4180 quoting.
std::string RenderCheckCsv(const CheckResult& result);

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_GATE_H_
