// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Converts the values a metrics report prints (`06m09s401ms746.001us`,
// `3.44KB`, `792.00`) into numbers in a canonical unit. Kept apart from the
// report parser so the unit arithmetic can be tested on its own.
#ifndef GRAPHDIFF_SRC_PARSE_METRIC_VALUES_H_
#define GRAPHDIFF_SRC_PARSE_METRIC_VALUES_H_

#include <cstddef>
#include <optional>
#include <string_view>

#include "graphdiff/metrics.h"

namespace graphdiff {

struct MetricValue {
  double value = 0;
  MetricUnit unit = MetricUnit::kNumber;
};

// A time (`1h02m03s004ms005.006us`; units d h m s ms us ns) in nanoseconds,
// a size (`8.00B`, `3.44KB`; binary multiples) in bytes, or a plain number.
// Surrounding whitespace is ignored. nullopt when `text` is none of these.
std::optional<MetricValue> ParseMetricValue(std::string_view text);

// A plain decimal number (`0.0255932`, `12`, `1.5e+06`, `-3`, `inf`, `nan`:
// rates over an empty interval print so); nullopt when
// `text` is anything else.
std::optional<double> ParsePlainNumber(std::string_view text);

// A decimal integer such as a counter value; nullopt on anything else or on
// overflow.
std::optional<int64_t> ParseMetricInteger(std::string_view text);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_METRIC_VALUES_H_
