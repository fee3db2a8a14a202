// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// `graphdiff lint PATH`: findings on one dump alone. Exit 0 when nothing is
// worse than info, 1 when there are warnings or errors, 2 on trouble.
#include <memory>
#include <string>

#include "commands.h"
#include "cli_limits.h"
#include "progress.h"
#include "fmt/format.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/report.h"

namespace graphdiff::cli {
namespace {

struct LintArgs {
  std::string path;
  std::string format = "text";
  std::string output;
  std::string color = "auto";
  size_t max_items = 20;
  size_t width = 0;
  std::string graph;
};

int RunLint(const LintArgs& args) {
  absl::StatusOr<ReportFormat> format = ParseReportFormat(args.format);
  if (!format.ok()) return Fail(format.status());
  absl::StatusOr<Dump> dump = LoadInput(args.path);
  if (!dump.ok()) return Fail(dump.status());
  if (!HoldsSomething(*dump)) {
    return Fail(absl::InvalidArgumentError(
        "nothing to lint: " + WhyNothingReadable(*dump, args.path)));
  }
  if (!args.graph.empty()) {
    bool any = false;
    for (const DumpFile& f : dump->files) {
      for (const Graph& g : f.graphs) {
        any = any || f.path.find(args.graph) != std::string::npos || g.name == args.graph;
      }
      any = any || (!f.metrics.empty() && f.path.find(args.graph) != std::string::npos);
    }
    if (!any) {
      return Fail(absl::InvalidArgumentError(fmt::format(
          "nothing selected by --graph '{}' in {}; `graphdiff stats {}` lists its graphs",
          args.graph, args.path, args.path)));
    }
  }
  LintOptions options;
  options.graph_selector = args.graph;
  SetProgressPhase("linting");
  LintReport report{args.path, LintDump(*dump, options), {}};
  for (const auto& [file, reason] : dump->skipped) {
    report.skipped.emplace_back(DisplayPath(args.path, file), reason);
  }
  RenderOptions render;
  render.color = WantColor(args.color, args.output);
  render.max_items = args.max_items;
  render.width = OutputWidth(args.width);
  std::string text = RenderLint(report, *format, render);
  // Say what was not read, as the diff report does.
  if (*format == ReportFormat::kText) text += ReadingNotes(*dump, args.path, args.max_items);
  absl::Status st = WriteOutput(args.output, text);
  if (!st.ok()) return Fail(st);
  for (const Finding& f : report.findings) {
    if (f.severity != Severity::kInfo) return kExitDifferent;
  }
  return kExitSame;
}

}  // namespace

Runner AddLintCommand(CLI::App& app) {
  auto args = std::make_shared<LintArgs>();
  CLI::App* cmd = app.add_subcommand("lint", "Findings on one dump alone (dead code, "
                                             "duplicates, clones, dead expands, size facts)");
  cmd->add_option("path", args->path, "Dump file, directory or archive ('-': standard input)")
      ->required();
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json", "markdown", "md"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Write to FILE instead of stdout");
  cmd->add_option("--color", args->color, "Colour: auto (on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  cmd->add_option("--max-items", args->max_items, "Longest list shown (0 = all)")
      ->capture_default_str();
  cmd->add_option("--graph", args->graph, "Only graphs whose file path or name matches");
  cmd->add_option("--width", args->width,
                  "Wrap text at N columns (default: the terminal's width, $COLUMNS, or 80)");
  AddLoadingOptions(cmd);
  AddLimitOptions(cmd);
  return [cmd, args]() -> int {
    if (!cmd->parsed()) return -1;
    return RunLint(*args);
  };
}

}  // namespace graphdiff::cli
