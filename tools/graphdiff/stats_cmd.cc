// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "commands.h"
#include "cli_limits.h"
#include "output_stream.h"
#include "progress.h"
#include "graphdiff/dump.h"
#include "graphdiff/stats.h"

namespace graphdiff::cli {

namespace {

// Every graph of `dump` goes to `on_graph` one at a time with its source
// named as the user named the dump (AddStats keeps the stats of each; the
// stats command writes each and drops it); metrics reports and skipped
// files are few and go into `report`.
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

// The text report is handed out when this much of it has piled up.
constexpr size_t kFlushBytes = size_t{1} << 20;

// Graphs whose text is made at once, split among the threads: a batch is
// held as text until written, and a thread's share is worth its start. A
// graph's text is a line or so an op it holds, so a batch also ends at
// this many nodes: its text stays a few MB whatever the graphs.
constexpr size_t kTextBatch = 16384;
constexpr size_t kTextBatchNodes = size_t{1} << 16;

// The graphs' text, a batch at a time, on `threads` threads, each making a
// share of the batch in order; the shares are written in order, so the
// bytes are the same for any number. A log of 10^5 small graphs spent a
// fifth of `stats` making its text on one core after a parse on all.
absl::Status WriteGraphTexts(const std::vector<std::pair<const Graph*, const std::string*>>& graphs,
                             size_t top, unsigned threads, std::string* text, OutputStream* out) {
  for (size_t begin = 0, end = 0; begin < graphs.size(); begin = end) {
    size_t nodes = 0;
    end = begin;
    while (end < graphs.size() && end - begin < kTextBatch && nodes < kTextBatchNodes) {
      nodes += graphs[end++].first->nodes.size();
    }
    const size_t shares = std::max<size_t>(1, std::min<size_t>(threads, (end - begin) / 256));
    std::vector<std::string> parts(shares);
    auto make = [&](size_t t) {
      std::string& part = t == 0 ? *text : parts[t];
      for (size_t i = begin + (end - begin) * t / shares;
           i < begin + (end - begin) * (t + 1) / shares; ++i) {
        AppendGraphStatsText(*graphs[i].first, *graphs[i].second, top, &part);
      }
    };
    std::vector<std::thread> helpers;
    for (size_t t = 1; t < shares; ++t) helpers.emplace_back(make, t);
    make(0);
    for (std::thread& h : helpers) h.join();
    for (size_t t = 1; t < shares; ++t) *text += parts[t];
    if (text->size() >= kFlushBytes) {
      if (absl::Status st = out->Write(*text); !st.ok()) return st;
      text->clear();
    }
  }
  return absl::OkStatus();
}

// The report a graph at a time: the stats of a log of 10^5 graphs, and
// their text, were as much fresh memory as the graphs. Same bytes as
// RenderStatsText (or StatsToJson) of the whole report.
absl::Status WriteStats(const std::vector<Dump>& dumps, const StatsArgs& args,
                        const std::string& notes) {
  absl::StatusOr<OutputStream> out = OutputStream::Open(args.output);
  if (!out.ok()) return out.status();
  std::string text;
  std::optional<StatsJsonWriter> json;
  if (args.format == "json") json.emplace(&text);
  StatsReport rest;  // metrics and skipped files, after every graph
  std::deque<std::string> sources;  // stable: the text graphs point at them
  std::vector<std::pair<const Graph*, const std::string*>> text_graphs;
  absl::Status st;
  for (size_t i = 0; i < dumps.size() && st.ok(); ++i) {
    ForEachGraph(
        dumps[i], args.paths[i],
        [&](const Graph& g, const std::string& source) {
          if (!st.ok()) return;
          if (!json) {
            if (sources.empty() || sources.back() != source) sources.push_back(source);
            text_graphs.emplace_back(&g, &sources.back());
            return;
          }
          json->AddGraph(g, source);
          if (text.size() >= kFlushBytes) {
            st = out->Write(text);
            text.clear();
          }
        },
        &rest);
  }
  if (st.ok() && !json) {
    unsigned threads = CliLimits().load.threads;
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    st = WriteGraphTexts(text_graphs, args.top, threads, &text, &*out);
  }
  if (!st.ok()) return st;
  if (json) {
    json->Finish(rest);
  } else {
    text += RenderStatsText(rest, args.top);
    text += notes;
  }
  st = out->Write(text);
  return st.ok() ? out->Close() : st;
}

int RunStats(const StatsArgs& args) {
  // Every dump is read before a byte is written: a path that fails leaves
  // no half report (and no -o file).
  std::vector<Dump> dumps;
  std::string notes;
  for (const std::string& path : args.paths) {
    absl::StatusOr<Dump> dump = LoadInput(path);
    if (!dump.ok()) return Fail(dump.status());
    if (!HoldsSomething(*dump)) {
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
  absl::Status st = WriteStats(dumps, args, notes);
  KeepUntilExit(std::move(dumps));
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
