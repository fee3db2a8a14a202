// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The `stats` report of the graphs a load hands out as it parses them
// (LoadOptions::take_graphs).
#ifndef GRAPHDIFF_TOOLS_GRAPHDIFF_STATS_TAKER_H_
#define GRAPHDIFF_TOOLS_GRAPHDIFF_STATS_TAKER_H_

#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
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
//
// The text held is each graph's first line (its source and name) and the
// rest of its report kept once for all graphs whose rest is the same: a log
// repeats the same few graphs, step after step, and the report of a log of
// 285,715 small graphs (79 MB, more than the log) was fresh memory, a fifth
// of `stats` in an hour when the host is slow to give it.
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
  // Bytes of report text held for them (not the graphs kept).
  size_t held_bytes() const;

  // The report of the graphs of the files of `dump` (loaded with Take), in
  // its order, into `*text` (JSON: through `json`, which writes there),
  // handed out to `out` as it piles up.
  absl::Status Write(const Dump& dump, StatsJsonWriter* json, std::string* text,
                     OutputStream* out);

 private:
  // Distinct texts, each kept once, in chunks that never move.
  class TextTable {
   public:
    uint32_t Add(std::string_view text);
    std::string_view operator[](uint32_t id) const { return texts_[id]; }
    size_t bytes() const { return bytes_; }

   private:
    absl::flat_hash_map<std::string_view, uint32_t> ids_;
    std::vector<std::string_view> texts_;
    std::vector<std::unique_ptr<char[]>> chunks_;
    size_t used_ = 0;  // bytes written in chunks_.back()
    size_t room_ = 0;  // and left
    size_t bytes_ = 0;  // of the distinct texts
    static constexpr size_t kChunkBytes = size_t{1} << 20;
  };
  // The report of the graphs handed out in a piece: the fields that name
  // each graph (text: its first line) one after another, where each ends,
  // and the rest of each graph's report, in FileText::rests.
  struct Block {
    std::string heads;
    std::vector<uint32_t> head_ends;
    std::vector<uint32_t> rests;
    bool escaped = false;  // JSON: a string was not valid UTF-8
  };
  struct FileText {
    std::string label;  // the file as the user named it (DisplayPath)
    std::vector<Block> blocks;
    TextTable rests;
    std::vector<Graph> kept;  // the graphs of a file handed out at once
    size_t graphs = 0;
  };

  const std::string path_;
  const bool json_;
  const size_t top_;
  std::mutex mu_;
  std::map<std::string, FileText> files_;  // by DumpFile::source; nodes stay put
  std::atomic<size_t> graphs_{0};
  std::atomic<size_t> scratch_bytes_{0};  // the last batch's text
};

}  // namespace graphdiff::cli

#endif  // GRAPHDIFF_TOOLS_GRAPHDIFF_STATS_TAKER_H_
