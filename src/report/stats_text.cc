// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/stats.h"
#include "graphdiff/sanitize.h"
#include "model/stats_parts.h"

namespace graphdiff {
namespace {

// Lines gathered in one buffer and appended to the report at once (a
// graph's header, the count of ops a cap left out): a small graph's header
// is two dozen pieces, and an out-of-line string append a piece was a
// quarter of writing its text.
class Pieces {
 public:
  explicit Pieces(std::string* out) : out_(out) {}
  Pieces(const Pieces&) = delete;
  Pieces& operator=(const Pieces&) = delete;
  ~Pieces() { Flush(); }

  void Add(std::string_view s) {
    if (s.size() > sizeof(buf_) - len_) {
      Flush();
      if (s.size() > sizeof(buf_)) {
        out_->append(s);
        return;
      }
    }
    std::memcpy(buf_ + len_, s.data(), s.size());
    len_ += s.size();
  }
  void AddUint(uint64_t v) {
    const fmt::format_int digits(v);
    Add(std::string_view(digits.data(), digits.size()));
  }
  void AddBytes(uint64_t b) {
    if (b < (1ull << 10)) {
      AddUint(b);
      Add(" B");
      return;
    }
    char buf[48];
    const char* unit = "GiB";
    double scaled = b / double(1ull << 30);
    if (b < (1ull << 20)) {
      unit = "KiB";
      scaled = b / double(1ull << 10);
    } else if (b < (1ull << 30)) {
      unit = "MiB";
      scaled = b / double(1ull << 20);
    }
    const auto end = fmt::format_to_n(buf, sizeof(buf), "{:.2f} {}", scaled, unit);
    Add(std::string_view(buf, std::min(end.size, sizeof(buf))));
  }
  void Flush() {
    out_->append(buf_, len_);
    len_ = 0;
  }

