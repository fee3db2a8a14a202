// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/metrics.h"

namespace graphdiff {

// Reports hold a few hundred entries and are searched rarely, so a linear
// scan beats keeping an index in sync with the public vectors.
const Counter* MetricsReport::FindCounter(std::string_view name) const {
  for (const Counter& c : counters) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

const Metric* MetricsReport::FindMetric(std::string_view name) const {
  for (const Metric& m : metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string_view MetricUnitName(MetricUnit unit) {
  switch (unit) {
    case MetricUnit::kNumber: return "number";
    case MetricUnit::kNanoseconds: return "ns";
    case MetricUnit::kBytes: return "bytes";
  }
  return "number";
}

}  // namespace graphdiff
