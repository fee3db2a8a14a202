// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Reads the diff JSON back into structs. Derived values (summary counts,
// verdicts) are recomputed from the data, not read, so a document can only
// round-trip if the structs carry everything the schema does.
#include <string>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/report.h"
#include "nlohmann/json.hpp"
#include "report/formats.h"
#include "util/json_text.h"

namespace graphdiff {
namespace {

using json = nlohmann::json;

absl::Status Bad(std::string_view where, std::string_view what) {
  return absl::InvalidArgumentError(fmt::format("diff JSON: {}: {}", where, what));
}

const json* Field(const json& obj, const char* key) {
  if (!obj.is_object()) return nullptr;
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

absl::Status ReadString(const json& obj, const char* key, std::string* out) {
  const json* v = Field(obj, key);
  if (!v || !v->is_string()) return Bad(key, "expected a string");
  *out = v->get<std::string>();
  return absl::OkStatus();
}

template <typename T>
absl::Status ReadInt(const json& obj, const char* key, T* out) {
  const json* v = Field(obj, key);
  if (!v || !v->is_number_integer()) return Bad(key, "expected an integer");
  *out = v->get<T>();
  return absl::OkStatus();
}

absl::Status ReadStrings(const json& obj, const char* key, std::vector<std::string>* out) {
  const json* v = Field(obj, key);
  if (!v || !v->is_array()) return Bad(key, "expected a list of strings");
  for (const json& s : *v) {
    if (!s.is_string()) return Bad(key, "expected a list of strings");
    out->push_back(s.get<std::string>());
  }
  return absl::OkStatus();
}

// A closed set spelled as a string: one of the names `parse` accepts.
template <typename E>
absl::Status ReadEnum(const json& obj, const char* key, bool (*parse)(std::string_view, E*),
                      E* out) {
  std::string name;
  absl::Status st = ReadString(obj, key, &name);
  if (!st.ok()) return st;
  if (!parse(name, out)) return Bad(key, fmt::format("unknown value \"{}\"", name));
  return absl::OkStatus();
}

// Keys added after schema 1 was published: absent in older documents.
template <typename T>
absl::Status ReadOptionalInt(const json& obj, const char* key, T* out) {
  if (!Field(obj, key)) return absl::OkStatus();
  return ReadInt(obj, key, out);
}

absl::Status ReadOptionalBool(const json& obj, const char* key, bool* out) {
  const json* v = Field(obj, key);
  if (!v) return absl::OkStatus();
  if (!v->is_boolean()) return Bad(key, "expected true or false");
  *out = v->get<bool>();
  return absl::OkStatus();
}

const json* Array(const json& obj, const char* key) {
  const json* v = Field(obj, key);
  return v && v->is_array() ? v : nullptr;
}

#define GD_RETURN_IF_ERROR(expr)          \
  do {                                    \
    absl::Status _st = (expr);            \
    if (!_st.ok()) return _st;            \
  } while (0)

absl::StatusOr<uint32_t> ReasonBits(const std::vector<std::string>& names) {
  uint32_t bits = 0;
  for (const std::string& name : names) {
    bool found = false;
    for (uint32_t bit = 1; bit != 0 && bit <= (1u << 16); bit <<= 1) {
      std::vector<std::string> n = ChangeReasonNames(bit);
      if (n.size() == 1 && n[0] == name) {
        bits |= bit;
        found = true;
        break;
      }
    }
    if (!found) return Bad("reasons", fmt::format("unknown reason \"{}\"", name));
  }
  return bits;
}

absl::StatusOr<GraphKind> ReadKind(const json& obj) {
  std::string kind;
  GD_RETURN_IF_ERROR(ReadString(obj, "kind", &kind));
  for (GraphKind k : {GraphKind::kIr, GraphKind::kFx, GraphKind::kHlo}) {
    if (GraphKindName(k) == kind) return k;
  }
  return Bad("kind", fmt::format("unknown graph kind \"{}\"", kind));
}

absl::Status ReadPair(const json& j, GraphPairDiff* p) {
  GD_RETURN_IF_ERROR(ReadString(j, "left_source", &p->left_source));
  GD_RETURN_IF_ERROR(ReadString(j, "right_source", &p->right_source));
  GD_RETURN_IF_ERROR(ReadString(j, "left_graph", &p->left_graph));
  GD_RETURN_IF_ERROR(ReadString(j, "right_graph", &p->right_graph));
  GD_RETURN_IF_ERROR(ReadEnum(j, "how", &ParsePairRule, &p->how));
  GD_RETURN_IF_ERROR(ReadOptionalBool(j, "left_partial", &p->left_partial));
  GD_RETURN_IF_ERROR(ReadOptionalBool(j, "right_partial", &p->right_partial));
  absl::StatusOr<GraphKind> kind = ReadKind(j);
  if (!kind.ok()) return kind.status();
  p->kind = *kind;
  const json* s = Field(j, "summary");
  if (!s || !s->is_object()) return Bad("summary", "expected an object");
  GD_RETURN_IF_ERROR(ReadInt(*s, "left_nodes", &p->left_nodes));
  GD_RETURN_IF_ERROR(ReadInt(*s, "right_nodes", &p->right_nodes));
  GD_RETURN_IF_ERROR(ReadInt(*s, "matched", &p->matched));
  GD_RETURN_IF_ERROR(ReadInt(*s, "changed", &p->changed));
  GD_RETURN_IF_ERROR(ReadInt(*s, "left_inputs", &p->left_inputs));
  GD_RETURN_IF_ERROR(ReadInt(*s, "right_inputs", &p->right_inputs));
  GD_RETURN_IF_ERROR(ReadInt(*s, "left_outputs", &p->left_outputs));
  GD_RETURN_IF_ERROR(ReadInt(*s, "right_outputs", &p->right_outputs));
  GD_RETURN_IF_ERROR(ReadInt(*s, "matched_outputs", &p->matched_outputs));
  GD_RETURN_IF_ERROR(ReadOptionalInt(*s, "left_only_get_attrs", &p->left_only_get_attrs));
  GD_RETURN_IF_ERROR(ReadOptionalInt(*s, "right_only_get_attrs", &p->right_only_get_attrs));
  const json* delta = Field(j, "op_delta");
  if (!delta || !delta->is_object()) return Bad("op_delta", "expected an object");
  for (auto it = delta->begin(); it != delta->end(); ++it) {
    if (!it.value().is_number_integer()) return Bad("op_delta", "expected integers");
    p->op_delta[it.key()] = it.value().get<int64_t>();
  }
  const json* rows = Array(j, "pairs");
  if (!rows) return Bad("pairs", "expected a list");
  for (const json& r : *rows) {
    PairRow row;
    GD_RETURN_IF_ERROR(ReadString(r, "left", &row.left));
    GD_RETURN_IF_ERROR(ReadString(r, "right", &row.right));
    std::vector<std::string> reasons;
    GD_RETURN_IF_ERROR(ReadStrings(r, "reasons", &reasons));
    absl::StatusOr<uint32_t> bits = ReasonBits(reasons);
    if (!bits.ok()) return bits.status();
    row.reasons = *bits;
    std::string verdict;
    GD_RETURN_IF_ERROR(ReadString(r, "verdict", &verdict));
    if (verdict != (row.reasons == 0 ? "unchanged" : "changed")) {
      return Bad("verdict", fmt::format("\"{}\" disagrees with the reasons", verdict));
    }
    GD_RETURN_IF_ERROR(ReadEnum(r, "matcher", &ParseMatcher, &row.matcher));
    GD_RETURN_IF_ERROR(ReadString(r, "detail", &row.detail));
    GD_RETURN_IF_ERROR(ReadString(r, "left_op", &row.left_op));
    GD_RETURN_IF_ERROR(ReadString(r, "right_op", &row.right_op));
    p->pairs.push_back(std::move(row));
  }
  GD_RETURN_IF_ERROR(ReadStrings(j, "left_only", &p->left_only));
  GD_RETURN_IF_ERROR(ReadStrings(j, "right_only", &p->right_only));
  GD_RETURN_IF_ERROR(ReadStrings(j, "left_only_outputs", &p->left_only_outputs));
  GD_RETURN_IF_ERROR(ReadStrings(j, "right_only_outputs", &p->right_only_outputs));
  return absl::OkStatus();
}

template <typename T>
absl::Status ReadOptional(const json& obj, const char* key, std::optional<T>* out) {
  const json* v = Field(obj, key);
  if (!v) return Bad(key, "missing");
  if (v->is_null()) {
    out->reset();
    return absl::OkStatus();
  }
  if (!v->is_number()) return Bad(key, "expected a number or null");
  *out = v->get<T>();
  return absl::OkStatus();
}

absl::Status ReadMetrics(const json& j, MetricsPairDiff* m) {
  GD_RETURN_IF_ERROR(ReadString(j, "left_source", &m->left_source));
  GD_RETURN_IF_ERROR(ReadString(j, "right_source", &m->right_source));
  GD_RETURN_IF_ERROR(ReadEnum(j, "how", &ParsePairRule, &m->how));
  const json* counters = Array(j, "counters");
  const json* metrics = Array(j, "metrics");
  if (!counters || !metrics) return Bad("metrics", "expected counters and metrics lists");
  for (const json& c : *counters) {
    CounterValues cc;
    GD_RETURN_IF_ERROR(ReadString(c, "name", &cc.name));
    GD_RETURN_IF_ERROR(ReadOptional(c, "left", &cc.left));
    GD_RETURN_IF_ERROR(ReadOptional(c, "right", &cc.right));
    m->counters.push_back(std::move(cc));
  }
  for (const json& c : *metrics) {
    MetricValues mc;
    GD_RETURN_IF_ERROR(ReadString(c, "name", &mc.name));
    std::string unit;
    GD_RETURN_IF_ERROR(ReadString(c, "unit", &unit));
    bool known = false;
    for (MetricUnit u : {MetricUnit::kNumber, MetricUnit::kNanoseconds, MetricUnit::kBytes}) {
      if (MetricUnitName(u) == unit) {
        mc.unit = u;
        known = true;
      }
    }
    if (!known) return Bad("unit", fmt::format("unknown unit \"{}\"", unit));
    GD_RETURN_IF_ERROR(ReadOptional(c, "left", &mc.left));
    GD_RETURN_IF_ERROR(ReadOptional(c, "right", &mc.right));
    m->metrics.push_back(std::move(mc));
  }
  return absl::OkStatus();
}

absl::StatusOr<Finding> ReadFinding(const json& j) {
  Finding f;
  GD_RETURN_IF_ERROR(ReadString(j, "id", &f.id));
  std::string severity;
  GD_RETURN_IF_ERROR(ReadString(j, "severity", &severity));
  if (!ParseSeverity(severity, &f.severity)) {
    return Bad("severity", fmt::format("unknown severity \"{}\"", severity));
  }
  GD_RETURN_IF_ERROR(ReadInt(j, "count", &f.count));
  GD_RETURN_IF_ERROR(ReadString(j, "title", &f.title));
  GD_RETURN_IF_ERROR(ReadString(j, "graph", &f.graph));
  GD_RETURN_IF_ERROR(ReadString(j, "explanation", &f.explanation));
  const json* evidence = Array(j, "evidence");
  if (!evidence) return Bad("evidence", "expected a list");
  for (const json& e : *evidence) {
    Evidence ev;
    std::string side;
    GD_RETURN_IF_ERROR(ReadString(e, "side", &side));
    if (!side.empty()) {
      Side s;
      if (!ParseSide(side, &s)) return Bad("side", fmt::format("unknown value \"{}\"", side));
      ev.side = s;
    }
    GD_RETURN_IF_ERROR(ReadString(e, "source", &ev.source));
    GD_RETURN_IF_ERROR(ReadInt(e, "line", &ev.line));
    GD_RETURN_IF_ERROR(ReadString(e, "node", &ev.node));
    GD_RETURN_IF_ERROR(ReadString(e, "op", &ev.op));
    GD_RETURN_IF_ERROR(ReadString(e, "note", &ev.note));
    f.evidence.push_back(std::move(ev));
  }
  GD_RETURN_IF_ERROR(ReadInt(j, "evidence_omitted", &f.evidence_omitted));
  GD_RETURN_IF_ERROR(ReadString(j, "hint", &f.hint));
  GD_RETURN_IF_ERROR(ReadStrings(j, "related", &f.related));
  return f;
}

}  // namespace

absl::StatusOr<std::vector<Finding>> FindingsFromJsonValue(const nlohmann::json& findings) {
  if (!findings.is_array()) return Bad("findings", "expected a list");
  std::vector<Finding> out;
  for (const json& j : findings) {
    absl::StatusOr<Finding> f = ReadFinding(j);
    if (!f.ok()) return f.status();
    out.push_back(*std::move(f));
  }
  return out;
}

absl::StatusOr<DiffResult> DiffResultFromJsonValue(const nlohmann::json& j) {
  int version = 0;
  GD_RETURN_IF_ERROR(ReadInt(j, "schema_version", &version));
  if (version < kOldestReportSchemaVersion || version > kReportSchemaVersion) {
    return Bad("schema_version", fmt::format("unsupported version {} (this build reads {} to {})",
                                             version, kOldestReportSchemaVersion,
                                             kReportSchemaVersion));
  }
  DiffResult r;
  const json* summary = Field(j, "summary");
  if (!summary) return Bad("summary", "missing");
  GD_RETURN_IF_ERROR(ReadString(*summary, "left", &r.left_root));
  GD_RETURN_IF_ERROR(ReadString(*summary, "right", &r.right_root));
  const json* pairs = Array(j, "pairs");
  const json* unpaired = Array(j, "unpaired");
  const json* metrics = Array(j, "metrics");
  const json* findings = Array(j, "findings");
  if (!pairs || !unpaired || !metrics || !findings) {
    return Bad("document", "expected pairs, unpaired, metrics and findings lists");
  }
  for (const json& p : *pairs) {
    GraphPairDiff d;
    GD_RETURN_IF_ERROR(ReadPair(p, &d));
    r.pairs.push_back(std::move(d));
  }
  for (const json& u : *unpaired) {
    UnpairedItem item;
    GD_RETURN_IF_ERROR(ReadEnum(u, "side", &ParseSide, &item.side));
    GD_RETURN_IF_ERROR(ReadEnum(u, "what", &ParseUnpairedKind, &item.what));
    GD_RETURN_IF_ERROR(ReadString(u, "source", &item.source));
    GD_RETURN_IF_ERROR(ReadString(u, "graph", &item.graph));
    r.unpaired.push_back(std::move(item));
  }
  for (const json& m : *metrics) {
    MetricsPairDiff d;
    GD_RETURN_IF_ERROR(ReadMetrics(m, &d));
    r.metrics.push_back(std::move(d));
  }
  absl::StatusOr<std::vector<Finding>> f = FindingsFromJsonValue(*findings);
  if (!f.ok()) return f.status();
  r.findings = *std::move(f);
  if (const json* skipped = Array(j, "skipped")) {
    for (const json& k : *skipped) {
      SkippedFile file;
      GD_RETURN_IF_ERROR(ReadEnum(k, "side", &ParseSide, &file.side));
      GD_RETURN_IF_ERROR(ReadString(k, "path", &file.path));
      GD_RETURN_IF_ERROR(ReadString(k, "reason", &file.reason));
      r.skipped.push_back(std::move(file));
    }
  }
  if (const json* warnings = Array(j, "warnings")) {
    for (const json& k : *warnings) {
      ReadingWarning w;
      GD_RETURN_IF_ERROR(ReadEnum(k, "side", &ParseSide, &w.side));
      GD_RETURN_IF_ERROR(ReadString(k, "source", &w.diagnostic.source));
      GD_RETURN_IF_ERROR(ReadInt(k, "line", &w.diagnostic.line));
      GD_RETURN_IF_ERROR(ReadInt(k, "column", &w.diagnostic.column));
      GD_RETURN_IF_ERROR(ReadString(k, "message", &w.diagnostic.message));
      GD_RETURN_IF_ERROR(ReadInt(k, "count", &w.diagnostic.count));
      r.warnings.push_back(std::move(w));
    }
  }
  return r;
}

namespace {

absl::StatusOr<json> ParseJsonText(std::string_view text) {
  if (absl::Status deep = CheckJsonDepth(text, "report"); !deep.ok()) return deep;
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    return absl::InvalidArgumentError(
        "cannot read the report: not valid JSON (truncated or not a graphdiff report?)");
  }
  return j;
}

}  // namespace

absl::StatusOr<DiffResult> DiffResultFromJson(std::string_view json_text) {
  absl::StatusOr<json> j = ParseJsonText(json_text);
  if (!j.ok()) return j.status();
  return DiffResultFromJsonValue(*j);
}

absl::StatusOr<std::vector<Finding>> FindingsFromJson(std::string_view json_text) {
  absl::StatusOr<json> j = ParseJsonText(json_text);
  if (!j.ok()) return j.status();
  return FindingsFromJsonValue(*j);
}

}  // namespace graphdiff
