// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// counter-delta: metrics counters and metrics that moved beyond the
// thresholds; new `aten::*` counters are CPU fallbacks and get their own,
// louder finding. Clone counters belong to the clones family.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

bool Moved(double before, double after, double min_abs, double min_rel) {
  double d = std::fabs(after - before);
  // Relative to the smaller side, so swapping the runs never changes
  // whether a counter moved.
  double base = std::max(std::min(std::fabs(before), std::fabs(after)), 1.0);
  return d > 0 && d >= min_abs && d / base >= min_rel;
}

Evidence CounterEvidence(const MetricsReport& m, Side side, const std::string& name,
                         uint32_t line, std::string note) {
  Evidence e;
  e.side = side;
  e.source = m.source;
  e.line = line;
  e.node = name;
  e.note = std::move(note);
  return e;
}

}  // namespace

void FindCounterDeltas(const MetricsContext& c, std::vector<Finding>* out) {
  std::map<std::string, std::pair<const Counter*, const Counter*>> counters;
  for (const Counter& x : c.left.counters) counters[x.name].first = &x;
  for (const Counter& x : c.right.counters) counters[x.name].second = &x;
  Finding moved;
  moved.id = "counter-delta";
  moved.severity = Severity::kInfo;
  moved.graph = c.label;
  Finding fallbacks = moved;
  fallbacks.severity = Severity::kWarning;
  Finding gone = moved;  // the mirror of new fallbacks: the right lowers them
  std::string moved_parts;
  std::string fallback_parts;
  std::string gone_parts;
  for (const auto& [name, lr] : counters) {
    if (IsCloneCounter(name) || IsCompilationCounter(name)) continue;
    int64_t before = lr.first ? lr.first->value : 0;
    int64_t after = lr.second ? lr.second->value : 0;
    bool is_fallback = name.rfind("aten::", 0) == 0;
    if (is_fallback && before == 0 && after > 0) {
      ++fallbacks.count;
      fallbacks.evidence.push_back(CounterEvidence(c.right, Side::kRight, name, lr.second->line,
                                                   fmt::format("{} calls", after)));
      fallback_parts += fmt::format("{}{} ({})", fallback_parts.empty() ? "" : ", ", name, after);
      continue;
    }
    if (is_fallback && before > 0 && after == 0) {
      ++gone.count;
      gone.evidence.push_back(CounterEvidence(c.left, Side::kLeft, name, lr.first->line,
                                              fmt::format("{} calls", before)));
      gone_parts += fmt::format("{}{} ({})", gone_parts.empty() ? "" : ", ", name, before);
      continue;
    }
    if (!Moved(static_cast<double>(before), static_cast<double>(after),
               static_cast<double>(c.options.counter_min_abs), c.options.counter_min_rel)) {
      continue;
    }
    ++moved.count;
    std::string change = fmt::format("{} -> {}", lr.first ? std::to_string(before) : "absent",
                                     lr.second ? std::to_string(after) : "absent");
    moved.evidence.push_back(lr.second ? CounterEvidence(c.right, Side::kRight, name,
                                                         lr.second->line, change)
                                       : CounterEvidence(c.left, Side::kLeft, name,
                                                         lr.first->line, change));
    moved_parts += fmt::format("{}{} {}", moved_parts.empty() ? "" : ", ", name, change);
  }
  std::map<std::string, std::pair<const Metric*, const Metric*>> metrics;
  for (const Metric& x : c.left.metrics) metrics[x.name].first = &x;
  for (const Metric& x : c.right.metrics) metrics[x.name].second = &x;
  for (const auto& [name, lr] : metrics) {
    if (IsCompilationCounter(name)) continue;
    const Metric* any = lr.second ? lr.second : lr.first;
    if (any->unit == MetricUnit::kNanoseconds && !c.options.compare_timings) continue;
    double before = lr.first ? lr.first->accumulator : 0;
    double after = lr.second ? lr.second->accumulator : 0;
    if (!Moved(before, after, 0, c.options.metric_min_rel)) continue;
    ++moved.count;
    std::string change = fmt::format("{} -> {} {}", lr.first ? fmt::format("{:g}", before) : "absent",
                                     lr.second ? fmt::format("{:g}", after) : "absent",
                                     MetricUnitName(any->unit));
    moved.evidence.push_back(lr.second ? CounterEvidence(c.right, Side::kRight, name,
                                                         lr.second->line, change)
                                       : CounterEvidence(c.left, Side::kLeft, name,
                                                         lr.first->line, change));
    moved_parts += fmt::format("{}{} {}", moved_parts.empty() ? "" : ", ", name, change);
  }
  if (fallbacks.count > 0) {
    fallbacks.title = fmt::format("{} new CPU fallbacks: {}", fallbacks.count, fallback_parts);
    fallbacks.explanation =
        "Counters named aten::* count ops the backend could not lower and ran on the CPU; "
        "each fallback splits the graph and copies tensors between device and host.";
    fallbacks.hint = "Find which op each counter names and why it is not lowered (dtype, "
                     "dynamic shape, unsupported overload).";
    out->push_back(std::move(fallbacks));
  }
  if (gone.count > 0) {
    gone.title = fmt::format("{} CPU fallbacks gone: {}", gone.count, gone_parts);
    gone.explanation = "Counters named aten::* count ops the backend could not lower and ran on "
                       "the CPU; the left ran these on the CPU, the right no longer does.";
    out->push_back(std::move(gone));
  }
  if (moved.count > 0) {
    moved.title = fmt::format("{} counters/metrics moved: {}", moved.count, moved_parts);
    moved.explanation = "Counters record what the backend did (compilations, transfers, "
                        "allocations); a change says the two runs took different paths.";
    out->push_back(std::move(moved));
  }
}

void FindSmallCounterChanges(const MetricsContext& c, const std::vector<Finding>& found,
                             std::vector<Finding>* out) {
  for (const Finding& f : found) {
    if (f.graph == c.label) return;
  }
  std::map<std::string, std::pair<const Counter*, const Counter*>> counters;
  for (const Counter& x : c.left.counters) counters[x.name].first = &x;
  for (const Counter& x : c.right.counters) counters[x.name].second = &x;
  Finding f;
  f.id = "counter-delta";
  f.severity = Severity::kInfo;
  f.graph = c.label;
  std::string parts;
  for (const auto& [name, lr] : counters) {
    int64_t before = lr.first ? lr.first->value : 0;
    int64_t after = lr.second ? lr.second->value : 0;
    if (lr.first && lr.second && before == after) continue;
    ++f.count;
    std::string change = fmt::format("{} -> {}", lr.first ? std::to_string(before) : "absent",
                                     lr.second ? std::to_string(after) : "absent");
    f.evidence.push_back(lr.second ? CounterEvidence(c.right, Side::kRight, name, lr.second->line,
                                                     change)
                                   : CounterEvidence(c.left, Side::kLeft, name, lr.first->line,
                                                     change));
    if (f.count <= 4) parts += fmt::format("{}{} {}", parts.empty() ? "" : ", ", name, change);
  }
  if (f.count == 0) return;
  if (f.count > 4) parts += fmt::format(", and {} more", f.count - 4);
  f.title = fmt::format("{} changed below the thresholds: {}",
                        Plural(f.count, "counter", "counters"), parts);
  f.explanation = "These counters differ between the runs, but by less than the counter-delta "
                  "thresholds (--counter-min-abs / --counter-min-rel): run-to-run noise unless "
                  "the runs should be identical.";
  out->push_back(std::move(f));
}

}  // namespace graphdiff::analyze
