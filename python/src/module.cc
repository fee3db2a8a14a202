// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// graphdiff._graphdiff: the library's pipeline as Python functions. Every
// call converts its arguments with the GIL held, then releases it while the
// library loads, aligns, analyses or renders, so other Python threads run.
// Refusals match the CLI's: comparing, linting or gating nothing raises
// instead of answering "same" or "pass".
#include <cstdio>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "commands.h"
#include "malloc_tuning.h"
#include "fmt/format.h"
#include "graphdiff/graphdiff.h"
#include "pybind11/stl.h"

namespace graphdiff::python {
namespace {

using Release = py::gil_scoped_release;

Dump LoadDumpPy(py::handle path, unsigned threads) {
  std::string p = FsPath(path, "path");
  LoadOptions options;
  options.threads = threads;
  absl::StatusOr<Dump> dump;
  {
    Release release;
    dump = LoadDump(p, options);
  }
  return Unwrap(std::move(dump));
}

Dump ParseTextPy(const std::string& text, const std::string& source) {
  absl::StatusOr<ParsedText> parsed;
  {
    Release release;
    parsed = ParseText(text, source);
  }
  ParsedText p = Unwrap(std::move(parsed));
  DumpFile file;
  file.path = source;
  file.source = source;
  file.format = p.format;
  file.graphs = std::move(p.graphs);
  file.metrics = std::move(p.metrics);
  file.warnings = std::move(p.warnings);
  Dump dump;
  dump.root = source;
  dump.files.push_back(std::move(file));
  return dump;
}

absl::Status NotEmpty(const DumpArg& arg, const std::string& what) {
  if (cli::HoldsSomething(arg.dump())) return absl::OkStatus();
  return absl::InvalidArgumentError(
      fmt::format("{}: {}", what, cli::WhyNothingReadable(arg.dump(), arg.name())));
}

bool HasGraphs(const Dump& dump) {
  for (const DumpFile& f : dump.files) {
    if (!f.graphs.empty()) return true;
  }
  return false;
}

DiffResult DiffPy(py::handle left_obj, py::handle right_obj, const std::string& graph,
                  py::handle equiv, int64_t counter_min_abs, double counter_min_rel,
                  double metric_min_rel, bool compare_timings, uint32_t duplicate_min_ops,
                  size_t max_evidence, bool verify, unsigned threads, bool unchanged_rows) {
  DumpArg left(left_obj, "left");
  DumpArg right(right_obj, "right");
  std::string equiv_text, equiv_source;
  if (!equiv.is_none()) equiv_text = JsonArgument(equiv, "equiv", &equiv_source);
  absl::StatusOr<DiffResult> result;
  {
    Release release;
    result = [&]() -> absl::StatusOr<DiffResult> {
      OpEquivalence eq = OpEquivalence::BuiltIn();
      if (!equiv_source.empty()) {
        if (absl::Status st = eq.AddJson(equiv_text, equiv_source); !st.ok()) return st;
      }
      // The sides load at once, as the CLI loads them.
      if (absl::Status st = DumpArg::ResolveBoth(left, right, threads); !st.ok()) return st;
      if (absl::Status st = NotEmpty(left, "nothing to compare on the left side"); !st.ok()) return st;
      if (absl::Status st = NotEmpty(right, "nothing to compare on the right side"); !st.ok()) return st;
      DiffOptions options;
      options.align.equivalence = &eq;
      options.graph_selector = graph;
      options.counter_min_abs = counter_min_abs;
      options.counter_min_rel = counter_min_rel;
      options.metric_min_rel = metric_min_rel;
      options.compare_timings = compare_timings;
      options.duplicate_min_ops = duplicate_min_ops;
      options.max_evidence = max_evidence;
      options.align.verify = verify;
      options.threads = threads;
      options.unchanged_rows = unchanged_rows;
      absl::StatusOr<DiffResult> r = DiffDumps(left.dump(), right.dump(), options);
      if (!r.ok()) return r.status();
      if (r->empty()) {
        if (!graph.empty()) {
          return absl::InvalidArgumentError(fmt::format(
              "nothing selected by graph='{}': no graph or metrics file path contains it and no "
              "graph is named so; stats() lists a dump's graphs",
              graph));
        }
        return absl::InvalidArgumentError(fmt::format(
            "no comparable graphs: nothing on the left pairs with anything on the right (left: "
            "{} graphs, {} metrics reports; right: {} graphs, {} metrics reports). Graphs pair "
            "with graphs of the same kind (IR, FX, HLO) and metrics with metrics.",
            r->left_graphs, r->left_metrics, r->right_graphs, r->right_metrics));
      }
      r->left_root = left.name();
      r->right_root = right.name();
      return r;
    }();
  }
  return Unwrap(std::move(result));
}

StatsReport StatsPy(const py::args& dumps) {
  if (dumps.size() == 0) throw py::type_error("stats() needs at least one dump");
  std::vector<DumpArg> args;
  args.reserve(dumps.size());
  for (py::handle d : dumps) args.emplace_back(d, "dump");
  absl::StatusOr<StatsReport> report;
  {
    Release release;
    report = [&]() -> absl::StatusOr<StatsReport> {
      StatsReport out;
      for (DumpArg& arg : args) {
        if (absl::Status st = arg.Resolve(); !st.ok()) return st;
        if (absl::Status st = NotEmpty(arg, "no stats"); !st.ok()) return st;
        cli::AddStats(arg.dump(), arg.name(), &out);
      }
      return out;
    }();
  }
  return Unwrap(std::move(report));
}

LintReport LintPy(py::handle dump_obj, const std::string& graph, uint32_t duplicate_min_ops,
                  size_t max_evidence) {
  DumpArg arg(dump_obj, "dump");
  absl::StatusOr<LintReport> report;
  {
    Release release;
    report = [&]() -> absl::StatusOr<LintReport> {
      if (absl::Status st = arg.Resolve(); !st.ok()) return st;
      if (absl::Status st = NotEmpty(arg, "nothing to lint"); !st.ok()) return st;
      LintOptions options;
      options.graph_selector = graph;
      options.duplicate_min_ops = duplicate_min_ops;
      options.max_evidence = max_evidence;
      LintReport out{arg.name(), LintDump(arg.dump(), options), {}};
      for (const auto& [file, reason] : arg.dump().skipped) {
        out.skipped.emplace_back(cli::DisplayPath(arg.name(), file), reason);
      }
      return out;
    }();
  }
  return Unwrap(std::move(report));
}

// What snapshot() and check() take of a dump: its baseline, the lint
// findings that explain a failure, and the files it skipped. Refuses a dump
// without graphs: a gate over nothing passes everything.
struct Snapshot {
  Baseline baseline;
  std::vector<Finding> findings;
  std::vector<std::pair<std::string, std::string>> skipped;
};
absl::StatusOr<Snapshot> TakeSnapshot(DumpArg& arg) {
  if (absl::Status st = arg.Resolve(); !st.ok()) return st;
  if (!HasGraphs(arg.dump())) {
    return absl::InvalidArgumentError(fmt::format(
        "no graphs to gate in {}: {}", arg.name(),
        cli::HoldsSomething(arg.dump())
            ? std::string("it holds only metrics reports; a gate needs the graphs too")
            : cli::WhyNothingReadable(arg.dump(), arg.name())));
  }
  Snapshot s;
  s.findings = LintDump(arg.dump());
  s.baseline = SnapshotDump(arg.dump(), s.findings);
  s.baseline.dump = arg.name();
  for (const auto& [file, reason] : arg.dump().skipped) {
    s.skipped.emplace_back(cli::DisplayPath(arg.name(), file), reason);
  }
  return s;
}

Baseline SnapshotPy(py::handle dump_obj) {
  DumpArg arg(dump_obj, "dump");
  absl::StatusOr<Snapshot> s;
  {
    Release release;
    s = TakeSnapshot(arg);
  }
  return Unwrap(std::move(s)).baseline;
}

Baseline LoadBaselinePy(py::handle path_obj) {
  std::string path = FsPath(path_obj, "path");
  std::string text = Unwrap(ReadTextFile(path, "baseline"));
  return Unwrap(ParseBaseline(text, path));
}

CheckResult CheckPy(py::handle dump_obj, py::handle baseline_obj, py::handle budget_obj) {
  DumpArg arg(dump_obj, "dump");
  Baseline baseline;
  std::string baseline_path = "baseline.json";
  if (py::isinstance<Baseline>(baseline_obj)) {
    baseline = baseline_obj.cast<const Baseline&>();
  } else {
    baseline_path = FsPath(baseline_obj, "baseline");
    baseline = LoadBaselinePy(baseline_obj);
  }
  Budget budget = DefaultBudget();
  if (!budget_obj.is_none()) {
    std::string source;
    std::string text = JsonArgument(budget_obj, "budget", &source);
    budget = Unwrap(ParseBudget(text, source));
  }
  bool any_graph = false;
  for (const GateUnit& u : baseline.units) any_graph = any_graph || u.kind == GateUnitKind::kGraph;
  if (!any_graph) {
    // An empty baseline would pass every dump: the gate would be disarmed.
    throw StatusError(absl::InvalidArgumentError(fmt::format(
        "baseline {} holds no graphs, so it would pass anything; re-create it with snapshot() "
        "from a dump that has graphs",
        baseline_path)));
  }
  absl::StatusOr<CheckResult> result;
  {
    Release release;
    result = [&]() -> absl::StatusOr<CheckResult> {
      absl::StatusOr<Snapshot> s = TakeSnapshot(arg);
      if (!s.ok()) return s.status();
      CheckResult r = CheckAgainstBaseline(baseline, s->baseline, budget, s->findings, baseline_path);
      r.skipped = std::move(s->skipped);
      return r;
    }();
  }
  return Unwrap(std::move(result));
}

RenderOptions MakeRenderOptions(bool verbose, bool all, size_t width, size_t max_items, bool color) {
  RenderOptions options;
  options.verbose = verbose;
  options.all = all;
  options.width = width;
  options.max_items = max_items;
  options.color = color;
  return options;
}

absl::Status UnknownFormat(const std::string& format, const char* type, const char* formats) {
  return absl::InvalidArgumentError(
      fmt::format("unknown format '{}' for a {} (formats: {})", format, type, formats));
}

std::string RenderPy(py::handle result, const std::string& format, bool verbose, bool all,
                     size_t width, size_t max_items, bool color) {
  RenderOptions options = MakeRenderOptions(verbose, all, width, max_items, color);
  absl::StatusOr<std::string> text;
  if (py::isinstance<DiffResult>(result)) {
    const DiffResult& r = result.cast<const DiffResult&>();
    Release release;
    if (format == "stat") {
      text = RenderDiffStat(r, options);
    } else if (format == "brief") {
      text = RenderDiffBrief(r);
    } else if (absl::StatusOr<ReportFormat> f = ParseReportFormat(format); f.ok()) {
      text = RenderDiff(r, *f, options);
    } else {
      text = UnknownFormat(format, "DiffResult", "text, json, markdown, stat, brief");
    }
  } else if (py::isinstance<LintReport>(result)) {
    const LintReport& r = result.cast<const LintReport&>();
    Release release;
    absl::StatusOr<ReportFormat> f = ParseReportFormat(format);
    text = f.ok() ? RenderLint(r, *f, options)
                  : absl::StatusOr<std::string>(UnknownFormat(format, "LintReport", "text, json, markdown"));
  } else if (py::isinstance<StatsReport>(result)) {
    const StatsReport& r = result.cast<const StatsReport&>();
    Release release;
    if (format == "text") {
      text = RenderStatsText(r);
    } else if (format == "json") {
      text = StatsToJson(r);
    } else {
      text = UnknownFormat(format, "StatsReport", "text, json");
    }
  } else if (py::isinstance<CheckResult>(result)) {
    const CheckResult& r = result.cast<const CheckResult&>();
    Release release;
    if (format == "text") {
      text = RenderCheckText(r);
    } else if (format == "json") {
      text = RenderCheckJson(r);
    } else if (format == "markdown" || format == "md") {
      text = RenderCheckMarkdown(r);
    } else if (format == "junit") {
      text = RenderCheckJunit(r);
    } else if (format == "csv") {
      text = RenderCheckCsv(r);
    } else {
      text = UnknownFormat(format, "CheckResult", "text, json, markdown, junit, csv");
    }
  } else if (py::isinstance<Baseline>(result)) {
    text = format == "json" ? BaselineToJson(result.cast<const Baseline&>())
                            : absl::StatusOr<std::string>(UnknownFormat(format, "Baseline", "json"));
  } else {
    throw py::type_error(fmt::format(
        "render() takes a DiffResult, LintReport, StatsReport, CheckResult or Baseline, not {}",
        std::string(py::str(result.get_type().attr("__name__")))));
  }
  return Unwrap(std::move(text));
}

// `python3 -m graphdiff` only: the process is the command line, so it takes
// the tool's malloc settings; `argv` is the interpreter's own (sys.orig_argv),
// which a re-execution with huge pages must repeat.
void TuneMallocPy(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  if (args.empty()) return;
  cli::TuneMallocForBigGraphs(argv.data());
}

int RunCliPy(const std::vector<std::string>& args) {
  std::vector<std::string> argv_storage;
  argv_storage.reserve(args.size() + 1);
  argv_storage.push_back("graphdiff");
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  Release release;
  int rc = cli::RunCommandLine(static_cast<int>(argv_storage.size()), argv.data());
  // CLI11 writes --help to std::cout; the reports go through stdio.
  std::cout.flush();
  std::fflush(stdout);
  std::fflush(stderr);
  return rc;
}

}  // namespace

PYBIND11_MODULE(_graphdiff, m) {
  m.doc() = "The graphdiff C++ library (see the graphdiff package for the documented API).";
  RegisterError(m);
  BindTypes(m);
  m.attr("__version__") = std::string(Version());

  m.def("load_dump", &LoadDumpPy, py::arg("path"), py::kw_only(), py::arg("threads") = 0u,
        "Loads a dump: a file, a directory or an archive (.zip, .tar, .tar.gz, .tgz, .tar.xz,\n"
        ".gz). Files are classified by content and parsed; files that are no dump are listed\n"
        "in Dump.skipped. threads: parser threads (0 = one per core).\n"
        "Raises GraphdiffError when the path cannot be read or a file does not parse.");
  m.def("parse_text", &ParseTextPy, py::arg("text"), py::arg("source") = "<text>",
        "Parses dump text (IR, save file, FX code, metrics report or HLO; detected from the\n"
        "content) into a one-file Dump named `source`. Raises GraphdiffError, with\n"
        "`source:line:col` in the message, on a syntax error or unrecognised text.");
  m.def("diff", &DiffPy, py::arg("left"), py::arg("right"), py::kw_only(),
        py::arg("graph") = "", py::arg("equiv") = py::none(), py::arg("counter_min_abs") = 1,
        py::arg("counter_min_rel") = 0.05, py::arg("metric_min_rel") = 0.25,
        py::arg("compare_timings") = false, py::arg("duplicate_min_ops") = 2u,
        py::arg("max_evidence") = 1000u, py::arg("verify") = false, py::arg("threads") = 0u,
        py::arg("unchanged_rows") = true,
        "Explains the difference between two dumps: left is the baseline, right the candidate;\n"
        "each a path or a Dump. Options: graph (only graphs whose path contains it or whose\n"
        "name equals it, as --graph), equiv (extra op-equivalence classes: a JSON file path or\n"
        "a dict, as --equiv), counter_min_abs / counter_min_rel (when a counter moved),\n"
        "metric_min_rel, compare_timings, duplicate_min_ops, max_evidence, verify (check every\n"
        "alignment, as --verify), threads (for loading and diffing graph pairs, as --jobs;\n"
        "0 = one per core), unchanged_rows (False: GraphPair.pairs holds only the changed\n"
        "node pairs, which saves about 250 bytes per matched node on big graphs).\n"
        "Raises GraphdiffError when a side cannot be read or holds nothing to compare, or when\n"
        "nothing pairs: comparing nothing is never 'same'.");
  m.def("stats", &StatsPy,
        "stats(*dumps) -> StatsReport: size, op histogram, inputs and outputs of every graph\n"
        "and the counters of every metrics report of each dump (paths or Dumps).");
  m.def("lint", &LintPy, py::arg("dump"), py::kw_only(), py::arg("graph") = "",
        py::arg("duplicate_min_ops") = 2u, py::arg("max_evidence") = 1000u,
        "Findings on one dump alone: dead code, dead constant expands, clones, duplicated\n"
        "subgraphs and size facts. Raises GraphdiffError when the dump holds nothing.");
  m.def("snapshot", &SnapshotPy, py::arg("dump"),
        "The gate's baseline of a dump (what `graphdiff snapshot` writes; Baseline.to_json()).\n"
        "Raises GraphdiffError for a dump without graphs: a baseline of nothing passes all.");
  m.def("load_baseline", &LoadBaselinePy, py::arg("path"),
        "Reads a baseline JSON file (`graphdiff snapshot -o FILE`, Baseline.to_json()).");
  m.def("check", &CheckPy, py::arg("dump"), py::arg("baseline"), py::kw_only(),
        py::arg("budget") = py::none(),
        "The CI gate: checks a dump (path or Dump) against a baseline (Baseline or the path of\n"
        "its JSON) under a budget (None: no growth; a dict in the budget JSON format of\n"
        "docs/gate.md, that document as JSON text, or the path of such a file).\n"
        "CheckResult.passed is the verdict.");
  m.def("render", &RenderPy, py::arg("result"), py::arg("format") = "text", py::kw_only(),
        py::arg("verbose") = false, py::arg("all") = false, py::arg("width") = 80u,
        py::arg("max_items") = 8u, py::arg("color") = false,
        "Formats a result as the CLI prints it. DiffResult: text, json, markdown, stat, brief.\n"
        "LintReport: text, json, markdown. StatsReport: text, json. CheckResult: text, json,\n"
        "markdown, junit, csv. Baseline: json. verbose/all/width/max_items/color as the CLI's\n"
        "--verbose/--all/--width/--max-items/--color.");
  m.def("_tune_malloc", &TuneMallocPy, py::arg("argv"),
        "Sets malloc as the graphdiff tool does, re-executing the interpreter with `argv` once\n"
        "when huge pages need asking for. For `python3 -m graphdiff` only: never from a library.");
  m.def("_run_cli", &RunCliPy, py::arg("args"),
        "Runs the graphdiff command line in this process (arguments without the program name)\n"
        "and returns its exit code. Output goes to the process's stdout and stderr.");
}

}  // namespace graphdiff::python
