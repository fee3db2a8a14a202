// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// ParseMetrics: reads a torch_xla / torch._lazy metrics_report() line by line.
// Blocks are recognised by indentation relative to their header, so a report
// pasted with extra indentation still parses, and an old-style indented
// `Counter:` inside a `Metric:` block is told apart from a real counter.
#include <optional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "fmt/format.h"
#include "graphdiff/parse.h"
#include "parse/error.h"
#include "parse/lines.h"
#include "parse/metric_values.h"

namespace graphdiff {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

std::string_view TrimRight(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Offset of the first non-blank byte of `s` at or after `from`.
size_t SkipBlanks(std::string_view s, size_t from) {
  while (from < s.size() && (s[from] == ' ' || s[from] == '\t')) ++from;
  return from;
}

// `TSBackendImpl: N/A` and friends: one word, a colon, anything.
bool IsNameValueLine(std::string_view body) {
  size_t colon = body.find(':');
  if (colon == 0 || colon == std::string_view::npos) return false;
  for (char c : body.substr(0, colon)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u <= ' ' || u >= 0x7f) return false;
  }
  return colon + 1 == body.size() || body[colon + 1] == ' ';
}

class MetricsParser {
 public:
  MetricsParser(std::string_view text, std::string_view source,
                std::vector<Diagnostic>* warnings)
      : text_(text), source_(source), warnings_(warnings) {
    report_.source = std::string(source);
  }

  absl::StatusOr<MetricsReport> Run() {
    if (text_.find_first_not_of(" \t\r\n") == std::string_view::npos) {
      return ParseError(source_, text_, 0, "empty metrics report");
    }
    LineReader reader(text_);
    std::string_view raw;
    while (reader.Next(&raw)) {
      line_ = TrimRight(raw);
      line_number_ = reader.line_number();
      if (line_.empty()) continue;
      size_t indent = SkipBlanks(line_, 0);
      absl::Status st = Line(indent);
      if (!st.ok()) return st;
    }
    EndBlock();
    EndOrphan();
    if (report_.metrics.empty() && report_.counters.empty() && !tolerated_) {
      return ParseError(source_, text_, 0,
                        "not a metrics report: no `Metric:` or `Counter:` block");
    }
    return std::move(report_);
  }

 private:
  enum class Block { kNone, kMetric, kCounter };

  absl::Status Line(size_t indent) {
    std::string_view body = line_.substr(indent);
    bool nested = block_ != Block::kNone && indent > block_indent_;
    if (StartsWith(body, "Metric:")) {
      EndOrphan();
      EndBlock();
      StartBlock(Block::kMetric, indent, body.substr(7));
      return absl::OkStatus();
    }
    if (StartsWith(body, "Counter:")) {
      if (block_ == Block::kMetric && nested) {
        // Very old reports: the metric's total printed as a nested counter.
        return Accumulator(indent + 8);
      }
      EndOrphan();
      EndBlock();
      StartBlock(Block::kCounter, indent, body.substr(8));
      return absl::OkStatus();
    }
    if (nested && block_ == Block::kMetric) return MetricField(indent);
    if (nested && block_ == Block::kCounter) return CounterField(indent);
    EndBlock();
    if (orphan_line_ != 0 && indent > orphan_indent_) {
      // A field of a block whose header is garbled (`etric: CompileTime`).
      ++orphan_fields_;
      return absl::OkStatus();
    }
    EndOrphan();
    if (IsFieldLine(body)) {
      Warn(indent, "skipped a metric field outside any `Metric:` or `Counter:` block");
      return absl::OkStatus();
    }
    if (IsNameValueLine(body)) {
      // `TSBackendImpl: N/A` is tolerated; but if indented fields follow, it
      // was a block header the report mangled, and that must not vanish.
      tolerated_ = true;
      orphan_line_ = line_number_;
      orphan_indent_ = indent;
      orphan_fields_ = 0;
      orphan_header_ = std::string(body.substr(0, 60));
      return absl::OkStatus();
    }
    Warn(indent, "skipped a line that is not part of a metrics report");
    return absl::OkStatus();
  }

  static bool IsFieldLine(std::string_view body) {
    for (std::string_view key : {"TotalSamples:", "Accumulator:", "ValueRate:", "Rate:",
                                 "Percentiles:", "Mean:", "StdDev:", "Value:"}) {
      if (StartsWith(body, key)) return true;
    }
    return false;
  }

