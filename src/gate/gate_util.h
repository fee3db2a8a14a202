// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers shared by the gate's files: glob matching for budget scopes,
// JSON parsing with positioned errors, and number formatting for reports.
#ifndef GRAPHDIFF_SRC_GATE_GATE_UTIL_H_
#define GRAPHDIFF_SRC_GATE_GATE_UTIL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphdiff/gate.h"
#include "nlohmann/json.hpp"

namespace graphdiff::gate_internal {

// `*` matches any run of characters, `?` one character; nothing else is
// special, so op names with brackets or dots need no escaping.
bool GlobMatch(std::string_view pattern, std::string_view text);
bool IsGlob(std::string_view pattern);

// Parses JSON; a syntax error becomes `source:line:col: message` plus the
// line and a caret.
absl::StatusOr<nlohmann::ordered_json> ParseJsonText(std::string_view text,
                                                     std::string_view source);

// `new_value - old_value`, exact at the int64 edges: "+80", "-40", "0".
std::string SignedDelta(int64_t old_value, int64_t new_value);
// The same without the plus sign ("80"), for CSV.
std::string PlainDelta(int64_t old_value, int64_t new_value);
// The same as a JSON number: an integer when it fits 64 bits, else a double.
nlohmann::ordered_json DeltaJson(int64_t old_value, int64_t new_value);
// The same as a double, for percentages and ordering.
double DeltaDouble(int64_t old_value, int64_t new_value);
// "1 -> 81 (+80)" or "(new) 81" when there is no baseline value.
std::string OldToNew(std::optional<int64_t> old_value, int64_t new_value);

// "aten::expand: 8 -> 48 (+40)".
std::string ChangeText(const GateChange& change);
// What a reader needs first on a unit: its reasons, then up to `max_other`
// further changes that are neither breaches nor improvements (the op
// histogram moves that explain a node-count breach).
std::vector<const GateChange*> OtherChanges(const UnitCheck& unit, size_t max_other);
// "3 units: 1 failed, 1 improved, 1 passed".
std::string SummaryLine(const CheckResult& result);
// The advice under a report: how to accept or tighten, or nothing on PASS.
std::string AdviceLine(const CheckResult& result);

}  // namespace graphdiff::gate_internal

#endif  // GRAPHDIFF_SRC_GATE_GATE_UTIL_H_
