// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// MetricsReport: the counters and metrics of a torch_xla or torch._lazy
// `metrics_report()`, with every value converted to a number.
//
// Counters (`xla::clone`, `UncachedCompile`, `aten::*` CPU fallbacks) are the
// cheapest evidence of what a backend did; metrics carry times and sizes.
#ifndef GRAPHDIFF_METRICS_H_
#define GRAPHDIFF_METRICS_H_

#include "graphdiff/export.h"
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// What a metric's values measure. Times are converted to nanoseconds and
// sizes to bytes, so two reports that print in different units compare.
enum class MetricUnit : uint8_t { kNumber, kNanoseconds, kBytes };

// One `Metric:` block.
struct Metric {
  std::string name;
  MetricUnit unit = MetricUnit::kNumber;
  int64_t total_samples = 0;
  double accumulator = 0;
  std::optional<double> value_rate;  // per second, in `unit`
  std::optional<double> rate;        // samples per second
  std::optional<double> mean;
  std::optional<double> stddev;
  std::vector<std::pair<double, double>> percentiles;  // (percent, value)
  uint32_t line = 0;
};

// One top-level `Counter:` block.
struct Counter {
  std::string name;
  int64_t value = 0;
  uint32_t line = 0;
};

// A whole report. When a name appears twice (torch_xla concatenates two
// reports) the later value wins and `duplicates` counts the repeats.
struct MetricsReport {
  std::string source;
  std::vector<Metric> metrics;    // in file order
  std::vector<Counter> counters;  // in file order
  uint32_t duplicates = 0;

  const Counter* FindCounter(std::string_view name) const;
  const Metric* FindMetric(std::string_view name) const;
};

std::string_view MetricUnitName(MetricUnit unit);

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_METRICS_H_
