// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "cli_limits.h"
#include "progress.h"
#include "graphdiff/dump.h"
#include "graphdiff/stats.h"

namespace graphdiff::cli {

void AddStats(const Dump& dump, const std::string& path, StatsReport* report) {
  for (const DumpFile& f : dump.files) {
    std::string source = DisplayPath(path, f.path);
    for (const Graph& g : f.graphs) {
      GraphStats s = ComputeStats(g);
      s.source = source;
      report->graphs.push_back(std::move(s));
    }
    for (const MetricsReport& m : f.metrics) {
      report->metrics.push_back(m);
      report->metrics.back().source = source;
    }
  }
  for (const auto& [file, reason] : dump.skipped) {
    report->skipped.emplace_back(DisplayPath(path, file), reason);
  }
}

namespace {

struct StatsArgs {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string output;
  size_t top = 0;
};

int RunStats(const StatsArgs& args) {
  StatsReport report;
  std::string notes;
  for (const std::string& path : args.paths) {
    absl::StatusOr<Dump> dump = LoadInput(path);
    if (!dump.ok()) return Fail(dump.status());
    if (!HoldsSomething(*dump)) {
      return Fail(absl::InvalidArgumentError("no stats: " + WhyNothingReadable(*dump, path)));
    }
    SetProgressPhase("counting");
    AddStats(*dump, path, &report);
    // Skipped files are in the report already; add what reading tolerated.
    // (Clearing them, not copying the files: a copy of a 10^6-node dump
    // costs as much as parsing it.)
    dump->skipped.clear();
    notes += ReadingNotes(*dump, path, 0);
    KeepUntilExit(*std::move(dump));
  }
  std::string text = args.format == "json"
                         ? StatsToJson(report)
                         : RenderStatsText(report, args.top) + notes;
  // A dump of symbolic_trace graphs has an op a module call: a million map
  // entries to free one by one.
  KeepUntilExit(std::move(report));
  absl::Status st = WriteOutput(args.output, text);
  return st.ok() ? kExitSame : Fail(st);
}

}  // namespace

Runner AddStatsCommand(CLI::App& app) {
  auto args = std::make_shared<StatsArgs>();
  CLI::App* cmd = app.add_subcommand(
      "stats", "Size, op histogram, inputs and outputs of every graph in each dump");
  cmd->add_option("paths", args->paths, "Dump files, directories or archives")
      ->required();
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Write to FILE instead of stdout");
  cmd->add_option("--top", args->top, "Show only the N most frequent ops per graph (0 = all)")
      ->capture_default_str();
  AddLoadingOptions(cmd);
  AddLimitOptions(cmd);
  return [cmd, args]() -> int {
    if (!cmd->parsed()) return -1;
    return RunStats(*args);
  };
}

}  // namespace graphdiff::cli
