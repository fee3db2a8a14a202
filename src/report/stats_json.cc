// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <string_view>

#include "fmt/format.h"
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

// Printable ASCII without a quote or a backslash: text nlohmann's dump
// prints between quotes as it is.
bool IsPlain(std::string_view s) {
  for (char c : s) {
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
  }
  return true;
}

template <typename Histogram>
bool AllPlain(const Histogram& h) {
  for (const auto& entry : h) {
    if (!IsPlain(entry.first)) return false;
  }
  return true;
}

// GraphJson(graph) as AppendJsonAt prints it at depth 2, written directly
// when every string in it is plain (else false, nothing written). Building
// an ordered_json a graph to print it was two thirds of `stats --format
// json` of a save file of 10^5 small records.
template <typename Histogram>
bool AppendPlainGraph(std::string_view source, const GraphStats& g, const Histogram& ops,
                      const Histogram& dtypes, std::string* out) {
  const std::string_view kind = GraphKindName(g.kind);
  if (!IsPlain(source) || !IsPlain(g.name) || !IsPlain(kind) || !AllPlain(ops) ||
      !AllPlain(dtypes)) {
    return false;
  }
  auto to = std::back_inserter(*out);
  fmt::format_to(to,
                 "{{\n      \"source\": \"{}\",\n      \"name\": \"{}\",\n      \"kind\": \"{}\",\n"
                 "      \"record_index\": {},\n      \"repeat_count\": {},\n"
                 "      \"nodes\": {},\n      \"inputs\": {},\n      \"outputs\": {},\n"
                 "      \"constants\": {},\n      \"multi_output_nodes\": {},\n"
                 "      \"parameter_bytes\": {},\n      \"inputs_unknown_size\": {},\n",
                 source, g.name, kind, g.record_index, g.repeat_count, g.nodes, g.inputs,
                 g.outputs, g.constants, g.multi_output_nodes, g.parameter_bytes,
                 g.inputs_unknown_size);
  auto object = [&](std::string_view key, const Histogram& h, std::string_view after) {
    fmt::format_to(to, "      \"{}\": ", key);
    if (h.empty()) {
      *out += "{}";
    } else {
      bool first = true;
      for (const auto& [name, n] : h) {
        fmt::format_to(to, "{}        \"{}\": {}", first ? "{\n" : ",\n", name, n);
        first = false;
      }
      *out += "\n      }";
    }
    *out += after;
  };
  object("ops", ops, ",\n");
  object("dtypes", dtypes, "\n    }");
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
  if (AppendPlainGraph(graph.source, graph, graph.ops, graph.dtypes, out_)) return;
  AppendJsonAt(GraphJson(graph), 2, out_, &escaped_);
}

void StatsJsonWriter::AddGraph(const Graph& graph, std::string_view source) {
  // One per thread, graph after graph: its lists keep their room.
  thread_local StatsHistograms hist;
  GraphStats s;
  ComputeStatsParts(graph, &s, &hist);
  const size_t at = out_->size();
  *out_ += graphs_ == 0 ? "\n    " : ",\n    ";
  if (AppendPlainGraph(source, s, hist.ops, hist.dtypes, out_)) {
    ++graphs_;
    return;
  }
  out_->resize(at);
  s = ComputeStats(graph);
  s.source = std::string(source);
  AddGraph(s);
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
