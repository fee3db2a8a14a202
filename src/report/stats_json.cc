// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/stats.h"
#include "nlohmann/json.hpp"
#include "util/json_text.h"

namespace graphdiff {

namespace {

nlohmann::ordered_json StatsToJsonValue(const StatsReport& report) {
  nlohmann::ordered_json out;
  out["schema_version"] = 1;
  out["graphs"] = nlohmann::ordered_json::array();
  for (const GraphStats& g : report.graphs) {
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
    out["graphs"].push_back(std::move(j));
  }
  out["metrics"] = nlohmann::ordered_json::array();
  for (const MetricsReport& m : report.metrics) {
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
    out["metrics"].push_back(std::move(j));
  }
  out["skipped"] = nlohmann::ordered_json::array();
  for (const auto& [path, reason] : report.skipped) {
    out["skipped"].push_back({{"path", path}, {"reason", reason}});
  }
  return out;
}

}  // namespace

std::string StatsToJson(const StatsReport& report) { return DumpJson(StatsToJsonValue(report)); }

}  // namespace graphdiff
