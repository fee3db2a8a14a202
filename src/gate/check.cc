// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The comparison: recognise each baseline unit in the fresh dump, apply the
// budget to every fact that moved, and explain failures with the fresh
// dump's own findings (the baseline has no graph to align with).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <tuple>

#include "fmt/format.h"
#include "gate/explain.h"
#include "gate/finding_map.h"
#include "gate/gate_util.h"
#include "graphdiff/gate.h"

namespace graphdiff {
namespace {

using gate_internal::GlobMatch;
using gate_internal::IsGlob;
constexpr size_t kNone = static_cast<size_t>(-1);
constexpr size_t kMaxFindingNotes = 5;

// The limits a scope sets for `metric`: an exact name beats a glob, a longer
// glob beats a shorter one.
const std::pair<std::string, std::vector<GateLimit>>* FindInScope(const GateLimits& scope,
                                                                  std::string_view metric) {
  const std::pair<std::string, std::vector<GateLimit>>* best = nullptr;
  for (const auto& entry : scope) {
    if (entry.first == metric) return &entry;
    if (IsGlob(entry.first) && GlobMatch(entry.first, metric) &&
        (!best || entry.first.size() > best->first.size())) {
      best = &entry;
    }
  }
  return best;
}

// Per-graph scopes override the default; the last matching scope that
// mentions the metric wins, as in a cascading config.
const std::vector<GateLimit>* LimitsFor(const Budget& budget, std::string_view key,
                                        std::string_view metric) {
  for (auto it = budget.graphs.rbegin(); it != budget.graphs.rend(); ++it) {
    if (!GlobMatch(it->first, key)) continue;
    if (const auto* e = FindInScope(it->second, metric)) return &e->second;
  }
  const auto* e = FindInScope(budget.defaults, metric);
  return e ? &e->second : nullptr;
}

bool Allowed(const Budget& budget, std::string_view metric) {
  for (const std::string& a : budget.allow) {
    if (GlobMatch(a, metric)) return true;
  }
  return false;
}

bool BeyondNoise(const Budget& budget, int64_t old_value, int64_t new_value) {
  if (new_value >= old_value) return false;
  double drop = -gate_internal::DeltaDouble(old_value, new_value);
  if (!budget.noise) return drop > 0;
  if (budget.noise->kind == GateLimit::Kind::kRelativeGrowth) {
    return drop > static_cast<double>(old_value) * budget.noise->amount / 100.0;
  }
  return drop > budget.noise->amount;
}

int ScalarRank(std::string_view metric) {
  static constexpr std::string_view kOrder[] = {"nodes", "inputs", "outputs", "constants",
                                                "parameter_bytes"};
  for (size_t i = 0; i < std::size(kOrder); ++i) {
    if (metric == kOrder[i]) return static_cast<int>(i);
  }
  return static_cast<int>(std::size(kOrder));
}

// Breaches first, then improvements, then the rest; within each, the size
// facts in a fixed order, then the biggest moves.
void SortChanges(std::vector<GateChange>* changes) {
  auto key = [](const GateChange& c) {
    double delta = gate_internal::DeltaDouble(c.old_value.value_or(0), c.new_value);
    return std::make_tuple(c.breached ? 0 : c.improved ? 1 : 2, ScalarRank(c.metric),
                           -std::fabs(delta), c.metric);
  };
  std::sort(changes->begin(), changes->end(),
            [&](const GateChange& a, const GateChange& b) { return key(a) < key(b); });
}

std::string LimitText(const std::vector<GateLimit>& limits) {
  std::string s;
  for (const GateLimit& l : limits) s += (s.empty() ? "" : ", ") + l.text;
  return s;
}

std::string BreachReason(const GateChange& c) {
  std::string pct;
  if (c.old_value && *c.old_value > 0) {
    double p = 100.0 * gate_internal::DeltaDouble(*c.old_value, c.new_value) /
               static_cast<double>(*c.old_value);
    pct = fmt::format(", {:+.1f}%", p);
  }
  if (!c.old_value) {
    return fmt::format("{}: {} exceeds limit {}", c.metric, c.new_value, c.limit);
  }
  return fmt::format("{}: {} -> {} ({}{}) exceeds limit {}", c.metric, *c.old_value,
                     c.new_value, gate_internal::SignedDelta(*c.old_value, c.new_value), pct,
                     c.limit);
}

GateChange Judge(const Budget& budget, std::string_view key, const std::string& metric,
                   std::optional<int64_t> old_value, int64_t new_value) {
  GateChange c;
  c.metric = metric;
  c.old_value = old_value;
  c.new_value = new_value;
  if (Allowed(budget, metric)) {
    c.limit = "allowed";
    return c;
  }
  const std::vector<GateLimit>* limits = LimitsFor(budget, key, metric);
  if (!limits) return c;
  c.limit = LimitText(*limits);
  for (const GateLimit& l : *limits) c.breached = c.breached || l.Breached(old_value, new_value);
  c.improved = !c.breached && old_value && BeyondNoise(budget, *old_value, new_value);
  return c;
}

// Compares two versions of one unit (`old_unit` null for a new unit).
void CompareUnit(const Budget& budget, const GateUnit* old_unit, const GateUnit& now,
                 UnitCheck* out) {
  std::map<std::string, std::pair<std::optional<int64_t>, int64_t>> merged;
  if (old_unit) {
    for (const auto& [m, v] : old_unit->values) merged[m].first = v;
  }
  for (const auto& [m, v] : now.values) merged[m].second = v;
  for (auto& [m, vals] : merged) {
    // A fact absent on one side of a known unit is zero there (an op that
    // appeared); only a unit the baseline lacks has no old values at all.
    std::optional<int64_t> old_value = vals.first;
    if (old_unit && !old_value) old_value = 0;
    GateChange c = Judge(budget, now.key, m, old_value, vals.second);
    if (c.breached || !old_value || *old_value != c.new_value) out->changes.push_back(std::move(c));
  }
  SortChanges(&out->changes);
  for (const GateChange& c : out->changes) {
    if (c.breached) out->reasons.push_back(BreachReason(c));
  }
}

// Pairs current units with baseline units: same key; then a unique
// structural fingerprint (a renamed or moved graph); then same file, name and
// frame in order (records shifted); then the only unmatched unit of its kind
// in the same file, or the only metrics report left.
std::vector<std::pair<size_t, std::string>> MatchUnits(const Baseline& base,
                                                       const Baseline& now) {
  std::vector<std::pair<size_t, std::string>> match(now.units.size(), {kNone, ""});
  std::vector<bool> used(base.units.size(), false);
  auto pair = [&](size_t c, size_t b, const char* how) {
    match[c] = {b, how};
    used[b] = true;
  };
  std::map<std::pair<GateUnitKind, std::string>, size_t> by_key;
  for (size_t b = 0; b < base.units.size(); ++b) {
    by_key.emplace(std::make_pair(base.units[b].kind, base.units[b].key), b);
  }
  for (size_t c = 0; c < now.units.size(); ++c) {
    auto it = by_key.find({now.units[c].kind, now.units[c].key});
    if (it != by_key.end() && !used[it->second]) pair(c, it->second, "key");
  }
  auto free_cur = [&](size_t c) { return match[c].first == kNone; };
  // Unique-to-unique pairing under a property.
  auto pair_unique = [&](auto prop, const char* how) {
    std::map<std::string, std::pair<std::vector<size_t>, std::vector<size_t>>> groups;
    for (size_t c = 0; c < now.units.size(); ++c) {
      if (free_cur(c)) {
        std::string k = prop(now.units[c]);
        if (!k.empty()) groups[k].first.push_back(c);
      }
    }
    for (size_t b = 0; b < base.units.size(); ++b) {
      if (!used[b]) {
        std::string k = prop(base.units[b]);
        if (!k.empty()) groups[k].second.push_back(b);
      }
    }
    for (const auto& [k, g] : groups) {
      if (g.first.size() == 1 && g.second.size() == 1) pair(g.first[0], g.second[0], how);
    }
  };
  auto kind = [](const GateUnit& u) { return std::string(GateUnitKindName(u.kind)); };
  pair_unique(
      [&](const GateUnit& u) {
        return u.fingerprint.empty() ? std::string() : kind(u) + "\n" + u.fingerprint;
      },
      "fingerprint");
  // Same file, name and frame: pair in record order. XLA numbers modules by
  // size (`SyncTensorsGraph.49` grows into `SyncTensorsGraph.52`), so a
  // trailing `.N` of the name does not count.
  {
    std::map<std::string, std::pair<std::vector<size_t>, std::vector<size_t>>> groups;
    auto prop = [&](const GateUnit& u) {
      return kind(u) + "\n" + u.file + "\n" + gate_internal::StripNameCounter(u.name) + "\n" +
             u.frame;
    };
    for (size_t c = 0; c < now.units.size(); ++c) {
      if (free_cur(c) && now.units[c].kind == GateUnitKind::kGraph) {
        groups[prop(now.units[c])].first.push_back(c);
      }
    }
    for (size_t b = 0; b < base.units.size(); ++b) {
      if (!used[b] && base.units[b].kind == GateUnitKind::kGraph) {
        groups[prop(base.units[b])].second.push_back(b);
      }
    }
    for (const auto& [k, g] : groups) {
      for (size_t i = 0; i < std::min(g.first.size(), g.second.size()); ++i) {
        pair(g.first[i], g.second[i], "name");
      }
    }
  }
  pair_unique([&](const GateUnit& u) { return kind(u) + "\n" + u.file; }, "file");
  pair_unique([&](const GateUnit& u) { return u.kind == GateUnitKind::kGraph ? "" : kind(u); },
              "only");
  return match;
}

std::string ShellQuote(std::string_view s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                        "0123456789_-./=:@+,") == std::string_view::npos) {
    return std::string(s);
  }
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::vector<FindingNote> NotesFor(const std::vector<GateUnit>& units, size_t unit,
                                  const std::vector<Finding>& findings) {
  std::vector<const Finding*> mine;
  for (const Finding& f : findings) {
    // Size facts are already the reasons; quote what explains them.
    if (f.id == "size-facts" || f.id == "size-delta") continue;
    if (gate_internal::UnitForFinding(units, f) == unit) mine.push_back(&f);
  }
  std::stable_sort(mine.begin(), mine.end(), [](const Finding* a, const Finding* b) {
    return std::make_tuple(-static_cast<int>(a->severity), -a->count, a->id) <
           std::make_tuple(-static_cast<int>(b->severity), -b->count, b->id);
  });
  std::vector<FindingNote> out;
  for (size_t i = 0; i < mine.size() && i < kMaxFindingNotes; ++i) {
    out.push_back({mine[i]->id, mine[i]->count, mine[i]->title, mine[i]->hint});
  }
  return out;
}

// Every fact of each unit, both sides, for CSV trends.
void ExplainValues(const Baseline& baseline, const Baseline& current, CheckResult* result) {
  std::map<std::pair<GateUnitKind, std::string>, const GateUnit*> old_units, new_units;
  for (const GateUnit& u : baseline.units) old_units[{u.kind, u.key}] = &u;
  for (const GateUnit& u : current.units) new_units[{u.kind, u.key}] = &u;
  for (UnitCheck& check : result->units) {
    if (!check.is_missing) {
      if (auto it = new_units.find({check.kind, check.key}); it != new_units.end()) {
        check.new_values = it->second->values;
      }
    }
    if (!check.baseline_key.empty()) {
      if (auto it = old_units.find({check.kind, check.baseline_key}); it != old_units.end()) {
        check.old_values = it->second->values;
      }
    }
  }
}

}  // namespace

