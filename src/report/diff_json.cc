// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The diff and lint JSON (docs/json-schema.md). Keys come out in a fixed
// order; everything the text report shows is here, and more (every matched
// pair, every counter).
#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/report.h"
#include "graphdiff/sanitize.h"
#include "report/formats.h"
#include "report/report_util.h"
#include "util/json_text.h"

namespace graphdiff {
namespace {

using json = nlohmann::ordered_json;

json Strings(const std::vector<std::string>& v) {
  json a = json::array();
  for (const std::string& s : v) a.push_back(s);
  return a;
}

template <typename T>
json Optional(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json PairToJson(const GraphPairDiff& p) {
  json j;
  j["left_source"] = p.left_source;
  j["right_source"] = p.right_source;
  j["left_graph"] = p.left_graph;
  j["right_graph"] = p.right_graph;
  j["how"] = std::string(PairRuleName(p.how));
  j["kind"] = std::string(GraphKindName(p.kind));
  j["identical"] = p.identical();
  j["left_partial"] = p.left_partial;
  j["right_partial"] = p.right_partial;
  json s;
  s["left_nodes"] = p.left_nodes;
  s["right_nodes"] = p.right_nodes;
  s["matched"] = p.matched;
  s["changed"] = p.changed;
  s["left_only"] = p.left_only.size();
  s["right_only"] = p.right_only.size();
  s["left_inputs"] = p.left_inputs;
  s["right_inputs"] = p.right_inputs;
  s["left_outputs"] = p.left_outputs;
  s["right_outputs"] = p.right_outputs;
  s["matched_outputs"] = p.matched_outputs;
  s["left_only_get_attrs"] = p.left_only_get_attrs;
  s["right_only_get_attrs"] = p.right_only_get_attrs;
  j["summary"] = std::move(s);
  // Keys of a std::map, so new ones: see AppendNewKey.
  json& op_delta = j["op_delta"] = json::object();
  for (const auto& [op, n] : p.op_delta) AppendNewKey(op_delta, op, n);
  j["pairs"] = json::array();
  for (const PairRow& row : p.pairs) {
    json r;
    r["left"] = row.left;
    r["right"] = row.right;
    r["verdict"] = row.reasons == 0 ? "unchanged" : "changed";
    r["reasons"] = Strings(ChangeReasonNames(row.reasons));
    r["matcher"] = std::string(MatcherName(row.matcher));
    r["detail"] = row.detail;
    r["left_op"] = row.left_op;
    r["right_op"] = row.right_op;
    j["pairs"].push_back(std::move(r));
  }
  j["left_only"] = Strings(p.left_only);
  j["right_only"] = Strings(p.right_only);
  j["left_only_outputs"] = Strings(p.left_only_outputs);
  j["right_only_outputs"] = Strings(p.right_only_outputs);
  return j;
}

json MetricsToJson(const MetricsPairDiff& m) {
  json j;
  j["left_source"] = m.left_source;
  j["right_source"] = m.right_source;
  j["how"] = std::string(PairRuleName(m.how));
  j["identical"] = m.identical();
  j["counters"] = json::array();
  for (const CounterValues& c : m.counters) {
    j["counters"].push_back({{"name", c.name}, {"left", Optional(c.left)},
                             {"right", Optional(c.right)}});
  }
  j["metrics"] = json::array();
  for (const MetricValues& c : m.metrics) {
    j["metrics"].push_back({{"name", c.name},
                            {"unit", std::string(MetricUnitName(c.unit))},
                            {"left", Optional(c.left)},
                            {"right", Optional(c.right)}});
  }
  return j;
}

json FindingsArray(const std::vector<Finding>& findings) {
  json a = json::array();
  for (const Finding& f : findings) a.push_back(FindingToJsonValue(f));
  return a;
}

void SeverityTotals(const std::vector<Finding>& findings, json* j) {
  int64_t n[3] = {0, 0, 0};
  for (const Finding& f : findings) ++n[static_cast<int>(f.severity)];
  (*j)["errors"] = n[2];
  (*j)["warnings"] = n[1];
  (*j)["info"] = n[0];
}

}  // namespace

nlohmann::ordered_json FindingToJsonValue(const Finding& f) {
  json j;
  j["id"] = f.id;
  j["severity"] = std::string(SeverityName(f.severity));
  j["count"] = f.count;
  j["title"] = f.title;
  j["graph"] = f.graph;
  j["explanation"] = f.explanation;
  j["evidence"] = json::array();
  for (const Evidence& e : f.evidence) {
    j["evidence"].push_back({{"side", SideName(e.side)},
                             {"source", e.source},
                             {"line", e.line},
                             {"node", e.node},
                             {"op", e.op},
                             {"note", e.note}});
  }
  j["evidence_omitted"] = f.evidence_omitted;
  j["hint"] = f.hint;
  j["related"] = Strings(f.related);
  return j;
}

namespace {

// `pairs` false leaves the pair list empty, for DiffResultToJson to write.
json DiffResultValue(const DiffResult& r, bool pairs) {
  json out;
  out["schema_version"] = kReportSchemaVersion;
  json s;
  s["left"] = r.left_root;
  s["right"] = r.right_root;
  s["identical"] = r.identical();
  s["verdict"] = report::Verdict(r);
  s["graph_pairs"] = r.pairs.size();
  size_t differ = 0;
  for (const GraphPairDiff& p : r.pairs) differ += !p.identical();
  s["different_pairs"] = differ;
  s["metrics_pairs"] = r.metrics.size();
  s["unpaired"] = r.unpaired.size();
  s["compared_nothing"] = r.empty();
  s["skipped_files"] = r.skipped.size();
  uint64_t warnings = 0;
  for (const ReadingWarning& w : r.warnings) warnings += w.diagnostic.count;
  s["reading_warnings"] = warnings;
  s["findings"] = r.findings.size();
  SeverityTotals(r.findings, &s);
  out["summary"] = std::move(s);
  out["pairs"] = json::array();
  if (pairs) {
    for (const GraphPairDiff& p : r.pairs) out["pairs"].push_back(PairToJson(p));
  }
  out["unpaired"] = json::array();
  for (const UnpairedItem& u : r.unpaired) {
    out["unpaired"].push_back(
        {{"side", std::string(SideName(u.side))},
         {"what", std::string(UnpairedKindName(u.what))},
         {"source", u.source},
         {"graph", u.graph}});
  }
  out["metrics"] = json::array();
  for (const MetricsPairDiff& m : r.metrics) out["metrics"].push_back(MetricsToJson(m));
  out["findings"] = FindingsArray(r.findings);
  out["skipped"] = json::array();
  for (const SkippedFile& f : r.skipped) {
    out["skipped"].push_back(
        {{"side", std::string(SideName(f.side))}, {"path", f.path}, {"reason", f.reason}});
  }
  out["warnings"] = json::array();
  for (const ReadingWarning& w : r.warnings) {
    out["warnings"].push_back({{"side", std::string(SideName(w.side))},
                               {"source", w.diagnostic.source},
                               {"line", w.diagnostic.line},
                               {"column", w.diagnostic.column},
                               {"message", w.diagnostic.message},
                               {"count", w.diagnostic.count}});
  }
  return out;
}

// A list of strings as dump(2) writes it as the value of a key indented
// `indent` spaces (its items two more).
void AppendStringList(const std::vector<std::string>& list, size_t indent, std::string* out) {
  if (list.empty()) {
    out->append("[]");
    return;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    out->append(i == 0 ? "[\n" : ",\n").append(indent + 2, ' ');
    AppendJsonString(list[i], out);
  }
  out->append("\n").append(indent, ' ').append("]");
}

// One pair's rows, as dump(2) writes the array of objects PairToJson makes
// at that depth.
void AppendRows(const std::vector<PairRow>& rows, std::string* out) {
  out->append("[");
  bool first = true;
  // `"name": ` on a line of its own; the value follows, then `,` unless last.
  auto key = [&](std::string_view name) { AppendJsonKey(name, 10, out); };
  auto member = [&](std::string_view name, std::string_view value, bool last = false) {
    key(name);
    AppendJsonString(value, out);
    if (!last) out->push_back(',');
  };
  for (const PairRow& row : rows) {
    out->append(first ? "\n        {" : ",\n        {");
    first = false;
    member("left", row.left);
    member("right", row.right);
    member("verdict", row.reasons == 0 ? "unchanged" : "changed");
    key("reasons");
    AppendStringList(ChangeReasonNames(row.reasons), 10, out);
    out->push_back(',');
    member("matcher", MatcherName(row.matcher));
    member("detail", row.detail);
    member("left_op", row.left_op);
    member("right_op", row.right_op, /*last=*/true);
    out->append("\n        }");
  }
  out->append("\n      ]");
}

bool PairsAreValidUtf8(const DiffResult& r) {
  auto valid = [](const std::vector<std::string>& list) {
    return std::all_of(list.begin(), list.end(),
                       [](const std::string& s) { return IsValidUtf8(s); });
  };
  for (const GraphPairDiff& p : r.pairs) {
    for (const std::string* s : {&p.left_source, &p.right_source, &p.left_graph,
                                 &p.right_graph}) {
      if (!IsValidUtf8(*s)) return false;
    }
    for (const auto& [op, n] : p.op_delta) {
      if (!IsValidUtf8(op)) return false;
    }
    if (!valid(p.left_only) || !valid(p.right_only) || !valid(p.left_only_outputs) ||
        !valid(p.right_only_outputs)) {
      return false;
    }
    for (const PairRow& row : p.pairs) {
      for (const std::string* s : {&row.left, &row.right, &row.detail, &row.left_op,
                                   &row.right_op}) {
        if (!IsValidUtf8(*s)) return false;
      }
    }
  }
  return true;
}

// One pair as dump(2) writes the object PairToJson makes, as an item of the
// top-level "pairs" list. A dump of 10^5 small graphs has as many pairs: as
// a tree of JSON values they were most of its JSON report's time and twice
// its memory.
void AppendPair(const GraphPairDiff& p, std::string* out) {
  auto key = [&](std::string_view name) { AppendJsonKey(name, 6, out); };
  auto text = [&](std::string_view name, std::string_view value) {
    key(name);
    AppendJsonString(value, out);
    out->push_back(',');
  };
  auto flag = [&](std::string_view name, bool value) {
    key(name);
    out->append(value ? "true," : "false,");
  };
  out->append("{");
  text("left_source", p.left_source);
  text("right_source", p.right_source);
  text("left_graph", p.left_graph);
  text("right_graph", p.right_graph);
  text("how", PairRuleName(p.how));
  text("kind", GraphKindName(p.kind));
  flag("identical", p.identical());
  flag("left_partial", p.left_partial);
  flag("right_partial", p.right_partial);
  key("summary");
  const std::pair<std::string_view, uint64_t> summary[] = {
      {"left_nodes", p.left_nodes},       {"right_nodes", p.right_nodes},
      {"matched", p.matched},             {"changed", p.changed},
      {"left_only", p.left_only.size()},  {"right_only", p.right_only.size()},
      {"left_inputs", p.left_inputs},     {"right_inputs", p.right_inputs},
      {"left_outputs", p.left_outputs},   {"right_outputs", p.right_outputs},
      {"matched_outputs", p.matched_outputs},
      {"left_only_get_attrs", p.left_only_get_attrs},
      {"right_only_get_attrs", p.right_only_get_attrs}};
  auto to = std::back_inserter(*out);
  for (size_t i = 0; i < std::size(summary); ++i) {
    fmt::format_to(to, "{}\n        \"{}\": {}", i == 0 ? "{" : ",", summary[i].first,
                   summary[i].second);
  }
  out->append("\n      },");
  key("op_delta");
  AppendJsonCounts(p.op_delta, 6, out);
  out->push_back(',');
  key("pairs");
  if (p.pairs.empty()) {
    out->append("[]");
  } else {
    AppendRows(p.pairs, out);
  }
  const std::pair<std::string_view, const std::vector<std::string>*> lists[] = {
      {"left_only", &p.left_only},
      {"right_only", &p.right_only},
      {"left_only_outputs", &p.left_only_outputs},
      {"right_only_outputs", &p.right_only_outputs}};
  for (const auto& [name, list] : lists) {
    out->push_back(',');
    key(name);
    AppendStringList(*list, 6, out);
  }
  out->append("\n    }");
}

}  // namespace

nlohmann::ordered_json DiffResultToJsonValue(const DiffResult& r) {
  return DiffResultValue(r, /*pairs=*/true);
}

std::string DiffResultToJson(const DiffResult& r) {
  // Every matched node pair is a row: 10^6 of them were 18 s and 2.8 GB
  // as a tree of JSON values, for 1 s of text. So the pairs, rows and all,
  // are written directly, as dump() would, into the text of the rest; pairs
  // with a string that is not valid UTF-8 take the tree, which escapes it.
  if (!PairsAreValidUtf8(r)) return DumpJson(DiffResultToJsonValue(r));
  const std::string rest = DumpJson(DiffResultValue(r, /*pairs=*/false));
  // The top-level key, at two spaces; a quote inside a string value is
  // escaped, so the marker cannot be part of one.
  static constexpr std::string_view kMarker = "\n  \"pairs\": []";
  const size_t marker = rest.find(kMarker);
  if (marker == std::string::npos) return DumpJson(DiffResultToJsonValue(r));
  const size_t list_at = marker + kMarker.size() - 2;
  std::string out;
  size_t bytes = rest.size() + r.pairs.size() * 900;
  for (const GraphPairDiff& p : r.pairs) bytes += p.pairs.size() * 300;
  out.reserve(bytes);
  out.append(rest, 0, list_at);
  if (r.pairs.empty()) {
    out.append("[]");
  } else {
    for (size_t i = 0; i < r.pairs.size(); ++i) {
      out.append(i == 0 ? "[\n    " : ",\n    ");
      AppendPair(r.pairs[i], &out);
    }
    out.append("\n  ]");
  }
  out.append(rest, list_at + 2, std::string::npos);
  return out;
}

nlohmann::ordered_json LintToJson(const LintReport& r) {
  json out;
  out["schema_version"] = kReportSchemaVersion;
  json s;
  s["root"] = r.root;
  s["findings"] = r.findings.size();
  SeverityTotals(r.findings, &s);
  out["summary"] = std::move(s);
  out["findings"] = FindingsArray(r.findings);
  out["skipped"] = json::array();
  for (const auto& [path, reason] : r.skipped) {
    out["skipped"].push_back({{"path", path}, {"reason", reason}});
  }
  return out;
}

}  // namespace graphdiff
