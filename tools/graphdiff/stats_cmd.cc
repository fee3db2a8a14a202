// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.h"
#include "cli_limits.h"
#include "output_stream.h"
#include "progress.h"
#include "stats_taker.h"
#include "graphdiff/dump.h"
#include "graphdiff/stats.h"

namespace graphdiff::cli {

namespace {

// Every graph of `dump` goes to `on_graph` one at a time with its source
// named as the user named the dump (AddStats keeps the stats of each);
// metrics reports and skipped files are few and go into `report`.
void ForEachGraph(const Dump& dump, const std::string& path,
                  const std::function<void(const Graph&, const std::string&)>& on_graph,
                  StatsReport* report) {
  for (const DumpFile& f : dump.files) {
    std::string source = DisplayPath(path, f.path);
    for (const Graph& g : f.graphs) on_graph(g, source);
    for (const MetricsReport& m : f.metrics) {
      report->metrics.push_back(m);
      report->metrics.back().source = source;
    }
  }
  for (const auto& [file, reason] : dump.skipped) {
    report->skipped.emplace_back(DisplayPath(path, file), reason);
  }
}

}  // namespace

void AddStats(const Dump& dump, const std::string& path, StatsReport* report) {
  ForEachGraph(
      dump, path,
      [report](const Graph& g, const std::string& source) {
        GraphStats s = ComputeStats(g);
        s.source = source;
        report->graphs.push_back(std::move(s));
      },
      report);
}

namespace {

struct StatsArgs {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string output;
  size_t top = 0;
};

// The report a graph at a time: the stats of a log of 10^5 graphs, and
// their text, were as much fresh memory as the graphs. Same bytes as
// RenderStatsText (or StatsToJson) of the whole report. The graphs were
// taken while the dumps loaded (`takers`, one a dump).
absl::Status WriteStats(const std::vector<Dump>& dumps,
                        const std::vector<std::shared_ptr<StatsTaker>>& takers,
                        const StatsArgs& args, const std::string& notes) {
  absl::StatusOr<OutputStream> out = OutputStream::Open(args.output);
  if (!out.ok()) return out.status();
  std::string text;
  std::optional<StatsJsonWriter> json;
  if (args.format == "json") json.emplace(&text);
  StatsReport rest;  // metrics and skipped files, after every graph
  for (size_t i = 0; i < dumps.size(); ++i) {
    absl::Status st = takers[i]->Write(dumps[i], json ? &*json : nullptr, &text, &*out);
    if (!st.ok()) return st;
    // The dump holds no graph: only its metrics and skipped files.
    ForEachGraph(dumps[i], args.paths[i], [](const Graph&, const std::string&) {}, &rest);
  }
  if (json) {
    json->Finish(rest);
  } else {
    text += RenderStatsText(rest, args.top);
    text += notes;
  }
  absl::Status st = out->Write(text);
  return st.ok() ? out->Close() : st;
}

int RunStats(const StatsArgs& args) {
  // Every dump is read before a byte is written: a path that fails leaves
  // no half report (and no -o file).
  std::vector<Dump> dumps;
  // The graphs are taken as they are parsed (StatsTaker).
  std::vector<std::shared_ptr<StatsTaker>> takers;
  std::string notes;
  for (const std::string& path : args.paths) {
    auto taker = std::make_shared<StatsTaker>(path, args.format == "json", args.top);
    takers.push_back(taker);
    absl::StatusOr<Dump> dump =
        LoadInput(path, [taker](const TakenGraphs& taken) { taker->Take(taken); });
    if (!dump.ok()) return Fail(dump.status());
    if (!HoldsSomething(*dump) && taker->graphs() == 0) {
      return Fail(absl::InvalidArgumentError("no stats: " + WhyNothingReadable(*dump, path)));
    }
    // Skipped files go into the report; the notes add what reading tolerated.
    auto skipped = std::move(dump->skipped);
    dump->skipped.clear();
    notes += ReadingNotes(*dump, path, 0);
    dump->skipped = std::move(skipped);
    dumps.push_back(*std::move(dump));
  }
  // Counting is writing now (WriteStats), and the progress line stops
  // before the report's first byte.
  absl::Status st = WriteStats(dumps, takers, args, notes);
  KeepUntilExit(std::move(dumps));
  KeepUntilExit(std::move(takers));  // the graphs of files handed out at once
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