std::string_view GateVerdictName(GateVerdict v) {
  switch (v) {
    case GateVerdict::kPass: return "PASS";
    case GateVerdict::kImproved: return "IMPROVED";
    case GateVerdict::kFail: return "FAIL";
  }
  return "PASS";
}

int CheckResult::failed() const {
  return static_cast<int>(std::count_if(units.begin(), units.end(), [](const UnitCheck& u) {
    return u.verdict == GateVerdict::kFail;
  }));
}

int CheckResult::improved() const {
  return static_cast<int>(std::count_if(units.begin(), units.end(), [](const UnitCheck& u) {
    return u.verdict == GateVerdict::kImproved;
  }));
}

CheckResult CheckAgainstBaseline(const Baseline& baseline, const Baseline& current,
                                 const Budget& budget, const std::vector<Finding>& findings,
                                 std::string_view baseline_path) {
  CheckResult result;
  result.dump = current.dump;
  result.baseline_path = std::string(baseline_path);
  result.update_command =
      fmt::format("graphdiff check {} --baseline {} --update-baseline",
                  ShellQuote(current.dump), ShellQuote(baseline_path));
  std::vector<std::pair<size_t, std::string>> match = MatchUnits(baseline, current);
  std::vector<bool> seen(baseline.units.size(), false);
  for (size_t c = 0; c < current.units.size(); ++c) {
    const GateUnit& now = current.units[c];
    UnitCheck u;
    u.kind = now.kind;
    u.key = now.key;
    const GateUnit* old_unit = nullptr;
    if (match[c].first != kNone) {
      old_unit = &baseline.units[match[c].first];
      seen[match[c].first] = true;
      u.baseline_key = old_unit->key;
      u.matched_by = match[c].second;
    }
    // Dump-wide findings are one bag, present or not: compare with empty.
    GateUnit empty;
    if (!old_unit && now.kind == GateUnitKind::kDump) old_unit = &empty;
    u.is_new = old_unit == nullptr;
    CompareUnit(budget, old_unit, now, &u);
    if (u.is_new) {
      std::string what = now.kind == GateUnitKind::kGraph ? "graph" : "metrics report";
      if (budget.new_graphs) {
        u.reasons.insert(u.reasons.begin(),
                         fmt::format("new {}, not in the baseline (allowed: \"new_graphs\": true)", what));
      } else {
        u.reasons.insert(u.reasons.begin(),
                         fmt::format("new {}, not in the baseline (a budget with \"new_graphs\": "
                                     "true allows new graphs)", what));
      }
    }
    bool breached = std::any_of(u.changes.begin(), u.changes.end(),
                                [](const GateChange& m) { return m.breached; });
    bool improved = std::any_of(u.changes.begin(), u.changes.end(),
                                [](const GateChange& m) { return m.improved; });
    if (breached || (u.is_new && !budget.new_graphs)) {
      u.verdict = GateVerdict::kFail;
      u.findings = NotesFor(current.units, now.kind == GateUnitKind::kDump ? current.units.size() : c,
                            findings);
    } else if (improved) {
      u.verdict = GateVerdict::kImproved;
      for (const GateChange& m : u.changes) {
        if (m.improved) {
          u.reasons.push_back(fmt::format("{}: {}", m.metric,
                                          gate_internal::OldToNew(m.old_value, m.new_value)));
        }
      }
    }
    result.units.push_back(std::move(u));
  }
  for (size_t b = 0; b < baseline.units.size(); ++b) {
    if (seen[b]) continue;
    const GateUnit& old_unit = baseline.units[b];
    UnitCheck u;
    u.kind = old_unit.kind;
    u.key = old_unit.key;
    u.baseline_key = old_unit.key;
    if (old_unit.kind == GateUnitKind::kDump) {
      // Every dump-wide finding went away: an improvement where gated.
      for (const auto& [m, v] : old_unit.values) {
        GateChange c = Judge(budget, old_unit.key, m, v, 0);
        if (v != 0) u.changes.push_back(std::move(c));
      }
      SortChanges(&u.changes);
      bool improved = std::any_of(u.changes.begin(), u.changes.end(),
                                  [](const GateChange& m) { return m.improved; });
      u.verdict = improved ? GateVerdict::kImproved : GateVerdict::kPass;
      if (improved) u.reasons.push_back("no dump-wide findings any more");
      result.units.push_back(std::move(u));
      continue;
    }
    u.is_missing = true;
    std::string what = old_unit.kind == GateUnitKind::kGraph ? "graph" : "metrics report";
    if (budget.missing_graphs) {
      u.verdict = GateVerdict::kImproved;
      u.reasons.push_back(fmt::format(
          "{} in the baseline is gone from this dump (allowed: \"missing_graphs\": true)", what));
    } else {
      u.verdict = GateVerdict::kFail;
      u.reasons.push_back(fmt::format(
          "{} in the baseline is missing from this dump (did the job stop producing it? a "
          "budget with \"missing_graphs\": true allows removals)", what));
    }
    result.units.push_back(std::move(u));
  }
  ExplainValues(baseline, current, &result);
  gate_internal::ExplainFailures(baseline, current, &result);
  if (result.failed() > 0) {
    result.verdict = GateVerdict::kFail;
  } else if (result.improved() > 0) {
    result.verdict = GateVerdict::kImproved;
  }
  return result;
}

}  // namespace graphdiff
