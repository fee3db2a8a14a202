// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <iterator>
#include <string_view>
#include <utility>

#include "fmt/format.h"
#include "graphdiff/sanitize.h"
#include "graphdiff/stats.h"
#include "model/stats_parts.h"
#include "nlohmann/json.hpp"
#include "util/json_text.h"

namespace graphdiff {

namespace {

nlohmann::ordered_json GraphJson(const GraphStats& g) {
  nlohmann::ordered_json j;
  j["source"] = g.source;
  j["name"] = g.name;
  j["kind"] = std::string(GraphKindName(g.kind));
  j["record_index"] = g.record_index;
  j["repeat_count"] = g.repeat_count;
  j["nodes"] = g.nodes;
  j["inputs"] = g.inputs;
  j["outputs"] = g.outputs;
  j["constants"] = g.constants;
  j["multi_output_nodes"] = g.multi_output_nodes;
  j["parameter_bytes"] = g.parameter_bytes;
  j["inputs_unknown_size"] = g.inputs_unknown_size;
  // Keys of a std::map, so new ones: see AppendNewKey.
  nlohmann::ordered_json& ops = j["ops"] = nlohmann::ordered_json::object();
  for (const auto& [op, n] : g.ops) AppendNewKey(ops, op, n);
  nlohmann::ordered_json& dtypes = j["dtypes"] = nlohmann::ordered_json::object();
  for (const auto& [dt, n] : g.dtypes) AppendNewKey(dtypes, dt, n);
  return j;
}

template <typename Histogram>
bool AllValidUtf8(const Histogram& h) {
  for (const auto& entry : h) {
    if (!IsValidUtf8(entry.first)) return false;
  }
  return true;
}

// GraphJson(graph) as AppendJsonAt prints it at depth 2, written directly
// when every string in it is valid UTF-8 (else false, nothing written).
// Building an ordered_json a graph to print it was two thirds of `stats
// --format json` of a save file of 10^5 small records.
template <typename Histogram>
bool AppendGraphDirectly(std::string_view source, const GraphStats& g, const Histogram& ops,
                         const Histogram& dtypes, std::string* out) {
  if (!IsValidUtf8(source) || !IsValidUtf8(g.name) || !AllValidUtf8(ops) ||
      !AllValidUtf8(dtypes)) {
    return false;
  }
  auto key = [&](std::string_view name) { AppendJsonKey(name, 6, out); };
  auto text = [&](std::string_view name, std::string_view value) {
    key(name);
    AppendJsonString(value, out);
    out->push_back(',');
  };
  out->push_back('{');
  text("source", source);
  text("name", g.name);
  text("kind", GraphKindName(g.kind));
  const std::pair<std::string_view, uint64_t> numbers[] = {
      {"record_index", g.record_index},
      {"repeat_count", g.repeat_count},
      {"nodes", g.nodes},
      {"inputs", g.inputs},
      {"outputs", g.outputs},
      {"constants", g.constants},
      {"multi_output_nodes", g.multi_output_nodes},
      {"parameter_bytes", g.parameter_bytes},
      {"inputs_unknown_size", g.inputs_unknown_size}};
  auto to = std::back_inserter(*out);
  for (const auto& [name, value] : numbers) {
    key(name);
    fmt::format_to(to, "{},", value);
  }
  key("ops");
  AppendJsonCounts(ops, 6, out);
  out->push_back(',');
  key("dtypes");
  AppendJsonCounts(dtypes, 6, out);
  out->append("\n    }");
  return true;
}

nlohmann::ordered_json MetricsJson(const MetricsReport& m) {
  nlohmann::ordered_json j;
  j["source"] = m.source;
  // Sorted by name; a later duplicate overrides an earlier one, as in the report.
  std::map<std::string, int64_t> counters;
  for (const Counter& c : m.counters) counters[c.name] = c.value;
  nlohmann::ordered_json& counters_json = j["counters"] = nlohmann::ordered_json::object();
  for (const auto& [name, v] : counters) AppendNewKey(counters_json, name, v);
  std::map<std::string, const Metric*> metrics;
  for (const Metric& x : m.metrics) metrics[x.name] = &x;
  nlohmann::ordered_json& metrics_json = j["metrics"] = nlohmann::ordered_json::object();
  for (const auto& [name, x] : metrics) {
    nlohmann::ordered_json mj;
    mj["unit"] = std::string(MetricUnitName(x->unit));
    mj["total_samples"] = x->total_samples;
    mj["accumulator"] = x->accumulator;
    if (x->mean) mj["mean"] = *x->mean;
    if (!x->percentiles.empty()) {
      nlohmann::ordered_json p = nlohmann::ordered_json::object();
      for (const auto& [pct, v] : x->percentiles) {
        p[nlohmann::ordered_json(pct).dump()] = v;
      }
      mj["percentiles"] = std::move(p);
    }
    AppendNewKey(metrics_json, name, std::move(mj));
  }
  return j;
}

}  // namespace

// The document is written by hand around the values nlohmann prints, as
// DumpJson would print the whole: `{`, the schema version, the graphs one by
// one, then the metrics, the skipped files and `}`.
StatsJsonWriter::StatsJsonWriter(std::string* out) : out_(out) {
  *out_ += "{\n  \"schema_version\": 1,\n  \"graphs\": [";
}

void StatsJsonWriter::AddGraph(const GraphStats& graph) {
  *out_ += graphs_++ == 0 ? "\n    " : ",\n    ";
  if (AppendGraphDirectly(graph.source, graph, graph.ops, graph.dtypes, out_)) return;
  AppendJsonAt(GraphJson(graph), 2, out_, &escaped_);
}

void StatsJsonWriter::AddGraph(const Graph& graph, std::string_view source) {
  const size_t at = out_->size();
  AppendGraphText(graph, source, out_, &escaped_);
  if (graphs_++ == 0) out_->erase(at, 1);  // no comma before the first graph
}

void StatsJsonWriter::AppendGraphText(const Graph& graph, std::string_view source,
                                      std::string* text, bool* escaped) {
  // One per thread, graph after graph: its lists keep their room.
  thread_local StatsHistograms hist;
  GraphStats s;
  ComputeStatsParts(graph, &s, &hist);
  const size_t at = text->size();
  *text += ",\n    ";
  if (AppendGraphDirectly(source, s, hist.ops, hist.dtypes, text)) return;
  text->resize(at + 6);
  s = ComputeStats(graph);
  s.source = std::string(source);
  if (AppendGraphDirectly(s.source, s, s.ops, s.dtypes, text)) return;
  AppendJsonAt(GraphJson(s), 2, text, escaped);
}

void StatsJsonWriter::AddGraphText(std::string_view text, size_t count, bool escaped) {
  if (count == 0) return;
  if (graphs_ == 0) text.remove_prefix(1);  // no comma before the first graph
  *out_ += text;
  graphs_ += count;
  escaped_ = escaped_ || escaped;
}

void StatsJsonWriter::Finish(const StatsReport& rest) {
  for (const GraphStats& g : rest.graphs) AddGraph(g);
  *out_ += graphs_ == 0 ? "],\n  \"metrics\": " : "\n  ],\n  \"metrics\": ";
  nlohmann::ordered_json metrics = nlohmann::ordered_json::array();
  for (const MetricsReport& m : rest.metrics) metrics.push_back(MetricsJson(m));
  AppendJsonAt(metrics, 1, out_, &escaped_);
  *out_ += ",\n  \"skipped\": ";
  nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
  for (const auto& [path, reason] : rest.skipped) {
    skipped.push_back({{"path", path}, {"reason", reason}});
  }
  AppendJsonAt(skipped, 1, out_, &escaped_);
  if (escaped_) *out_ += ",\n  \"escaped_invalid_utf8\": true";
  *out_ += "\n}\n";
}

std::string StatsToJson(const StatsReport& report) {
  std::string out;
  StatsJsonWriter writer(&out);
  writer.Finish(report);
  return out;
}

}  // namespace graphdiff
