// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

#include "fmt/format.h"
#include "gate/finding_map.h"
#include "load/entry_path.h"
#include "graphdiff/gate.h"
#include "graphdiff/stats.h"
#include "util/checked.h"
#include "graphdiff/sanitize.h"

namespace graphdiff {
namespace {

// FNV-1a: stable across platforms and runs, unlike std::hash.
struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void Add(std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
    h ^= 0xff;  // separator, so ("ab","c") != ("a","bc")
    h *= 1099511628211ull;
  }
};

std::string Fingerprint(const GraphStats& s) {
  Fnv f;
  f.Add(GraphKindName(s.kind));
  for (const auto& [op, n] : s.ops) {
    f.Add(op);
    f.Add(std::to_string(n));
  }
  f.Add(std::to_string(s.outputs));
  return fmt::format("{:016x}", f.h);
}

std::string GraphKey(const DumpFile& file, size_t index, const Graph& g) {
  std::string key = NormalizeUnitPath(file.path);
  if (file.graphs.size() > 1) key += fmt::format("#{}", index);
  if (!g.name.empty()) key += ":" + g.name;
  if (!g.source.frames.empty()) key.append("@").append(g.source.frames.front());
  return key;
}

GateUnit GraphUnit(const DumpFile& file, size_t index, const Graph& g) {
  GraphStats s = ComputeStats(g);
  GateUnit u;
  u.kind = GateUnitKind::kGraph;
  u.key = GraphKey(file, index, g);
  u.file = NormalizeUnitPath(file.path);
  u.structure = EncodeGraph(g);
  u.partial = g.partial;
  u.name = g.name;
  if (!g.source.frames.empty()) u.frame = std::string(g.source.frames.front());
  u.graph_kind = std::string(GraphKindName(g.kind));
  u.record_index = g.source.record_index;
  u.source = g.source.file;
  u.fingerprint = Fingerprint(s);
  u.values["nodes"] = ClampToInt64(s.nodes);
  u.values["inputs"] = ClampToInt64(s.inputs);
  u.values["outputs"] = ClampToInt64(s.outputs);
  u.values["constants"] = ClampToInt64(s.constants);
  u.values["parameter_bytes"] = ClampToInt64(s.parameter_bytes);
  for (const auto& [op, n] : s.ops) u.values["op:" + op] = ClampToInt64(n);
  return u;
}

GateUnit MetricsUnit(const DumpFile& file, size_t index, const MetricsReport& m) {
  GateUnit u;
  u.kind = GateUnitKind::kMetrics;
  std::string path = NormalizeUnitPath(file.path);
  u.key = file.metrics.size() > 1 ? fmt::format("{}#{}", path, index) : path;
  u.file = path;
  u.record_index = static_cast<uint32_t>(index);
  u.source = m.source;
  // A later duplicate overrides an earlier one, as in the report itself.
  for (const Counter& c : m.counters) u.values["counter:" + c.name] = c.value;
  return u;
}

}  // namespace

std::string NormalizeUnitPath(std::string_view path) {
  return NormalizeRunStamps(path, /*fold_ranks=*/true);
}

std::string_view GateUnitKindName(GateUnitKind kind) {
  switch (kind) {
    case GateUnitKind::kGraph: return "graph";
    case GateUnitKind::kMetrics: return "metrics";
    case GateUnitKind::kDump: return "dump";
  }
  return "graph";
}

int64_t GateUnit::value(std::string_view metric) const {
  auto it = values.find(std::string(metric));
  return it == values.end() ? 0 : it->second;
}

bool operator==(const GateUnit& a, const GateUnit& b) {
  return a.kind == b.kind && a.key == b.key && a.file == b.file && a.name == b.name &&
         a.frame == b.frame && a.graph_kind == b.graph_kind &&
         a.record_index == b.record_index && a.fingerprint == b.fingerprint &&
         a.values == b.values && a.structure == b.structure && a.partial == b.partial;
}

bool operator==(const Baseline& a, const Baseline& b) {
  return a.dump == b.dump && a.units == b.units;
}

Baseline SnapshotDump(const Dump& dump, const std::vector<Finding>& findings) {
  Baseline b;
  b.dump = dump.root;
  for (const DumpFile& f : dump.files) {
    for (size_t i = 0; i < f.graphs.size(); ++i) b.units.push_back(GraphUnit(f, i, f.graphs[i]));
  }
  for (const DumpFile& f : dump.files) {
    for (size_t i = 0; i < f.metrics.size(); ++i) {
      b.units.push_back(MetricsUnit(f, i, f.metrics[i]));
    }
  }
  // Normalised paths can collide (rank_0 and rank_1 are both rank_*): the
  // later units get `~2`, `~3` in dump order, which is stable run to run.
  std::map<std::pair<GateUnitKind, std::string>, int> seen;
  for (GateUnit& u : b.units) {
    int n = ++seen[{u.kind, u.key}];
    if (n > 1) u.key += fmt::format("~{}", n);
  }
  GateUnit dump_unit;
  dump_unit.kind = GateUnitKind::kDump;
  dump_unit.key = "(dump)";
  for (const Finding& finding : findings) {
    if (finding.id == "size-facts" || finding.id == "size-delta") continue;
    size_t i = gate_internal::UnitForFinding(b.units, finding);
    GateUnit& u = i < b.units.size() ? b.units[i] : dump_unit;
    // A finding with no count still happened once.
    int64_t& n = u.values["finding:" + finding.id];
    n = SaturatingAdd(n, static_cast<int64_t>(std::max<int64_t>(finding.count, 1)));
  }
  if (!dump_unit.values.empty()) b.units.push_back(std::move(dump_unit));
  // A baseline is JSON, which holds only valid UTF-8: names are stored as
  // they will read back, so checking a dump against its own baseline finds
  // nothing whatever bytes its names hold.
  b.dump = ValidUtf8(b.dump);
  for (GateUnit& u : b.units) {
    for (std::string* s : {&u.key, &u.file, &u.name, &u.frame}) *s = ValidUtf8(*s);
    std::map<std::string, int64_t> values;
    for (const auto& [metric, n] : u.values) {
      int64_t& v = values[ValidUtf8(metric)];
      v = SaturatingAdd(v, n);
    }
    u.values = std::move(values);
  }
  return b;
}

}  // namespace graphdiff
