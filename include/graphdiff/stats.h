// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// GraphStats: the size facts of one graph (node count, op histogram, inputs,
// outputs, dtype totals, parameter bytes) — what `graphdiff stats` prints and
// what a CI size gate compares.
#ifndef GRAPHDIFF_STATS_H_
#define GRAPHDIFF_STATS_H_

#include "graphdiff/export.h"
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graphdiff/graph.h"
#include "graphdiff/metrics.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// Size facts of one graph. `nodes` counts operations and inputs as the dump
// lists them: IR every `%N` line; FX every placeholder and every assignment
// that is not a projection, alias or attribute fetch (get_attr nodes are not
// counted); HLO every instruction of the entry computation.
struct GraphStats {
  std::string source;  // GraphSource::file
  std::string name;
  GraphKind kind = GraphKind::kIr;
  uint32_t record_index = 0;
  uint32_t repeat_count = 1;
  uint64_t nodes = 0;
  uint64_t inputs = 0;
  uint64_t outputs = 0;
  uint64_t constants = 0;
  uint64_t multi_output_nodes = 0;  // nodes with more than one result
  std::map<std::string, uint64_t> ops;     // canonical op -> count
  std::map<std::string, uint64_t> dtypes;  // dtype of every result -> count
  // Bytes of graph inputs (parameters, buffers, data) whose shapes are known;
  // inputs_unknown_size counts those left out.
  uint64_t parameter_bytes = 0;
  uint64_t inputs_unknown_size = 0;
};

GraphStats ComputeStats(const Graph& graph);

// What `graphdiff stats` reports over one or more dumps.
struct StatsReport {
  std::vector<GraphStats> graphs;
  std::vector<MetricsReport> metrics;
  std::vector<std::pair<std::string, std::string>> skipped;  // (path, reason)
};

// The documented stats JSON (docs/json-schema.md):
// {"schema_version": 1, "graphs": [{"source", "name", "kind", "nodes",
//  "inputs", "outputs", "ops": {...}, ...}], "metrics": [{"source",
//  "counters": {...}, "metrics": {...}}], "skipped": [...]}
// Pretty-printed, with a trailing newline.
std::string StatsToJson(const StatsReport& report);

// StatsToJson a graph at a time, for a report too big to hold at once:
// construct, AddGraph each graph, then Finish with the metrics and skipped
// files (and any graphs left). The text goes to `*out`, which the caller may
// hand out and clear between calls; all of it together is StatsToJson's
// bytes for the same graphs, metrics and skipped files.
class StatsJsonWriter {
 public:
  explicit StatsJsonWriter(std::string* out);
  StatsJsonWriter(const StatsJsonWriter&) = delete;
  StatsJsonWriter& operator=(const StatsJsonWriter&) = delete;

  void AddGraph(const GraphStats& graph);
  // AddGraph of ComputeStats(graph) with its source set to `source`, the
  // same bytes, without building the stats' maps.
  void AddGraph(const Graph& graph, std::string_view source);
  // For graphs whose text is made elsewhere (on other threads, while a dump
  // loads) and added later in order: AppendGraphText appends what
  // AddGraph(graph, source) adds, always led by the separator that follows
  // a graph (","), to `*text`, and sets `*escaped` when a string was not
  // valid UTF-8. AddGraphText adds such text of `count` graphs: the same
  // bytes as AddGraph of each.
  static void AppendGraphText(const Graph& graph, std::string_view source, std::string* text,
                              bool* escaped);
  void AddGraphText(std::string_view text, size_t count, bool escaped);
  void Finish(const StatsReport& rest);

 private:
  std::string* out_;
  size_t graphs_ = 0;
  bool escaped_ = false;  // some string was not valid UTF-8 (see DumpJson)
};
// Human-readable text; `top_ops` caps the op histogram per graph (0 = all).
std::string RenderStatsText(const StatsReport& report, size_t top_ops = 0);
// RenderStatsText a graph at a time, for a report too big to hold at once (a
// log of 10^5 graphs, a graph of a million module ops): appends one graph's
// text to `*out`, made terminal-safe. The graphs' pieces in order, then
// RenderStatsText of a report holding only the metrics and skipped files,
// are RenderStatsText's bytes.
void AppendGraphStatsText(const GraphStats& graph, size_t top_ops, std::string* out);
// AppendGraphStatsText of ComputeStats(graph) with its source set to
// `source`, the same bytes, without building the stats' maps: for a report
// of 10^5 small graphs, where building and freeing them was a third of the
// cost of writing the stats.
void AppendGraphStatsText(const Graph& graph, std::string_view source, size_t top_ops,
                          std::string* out);
// AppendGraphStatsText(graph, source, top_ops, out) that hands `*out` to
// `hand_out` (which may write and clear it) whenever about a MB of the
// graph's op lines has piled up there: the text of a graph of a million
// module calls is tens of MB, fresh memory when made at once. What
// hand_out is given, and what is left in `*out` after the call, are in
// order the same bytes.
void StreamGraphStatsText(const Graph& graph, std::string_view source, size_t top_ops,
                          std::string* out, const std::function<void(std::string*)>& hand_out);

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_STATS_H_
