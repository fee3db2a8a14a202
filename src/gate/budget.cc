// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Budget files and limits (docs/gate.md). Every mistake is reported with the
// file, where in it, and what would have been accepted: a gate that silently
// ignores a misspelt metric would pass everything.
#include <cmath>
#include <cstdlib>
#include <string>

#include "fmt/format.h"
#include "gate/gate_util.h"
#include "util/absl_sv.h"
#include "util/json_text.h"
#include "graphdiff/findings.h"
#include "graphdiff/gate.h"

namespace graphdiff {
namespace {

using Json = nlohmann::ordered_json;

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// A non-negative decimal number, nothing else.
bool ParseAmount(std::string_view s, double* out) {
  if (s.empty() || s.size() > 40) return false;
  bool digit = false, dot = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      digit = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      return false;
    }
  }
  if (!digit) return false;
  *out = std::strtod(std::string(s).c_str(), nullptr);
  return std::isfinite(*out);
}

std::string ValidMetricsText() {
  std::string ids;
  for (std::string_view id : FindingIds()) ids += (ids.empty() ? "" : ", ") + std::string(id);
  return fmt::format(
      "valid metrics: nodes, inputs, outputs, constants, parameter_bytes, op:<op>, "
      "counter:<name>, finding:<id> (ids: {}); op/counter/finding names may use * and ?",
      ids);
}

absl::Status CheckMetricName(std::string_view name) {
  for (const std::string& s : GateMetricNames()) {
    if (name == s) return absl::OkStatus();
  }
  for (std::string_view prefix : {"op:", "counter:", "finding:"}) {
    if (name.substr(0, prefix.size()) != prefix) continue;
    std::string_view rest = name.substr(prefix.size());
    if (rest.empty()) break;
    if (prefix != "finding:" || gate_internal::IsGlob(rest)) return absl::OkStatus();
    for (std::string_view id : FindingIds()) {
      if (rest == id) return absl::OkStatus();
    }
    return absl::InvalidArgumentError(fmt::format("unknown finding id \"{}\"", rest));
  }
  return absl::InvalidArgumentError(fmt::format("unknown metric \"{}\"", name));
}

struct BudgetReader {
  std::string_view source;

  absl::Status Error(std::string_view where, std::string_view what) const {
    return absl::InvalidArgumentError(fmt::format("{}: {}: {}", source, where, what));
  }

  absl::StatusOr<GateLimit> Limit(const Json& v, std::string_view where) const {
    if (v.is_number_integer() || v.is_number_unsigned() || v.is_number_float()) {
      double x = v.get<double>();
      if (!(x >= 0) || !std::isfinite(x)) {
        return Error(where, fmt::format("limit {} must be a number >= 0", JsonSnippet(v)));
      }
      GateLimit l;
      l.kind = GateLimit::Kind::kCeiling;
      l.amount = x;
      l.text = v.dump();
      return l;
    }
    if (!v.is_string()) {
      return Error(where, fmt::format("limit {} must be a string such as \"+0\", \"+2%\" or "
                                      "\"500\", a number, or a list of them",
                                      JsonSnippet(v)));
    }
    absl::StatusOr<GateLimit> l = ParseGateLimit(v.get<std::string>());
    if (!l.ok()) return Error(where, StdSv(l.status().message()));
    return l;
  }

  absl::StatusOr<GateLimits> Limits(const Json& j, const std::string& where) const {
    if (!j.is_object()) return Error(where, "must be an object of metric: limit");
    GateLimits out;
    for (const auto& [name, v] : j.items()) {
      std::string at = fmt::format("{}[\"{}\"]", where, name);
      if (absl::Status st = CheckMetricName(name); !st.ok()) {
        return Error(at, fmt::format("{}; {}", StdSv(st.message()), ValidMetricsText()));
      }
      std::vector<GateLimit> limits;
      if (v.is_array()) {
        if (v.empty()) return Error(at, "empty list of limits");
        for (const Json& e : v) {
          absl::StatusOr<GateLimit> l = Limit(e, at);
          if (!l.ok()) return l.status();
          limits.push_back(*std::move(l));
        }
      } else {
        absl::StatusOr<GateLimit> l = Limit(v, at);
        if (!l.ok()) return l.status();
        limits.push_back(*std::move(l));
      }
      out.emplace_back(name, std::move(limits));
    }
    return out;
  }
};

}  // namespace

const std::vector<std::string>& GateMetricNames() {
  static const auto* names = new std::vector<std::string>{
      "nodes", "inputs", "outputs", "constants", "parameter_bytes"};
  return *names;
}

