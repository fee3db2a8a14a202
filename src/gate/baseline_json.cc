// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The baseline file (docs/gate.md): graphs with their size facts, op
// histogram and findings; metrics reports with their counters; dump-wide
// findings. Values are grouped by prefix so the file reads like `stats`.
#include <limits>
#include <string>

#include "fmt/format.h"
#include "gate/gate_util.h"
#include "graphdiff/gate.h"
#include "graphdiff/version.h"
#include "util/json_text.h"

namespace graphdiff {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kScalars[] = {"nodes", "inputs", "outputs", "constants",
                                    "parameter_bytes"};

bool IsScalar(std::string_view name) {
  for (const char* s : kScalars) {
    if (name == s) return true;
  }
  return false;
}

// Values whose name starts with `prefix`, without it, as a JSON object.
// The names are a map's keys with one prefix cut, so each is new: see
// AppendNewKey.
Json Prefixed(const GateUnit& u, std::string_view prefix) {
  Json out = Json::object();
  for (const auto& [name, v] : u.values) {
    if (name.compare(0, prefix.size(), prefix) == 0) {
      AppendNewKey(out, name.substr(prefix.size()), v);
    }
  }
  return out;
}

struct Reader {
  std::string_view source;
  absl::Status error;

  bool Fail(const std::string& where, const std::string& what) {
    if (error.ok()) {
      error = absl::InvalidArgumentError(fmt::format("{}: {}: {}", source, where, what));
    }
    return false;
  }
  bool String(const Json& j, const char* key, const std::string& where, std::string* out,
              bool required) {
    auto it = j.find(key);
    if (it == j.end()) return !required || Fail(where, fmt::format("missing \"{}\"", key));
    if (!it->is_string()) return Fail(where, fmt::format("\"{}\" must be a string", key));
    *out = it->get<std::string>();
    return true;
  }
  bool Int(const Json& v, const std::string& where, int64_t* out) {
    if (!v.is_number_integer()) return Fail(where, "must be an integer");
    if (v.is_number_unsigned() &&
        v.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Fail(where, "is out of range (at most 9223372036854775807)");
    }
    *out = v.get<int64_t>();
    return true;
  }
  bool Counts(const Json& j, const char* key, std::string_view prefix,
              const std::string& where, GateUnit* u) {
    auto it = j.find(key);
    if (it == j.end()) return true;
    if (!it->is_object()) return Fail(where, fmt::format("\"{}\" must be an object", key));
    for (const auto& [name, v] : it->items()) {
      int64_t n = 0;
      if (!Int(v, fmt::format("{}.{}[\"{}\"]", where, key, name), &n)) return false;
      u->values[std::string(prefix) + name] = n;
    }
    return true;
  }
};

}  // namespace

std::string BaselineToJson(const Baseline& b) {
  Json out;
  out["schema"] = "graphdiff-baseline";
  out["schema_version"] = Baseline::kSchemaVersion;
  out["created_by"] = fmt::format("graphdiff {}", Version());
  out["dump"] = b.dump;
  out["graphs"] = Json::array();
  out["metrics"] = Json::array();
  out["findings"] = Json::object();
  for (const GateUnit& u : b.units) {
    if (u.kind == GateUnitKind::kDump) {
      out["findings"] = Prefixed(u, "finding:");
      continue;
    }
    Json j;
    j["key"] = u.key;
    j["file"] = u.file;
    if (u.kind == GateUnitKind::kGraph) {
      j["name"] = u.name;
      j["frame"] = u.frame;
      j["kind"] = u.graph_kind;
      j["record_index"] = u.record_index;
      j["fingerprint"] = u.fingerprint;
      for (const char* s : kScalars) {
        auto it = u.values.find(s);
        if (it != u.values.end()) j[s] = it->second;
      }
      j["ops"] = Prefixed(u, "op:");
      j["findings"] = Prefixed(u, "finding:");
      if (u.partial) j["partial"] = true;
      // Last: long, and only `check` reads it (to explain a failure).
      if (!u.structure.empty()) j["structure"] = u.structure;
      out["graphs"].push_back(std::move(j));
    } else {
      j["record_index"] = u.record_index;
      j["counters"] = Prefixed(u, "counter:");
      j["findings"] = Prefixed(u, "finding:");
      out["metrics"].push_back(std::move(j));
    }
  }
  return DumpJson(out);
}

