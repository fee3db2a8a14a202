// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Model Explorer export (google-ai-edge/model-explorer): each side's graph in
// its graph JSON ({"graphs": [{id, nodes: [{id, label, attrs,
// incomingEdges, outputsMetadata}]}]}), a node-data overlay per side
// (GraphNodeData: results keyed by node id, coloured by change kind) and the
// sync-navigation mapping of its split view (`mapping` one-to-one,
// `mappingEntries` for every matched group, one-to-many where a substitution
// made it). docs/visual.md says how to load them.
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "fmt/format.h"
#include "graphdiff/visual.h"
#include "nlohmann/json.hpp"
#include "report/report_util.h"
#include "report/visual_scene.h"
#include "util/json_text.h"

namespace graphdiff {
namespace {

using visual::Change;
using visual::PairScene;

std::string JsonText(const nlohmann::ordered_json& j) {
  std::string text =
      j.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
  EscapeJsonDel(&text);
  return text;
}

// Node ids: the dump's node name, made unique with "#index" when a graph
// repeats one, so ids mean something to a reader.
std::vector<std::string> NodeIds(const Graph& g) {
  std::map<std::string_view, int> seen;
  for (const Node& n : g.nodes) ++seen[g.str(n.name)];
  std::vector<std::string> ids(g.nodes.size());
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    std::string_view name = g.str(g.nodes[i].name);
    ids[i] = name.empty() || seen[name] > 1 ? fmt::format("{}#{}", name, i) : std::string(name);
  }
  return ids;
}

nlohmann::ordered_json KeyValue(std::string_view key, std::string_view value) {
  return {{"key", key}, {"value", value}};
}

// Node-data values: one number per change kind, so Model Explorer's
// thresholds legend and its aggregated stats count them.
int ChangeValue(const visual::SideScene& sc, uint32_t n) {
  if (sc.output[n] == visual::kOnlyOutput) return 3;
  return static_cast<int>(sc.change[n]);
}

std::string_view ValueColor(int value, int side) {
  if (value == 3) return visual::kOnlyOutputColor;
  return visual::ChangeColor(static_cast<Change>(value), side);
}

nlohmann::ordered_json GraphJson(const PairScene& s, int side, const std::string& graph_id,
                                 const std::vector<std::string>& ids) {
  const visual::SideScene& sc = s.side[side];
  const Graph& g = *sc.graph;
  nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    nlohmann::ordered_json attrs = nlohmann::ordered_json::array();
    attrs.push_back(KeyValue("name", g.str(n.name)));
    attrs.push_back(KeyValue("op", g.str(n.op)));
    attrs.push_back(KeyValue("change", visual::ChangeName(sc.change[i], side)));
    if (sc.output[i] != visual::kNotOutput) {
      attrs.push_back(KeyValue("output", sc.output[i] == visual::kOnlyOutput
                                             ? (side == 0 ? "removed output" : "extra output")
                                             : "output"));
    }
    attrs.push_back(KeyValue("dump", fmt::format("{}:{}", g.source.file, n.line)));
    for (const Attr& a : n.attrs) attrs.push_back(KeyValue(g.str(a.key), g.str(a.value)));
    nlohmann::ordered_json edges = nlohmann::ordered_json::array();
    for (size_t k = 0; k < n.operands.size(); ++k) {
      const ValueRef& v = n.operands[k];
      if (v.node >= g.nodes.size()) continue;
      edges.push_back({{"sourceNodeId", ids[v.node]},
                       {"sourceNodeOutputId", std::to_string(v.output)},
                       {"targetNodeInputId", std::to_string(k)}});
    }
    nlohmann::ordered_json outputs = nlohmann::ordered_json::array();
    for (uint32_t k = 0; k < n.num_results(); ++k) {
      outputs.push_back(
          {{"id", std::to_string(k)},
           {"attrs", nlohmann::ordered_json::array(
                         {KeyValue("tensor_shape", FormatType(g, g.result(n, k)))})}});
    }
    nlohmann::ordered_json node = {{"id", ids[i]},
                                   {"label", visual::NodeLabel(g, i)},
                                   {"namespace", ""},
                                   {"attrs", std::move(attrs)},
                                   {"incomingEdges", std::move(edges)}};
    if (!outputs.empty()) node["outputsMetadata"] = std::move(outputs);
    nodes.push_back(std::move(node));
  }
  nlohmann::ordered_json graph = {{"id", graph_id}, {"nodes", std::move(nodes)}};
  return {{"graphs", nlohmann::ordered_json::array({std::move(graph)})}};
}

