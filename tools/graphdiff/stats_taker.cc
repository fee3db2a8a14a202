// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "stats_taker.h"

#include <algorithm>
#include <cstring>
#include <thread>
#include <utility>

#include "cli_limits.h"
#include "commands.h"

namespace graphdiff::cli {
namespace {

// The threads `stats` may use (--jobs).
unsigned StatsThreads() {
  unsigned threads = CliLimits().load.threads;
  return threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
}

// The report of graphs[0, n), named `source`, appended to `*out` (JSON:
// StatsJsonWriter::AppendGraphText's, `*escaped` set as it sets it), on up
// to `threads` threads, each making a share in order; the shares are joined
// in order, so the bytes are the same for any number. A log of 10^5 small
// graphs spent a fifth of `stats` making its text on one core after a parse
// on all. The graphs are left as they are: the caller frees them (see
// StatsTaker::Take). With `ends`, where each graph's text ends in `*out`.
// The shares run on `run` (the load's threads) when it is set: a thread
// started for each batch flushed its cache of freed memory as it ended,
// and that consolidation was a twentieth of a save file of small records
// on two threads.
void AppendGraphTexts(Graph* graphs, size_t n, const std::string& source, bool json,
                      size_t top, std::string* out, bool* escaped,
                      std::vector<size_t>* ends = nullptr,
                      const TakenGraphs::Runner* run = nullptr) {
  const size_t shares = std::max<size_t>(1, std::min<size_t>(StatsThreads(), n / 256));
  std::vector<std::string> parts(shares);
  std::vector<char> part_escaped(shares, 0);
  if (ends != nullptr) ends->assign(n, 0);
  auto make = [&](size_t t) {
    std::string& part = t == 0 ? *out : parts[t];
    bool e = false;
    for (size_t i = n * t / shares; i < n * (t + 1) / shares; ++i) {
      if (json) {
        StatsJsonWriter::AppendGraphText(graphs[i], source, &part, &e);
      } else {
        AppendGraphStatsText(graphs[i], source, top, &part);
      }
      if (ends != nullptr) (*ends)[i] = part.size();
    }
    part_escaped[t] = e;
  };
  if (run != nullptr && *run) {
    // Share 0 writes into `*out`, the others into their parts, on
    // whichever threads run them.
    (*run)(shares, [&](size_t t) { make(t); });
  } else {
    std::vector<std::thread> helpers;
    for (size_t t = 1; t < shares; ++t) helpers.emplace_back(make, t);
    make(0);
    for (std::thread& h : helpers) h.join();
  }
  for (size_t t = 0; t < shares; ++t) {
    if (t > 0) {
      if (ends != nullptr) {
        for (size_t i = n * t / shares; i < n * (t + 1) / shares; ++i) (*ends)[i] += out->size();
      }
      *out += parts[t];
    }
    *escaped = *escaped || part_escaped[t] != 0;
  }
}

// Where the part of a graph's report that other graphs may share starts:
// after the fields that name the graph and its record (its first line of
// text; JSON: up to its `"repeat_count"`). Only what is shared depends on
// it: a graph's report is the two parts one after the other.
size_t SharedFrom(std::string_view text, bool json) {
  size_t at = 0;
  if (json) {
    at = text.find("\"repeat_count\": ");
    if (at == std::string_view::npos) return text.size();
  }
  const size_t nl = text.find('\n', at);
  return nl == std::string_view::npos ? text.size() : nl + 1;
}

// Graphs whose text is made at once when it is made as it is written: a
// batch is held as text until written, and a thread's share is worth its
// start. A graph's text is a line or so an op it holds, so a batch also
// ends at this many nodes: its text stays a few MB whatever the graphs.
constexpr size_t kTextBatch = 16384;
constexpr size_t kTextBatchNodes = size_t{1} << 16;

absl::Status Flush(std::string* text, OutputStream* out) {
  if (text->size() < kFlushBytes) return absl::OkStatus();
  absl::Status st = out->Write(*text);
  text->clear();
  return st;
}

}  // namespace

uint32_t StatsTaker::TextTable::Add(std::string_view text) {
  if (auto it = ids_.find(text); it != ids_.end()) return it->second;
  if (room_ < text.size()) {
    room_ = std::max(text.size(), kChunkBytes);
    chunks_.emplace_back(new char[room_]);  // not zeroed: written before it is read
    used_ = 0;
  }
  char* at = chunks_.back().get() + used_;
  std::memcpy(at, text.data(), text.size());
  used_ += text.size();
  room_ -= text.size();
  bytes_ += text.size();
  const std::string_view kept(at, text.size());
  const uint32_t id = static_cast<uint32_t>(texts_.size());
  texts_.push_back(kept);
  ids_.emplace(kept, id);
  return id;
}

void StatsTaker::Take(const TakenGraphs& taken) {
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
  // Made in a scratch string, then kept as each graph's own fields and the
  // rest, shared: a block grown in place moved its text at each doubling,
  // in fresh memory. The scratch is sized once, as the last batch's was,
  // and is not a thread's own: waiting for its shares, this thread may take
  // another file's graphs. The graphs are freed here, on the thread that
  // handed them out (the load parses a file taken this way on one thread),
  // once all their text is made, not by whichever thread made each one's: a
  // block freed on a thread other than the one whose heap it came from
  // takes that heap's lock against the parse going on there, and `stats
  // --jobs 2` of a save file of small records spent a fifth of its CPU in
  // free (0.53 to 0.58 s against 0.42 to 0.44 with one job; now 0.37 to
  // 0.39).
  std::string scratch;
  scratch.reserve(scratch_bytes_.load(std::memory_order_relaxed));
  std::vector<size_t> ends;
  Block& block = file->blocks.emplace_back();
  AppendGraphTexts(graphs.data(), graphs.size(), file->label, json_, top_, &scratch,
                   &block.escaped, &ends, &taken.run);
  std::vector<Graph>().swap(graphs);
  scratch_bytes_.store(scratch.size(), std::memory_order_relaxed);
  const std::string_view made = scratch;
  // Where each graph's own fields end in `heads`, first: `heads` is then
  // sized once.
  block.head_ends.reserve(ends.size());
  for (size_t i = 0, begin = 0, held = 0; i < ends.size(); begin = ends[i++]) {
    held += SharedFrom(made.substr(begin, ends[i] - begin), json_);
    block.head_ends.push_back(static_cast<uint32_t>(held));
  }
  block.heads.reserve(block.head_ends.empty() ? 0 : block.head_ends.back());
  block.rests.reserve(ends.size());
  for (size_t i = 0, begin = 0; i < ends.size(); begin = ends[i++]) {
    const std::string_view text = made.substr(begin, ends[i] - begin);
    const size_t head = block.head_ends[i] - block.heads.size();
    block.heads += text.substr(0, head);
    block.rests.push_back(file->rests.Add(text.substr(head)));
  }
}

size_t StatsTaker::held_bytes() const {
  size_t bytes = 0;
  for (const auto& [source, file] : files_) {
    bytes += file.rests.bytes();
    for (const Block& block : file.blocks) {
      bytes += block.heads.size() + 8 * block.head_ends.size();
    }
  }
  return bytes;
}

absl::Status StatsTaker::Write(const Dump& dump, StatsJsonWriter* json, std::string* text,
                               OutputStream* out) {
  for (const DumpFile& f : dump.files) {
    auto it = files_.find(f.source);
    if (it == files_.end()) continue;
    FileText& file = it->second;
    for (Block& block : file.blocks) {
      const std::string_view heads = block.heads;
      for (size_t i = 0, begin = 0; i < block.head_ends.size(); begin = block.head_ends[i++]) {
        const std::string_view head = heads.substr(begin, block.head_ends[i] - begin);
        // The JSON writer writes into `*text`: the rest follows its graph.
        if (json != nullptr) {
          json->AddGraphText(head, 1, block.escaped);
        } else {
          *text += head;
        }
        *text += file.rests[block.rests[i]];
        if (absl::Status st = Flush(text, out); !st.ok()) return st;
      }
      block = Block();
    }
    std::vector<Graph>& graphs = file.kept;
    for (size_t begin = 0, end = 0; begin < graphs.size(); begin = end) {
      size_t nodes = 0;
      end = begin;
      while (end < graphs.size() && end - begin < kTextBatch && nodes < kTextBatchNodes) {
        nodes += graphs[end++].nodes.size();
      }
      if (json != nullptr) {
        for (size_t i = begin; i < end; ++i) json->AddGraph(graphs[i], file.label);
      } else if (end - begin == 1 && graphs[begin].nodes.size() >= kTextBatchNodes) {
        // A big graph's text goes out as it is made (a graph of a million
        // module calls has tens of MB of it).
        absl::Status written;
        StreamGraphStatsText(graphs[begin], file.label, top_, text, [&](std::string* made) {
          if (written.ok()) written = out->Write(*made);
          made->clear();
        });
        if (!written.ok()) return written;
      } else {
        bool escaped = false;
        AppendGraphTexts(graphs.data() + begin, end - begin, file.label, false, top_, text,
                         &escaped);
      }
      if (absl::Status st = Flush(text, out); !st.ok()) return st;
    }
  }
  return absl::OkStatus();
}

}  // namespace graphdiff::cli
