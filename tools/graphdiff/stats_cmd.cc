// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
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
// JSON report writes each); metrics reports and skipped files are few and
// go into `report`.
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

// The threads `stats` may use (--jobs).
unsigned StatsThreads() {
  unsigned threads = CliLimits().load.threads;
  return threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
}

// The text of graphs[0, n), named `source`, appended to `*out`, on up to
// `threads` threads, each making a share in order; the shares are joined in
// order, so the bytes are the same for any number. A log of 10^5 small
// graphs spent a fifth of `stats` making its text on one core after a parse
// on all. With `drop`, each graph is emptied once its text is made, on the
// thread that made it: freeing a piece's graphs on one thread kept the
// others waiting.
void AppendGraphTexts(Graph* graphs, size_t n, const std::string& source, size_t top,
                      unsigned threads, bool drop, std::string* out) {
  const size_t shares = std::max<size_t>(1, std::min<size_t>(threads, n / 256));
  std::vector<std::string> parts(shares);
  auto make = [&](size_t t) {
    std::string& part = t == 0 ? *out : parts[t];
    for (size_t i = n * t / shares; i < n * (t + 1) / shares; ++i) {
      AppendGraphStatsText(graphs[i], source, top, &part);
      if (drop) graphs[i] = Graph();
    }
  };
  std::vector<std::thread> helpers;
  for (size_t t = 1; t < shares; ++t) helpers.emplace_back(make, t);
  make(0);
  for (std::thread& h : helpers) h.join();
  for (size_t t = 1; t < shares; ++t) *out += parts[t];
}

// Graphs whose text is made at once when it is made as it is written: a
// batch is held as text until written, and a thread's share is worth its
// start. A graph's text is a line or so an op it holds, so a batch also
// ends at this many nodes: its text stays a few MB whatever the graphs.
constexpr size_t kTextBatch = 16384;
constexpr size_t kTextBatchNodes = size_t{1} << 16;

// The text of `graphs`, a batch at a time, handed out as it piles up.
absl::Status WriteGraphTexts(std::vector<Graph>& graphs, const std::string& source,
                             size_t top, std::string* text, OutputStream* out) {
  for (size_t begin = 0, end = 0; begin < graphs.size(); begin = end) {
    size_t nodes = 0;
    end = begin;
    while (end < graphs.size() && end - begin < kTextBatch && nodes < kTextBatchNodes) {
      nodes += graphs[end++].nodes.size();
    }
    AppendGraphTexts(graphs.data() + begin, end - begin, source, top, StatsThreads(),
                     /*drop=*/false, text);
    if (text->size() >= kFlushBytes) {
      if (absl::Status st = out->Write(*text); !st.ok()) return st;
      text->clear();
    }
  }
  return absl::OkStatus();
}

// The stats text of the graphs a load hands out as it parses them
// (LoadOptions::take_graphs). The graphs of a file handed out a few pieces
// at a time are made into text and dropped as they come, so that the next
// pieces' graphs reuse their memory: a save file of small records held
// twice its size in graphs, and taking that much fresh memory from the
// kernel was a quarter of `stats`. A file handed out at once (one graph, a
// small file) keeps its graphs, and its text is made as it is written: held
// as text, a graph of 10^6 module calls was tens of MB more. Nothing is
// written until the load is done: a load that fails writes nothing, and the
// files' order is known only then.
class StatsTextTaker {
 public:
  StatsTextTaker(std::string path, size_t top) : path_(std::move(path)), top_(top) {}