  void EndOrphan() {
    if (orphan_line_ != 0 && orphan_fields_ > 0) {
      WarnAt(orphan_line_, static_cast<uint32_t>(orphan_indent_ + 1),
             fmt::format("skipped a block of {} lines under '{}', which is not a `Metric:` "
                         "or `Counter:` header (garbled report?)",
                         orphan_fields_ + 1, orphan_header_));
    }
    orphan_line_ = 0;
    orphan_fields_ = 0;
  }

  void StartBlock(Block block, size_t indent, std::string_view name_text) {
    size_t b = SkipBlanks(name_text, 0);
    std::string_view name = name_text.substr(b);
    if (name.empty()) {
      Warn(indent, block == Block::kMetric ? "`Metric:` without a name"
                                           : "`Counter:` without a name");
      block_ = Block::kNone;
      return;
    }
    block_ = block;
    block_indent_ = indent;
    if (block == Block::kMetric) {
      metric_ = Metric{};
      metric_.name = std::string(name);
      metric_.line = line_number_;
      metric_has_values_ = false;
      unit_known_ = false;
    } else {
      counter_ = Counter{};
      counter_.name = std::string(name);
      counter_.line = line_number_;
      counter_has_value_ = false;
    }
  }

  // Commits the block that just ended; a repeated name replaces the earlier
  // entry in place, so file order stays that of first appearance.
  void EndBlock() {
    if (block_ == Block::kMetric) {
      if (!metric_has_values_) {
        WarnAt(metric_.line, 1,
               fmt::format("metric '{}' has no values; dropped", metric_.name));
      } else {
        auto [it, inserted] =
            metric_index_.try_emplace(metric_.name, report_.metrics.size());
        if (inserted) {
          report_.metrics.push_back(std::move(metric_));
        } else {
          ++report_.duplicates;
          report_.metrics[it->second] = std::move(metric_);
        }
      }
    } else if (block_ == Block::kCounter) {
      if (!counter_has_value_) {
        WarnAt(counter_.line, 1,
               fmt::format("counter '{}' has no `Value:`; dropped", counter_.name));
      } else {
        auto [it, inserted] =
            counter_index_.try_emplace(counter_.name, report_.counters.size());
        if (inserted) {
          report_.counters.push_back(std::move(counter_));
        } else {
          ++report_.duplicates;
          report_.counters[it->second] = std::move(counter_);
        }
      }
    }
    block_ = Block::kNone;
  }

  // Splits `Key: value` at `indent`; false when the line has no colon.
  bool SplitField(size_t indent, std::string_view* key, size_t* value_col) {
    size_t colon = line_.find(':', indent);
    if (colon == std::string_view::npos) return false;
    *key = line_.substr(indent, colon - indent);
    *value_col = SkipBlanks(line_, colon + 1);
    return true;
  }

  absl::Status MetricField(size_t indent) {
    std::string_view key;
    size_t at = 0;
    if (!SplitField(indent, &key, &at)) {
      Warn(indent, "skipped a line inside a `Metric:` block");
      return absl::OkStatus();
    }
    std::string_view value = line_.substr(at);
    if (key == "TotalSamples") {
      std::optional<int64_t> n = ParseMetricInteger(value);
      if (!n || *n < 0) return Error(at, "TotalSamples must be a non-negative integer");
      metric_.total_samples = *n;
      metric_has_values_ = true;
      return absl::OkStatus();
    }
    if (key == "Accumulator") return Accumulator(at);
    if (key == "ValueRate") {
      MetricValue v;
      absl::Status st = PerSecond(at, /*plain_only=*/false, &v);
      if (!st.ok()) return st;
      metric_.value_rate = v.value;
      return absl::OkStatus();
    }
    if (key == "Rate") {
      MetricValue v;
      absl::Status st = PerSecond(at, /*plain_only=*/true, &v);
      if (!st.ok()) return st;
      metric_.rate = v.value;
      return absl::OkStatus();
    }
    if (key == "Mean" || key == "StdDev") {
      MetricValue v;
      absl::Status st = Value(at, value, &v);
      if (!st.ok()) return st;
      (key == "Mean" ? metric_.mean : metric_.stddev) = v.value;
      return absl::OkStatus();
    }
    if (key == "Percentiles") return Percentiles(at);
    Warn(indent, fmt::format("unknown metric field '{}' skipped", key));
    return absl::OkStatus();
  }

