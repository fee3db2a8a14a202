// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/metric_values.h"

#include <charconv>
#include <cmath>
#include <cstdint>

namespace graphdiff {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// A decimal `123.456` as mantissa 123456 with 3 fraction digits. Keeping the
// digits exact lets `746.001us` become exactly 746001 ns instead of
// 746000.9999999999.
struct Decimal {
  uint64_t mantissa = 0;
  int fraction_digits = 0;
  bool exact = true;  // false once the mantissa no longer fits
  double approx = 0;  // the value when !exact
};

// Reads `digits[.digits]` at the front of `s`; returns the length consumed
// (0 when there is no digit).
size_t ReadDecimal(std::string_view s, Decimal* out) {
  size_t i = 0;
  bool any = false, dot = false;
  Decimal d;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (IsDigit(c)) {
      any = true;
      if (dot) ++d.fraction_digits;
      if (d.exact && d.mantissa <= (UINT64_MAX - 9) / 10 && d.fraction_digits <= 18) {
        d.mantissa = d.mantissa * 10 + static_cast<uint64_t>(c - '0');
      } else if (d.exact) {
        d.exact = false;
      }
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
  }
  if (!any) return 0;
  if (!d.exact) {
    double v = 0;
    std::from_chars(s.data(), s.data() + i, v);
    d.approx = v;
  }
  *out = d;
  return i;
}

uint64_t Pow10(int n) {
  uint64_t p = 1;
  while (n-- > 0) p *= 10;
  return p;
}

// decimal * factor, exact whenever the result is a representable integer.
double Scale(const Decimal& d, uint64_t factor) {
  if (!d.exact) return d.approx * static_cast<double>(factor);
  uint64_t div = Pow10(d.fraction_digits);
  if (factor % div == 0) {
    uint64_t mul = factor / div, r = 0;
    if (!__builtin_mul_overflow(d.mantissa, mul, &r)) return static_cast<double>(r);
  }
  uint64_t r = 0;
  if (!__builtin_mul_overflow(d.mantissa, factor, &r)) {
    return static_cast<double>(r) / static_cast<double>(div);
  }
  return static_cast<double>(d.mantissa) / static_cast<double>(div) *
         static_cast<double>(factor);
}

std::optional<uint64_t> TimeUnitNanos(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1000;
  if (unit == "ms") return 1000000;
  if (unit == "s") return 1000000000ULL;
  if (unit == "m") return 60ULL * 1000000000ULL;
  if (unit == "h") return 3600ULL * 1000000000ULL;
  if (unit == "d") return 86400ULL * 1000000000ULL;
  return std::nullopt;
}

std::optional<uint64_t> ByteUnitBytes(std::string_view unit) {
  if (unit == "B") return 1;
  if (unit == "KB") return 1ULL << 10;
  if (unit == "MB") return 1ULL << 20;
  if (unit == "GB") return 1ULL << 30;
  if (unit == "TB") return 1ULL << 40;
  if (unit == "PB") return 1ULL << 50;
  return std::nullopt;
}

// `[-]digits[.digits]` with at most 15 digits in all, the way reports print
// nearly every value: the digits as an integer (exact below 2^53) divided
// by an exact power of ten is the correctly rounded value (Clinger's fast
// path), the one from_chars gives. libstdc++'s floating-point from_chars
// goes through strtod and a locale switch, and was a third of parsing a
// large report. False for anything else, which from_chars then reads.
bool FastDecimal(std::string_view s, double* out) {
  static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  size_t i = 0;
  bool negative = !s.empty() && s[0] == '-';
  if (negative) ++i;
  uint64_t mantissa = 0;
  int digits = 0, fraction = -1;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      if (++digits > 15) return false;
      mantissa = mantissa * 10 + static_cast<uint64_t>(c - '0');
      if (fraction >= 0) ++fraction;
    } else if (c == '.' && fraction < 0) {
      fraction = 0;
    } else {
      return false;
    }
  }
  // At least one digit before and after a point: `5.` and `.5` go the
  // long way, which decides what they are.
  if (digits == 0 || fraction == 0 || (fraction > 0 && digits == fraction)) return false;
  double v = static_cast<double>(mantissa) / kPow10[fraction > 0 ? fraction : 0];
  *out = negative ? -v : v;
  return true;
}
}  // namespace

std::optional<double> ParsePlainNumber(std::string_view text) {
  text = Trim(text);
  if (text.empty()) return std::nullopt;
  std::string_view body = text;
  if (body.front() == '+') body.remove_prefix(1);
  if (body.empty() || body.front() == '+') return std::nullopt;
  double v = 0;
  if (FastDecimal(body, &v)) return v;
  auto [ptr, ec] = std::from_chars(body.data(), body.data() + body.size(), v);
  if (ec != std::errc() || ptr != body.data() + body.size()) return std::nullopt;
  return v;
}

std::optional<int64_t> ParseMetricInteger(std::string_view text) {
  text = Trim(text);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    return std::nullopt;
  return v;
}

std::optional<MetricValue> ParseMetricValue(std::string_view text) {
  text = Trim(text);
  if (text.empty()) return std::nullopt;
  if (std::optional<double> plain = ParsePlainNumber(text)) {
    return MetricValue{*plain, MetricUnit::kNumber};
  }
  // torch_xla prints an undefined mean or accumulator as `nan`, `nanB` or
  // `-infs`: a value of the unit's kind that is not a number.
  {
    std::string_view body = text;
    bool negative = false;
    if (body.front() == '+' || body.front() == '-') {
      negative = body.front() == '-';
      body.remove_prefix(1);
    }
    std::string_view special = body.substr(0, 3);
    if (special == "nan" || special == "inf" || special == "NaN" || special == "Inf") {
      std::string_view rest = body.substr(3);
      if (rest.substr(0, 5) == "inity") rest.remove_prefix(5);
      double v = special[0] == 'n' || special[0] == 'N'
                     ? std::nan("")
                     : (negative ? -HUGE_VAL : HUGE_VAL);
      if (rest.empty()) return MetricValue{v, MetricUnit::kNumber};
      if (TimeUnitNanos(rest)) return MetricValue{v, MetricUnit::kNanoseconds};
      if (ByteUnitBytes(rest)) return MetricValue{v, MetricUnit::kBytes};
    }
  }
  // A sequence of <decimal><unit> segments, all time units or one size unit.
  double total = 0;
  int segments = 0;
  MetricUnit unit = MetricUnit::kNumber;
  size_t i = 0;
  while (i < text.size()) {
    Decimal d;
    size_t n = ReadDecimal(text.substr(i), &d);
    if (n == 0) return std::nullopt;
    i += n;
    size_t u = i;
    while (i < text.size() && IsAlpha(text[i])) ++i;
    std::string_view name = text.substr(u, i - u);
    if (std::optional<uint64_t> ns = TimeUnitNanos(name)) {
      if (unit == MetricUnit::kBytes) return std::nullopt;
      unit = MetricUnit::kNanoseconds;
      total += Scale(d, *ns);
    } else if (std::optional<uint64_t> bytes = ByteUnitBytes(name)) {
      if (segments > 0) return std::nullopt;
      unit = MetricUnit::kBytes;
      total += Scale(d, *bytes);
    } else {
      return std::nullopt;
    }
    ++segments;
  }
  if (segments == 0 || !std::isfinite(total)) return std::nullopt;
  return MetricValue{total, unit};
}

}  // namespace graphdiff
