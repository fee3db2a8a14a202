// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The `stats` report of the graphs a load hands out as it parses them
// (LoadOptions::take_graphs).
#ifndef GRAPHDIFF_TOOLS_GRAPHDIFF_STATS_TAKER_H_
#define GRAPHDIFF_TOOLS_GRAPHDIFF_STATS_TAKER_H_

#include <atomic>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "graphdiff/dump.h"
#include "graphdiff/stats.h"
#include "output_stream.h"

namespace graphdiff::cli {

// The report's text is handed out when this much of it has piled up.
inline constexpr size_t kFlushBytes = size_t{1} << 20;

// The report of one dump's graphs as they come. The graphs of a file handed
// out a few pieces at a time are made into report text (or JSON) and dropped
// as they come, so that the next pieces' graphs reuse their memory: a save
// file of small records held 1.6 times its size in graphs, and taking that
// much fresh memory from the kernel was a quarter of `stats`. A file handed
// out at once (one graph, a small file) keeps its graphs, and their text is
// made as it is written: held as text, a graph of 10^6 module calls was
// tens of MB more. Nothing is written until the load is done: a load that
// fails writes nothing, and the files' order is known only then.
class StatsTaker {
 public:
  // `path` is the dump as the user named it; `json` picks the format;
  // `top` caps the text report's op histograms (0 = all).
  StatsTaker(std::string path, bool json, size_t top)
      : path_(std::move(path)), json_(json), top_(top) {}

  // LoadOptions::take_graphs: called on the loading threads; for one file
  // in order, one call at a time.
  void Take(const TakenGraphs& taken);

  // Graphs taken, less those a restart voided.
  size_t graphs() const { return graphs_; }

  // The report of the graphs of the files of `dump` (loaded with Take), in
  // its order, into `*text` (JSON: through `json`, which writes there),
  // handed out to `out` as it piles up.
  absl::Status Write(const Dump& dump, StatsJsonWriter* json, std::string* text,
                     OutputStream* out);

 private:
  struct Block {
    std::string text;  // the report of `graphs` graphs handed out in a piece
    size_t graphs = 0;
    bool escaped = false;  // JSON: a string was not valid UTF-8
  };
  struct FileText {
    std::string label;  // the file as the user named it (DisplayPath)
    std::vector<Block> blocks;
    std::vector<Graph> kept;  // the graphs of a file handed out at once
    size_t graphs = 0;
  };

  const std::string path_;
  const bool json_;
  const size_t top_;
  std::mutex mu_;
  std::map<std::string, FileText> files_;  // by DumpFile::source; nodes stay put
  std::atomic<size_t> graphs_{0};
};

}  // namespace graphdiff::cli

#endif  // GRAPHDIFF_TOOLS_GRAPHDIFF_STATS_TAKER_H_