  absl::Status CounterField(size_t indent) {
    std::string_view key;
    size_t at = 0;
    if (!SplitField(indent, &key, &at) || key != "Value") {
      Warn(indent, "skipped a line inside a `Counter:` block");
      return absl::OkStatus();
    }
    std::optional<int64_t> n = ParseMetricInteger(line_.substr(at));
    if (!n) return Error(at, "counter Value must be an integer");
    counter_.value = *n;
    counter_has_value_ = true;
    return absl::OkStatus();
  }

  absl::Status Accumulator(size_t at) {
    at = SkipBlanks(line_, at);
    MetricValue v;
    absl::Status st = Value(at, line_.substr(at), &v);
    if (!st.ok()) return st;
    metric_.accumulator = v.value;
    metric_.unit = v.unit;
    unit_known_ = true;
    metric_has_values_ = true;
    return absl::OkStatus();
  }

  // `<value> / second`. Rates of plain metrics and the sample Rate are plain
  // numbers; a ValueRate carries the metric's unit.
  absl::Status PerSecond(size_t at, bool plain_only, MetricValue* out) {
    std::string_view value = line_.substr(at);
    size_t slash = value.rfind('/');
    if (slash != std::string_view::npos) value = TrimRight(value.substr(0, slash));
    if (plain_only) {
      std::optional<double> d = ParsePlainNumber(value);
      if (!d) return Error(at, fmt::format("malformed rate '{}'", value));
      out->value = *d;
      return absl::OkStatus();
    }
    return Value(at, value, out);
  }

  absl::Status Percentiles(size_t at) {
    size_t pos = at;
    while (pos < line_.size()) {
      size_t end = line_.find(';', pos);
      if (end == std::string_view::npos) end = line_.size();
      size_t start = SkipBlanks(line_, pos);
      std::string_view item = TrimRight(line_.substr(start, end - start));
      pos = end + 1;
      if (item.empty()) continue;
      size_t eq = item.find('=');
      if (eq == std::string_view::npos || eq == 0 || item[eq - 1] != '%') {
        return Error(start, "expected a percentile such as `50%=1.00`");
      }
      std::optional<double> percent = ParsePlainNumber(item.substr(0, eq - 1));
      if (!percent) return Error(start, "malformed percentile");
      MetricValue v;
      absl::Status st = Value(start + eq + 1, item.substr(eq + 1), &v);
      if (!st.ok()) return st;
      metric_.percentiles.emplace_back(*percent, v.value);
    }
    return absl::OkStatus();
  }

  // Any value of the metric; the first one seen fixes the metric's unit when
  // there is no Accumulator.
  absl::Status Value(size_t at, std::string_view text, MetricValue* out) {
    std::optional<MetricValue> v = ParseMetricValue(text);
    if (!v) {
      return Error(at, fmt::format("malformed value '{}' (expected a number, a "
                                   "time such as 1s002ms or a size such as 3.44KB)",
                                   TrimRight(text)));
    }
    if (!unit_known_) {
      metric_.unit = v->unit;
      unit_known_ = true;
    }
    *out = *v;
    return absl::OkStatus();
  }

  absl::Status Error(size_t column0, std::string_view message) {
    return ParseErrorAt(source_, line_number_, static_cast<uint32_t>(column0 + 1),
                        line_, message);
  }
  void Warn(size_t column0, std::string_view message) {
    WarnAt(line_number_, static_cast<uint32_t>(column0 + 1), message);
  }
  void WarnAt(uint32_t line, uint32_t column, std::string_view message) {
    AddWarning(warnings_, ParseOptions{}.max_warnings, source_, line, column,
               message);
  }

  std::string_view text_;
  std::string_view source_;
  std::vector<Diagnostic>* warnings_;
  MetricsReport report_;
  absl::flat_hash_map<std::string, size_t> metric_index_;
  absl::flat_hash_map<std::string, size_t> counter_index_;

  std::string_view line_;
  uint32_t line_number_ = 0;
  Block block_ = Block::kNone;
  size_t block_indent_ = 0;
  Metric metric_;
  Counter counter_;
  bool metric_has_values_ = false;
  bool counter_has_value_ = false;
  bool unit_known_ = false;
  bool tolerated_ = false;
  // The last tolerated `name: value` line outside a block, while the lines
  // after it are indented under it.
  uint32_t orphan_line_ = 0;
  size_t orphan_indent_ = 0;
  size_t orphan_fields_ = 0;
  std::string orphan_header_;
};

}  // namespace

absl::StatusOr<MetricsReport> ParseMetrics(std::string_view text,
                                           std::string_view source,
                                           std::vector<Diagnostic>* warnings) {
  return MetricsParser(text, source, warnings).Run();
}

}  // namespace graphdiff
