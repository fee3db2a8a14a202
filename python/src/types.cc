// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The library's plain result structs as read-only Python classes. Enums read
// as their documented names ("warning", "FAIL", "fx"), as in the JSON.
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "fmt/format.h"
#include "graphdiff/diff.h"
#include "graphdiff/findings.h"
#include "graphdiff/gate.h"
#include "graphdiff/report.h"
#include "graphdiff/stats.h"
#include "pybind11/stl.h"

namespace graphdiff::python {
namespace {

template <typename T>
py::object Maybe(const std::optional<T>& v) {
  return v ? py::cast(*v) : py::none();
}

std::string EvidenceText(const Evidence& e) {
  std::string where = e.source;
  if (e.line != 0) where += fmt::format(":{}", e.line);
  std::string out = e.side ? fmt::format("{} {}", SideName(*e.side), where) : where;
  if (!e.node.empty()) out += " " + e.node;
  if (!e.op.empty()) out += " " + e.op;
  if (!e.note.empty()) out += ": " + e.note;
  return out;
}

void BindFindings(py::module_& m) {
  py::class_<Evidence>(m, "Evidence", "One place in a dump that supports a finding.")
      .def_property_readonly(
          "side", [](const Evidence& e) { return std::string(SideName(e.side)); },
          "'left', 'right', or '' for single-dump findings")
      .def_readonly("source", &Evidence::source, "Dump file (path inside the dump)")
      .def_readonly("line", &Evidence::line, "1-based line in that file; 0 when not a node")
      .def_readonly("node", &Evidence::node, "Node name as the dump writes it")
      .def_readonly("op", &Evidence::op, "Canonical op")
      .def_readonly("note", &Evidence::note, "What this piece of evidence shows")
      .def("__str__", &EvidenceText)
      .def("__repr__", [](const Evidence& e) { return "<Evidence " + EvidenceText(e) + ">"; });

  py::class_<Finding>(m, "Finding",
                      "One explanation drawn from a diff or a single dump (docs/findings.md).")
      .def_readonly("id", &Finding::id, "Stable id, e.g. 'extra-outputs'")
      .def_property_readonly(
          "severity", [](const Finding& f) { return std::string(SeverityName(f.severity)); },
          "'info', 'warning' or 'error'")
      .def_readonly("title", &Finding::title)
      .def_readonly("count", &Finding::count, "How many instances")
      .def_readonly("graph", &Finding::graph, "The graph (pair) it is about; '' for dump-wide")
      .def_readonly("explanation", &Finding::explanation)
      .def_readonly("hint", &Finding::hint, "What to try; may be ''")
      .def_readonly("evidence", &Finding::evidence)
      .def_readonly("evidence_omitted", &Finding::evidence_omitted,
                    "Evidence beyond max_evidence, counted, not kept")
      .def_readonly("related", &Finding::related, "Ids of findings this one explains or follows")
      .def("__str__",
           [](const Finding& f) {
             return fmt::format("[{}] {}: {}", SeverityName(f.severity), f.id, f.title);
           })
      .def("__repr__", [](const Finding& f) {
        return fmt::format("<Finding {} count={} severity={}>", f.id, f.count,
                           SeverityName(f.severity));
      });
}

void BindDump(py::module_& m) {
  py::class_<Diagnostic>(m, "Diagnostic", "A tolerated oddity met while reading a dump.")
      .def_readonly("source", &Diagnostic::source)
      .def_readonly("line", &Diagnostic::line, "0 for the whole file")
      .def_readonly("column", &Diagnostic::column)
      .def_readonly("message", &Diagnostic::message)
      .def_readonly("count", &Diagnostic::count, "How many warnings this one stands for")
      .def("__str__", &Diagnostic::ToString)
      .def("__repr__", [](const Diagnostic& d) { return "<Diagnostic " + d.ToString() + ">"; });

  py::class_<Graph>(m, "Graph", "One parsed graph of a dump.")
      .def_readonly("name", &Graph::name)
      .def_property_readonly("kind", [](const Graph& g) { return std::string(GraphKindName(g.kind)); },
                             "'ir', 'fx' or 'hlo'")
      .def_property_readonly("source", [](const Graph& g) { return g.source.file; },
                             "The file the graph came from, as the loader names it")
      .def_property_readonly("first_line", [](const Graph& g) { return g.source.first_line; })
      .def_property_readonly("frames", [](const Graph& g) { return g.source.frames.ToVector(); },
                             "Python stack frames of a save-file record, innermost first")
      .def_readonly("partial", &Graph::partial,
                    "The dump does not hold the whole graph (elided or truncated)")
      .def("__len__", [](const Graph& g) { return g.nodes.size(); })
      .def("stats", &ComputeStats, py::call_guard<py::gil_scoped_release>(), "Size facts of this graph (GraphStats).")
      .def("__repr__", [](const Graph& g) {
        return fmt::format("<Graph {}{}{} [{}] {} nodes>", g.source.file, g.name.empty() ? "" : ":",
                           g.name, GraphKindName(g.kind), g.nodes.size());
      });

  py::class_<Metric>(m, "Metric", "One metric of a metrics report (times in ns, sizes in bytes).")
      .def_readonly("name", &Metric::name)
      .def_property_readonly("unit", [](const Metric& x) { return std::string(MetricUnitName(x.unit)); })
      .def_readonly("total_samples", &Metric::total_samples)
      .def_readonly("accumulator", &Metric::accumulator)
      .def_readonly("mean", &Metric::mean)
      .def_readonly("stddev", &Metric::stddev)
      .def_readonly("rate", &Metric::rate)
      .def_readonly("value_rate", &Metric::value_rate)
      .def_readonly("percentiles", &Metric::percentiles)
      .def("__repr__", [](const Metric& x) { return "<Metric " + x.name + ">"; });

  py::class_<MetricsReport>(m, "MetricsReport", "A metrics_report() of torch_xla or torch._lazy.")
      .def_readonly("source", &MetricsReport::source)
      .def_property_readonly(
          "counters",
          [](const MetricsReport& r) {
            py::dict d;
            for (const Counter& c : r.counters) d[py::str(c.name)] = c.value;
            return d;
          },
          "Counter name -> value, in file order")
      .def_readonly("metrics", &MetricsReport::metrics)
      .def("__repr__", [](const MetricsReport& r) {
        return fmt::format("<MetricsReport {} {} counters>", r.source, r.counters.size());
      });

  py::class_<DumpFile>(m, "DumpFile", "One file of a dump after parsing.")
      .def_readonly("path", &DumpFile::path, "Relative to the dump root")
      .def_property_readonly("format",
                             [](const DumpFile& f) { return std::string(DumpFormatName(f.format)); })
      .def_readonly("source", &DumpFile::source, "As messages name the file")
      .def_readonly("graphs", &DumpFile::graphs)
      .def_readonly("metrics", &DumpFile::metrics)
      .def_readonly("warnings", &DumpFile::warnings)
      .def("__repr__", [](const DumpFile& f) {
        return fmt::format("<DumpFile {} [{}] {} graphs, {} metrics>", f.path,
                           DumpFormatName(f.format), f.graphs.size(), f.metrics.size());
      });

  py::class_<Dump>(m, "Dump",
                   "A loaded dump: a file, directory or archive, parsed (load_dump, parse_text).\n"
                   "Pass it to diff/lint/stats/snapshot/check to avoid reading it again.")
      .def_readonly("root", &Dump::root, "What the user named")
      .def_readonly("files", &Dump::files, "Parsed files, sorted by path")
      .def_readonly("skipped", &Dump::skipped, "(path, reason) of files not read as dumps")
      .def_property_readonly(
          "graphs",
          [](py::object self) {
            py::list out;
            for (const DumpFile& f : self.cast<const Dump&>().files) {
              for (const Graph& g : f.graphs) {
                out.append(py::cast(g, py::return_value_policy::reference_internal, self));
              }
            }
            return out;
          },
          "Every graph of every file, in file order")
      .def("__repr__", [](const Dump& d) {
        size_t graphs = 0;
        for (const DumpFile& f : d.files) graphs += f.graphs.size();
        return fmt::format("<Dump {}: {} files, {} graphs, {} skipped>", d.root, d.files.size(),
                           graphs, d.skipped.size());
      });
}

void BindDiff(py::module_& m) {
  py::class_<PairRow>(m, "PairRow", "One matched node pair of a graph pair.")
      .def_readonly("left", &PairRow::left)
      .def_readonly("right", &PairRow::right)
      .def_readonly("left_op", &PairRow::left_op)
      .def_readonly("right_op", &PairRow::right_op)
      .def_property_readonly("reasons", [](const PairRow& r) { return ChangeReasonNames(r.reasons); },
                             "Why the pair counts as changed; [] when unchanged")
      .def_property_readonly("changed", [](const PairRow& r) { return r.reasons != 0; })
      .def_property_readonly("matcher", [](const PairRow& r) { return std::string(MatcherName(r.matcher)); })
      .def_readonly("detail", &PairRow::detail)
      .def("__repr__", [](const PairRow& r) {
        return fmt::format("<PairRow {} {} <-> {} {}>", r.left, r.left_op, r.right, r.right_op);
      });

  py::class_<GraphPairDiff>(m, "GraphPair", "The comparison of one graph pair.")
      .def_readonly("left_source", &GraphPairDiff::left_source)
      .def_readonly("right_source", &GraphPairDiff::right_source)
      .def_readonly("left_graph", &GraphPairDiff::left_graph)
      .def_readonly("right_graph", &GraphPairDiff::right_graph)
      .def_property_readonly("how", [](const GraphPairDiff& p) { return std::string(PairRuleName(p.how)); },
                             "The rule that paired them: path, name, frame, order, only, graphs")
      .def_property_readonly("kind", [](const GraphPairDiff& p) { return std::string(GraphKindName(p.kind)); })
      .def_readonly("left_nodes", &GraphPairDiff::left_nodes)
      .def_readonly("right_nodes", &GraphPairDiff::right_nodes)
      .def_readonly("left_inputs", &GraphPairDiff::left_inputs)
      .def_readonly("right_inputs", &GraphPairDiff::right_inputs)
      .def_readonly("left_outputs", &GraphPairDiff::left_outputs)
      .def_readonly("right_outputs", &GraphPairDiff::right_outputs)
      .def_readonly("matched", &GraphPairDiff::matched, "Matched node pairs")
      .def_readonly("changed", &GraphPairDiff::changed, "Matched pairs that changed")
      .def_readonly("matched_outputs", &GraphPairDiff::matched_outputs)
      .def_readonly("op_delta", &GraphPairDiff::op_delta, "op -> right count - left count")
      .def_readonly("pairs", &GraphPairDiff::pairs,
                    "Every matched node pair (PairRow); only the changed ones after "
                    "diff(unchanged_rows=False)")
      .def_readonly("left_only", &GraphPairDiff::left_only)
      .def_readonly("right_only", &GraphPairDiff::right_only)
      .def_readonly("left_only_get_attrs", &GraphPairDiff::left_only_get_attrs,
                    "Of left_only, the FX get_attr nodes (left_nodes does not count them)")
      .def_readonly("right_only_get_attrs", &GraphPairDiff::right_only_get_attrs,
                    "Of right_only, the FX get_attr nodes (right_nodes does not count them)")
      .def_readonly("left_only_outputs", &GraphPairDiff::left_only_outputs)
      .def_readonly("right_only_outputs", &GraphPairDiff::right_only_outputs)
      .def_readonly("left_partial", &GraphPairDiff::left_partial)
      .def_readonly("right_partial", &GraphPairDiff::right_partial)
      .def_property_readonly("identical", &GraphPairDiff::identical, "Same up to numbering and order")
      .def("__repr__", [](const GraphPairDiff& p) {
        return fmt::format("<GraphPair {} <-> {} [{}] nodes {}->{}>", p.left_source, p.right_source,
                           GraphKindName(p.kind), p.left_nodes, p.right_nodes);
      });

  py::class_<CounterValues>(m, "CounterValues", "A counter on both sides (None: absent).")
      .def_readonly("name", &CounterValues::name)
      .def_property_readonly("left", [](const CounterValues& c) { return Maybe(c.left); })
      .def_property_readonly("right", [](const CounterValues& c) { return Maybe(c.right); })
      .def("__repr__", [](const CounterValues& c) {
        return "<CounterValues " + c.name + " " + std::string(py::repr(Maybe(c.left))) + " -> " +
               std::string(py::repr(Maybe(c.right))) + ">";
      });
  py::class_<MetricValues>(m, "MetricValues", "A metric's accumulator on both sides.")
      .def_readonly("name", &MetricValues::name)
      .def_property_readonly("unit", [](const MetricValues& v) { return std::string(MetricUnitName(v.unit)); })
      .def_property_readonly("left", [](const MetricValues& v) { return Maybe(v.left); })
      .def_property_readonly("right", [](const MetricValues& v) { return Maybe(v.right); });
  py::class_<MetricsPairDiff>(m, "MetricsPair", "The comparison of one metrics-report pair.")
      .def_readonly("left_source", &MetricsPairDiff::left_source)
      .def_readonly("right_source", &MetricsPairDiff::right_source)
      .def_property_readonly("how", [](const MetricsPairDiff& p) { return std::string(PairRuleName(p.how)); })
      .def_readonly("counters", &MetricsPairDiff::counters)
      .def_readonly("metrics", &MetricsPairDiff::metrics)
      .def_property_readonly("identical", &MetricsPairDiff::identical, "Every counter equal");

  py::class_<UnpairedItem>(m, "Unpaired", "A graph or metrics report with no counterpart.")
      .def_property_readonly("side", [](const UnpairedItem& u) { return std::string(SideName(u.side)); })
      .def_property_readonly("what", [](const UnpairedItem& u) { return std::string(UnpairedKindName(u.what)); })
      .def_readonly("source", &UnpairedItem::source)
      .def_readonly("graph", &UnpairedItem::graph);
  py::class_<SkippedFile>(m, "SkippedFile", "A file of one side that was not read as a dump.")
      .def_property_readonly("side", [](const SkippedFile& s) { return std::string(SideName(s.side)); })
      .def_readonly("path", &SkippedFile::path)
      .def_readonly("reason", &SkippedFile::reason);
  py::class_<ReadingWarning>(m, "ReadingWarning", "What reading one side tolerated.")
      .def_property_readonly("side", [](const ReadingWarning& w) { return std::string(SideName(w.side)); })
      .def_readonly("diagnostic", &ReadingWarning::diagnostic)
      .def("__str__", [](const ReadingWarning& w) { return w.diagnostic.ToString(); });

  py::class_<DiffResult>(m, "DiffResult",
                         "Everything `graphdiff diff` knows (diff()); render() formats it.")
      .def_property_readonly("identical", &DiffResult::identical,
                             "Same up to numbering and order (the CLI's exit code 0)")
      .def_readonly("findings", &DiffResult::findings, "Most important first")
      .def_readonly("pairs", &DiffResult::pairs, "Graph pairs (GraphPair)")
      .def_readonly("metrics", &DiffResult::metrics, "Metrics-report pairs (MetricsPair)")
      .def_readonly("unpaired", &DiffResult::unpaired)
      .def_readonly("skipped", &DiffResult::skipped)
      .def_readonly("warnings", &DiffResult::warnings)
      .def_readonly("left_root", &DiffResult::left_root)
      .def_readonly("right_root", &DiffResult::right_root)
      .def_readonly("left_graphs", &DiffResult::left_graphs)
      .def_readonly("right_graphs", &DiffResult::right_graphs)
      .def_readonly("left_metrics", &DiffResult::left_metrics)
      .def_readonly("right_metrics", &DiffResult::right_metrics)
      .def("to_json", &DiffResultToJson, py::call_guard<py::gil_scoped_release>(),
           "The documented JSON document (docs/json-schema.md), as `--format json` prints it.")
      .def_static(
          "from_json",
          [](const std::string& text) {
            absl::StatusOr<DiffResult> r;
            {
              py::gil_scoped_release release;
              r = DiffResultFromJson(text);
            }
            return Unwrap(std::move(r));
          },
          py::arg("text"), "Reads a diff JSON document back (to_json() or `--format json`).")
      .def("__str__", [](const DiffResult& r) { return RenderDiffText(r); }, py::call_guard<py::gil_scoped_release>())
      .def("__repr__", [](const DiffResult& r) {
        return fmt::format("<DiffResult {}: {} findings, {} graph pairs, {} metrics pairs>",
                           r.identical() ? "same" : "different", r.findings.size(), r.pairs.size(),
                           r.metrics.size());
      });

  py::class_<LintReport>(m, "LintReport", "The findings of one dump alone (lint()).")
      .def_readonly("root", &LintReport::root)
      .def_readonly("findings", &LintReport::findings)
      .def_readonly("skipped", &LintReport::skipped)
      .def("to_json", [](const LintReport& r) { return RenderLint(r, ReportFormat::kJson); }, py::call_guard<py::gil_scoped_release>())
      .def("__str__", [](const LintReport& r) { return RenderLint(r, ReportFormat::kText); }, py::call_guard<py::gil_scoped_release>())
      .def("__repr__", [](const LintReport& r) {
        return fmt::format("<LintReport {}: {} findings>", r.root, r.findings.size());
      });
}

void BindStats(py::module_& m) {
  py::class_<GraphStats>(m, "GraphStats", "Size facts of one graph.")
      .def_readonly("source", &GraphStats::source)
      .def_readonly("name", &GraphStats::name)
      .def_property_readonly("kind", [](const GraphStats& s) { return std::string(GraphKindName(s.kind)); })
      .def_readonly("record_index", &GraphStats::record_index)
      .def_readonly("repeat_count", &GraphStats::repeat_count)
      .def_readonly("nodes", &GraphStats::nodes)
      .def_readonly("inputs", &GraphStats::inputs)
      .def_readonly("outputs", &GraphStats::outputs)
      .def_readonly("constants", &GraphStats::constants)
      .def_readonly("multi_output_nodes", &GraphStats::multi_output_nodes)
      .def_readonly("ops", &GraphStats::ops, "Canonical op -> count")
      .def_readonly("dtypes", &GraphStats::dtypes, "dtype of every result -> count")
      .def_readonly("parameter_bytes", &GraphStats::parameter_bytes)
      .def_readonly("inputs_unknown_size", &GraphStats::inputs_unknown_size)
      .def("__repr__", [](const GraphStats& s) {
        return fmt::format("<GraphStats {}{}{}: {} nodes, {} inputs, {} outputs>", s.source,
                           s.name.empty() ? "" : ":", s.name, s.nodes, s.inputs, s.outputs);
      });
  py::class_<StatsReport>(m, "StatsReport", "What `graphdiff stats` reports (stats()).")
      .def_readonly("graphs", &StatsReport::graphs)
      .def_readonly("metrics", &StatsReport::metrics)
      .def_readonly("skipped", &StatsReport::skipped)
      .def("to_json", &StatsToJson, py::call_guard<py::gil_scoped_release>(), "The documented stats JSON (docs/json-schema.md).")
      .def("__str__", [](const StatsReport& r) { return RenderStatsText(r); }, py::call_guard<py::gil_scoped_release>())
      .def("__repr__", [](const StatsReport& r) {
        return fmt::format("<StatsReport {} graphs, {} metrics reports>", r.graphs.size(),
                           r.metrics.size());
      });
}

void BindGate(py::module_& m) {
  py::class_<GateUnit>(m, "GateUnit", "The facts of one graph, metrics report or dump in a baseline.")
      .def_property_readonly("kind", [](const GateUnit& u) { return std::string(GateUnitKindName(u.kind)); })
      .def_readonly("key", &GateUnit::key)
      .def_readonly("file", &GateUnit::file)
      .def_readonly("name", &GateUnit::name)
      .def_readonly("frame", &GateUnit::frame)
      .def_readonly("graph_kind", &GateUnit::graph_kind)
      .def_readonly("record_index", &GateUnit::record_index)
      .def_readonly("fingerprint", &GateUnit::fingerprint)
      .def_readonly("values", &GateUnit::values,
                    "Fact -> value: nodes, inputs, outputs, op:<op>, counter:<name>, finding:<id>")
      .def_readonly("partial", &GateUnit::partial)
      .def("__repr__", [](const GateUnit& u) {
        return fmt::format("<GateUnit {} {}>", GateUnitKindName(u.kind), u.key);
      });
  py::class_<Baseline>(m, "Baseline", "A snapshot of a dump for the gate (snapshot()).")
      .def_readonly("dump", &Baseline::dump)
      .def_readonly("units", &Baseline::units)
      .def("to_json", &BaselineToJson, py::call_guard<py::gil_scoped_release>(),
           "The baseline file `graphdiff snapshot` writes (docs/gate.md).")
      .def_static(
          "from_json",
          [](const std::string& text, const std::string& source) {
            return Unwrap(ParseBaseline(text, source));
          },
          py::call_guard<py::gil_scoped_release>(), py::arg("text"), py::arg("source") = "<baseline>",
          "Parses baseline JSON; errors name `source`.")
      .def("__eq__", [](const Baseline& a, const Baseline& b) { return a == b; })
      .def("__repr__", [](const Baseline& b) {
        return fmt::format("<Baseline {}: {} units>", b.dump, b.units.size());
      });

  py::class_<GateChange>(m, "GateChange", "One metric of one unit that changed.")
      .def_readonly("metric", &GateChange::metric)
      .def_property_readonly("old_value", [](const GateChange& c) { return Maybe(c.old_value); },
                             "None when the baseline has no such unit")
      .def_readonly("new_value", &GateChange::new_value)
      .def_readonly("limit", &GateChange::limit)
      .def_readonly("breached", &GateChange::breached)
      .def_readonly("improved", &GateChange::improved)
      .def("__repr__", [](const GateChange& c) {
        return fmt::format("<GateChange {} {} -> {}{}>", c.metric,
                           c.old_value ? std::to_string(*c.old_value) : "none", c.new_value,
                           c.breached ? " breached" : "");
      });
  py::class_<FindingNote>(m, "FindingNote", "The short form of a finding in a gate report.")
      .def_readonly("id", &FindingNote::id)
      .def_readonly("count", &FindingNote::count)
      .def_readonly("title", &FindingNote::title)
      .def_readonly("hint", &FindingNote::hint)
      .def("__str__", [](const FindingNote& f) { return fmt::format("{} (x{}): {}", f.id, f.count, f.title); });
  py::class_<UnitCheck>(m, "UnitCheck", "The gate's verdict on one unit.")
      .def_property_readonly("kind", [](const UnitCheck& u) { return std::string(GateUnitKindName(u.kind)); })
      .def_readonly("key", &UnitCheck::key)
      .def_readonly("baseline_key", &UnitCheck::baseline_key)
      .def_readonly("matched_by", &UnitCheck::matched_by)
      .def_readonly("is_new", &UnitCheck::is_new)
      .def_readonly("is_missing", &UnitCheck::is_missing)
      .def_property_readonly("verdict", [](const UnitCheck& u) { return std::string(GateVerdictName(u.verdict)); })
      .def_readonly("reasons", &UnitCheck::reasons, "One line per failure reason")
      .def_readonly("changes", &UnitCheck::changes)
      .def_readonly("findings", &UnitCheck::findings)
      .def_readonly("diff_findings", &UnitCheck::diff_findings,
                    "Findings of the structural diff baseline -> current that explain a failure")
      .def_readonly("old_values", &UnitCheck::old_values)
      .def_readonly("new_values", &UnitCheck::new_values)
      .def("__repr__", [](const UnitCheck& u) {
        return fmt::format("<UnitCheck {} {}>", GateVerdictName(u.verdict), u.key);
      });
  py::class_<CheckResult>(m, "CheckResult", "The gate's answer (check()).")
      .def_property_readonly("verdict", [](const CheckResult& r) { return std::string(GateVerdictName(r.verdict)); },
                             "'PASS', 'IMPROVED' or 'FAIL'")
      .def_property_readonly("passed", [](const CheckResult& r) { return r.verdict != GateVerdict::kFail; },
                             "Within budget (PASS or IMPROVED): the CLI's exit code 0")
      .def_property_readonly("failed", &CheckResult::failed, "Units over budget")
      .def_property_readonly("improved", &CheckResult::improved, "Units that went down")
      .def_readonly("units", &CheckResult::units)
      .def_readonly("dump", &CheckResult::dump)
      .def_readonly("baseline_path", &CheckResult::baseline_path)
      .def_readonly("update_command", &CheckResult::update_command)
      .def_readonly("skipped", &CheckResult::skipped)
      .def("to_json", &RenderCheckJson, py::call_guard<py::gil_scoped_release>(), "The documented check JSON (docs/gate.md).")
      .def("__str__", &RenderCheckText, py::call_guard<py::gil_scoped_release>())
      .def("__repr__", [](const CheckResult& r) {
        return fmt::format("<CheckResult {}: {} units, {} failed>", GateVerdictName(r.verdict),
                           r.units.size(), r.failed());
      });
}

}  // namespace

void BindTypes(py::module_& m) {
  BindFindings(m);
  BindDump(m);
  BindDiff(m);
  BindStats(m);
  BindGate(m);
}

}  // namespace graphdiff::python
