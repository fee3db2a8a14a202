// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "gate/gate_util.h"

#include <limits>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/sanitize.h"
#include "parse/error.h"
#include "util/checked.h"
#include "util/json_text.h"

namespace graphdiff::gate_internal {

bool GlobMatch(std::string_view pattern, std::string_view text) {
  // Iterative matcher with one backtrack point: linear-ish, no recursion, so
  // a hostile pattern cannot blow the stack.
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

bool IsGlob(std::string_view pattern) {
  return pattern.find_first_of("*?") != std::string_view::npos;
}

absl::StatusOr<nlohmann::ordered_json> ParseJsonText(std::string_view text,
                                                     std::string_view source) {
  if (absl::Status deep = CheckJsonDepth(text, source); !deep.ok()) return deep;
  try {
    return ParseOrderedJson(text);
  } catch (const nlohmann::ordered_json::out_of_range& e) {
    // A number too large for a double (1e400): not a syntax error, but the
    // file is no more usable.
    return absl::InvalidArgumentError(
        fmt::format("{}: invalid JSON: a number is out of range ({})", source,
                    JsonExceptionText(e)));
  } catch (const nlohmann::ordered_json::parse_error& e) {
    // nlohmann's message repeats the position; keep only what went wrong.
    std::string message = JsonExceptionText(e);
    std::string_view what = message;
    size_t col = what.find("column ");
    if (col != std::string_view::npos) {
      size_t colon = what.find(": ", col);
      if (colon != std::string_view::npos) what.remove_prefix(colon + 2);
    }
    size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    if (offset > text.size()) offset = text.size();
    return ParseError(source, text, offset, fmt::format("invalid JSON: {}", what));
  } catch (const nlohmann::ordered_json::exception& e) {
    return absl::InvalidArgumentError(
        fmt::format("{}: invalid JSON: {}", source, JsonExceptionText(e)));
  }
}

std::string SignedDelta(int64_t old_value, int64_t new_value) {
  __int128 d = ExactDifference(old_value, new_value);
  return d > 0 ? "+" + Int128ToString(d) : Int128ToString(d);
}

std::string PlainDelta(int64_t old_value, int64_t new_value) {
  return Int128ToString(ExactDifference(old_value, new_value));
}

nlohmann::ordered_json DeltaJson(int64_t old_value, int64_t new_value) {
  __int128 d = ExactDifference(old_value, new_value);
  if (d >= std::numeric_limits<int64_t>::min() && d <= std::numeric_limits<int64_t>::max()) {
    return static_cast<int64_t>(d);
  }
  if (d > 0 && d <= static_cast<__int128>(std::numeric_limits<uint64_t>::max())) {
    return static_cast<uint64_t>(d);
  }
  return static_cast<double>(d);
}

double DeltaDouble(int64_t old_value, int64_t new_value) {
  return static_cast<double>(ExactDifference(old_value, new_value));
}

std::string OldToNew(std::optional<int64_t> old_value, int64_t new_value) {
  if (!old_value) return fmt::format("(new) {}", new_value);
  return fmt::format("{} -> {} ({})", *old_value, new_value,
                     SignedDelta(*old_value, new_value));
}

std::string ChangeText(const GateChange& change) {
  return fmt::format("{}: {}", change.metric, OldToNew(change.old_value, change.new_value));
}

std::vector<const GateChange*> OtherChanges(const UnitCheck& unit, size_t max_other) {
  std::vector<const GateChange*> out;
  for (const GateChange& c : unit.changes) {
    if (out.size() >= max_other) break;
    if (!c.breached && !c.improved && c.old_value) out.push_back(&c);
  }
  return out;
}

std::string SummaryLine(const CheckResult& result) {
  int failed = result.failed(), improved = result.improved();
  int passed = static_cast<int>(result.units.size()) - failed - improved;
  return fmt::format("{} {}: {} failed, {} improved, {} passed", result.units.size(),
                     result.units.size() == 1 ? "unit" : "units", failed, improved, passed);
}

std::string AdviceLine(const CheckResult& result) {
  switch (result.verdict) {
    case GateVerdict::kFail:
      return "If the growth is intended, accept the new numbers as the baseline with:";
    case GateVerdict::kImproved:
      return "The dump is smaller than the baseline; tighten the baseline (ratchet) with:";
    case GateVerdict::kPass:
      break;
  }
  return "";
}

}  // namespace graphdiff::gate_internal