  // Called on the loading threads; for one file in order, one at a time.
  void Take(const TakenGraphs& taken) {
    FileText* file;
    {
      std::lock_guard<std::mutex> lock(mu_);
      file = &files_[std::string(taken.source)];
    }
    if (taken.restart) {
      graphs_ -= file->graphs;
      *file = FileText();
      return;
    }
    std::vector<Graph>& graphs = *taken.graphs;
    if (file->label.empty()) file->label = DisplayPath(path_, std::string(taken.path));
    file->graphs += graphs.size();
    graphs_ += graphs.size();
    if (taken.last && file->blocks.empty()) {
      file->kept = std::move(graphs);
      return;
    }
    if (graphs.empty()) return;
    // Made in a string each thread keeps, then copied to a block of its
    // size: a block grown in place moved its text at each doubling, in
    // fresh memory.
    thread_local std::string scratch;
    scratch.clear();
    // Dropped as their text is made, so that the next pieces' graphs reuse
    // their memory.
    AppendGraphTexts(graphs.data(), graphs.size(), file->label, top_, StatsThreads(),
                     /*drop=*/true, &scratch);
    file->blocks.push_back(scratch);
    std::vector<Graph>().swap(graphs);
  }

  size_t graphs() const { return graphs_; }

  // The text of the files of `dump` (all loaded), in its order.
  absl::Status Write(const Dump& dump, std::string* text, OutputStream* out) {
    for (const DumpFile& f : dump.files) {
      auto it = files_.find(f.source);
      if (it == files_.end()) continue;
      FileText& file = it->second;
      for (std::string& block : file.blocks) {
        if (!text->empty()) {
          if (absl::Status st = out->Write(*text); !st.ok()) return st;
          text->clear();
        }
        if (absl::Status st = out->Write(block); !st.ok()) return st;
        std::string().swap(block);
      }
      if (absl::Status st = WriteGraphTexts(file.kept, file.label, top_, text, out); !st.ok()) {
        return st;
      }
    }
    return absl::OkStatus();
  }

 private:
  struct FileText {
    std::string label;  // the file as the user named it (DisplayPath)
    std::vector<std::string> blocks;  // text of the graphs handed out in pieces
    std::vector<Graph> kept;          // the graphs of a file handed out at once
    size_t graphs = 0;
  };
  const std::string path_;
  const size_t top_;
  std::mutex mu_;
  std::map<std::string, FileText> files_;  // by DumpFile::source; nodes stay put
  std::atomic<size_t> graphs_{0};
};

// The report a graph at a time: the stats of a log of 10^5 graphs, and
// their text, were as much fresh memory as the graphs. Same bytes as
// RenderStatsText (or StatsToJson) of the whole report. The text report's
// graphs were taken while the dumps loaded (`takers`, one a dump).
absl::Status WriteStats(const std::vector<Dump>& dumps,
                        const std::vector<std::shared_ptr<StatsTextTaker>>& takers,
                        const StatsArgs& args, const std::string& notes) {
  absl::StatusOr<OutputStream> out = OutputStream::Open(args.output);
  if (!out.ok()) return out.status();
  std::string text;
  std::optional<StatsJsonWriter> json;
  if (args.format == "json") json.emplace(&text);
  StatsReport rest;  // metrics and skipped files, after every graph
  absl::Status st;
  for (size_t i = 0; i < dumps.size() && st.ok(); ++i) {
    if (!json) st = takers[i]->Write(dumps[i], &text, &*out);
    ForEachGraph(
        dumps[i], args.paths[i],
        [&](const Graph& g, const std::string& source) {
          if (!st.ok() || !json) return;
          json->AddGraph(g, source);
          if (text.size() >= kFlushBytes) {
            st = out->Write(text);
            text.clear();
          }
        },
        &rest);
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
  // The text report takes the graphs as they are parsed; the JSON one
  // (which numbers every graph of the report) reads the loaded dumps.
  std::vector<std::shared_ptr<StatsTextTaker>> takers;
  std::string notes;
  for (const std::string& path : args.paths) {
    std::function<void(const TakenGraphs&)> take;
    if (args.format == "text") {
      auto taker = std::make_shared<StatsTextTaker>(path, args.top);
      takers.push_back(taker);
      take = [taker](const TakenGraphs& taken) { taker->Take(taken); };
    }
    absl::StatusOr<Dump> dump = LoadInput(path, std::move(take));
    if (!dump.ok()) return Fail(dump.status());
    if (!HoldsSomething(*dump) && (takers.empty() || takers.back()->graphs() == 0)) {
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
