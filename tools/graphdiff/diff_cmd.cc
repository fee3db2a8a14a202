// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// `graphdiff diff LEFT RIGHT`: load both dumps, diff, render. Exit 0 when the
// dumps are the same up to numbering and order, 1 when they differ, 2 on
// trouble.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <tuple>
#include <vector>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>

#include <unistd.h>

#include "commands.h"
#include "fmt/format.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/equivalence.h"
#include "graphdiff/input.h"
#include "graphdiff/report.h"
#include "cli_limits.h"
#include "progress.h"
#include "graphdiff/visual.h"

namespace graphdiff::cli {

// Colour on a terminal only, unless forced; NO_COLOR and TERM=dumb opt out.
bool WantColor(const std::string& mode, const std::string& output) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (!output.empty() && output != "-") return false;
  if (std::getenv("NO_COLOR") != nullptr) return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string(term) == "dumb") return false;
  return isatty(fileno(stdout)) != 0;
}

namespace {

struct DiffArgs {
  std::string left;
  std::string right;
  std::string format = "text";
  std::string output;
  std::string equiv;
  std::string color = "auto";
  size_t max_items = 8;
  size_t width = 0;
  std::string graph;
  bool verbose = false;
  bool all = false;
  bool stat = false;
  bool brief = false;
  size_t max_drawn = 300;
  bool verify = false;
};

// Names the graphs a selector could have matched, so a typo is easy to see.
std::string GraphNames(const Dump& dump) {
  std::vector<std::string> names;
  for (const DumpFile& f : dump.files) {
    for (const Graph& g : f.graphs) {
      names.push_back(g.name.empty() ? f.path : f.path + ":" + g.name);
      if (names.size() == 5) break;
    }
    if (names.size() == 5) break;
  }
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

// The HTML page shows each node's own dump line when it has the file's text.
// Dumps keep no text, so files on disk are read again; files inside archives
// and standard input are not, and their nodes show the parsed line only.
void AttachDumpText(const Dump& left, const Dump& right, std::map<std::string, std::string>* texts,
                    std::vector<PairGraphs>* graphs) {
  std::map<const Graph*, const std::string*> sources;
  for (const Dump* d : {&left, &right}) {
    for (const DumpFile& f : d->files) {
      for (const Graph& g : f.graphs) sources[&g] = &f.source;
    }
  }
  auto text_of = [&](const Graph* g) -> std::string_view {
    auto it = sources.find(g);
    if (it == sources.end()) return {};
    const std::string& path = *it->second;
    auto cached = texts->find(path);
    if (cached != texts->end()) return cached->second;
    std::error_code ec;
    std::string content;
    if (std::filesystem::is_regular_file(path, ec)) {
      std::ifstream f(path, std::ios::binary);
      std::ostringstream ss;
      ss << f.rdbuf();
      if (f) content = ss.str();
    }
    return texts->emplace(path, std::move(content)).first->second;
  };
  for (PairGraphs& g : *graphs) {
    g.left_text = text_of(g.left);
    g.right_text = text_of(g.right);
  }
}

// Model Explorer export: several files into the -o directory.
absl::Status WriteModelExplorer(const DiffResult& result, const RenderOptions& render,
                                const std::string& dir) {
  if (dir.empty() || dir == "-") {
    return absl::InvalidArgumentError("--format model-explorer writes files: give -o DIRECTORY");
  }
  absl::StatusOr<std::vector<ReportFile>> files = RenderModelExplorer(result, render);
  if (!files.ok()) return files.status();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::UnavailableError(fmt::format("cannot create {}: {}", dir, ec.message()));
  for (const ReportFile& f : *files) {
    absl::Status st = WriteOutput((std::filesystem::path(dir) / f.path).string(), f.content);
    if (!st.ok()) return st;
  }
  return absl::OkStatus();
}

int RunDiff(const DiffArgs& args) {
  bool model_explorer = args.format == "model-explorer";
  absl::StatusOr<ReportFormat> format =
      ParseReportFormat(model_explorer ? "json" : args.format);
  if (!format.ok()) return Fail(format.status());
  if (args.left == "-" && args.right == "-") {
    return Fail(absl::InvalidArgumentError(
        "only one side can be read from standard input ('-'); name a file for the other"));
  }
  OpEquivalence eq = OpEquivalence::BuiltIn();
  if (!args.equiv.empty()) {
    absl::StatusOr<std::string> text =
        ReadInputFile(args.equiv, "--equiv file", CliLimits().max_input_bytes);
    if (!text.ok()) return Fail(text.status());
    absl::Status st = eq.AddJson(*text, args.equiv);
    if (!st.ok()) return Fail(st);
  }
  // The two sides load at once, on one set of threads: on big dumps
  // reading and parsing is half the run, and files the two runs wrote alike
  // are parsed once.
  DumpPair loaded = LoadInputs(args.left, args.right);
  absl::StatusOr<Dump>& left = loaded.left;
  absl::StatusOr<Dump>& right = loaded.right;
  if (!left.ok()) return Fail(left.status());
  if (!right.ok()) return Fail(right.status());
  // Comparing nothing is trouble, never sameness.
  for (const auto& [dump, path, side] : {std::tuple{&*left, &args.left, "left"},
                                         std::tuple{&*right, &args.right, "right"}}) {
    if (!HoldsSomething(*dump)) {
      return Fail(absl::InvalidArgumentError(
          fmt::format("nothing to compare on the {} side: {}", side,
                      WhyNothingReadable(*dump, *path))));
    }
  }
  DiffOptions options;
  options.align.equivalence = &eq;
  options.graph_selector = args.graph;
  options.align.verify = args.verify;
  options.threads = CliLimits().load.threads;
  // Text, Markdown, --stat and --brief show changed node pairs only; a row
  // for each of 10^6 unchanged pairs was a quarter of a gigabyte nobody would
  // see. JSON lists every row, and the drawings find each pair's graphs by
  // its rows.
  const bool drawn =
      model_explorer || *format == ReportFormat::kHtml || *format == ReportFormat::kDot;
  options.unchanged_rows =
      drawn || (*format == ReportFormat::kJson && !args.brief && !args.stat);
  options.alignments = drawn;
  SetProgressPhase("diffing");
  absl::StatusOr<DiffResult> result = DiffDumps(*left, *right, options);
  if (!result.ok()) return Fail(result.status());
  if (result->empty()) {
    if (!args.graph.empty()) {
      return Fail(absl::InvalidArgumentError(fmt::format(
          "nothing selected by --graph '{}': no graph or metrics file path contains it and no "
          "graph is named so (left has {}; right has {}). Run `graphdiff stats` on a dump to "
          "see its graphs.",
          args.graph, GraphNames(*left), GraphNames(*right))));
    }
    return Fail(absl::InvalidArgumentError(fmt::format(
        "no comparable graphs: nothing on the left pairs with anything on the right (left: "
        "{} graphs, {} metrics reports; right: {} graphs, {} metrics reports). Graphs pair "
        "with graphs of the same kind (IR, FX, HLO) and metrics with metrics; give both sides "
        "the same kind of dump.",
        result->left_graphs, result->left_metrics, result->right_graphs,
        result->right_metrics)));
  }
  // Name the sides as the user typed them.
  result->left_root = args.left;
  result->right_root = args.right;
  RenderOptions render;
  render.color = WantColor(args.color, args.output);
  render.max_items = args.max_items;
  render.width = OutputWidth(args.width);
  render.verbose = args.verbose;
  render.all = args.all;
  render.max_drawn_nodes = args.max_drawn;
  // The drawing formats need the graphs behind each pair.
  std::vector<PairGraphs> graphs;
  std::map<std::string, std::string> texts;  // outlives `graphs`, which points into it
  if (drawn) {
    absl::StatusOr<std::vector<PairGraphs>> found = FindPairGraphs(*result, *left, *right);
    if (!found.ok()) return Fail(found.status());
    graphs = *std::move(found);
    AttachDumpText(*left, *right, &texts, &graphs);
    render.graphs = &graphs;
  }
  if (model_explorer) {
    absl::Status st = WriteModelExplorer(*result, render, args.output);
    if (!st.ok()) return Fail(st);
    return result->identical() ? kExitSame : kExitDifferent;
  }
  std::string text;
  if (args.brief) {
    text = RenderDiffBrief(*result);
  } else if (args.stat) {
    text = RenderDiffStat(*result, render);
  } else {
    text = RenderDiff(*result, *format, render);
  }
  absl::Status st = WriteOutput(args.output, text);
  if (!st.ok()) return Fail(st);
  const int code = result->identical() ? kExitSame : kExitDifferent;
  KeepUntilExit(*std::move(result));
  KeepUntilExit(*std::move(left));
  KeepUntilExit(*std::move(right));
  return code;
}

}  // namespace

Runner AddDiffCommand(CLI::App& app) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* cmd = app.add_subcommand(
      "diff", "Explain the difference between two dumps (LEFT = baseline, RIGHT = candidate)");
  cmd->add_option("left", args->left,
                  "Baseline dump: file, directory or archive ('-': standard input)")
      ->required();
  cmd->add_option("right", args->right,
                  "Candidate dump: file, directory or archive ('-': standard input)")
      ->required();
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json", "markdown", "md", "html", "dot", "model-explorer"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Write to FILE instead of stdout (a DIRECTORY for --format model-explorer)");
  cmd->add_option("--equiv", args->equiv, "JSON file of extra op-equivalence classes");
  cmd->add_option("--color", args->color, "Colour: auto (on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  cmd->add_option("--max-items", args->max_items, "Longest list shown in text/markdown (0 = all)")
      ->capture_default_str();
  cmd->add_option("--graph", args->graph,
                  "Only graphs whose file path or graph name matches (path substring)");
  cmd->add_flag("-v,--verbose,--detail", args->verbose,
                "Full detail: explanations, every evidence line, changed node pairs, counters, "
                "every reading warning");
  cmd->add_flag("-a,--all", args->all, "List identical pairs too (default: counted only)");
  cmd->add_flag("--stat", args->stat,
                "One line per differing pair with a bar of node changes, like git diff --stat");
  cmd->add_flag("-q,--brief", args->brief, "One line: the verdict (the exit code says it too)");
  cmd->add_option("--max-drawn", args->max_drawn,
                  "html/dot: most nodes drawn per side of a pair (more on demand in the page)")
      ->capture_default_str();
  cmd->add_flag("--verify", args->verify,
                "Check every alignment for consistency (paired operands, no node paired twice, "
                "outputs agree with their nodes); an inconsistency is an internal error, exit 2");
  cmd->add_option("--width", args->width,
                  "Wrap text at N columns (default: the terminal's width, $COLUMNS, or 80)");
  AddLoadingOptions(cmd);
  AddLimitOptions(cmd);
  return [cmd, args]() -> int {
    if (!cmd->parsed()) return -1;
    return RunDiff(*args);
  };
}

}  // namespace graphdiff::cli