nlohmann::ordered_json NodeDataJson(const PairScene& s, int side,
                                    const std::vector<std::string>& ids) {
  const visual::SideScene& sc = s.side[side];
  nlohmann::ordered_json results = nlohmann::ordered_json::object();
  for (uint32_t i = 0; i < sc.change.size(); ++i) {
    int v = ChangeValue(sc, i);
    results[ids[i]] = {{"value", v}, {"bgColor", ValueColor(v, side)}};
  }
  nlohmann::ordered_json thresholds = nlohmann::ordered_json::array();
  for (int v = 0; v <= 3; ++v) thresholds.push_back({{"value", v}, {"bgColor", ValueColor(v, side)}});
  return {{"results", std::move(results)}, {"thresholds", std::move(thresholds)}};
}

// Matched nodes grouped into connected components (a one-to-many
// substitution is one component), so each id appears in one entry as Model
// Explorer asks.
nlohmann::ordered_json MappingJson(const PairScene& s, const std::vector<std::string> ids[2]) {
  size_t nl = s.side[0].change.size();
  size_t nr = s.side[1].change.size();
  std::vector<uint32_t> parent(nl + nr);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (uint32_t l = 0; l < nl; ++l) {
    for (uint32_t r : s.side[0].partners[l]) {
      uint32_t a = find(l);
      uint32_t b = find(static_cast<uint32_t>(nl + r));
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  std::map<uint32_t, std::pair<std::vector<uint32_t>, std::vector<uint32_t>>> groups;
  for (uint32_t l = 0; l < nl; ++l) {
    if (!s.side[0].partners[l].empty()) groups[find(l)].first.push_back(l);
  }
  for (uint32_t r = 0; r < nr; ++r) {
    if (!s.side[1].partners[r].empty()) groups[find(static_cast<uint32_t>(nl + r))].second.push_back(r);
  }
  nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
  nlohmann::ordered_json entries = nlohmann::ordered_json::array();
  for (const auto& [root, members] : groups) {
    const auto& [ls, rs] = members;
    if (ls.size() == 1 && rs.size() == 1) mapping[ids[0][ls[0]]] = ids[1][rs[0]];
    nlohmann::ordered_json left = nlohmann::ordered_json::array();
    nlohmann::ordered_json right = nlohmann::ordered_json::array();
    for (uint32_t l : ls) left.push_back(ids[0][l]);
    for (uint32_t r : rs) right.push_back(ids[1][r]);
    entries.push_back({{"leftNodeIds", std::move(left)}, {"rightNodeIds", std::move(right)}});
  }
  return {{"type", "sync_navigation"},
          {"mapping", std::move(mapping)},
          {"mappingEntries", std::move(entries)},
          {"disableMappingFallback", true}};
}

}  // namespace

absl::StatusOr<std::vector<ReportFile>> RenderModelExplorer(const DiffResult& result,
                                                            const RenderOptions& options) {
  if (options.graphs == nullptr) {
    return absl::InvalidArgumentError(
        "Model Explorer export needs the graphs (RenderOptions::graphs)");
  }
  std::vector<ReportFile> files;
  nlohmann::ordered_json index = nlohmann::ordered_json::array();
  const visual::PairFindings findings(result, options.graphs);
  const std::vector<std::string> labels = report::PairLabels(result);
  for (size_t i = 0; i < result.pairs.size() && i < options.graphs->size(); ++i) {
    const GraphPairDiff& p = result.pairs[i];
    if (p.identical() || !visual::Drawable(p, (*options.graphs)[i])) continue;
    PairScene s = visual::BuildScene(result, i, (*options.graphs)[i], findings, 0);
    std::vector<std::string> ids[2] = {NodeIds(*s.side[0].graph), NodeIds(*s.side[1].graph)};
    std::string stem = fmt::format("pair{}", i);
    nlohmann::ordered_json entry = {{"pair", labels[i]}};
    for (int side = 0; side < 2; ++side) {
      const char* name = side == 0 ? "left" : "right";
      std::string graph_id = fmt::format("{}: {}", name, side == 0 ? p.left_source : p.right_source);
      std::string graph_file = fmt::format("{}.{}.json", stem, name);
      std::string data_file = fmt::format("{}.{}.nodedata.json", stem, name);
      files.push_back({graph_file, JsonText(GraphJson(s, side, graph_id, ids[side]))});
      files.push_back({data_file, JsonText(NodeDataJson(s, side, ids[side]))});
      entry[name] = {{"graph", graph_file}, {"graphId", graph_id}, {"nodeData", data_file}};
    }
    std::string mapping_file = stem + ".mapping.json";
    files.push_back({mapping_file, JsonText(MappingJson(s, ids))});
    entry["mapping"] = mapping_file;
    index.push_back(std::move(entry));
  }
  nlohmann::ordered_json doc = {
      {"generator", "graphdiff"},
      {"verdict", report::VerdictHead(result)},
      {"legend", {{"0", "same"}, {"1", "changed"}, {"2", "removed (left) / added (right)"},
                  {"3", "output only on this side"}}},
      {"pairs", std::move(index)}};
  files.push_back({"index.json", JsonText(doc)});
  return files;
}

}  // namespace graphdiff