 private:
  std::string* out_;
  char buf_[512];
  size_t len_ = 0;
};

bool IsAscii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// `    {op:<width}  {count:>7}` a line. A graph of module calls has an op a
// node: formatting its lines through a format string was a tenth of
// `graphdiff stats` on it. A log of 10^5 small graphs has a few lines a
// graph: appending each line's padding (a fill append a line) was a sixth
// of writing their stats. So a run of lines is one block of spaces, op and
// digits copied in. fmt pads by display width, which only differs from the
// byte count for non-ASCII text: that is left to fmt.
// With `hand_out`, a run ends at about `kHandOutBytes` and hand_out() is
// called after it (StreamGraphStatsText).
constexpr size_t kHandOutBytes = size_t{1} << 20;
void AppendOpLines(const std::vector<const std::pair<std::string_view, uint64_t>*>& ops,
                   size_t shown, size_t width, std::string* out,
                   const std::function<void()>* hand_out = nullptr) {
  size_t i = 0;
  while (i < shown) {
    // A run of ASCII lines as one block.
    size_t end = i;
    size_t bytes = 0;
    for (; end < shown && IsAscii(ops[end]->first); ++end) {
      if (hand_out != nullptr && bytes >= kHandOutBytes) break;
      const size_t digits = fmt::format_int(ops[end]->second).size();
      bytes += 4 + width + 2 + std::max<size_t>(digits, 7) + 1;
    }
    size_t at = out->size();
    out->append(bytes, ' ');
    char* p = out->data();
    for (; i < end; ++i) {
      const std::string_view op = ops[i]->first;
      const fmt::format_int digits(ops[i]->second);
      const size_t field = std::max<size_t>(digits.size(), 7);
      std::memcpy(p + at + 4, op.data(), op.size());
      at += 4 + width + 2 + field;
      std::memcpy(p + at - digits.size(), digits.data(), digits.size());
      p[at++] = '\n';
    }
    if (i < shown && !IsAscii(ops[i]->first)) {
      fmt::format_to(std::back_inserter(*out), "    {:<{}}  {:>7}\n", ops[i]->first, width,
                     ops[i]->second);
      ++i;
    }
    if (hand_out != nullptr && out->size() >= kHandOutBytes) (*hand_out)();
  }
}

// AppendGraphStatsText of the GraphStats whose source is `source`, whose
// other scalars are `g`'s and whose maps hold `hist` (`g`'s source and maps
// are not read).
// With `hand_out`, `*out` is handed to it, made terminal-safe, whenever a
// MB or so of op lines has piled up (it may clear `*out`).
void AppendStatsText(std::string_view source, const GraphStats& g, const StatsHistograms& hist,
                     size_t top_ops, std::string* out,
                     const std::function<void(std::string*)>* hand_out = nullptr) {
  // Written in place, not through a string a line: a dump of symbolic_trace
  // graphs lists a million module ops, tens of megabytes of report.
  size_t start = out->size();
  {
    Pieces text(out);
    text.Add(source);
    if (!g.name.empty()) {
      text.Add(" [");
      text.Add(g.name);
      text.Add("]");
    }
    if (g.repeat_count > 1) {
      text.Add(" (x");
      text.AddUint(g.repeat_count);
      text.Add(" identical records)");
    }
    text.Add(" (");
    text.Add(GraphKindName(g.kind));
    text.Add(" graph)\n");
    const std::pair<std::string_view, uint64_t> counts[] = {
        {"  nodes ", g.nodes},
        {"  inputs ", g.inputs},
        {"  outputs ", g.outputs},
        {"  constants ", g.constants},
        {"  multi-output ", g.multi_output_nodes}};
    for (const auto& [label, count] : counts) {
      text.Add(label);
      text.AddUint(count);
    }
    text.Add("\n  parameter bytes ");
    text.AddBytes(g.parameter_bytes);
    if (g.inputs_unknown_size) {
      text.Add(" (+");
      text.AddUint(g.inputs_unknown_size);
      text.Add(" inputs of unknown size)");
    }
    text.Add("\n");
    if (!hist.dtypes.empty()) {
      text.Add("  dtypes");
      for (const auto& [dt, n] : hist.dtypes) {
        text.Add("  ");
        text.Add(dt);
        text.Add(" ");
        text.AddUint(n);
      }
      text.Add("\n");
    }
    text.Add("  ops:\n");
  }
  // Most frequent first, then by name, so the eye lands on what dominates.
  // One list a thread, graph after graph: its room stays.
  thread_local std::vector<const std::pair<std::string_view, uint64_t>*> ops;
  ops.clear();
  for (const auto& op : hist.ops) ops.push_back(&op);
  if (ops.size() <= 32) {
    // A small graph's handful of ops: an insertion sort (stable: an entry
    // moves only past smaller counts) without stable_sort's buffer.
    for (size_t i = 1; i < ops.size(); ++i) {
      const auto* x = ops[i];
      size_t j = i;
      for (; j > 0 && ops[j - 1]->second < x->second; --j) ops[j] = ops[j - 1];
      ops[j] = x;
    }
  } else {
    std::stable_sort(ops.begin(), ops.end(),
                     [](const auto* a, const auto* b) { return a->second > b->second; });
  }
  size_t shown = top_ops == 0 ? ops.size() : std::min(top_ops, ops.size());
  size_t width = 0;
  for (size_t i = 0; i < shown; ++i) width = std::max(width, ops[i]->first.size());
  if (hand_out == nullptr) {
    AppendOpLines(ops, shown, width, out);
  } else {
    const std::function<void()> made = [&] {
      MakeTerminalSafeFrom(out, start);
      (*hand_out)(out);
      start = out->size();
    };
    AppendOpLines(ops, shown, width, out, &made);
  }
  if (shown < ops.size()) {
    Pieces text(out);
    text.Add("    ... ");
    text.AddUint(ops.size() - shown);
    text.Add(" more ops\n");
  }
  MakeTerminalSafeFrom(out, start);
}

}  // namespace

void AppendGraphStatsText(const GraphStats& g, size_t top_ops, std::string* out) {
  StatsHistograms hist;
  hist.ops.assign(g.ops.begin(), g.ops.end());
  hist.dtypes.assign(g.dtypes.begin(), g.dtypes.end());
  AppendStatsText(g.source, g, hist, top_ops, out);
}

void AppendGraphStatsText(const Graph& graph, std::string_view source, size_t top_ops,
                          std::string* out) {
  // One per thread, graph after graph: its lists keep their room.
  thread_local StatsHistograms hist;
  GraphStats s;
  ComputeStatsParts(graph, &s, &hist);
  AppendStatsText(source, s, hist, top_ops, out);
}

void StreamGraphStatsText(const Graph& graph, std::string_view source, size_t top_ops,
                          std::string* out, const std::function<void(std::string*)>& hand_out) {
  StatsHistograms hist;
  GraphStats s;
  ComputeStatsParts(graph, &s, &hist);
  AppendStatsText(source, s, hist, top_ops, out, &hand_out);
}

std::string RenderStatsText(const StatsReport& report, size_t top_ops) {
  std::string out;
  for (const GraphStats& g : report.graphs) AppendGraphStatsText(g, top_ops, &out);
  const size_t tail = out.size();
  auto to = std::back_inserter(out);
  for (const MetricsReport& m : report.metrics) {
    fmt::format_to(to, "{} (metrics: {} counters, {} metrics)\n", m.source,
                   m.counters.size(), m.metrics.size());
    std::map<std::string, int64_t> counters;
    for (const Counter& c : m.counters) counters[c.name] = c.value;
    size_t width = 0;
    for (const auto& [name, v] : counters) width = std::max(width, name.size());
    for (const auto& [name, v] : counters) {
      fmt::format_to(to, "    {:<{}}  {:>10}\n", name, width, v);
    }
  }
  for (const auto& [path, reason] : report.skipped) {
    fmt::format_to(to, "{}: skipped: {}\n", path, reason);
  }
  MakeTerminalSafeFrom(&out, tail);
  return out;
}

}  // namespace graphdiff