absl::StatusOr<Baseline> ParseBaseline(std::string_view text, std::string_view source) {
  absl::StatusOr<Json> parsed = gate_internal::ParseJsonText(text, source);
  if (!parsed.ok()) return parsed.status();
  const Json& j = *parsed;
  Reader r{source, absl::OkStatus()};
  if (!j.is_object()) {
    r.Fail("top level", "expected a JSON object (a graphdiff baseline)");
    return r.error;
  }
  auto schema = j.find("schema");
  if (schema == j.end() || *schema != "graphdiff-baseline") {
    r.Fail("top level",
           "not a graphdiff baseline (\"schema\" is not \"graphdiff-baseline\"); "
           "write one with `graphdiff snapshot DUMP -o FILE`");
    return r.error;
  }
  auto version = j.find("schema_version");
  if (version == j.end() || !version->is_number_integer() ||
      version->get<int64_t>() < 1 || version->get<int64_t>() > Baseline::kSchemaVersion) {
    r.Fail("\"schema_version\"",
           fmt::format("unsupported; this graphdiff reads version {}", Baseline::kSchemaVersion));
    return r.error;
  }
  Baseline b;
  if (!r.String(j, "dump", "top level", &b.dump, false)) return r.error;
  for (const char* section : {"graphs", "metrics"}) {
    auto it = j.find(section);
    if (it == j.end()) continue;
    if (!it->is_array()) {
      r.Fail(fmt::format("\"{}\"", section), "must be an array");
      return r.error;
    }
    bool graphs = std::string_view(section) == "graphs";
    for (size_t i = 0; i < it->size(); ++i) {
      const Json& e = (*it)[i];
      std::string where = fmt::format("{}[{}]", section, i);
      if (!e.is_object()) {
        r.Fail(where, "must be an object");
        return r.error;
      }
      GateUnit u;
      u.kind = graphs ? GateUnitKind::kGraph : GateUnitKind::kMetrics;
      if (!r.String(e, "key", where, &u.key, true) ||
          !r.String(e, "file", where, &u.file, false)) {
        return r.error;
      }
      if (auto ri = e.find("record_index"); ri != e.end()) {
        int64_t n = 0;
        if (!r.Int(*ri, where + ".record_index", &n)) return r.error;
        u.record_index = static_cast<uint32_t>(n);
      }
      if (graphs) {
        if (!r.String(e, "name", where, &u.name, false) ||
            !r.String(e, "frame", where, &u.frame, false) ||
            !r.String(e, "kind", where, &u.graph_kind, false) ||
            !r.String(e, "fingerprint", where, &u.fingerprint, false) ||
            !r.String(e, "structure", where, &u.structure, false)) {
          return r.error;
        }
        if (auto partial = e.find("partial"); partial != e.end()) {
          if (!partial->is_boolean()) {
            r.Fail(where + ".partial", "must be true or false");
            return r.error;
          }
          u.partial = partial->get<bool>();
        }
        for (const auto& [name, v] : e.items()) {
          if (!IsScalar(name)) continue;
          int64_t n = 0;
          if (!r.Int(v, fmt::format("{}.{}", where, name), &n)) return r.error;
          u.values[name] = n;
        }
        if (!r.Counts(e, "ops", "op:", where, &u) ||
            !r.Counts(e, "findings", "finding:", where, &u)) {
          return r.error;
        }
      } else if (!r.Counts(e, "counters", "counter:", where, &u) ||
                 !r.Counts(e, "findings", "finding:", where, &u)) {
        return r.error;
      }
      b.units.push_back(std::move(u));
    }
  }
  GateUnit dump_unit;
  dump_unit.kind = GateUnitKind::kDump;
  dump_unit.key = "(dump)";
  if (!r.Counts(j, "findings", "finding:", "top level", &dump_unit)) return r.error;
  if (!dump_unit.values.empty()) b.units.push_back(std::move(dump_unit));
  return b;
}

}  // namespace graphdiff