absl::StatusOr<GateLimit> ParseGateLimit(std::string_view text) {
  std::string_view s = Trim(text);
  GateLimit l;
  l.text = std::string(s);
  std::string_view body = s;
  if (!body.empty() && body.front() == '+') {
    body.remove_prefix(1);
    l.kind = GateLimit::Kind::kAbsoluteGrowth;
    if (!body.empty() && body.back() == '%') {
      body.remove_suffix(1);
      l.kind = GateLimit::Kind::kRelativeGrowth;
    }
  } else {
    l.kind = GateLimit::Kind::kCeiling;
  }
  if (!ParseAmount(body, &l.amount)) {
    return absl::InvalidArgumentError(fmt::format(
        "bad limit \"{}\": expected \"+N\" (grow by at most N), \"+P%\" (grow by at most "
        "P percent) or \"N\" (at most N)",
        text));
  }
  return l;
}

bool GateLimit::Breached(std::optional<int64_t> old_value, int64_t new_value) const {
  double now = static_cast<double>(new_value);
  switch (kind) {
    case Kind::kCeiling:
      return now > amount;
    case Kind::kAbsoluteGrowth:
      return old_value && now - static_cast<double>(*old_value) > amount;
    case Kind::kRelativeGrowth:
      if (!old_value) return false;
      // The epsilon keeps "+10%" of 10 from failing on 11 by rounding.
      return now > static_cast<double>(*old_value) * (1.0 + amount / 100.0) + 1e-9;
  }
  return false;
}

Budget DefaultBudget() {
  Budget b;
  auto zero = [] {
    GateLimit l;
    l.kind = GateLimit::Kind::kAbsoluteGrowth;
    l.amount = 0;
    l.text = "+0";
    return std::vector<GateLimit>{l};
  };
  for (const char* m : {"nodes", "inputs", "outputs", "op:*clone*", "counter:*clone*",
                        "finding:*"}) {
    b.defaults.emplace_back(m, zero());
  }
  return b;
}

absl::StatusOr<Budget> ParseBudget(std::string_view text, std::string_view source) {
  absl::StatusOr<Json> parsed = gate_internal::ParseJsonText(text, source);
  if (!parsed.ok()) return parsed.status();
  const Json& j = *parsed;
  BudgetReader r{source};
  if (!j.is_object()) return r.Error("top level", "expected a JSON object");
  Budget b = DefaultBudget();
  for (const auto& [key, v] : j.items()) {
    std::string at = fmt::format("\"{}\"", key);
    if (key == "schema_version" || key == "version") {
      if (v != 1) return r.Error(at, "unsupported budget version; this graphdiff reads 1");
    } else if (key == "default") {
      absl::StatusOr<GateLimits> l = r.Limits(v, at);
      if (!l.ok()) return l.status();
      b.defaults = *std::move(l);
    } else if (key == "graphs") {
      if (!v.is_object()) return r.Error(at, "must be an object of \"<graph key or glob>\": {limits}");
      for (const auto& [pattern, limits] : v.items()) {
        absl::StatusOr<GateLimits> l = r.Limits(limits, fmt::format("graphs[\"{}\"]", pattern));
        if (!l.ok()) return l.status();
        b.graphs.emplace_back(pattern, *std::move(l));
      }
    } else if (key == "allow") {
      if (!v.is_array()) return r.Error(at, "must be a list of metric names or globs");
      for (size_t i = 0; i < v.size(); ++i) {
        std::string where = fmt::format("allow[{}]", i);
        if (!v[i].is_string()) return r.Error(where, "must be a string");
        std::string name = v[i].get<std::string>();
        if (absl::Status st = CheckMetricName(name); !st.ok()) {
          return r.Error(where, fmt::format("{}; {}", StdSv(st.message()), ValidMetricsText()));
        }
        b.allow.push_back(std::move(name));
      }
    } else if (key == "new_graphs" || key == "missing_graphs") {
      if (!v.is_boolean()) return r.Error(at, "must be true or false");
      (key == "new_graphs" ? b.new_graphs : b.missing_graphs) = v.get<bool>();
    } else if (key == "noise") {
      absl::StatusOr<GateLimit> l = r.Limit(v, at);
      if (!l.ok()) return l.status();
      b.noise = *std::move(l);
    } else {
      return r.Error(at, "unknown key; valid keys: default, graphs, allow, new_graphs, "
                         "missing_graphs, noise, version");
    }
  }
  return b;
}

}  // namespace graphdiff
