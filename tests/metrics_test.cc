// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/metrics.h"

#include <charconv>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "parse/metric_values.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using testing::ReadTestdata;

constexpr double kNsPerSec = 1e9;

MetricsReport Parse(const std::string& text, std::vector<Diagnostic>* w = nullptr) {
  absl::StatusOr<MetricsReport> r = ParseMetrics(text, "m.txt", w);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *std::move(r) : MetricsReport{};
}

MetricsReport ParseFixture(const std::string& name,
                           std::vector<Diagnostic>* w = nullptr) {
  std::string path = "fixtures/metrics/" + name;
  absl::StatusOr<MetricsReport> r = ParseMetrics(ReadTestdata(path), path, w);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *std::move(r) : MetricsReport{};
}

std::string ErrorOf(const std::string& text) {
  absl::StatusOr<MetricsReport> r = ParseMetrics(text, "m.txt");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(r.status().message());
}

double ValueOf(std::string_view text, MetricUnit unit) {
  std::optional<MetricValue> v = ParseMetricValue(text);
  EXPECT_TRUE(v.has_value()) << text;
  if (!v) return -1;
  EXPECT_EQ(v->unit, unit) << text;
  return v->value;
}

TEST(MetricsValue, TimesBecomeExactNanoseconds) {
  EXPECT_EQ(ValueOf("06m09s401ms746.001us", MetricUnit::kNanoseconds), 369401746001.0);
  EXPECT_EQ(ValueOf("002.605us", MetricUnit::kNanoseconds), 2605.0);
  EXPECT_EQ(ValueOf("191ms81.607us", MetricUnit::kNanoseconds), 191081607.0);
  EXPECT_EQ(ValueOf("023ms960.897us", MetricUnit::kNanoseconds), 23960897.0);
  EXPECT_EQ(ValueOf("02s746ms660.403us", MetricUnit::kNanoseconds), 2746660403.0);
  EXPECT_EQ(ValueOf("1d02h03m04s005ms006.007us", MetricUnit::kNanoseconds),
            93784005006007.0);
  EXPECT_EQ(ValueOf("12ns", MetricUnit::kNanoseconds), 12.0);
  EXPECT_EQ(ValueOf("012.500ns", MetricUnit::kNanoseconds), 12.5);
  EXPECT_EQ(ValueOf("01s", MetricUnit::kNanoseconds), kNsPerSec);
  EXPECT_EQ(ValueOf("  415.057us ", MetricUnit::kNanoseconds), 415057.0);
}

TEST(MetricsValue, SizesBecomeBytesWithBinaryMultiples) {
  EXPECT_EQ(ValueOf("8.00B", MetricUnit::kBytes), 8.0);
  EXPECT_EQ(ValueOf("3.44KB", MetricUnit::kBytes), 3.44 * 1024);
  EXPECT_EQ(ValueOf("1.50MB", MetricUnit::kBytes), 1572864.0);
  EXPECT_EQ(ValueOf("4.09GB", MetricUnit::kBytes), 4.09 * 1073741824.0);
  EXPECT_EQ(ValueOf("2TB", MetricUnit::kBytes), 2.0 * 1099511627776.0);
}

TEST(MetricsValue, PlainNumbers) {
  EXPECT_EQ(ValueOf("792.00", MetricUnit::kNumber), 792.0);
  EXPECT_EQ(ValueOf("0.0255932", MetricUnit::kNumber), 0.0255932);
  EXPECT_EQ(ValueOf("1.5e+02", MetricUnit::kNumber), 150.0);
  EXPECT_EQ(ValueOf("-3", MetricUnit::kNumber), -3.0);
  EXPECT_EQ(ParseMetricInteger("103"), 103);
  EXPECT_EQ(ParseMetricInteger("9223372036854775807"), INT64_MAX);
  EXPECT_FALSE(ParseMetricInteger("9223372036854775808").has_value());
  EXPECT_FALSE(ParseMetricInteger("1.0").has_value());
}

TEST(MetricsValue, RejectsMalformedValues) {
  for (const char* bad : {"", "abc", "12qs", "1s2KB", "3KB4B", "ms", "1..2s",
                          "1.2.3", "KB", "0x10", "5 s", "1s-2ms"}) {
    EXPECT_FALSE(ParseMetricValue(bad).has_value()) << bad;
  }
}

TEST(MetricsParse, RealTorch113LazyReport) {
  std::vector<Diagnostic> w;
  MetricsReport r = ParseFixture("torch113_lazy_ts.txt", &w);
  EXPECT_TRUE(w.empty()) << w[0].ToString();
  EXPECT_EQ(r.source, "fixtures/metrics/torch113_lazy_ts.txt");
  ASSERT_EQ(r.metrics.size(), 4u);
  EXPECT_EQ(r.duplicates, 0u);
  const Metric* lock = r.FindMetric("DeviceLockWait");
  ASSERT_NE(lock, nullptr);
  EXPECT_EQ(lock, &r.metrics[0]);
  EXPECT_EQ(lock->line, 1u);
  EXPECT_EQ(lock->unit, MetricUnit::kNanoseconds);
  EXPECT_EQ(lock->total_samples, 5);
  EXPECT_EQ(lock->accumulator, 7555.0);
  EXPECT_EQ(lock->value_rate, 87419.0);
  EXPECT_EQ(lock->rate, 57.8547);
  EXPECT_FALSE(lock->mean.has_value());
  ASSERT_EQ(lock->percentiles.size(), 9u);
  EXPECT_EQ(lock->percentiles[0], std::make_pair(1.0, 932.0));
  EXPECT_EQ(lock->percentiles[4], std::make_pair(50.0, 1514.0));
  EXPECT_EQ(lock->percentiles[8], std::make_pair(99.0, 2264.0));

  const Metric* graph = r.FindMetric("TensorsGraphSize");
  ASSERT_NE(graph, nullptr);
  EXPECT_EQ(graph->unit, MetricUnit::kNumber);
  EXPECT_EQ(graph->total_samples, 4);
  EXPECT_EQ(graph->accumulator, 241.0);
  EXPECT_EQ(graph->value_rate, 3113.84);
  EXPECT_EQ(graph->percentiles[0], std::make_pair(1.0, 8.0));

  const Metric* handle = r.FindMetric("IrValueTensorToDataHandle");
  ASSERT_NE(handle, nullptr);
  EXPECT_EQ(handle->value_rate, 2931540.0);

  ASSERT_NE(r.FindCounter("aten::nonzero"), nullptr);
  EXPECT_EQ(r.FindCounter("aten::nonzero")->value, 1);
  EXPECT_EQ(r.FindCounter("CreateLtcTensor")->value, 193);
  EXPECT_EQ(r.FindCounter("lazy::zero")->value, 18);
  EXPECT_EQ(r.counters.front().name, "CachedCompile");
  EXPECT_EQ(r.counters.back().name, "lazy::zero");
  EXPECT_EQ(r.FindCounter("TSBackendImpl"), nullptr);
  EXPECT_EQ(r.FindMetric("Nope"), nullptr);
}

TEST(MetricsParse, TorchXlaStyleEveryConversion) {
  MetricsReport r = ParseFixture("torch_xla_style.txt");
  ASSERT_EQ(r.metrics.size(), 4u);
  const Metric& compile = r.metrics[0];
  EXPECT_EQ(compile.name, "CompileTime");
  EXPECT_EQ(compile.accumulator, 369401746001.0);
  EXPECT_EQ(compile.value_rate, 23960897.0);
  EXPECT_EQ(compile.rate, 0.0255932);
  ASSERT_EQ(compile.percentiles.size(), 9u);
  EXPECT_EQ(compile.percentiles[3], std::make_pair(20.0, 24320066.0));
  EXPECT_EQ(compile.percentiles[4], std::make_pair(50.0, 2746660403.0));

  const Metric& exec = r.metrics[1];
  EXPECT_EQ(exec.unit, MetricUnit::kNanoseconds);
  EXPECT_EQ(exec.accumulator, 93784005006007.0);
  EXPECT_EQ(exec.mean, 12.5);
  EXPECT_EQ(exec.stddev, 0.0);
  EXPECT_FALSE(exec.rate.has_value());
  EXPECT_FALSE(exec.value_rate.has_value());

  const Metric& inbound = r.metrics[2];
  EXPECT_EQ(inbound.unit, MetricUnit::kBytes);
  EXPECT_EQ(inbound.accumulator, 3.44 * 1024);
  EXPECT_EQ(inbound.value_rate, 8.0);
  EXPECT_EQ(inbound.rate, 0.5);
  ASSERT_EQ(inbound.percentiles.size(), 3u);
  EXPECT_EQ(inbound.percentiles[1].second, 4.09 * 1073741824.0);
  EXPECT_EQ(inbound.percentiles[2].second, 1572864.0);

  const Metric& size = r.metrics[3];
  EXPECT_EQ(size.unit, MetricUnit::kNumber);
  EXPECT_EQ(size.accumulator, 792.0);
  EXPECT_EQ(size.mean, 264.0);
  EXPECT_EQ(size.stddev, 150.0);
  EXPECT_EQ(size.percentiles[1], std::make_pair(99.9, 80.0));

  ASSERT_EQ(r.counters.size(), 3u);
  EXPECT_EQ(r.counters[0].value, INT64_MAX);
  EXPECT_EQ(r.counters[1].name, "aten::nonzero");
  EXPECT_EQ(r.counters[1].line, 27u);
  EXPECT_EQ(r.counters[2].value, 103);
}

TEST(MetricsParse, OldIndentedCounterIsTheAccumulator) {
  MetricsReport r = ParseFixture("old_indented_counter.txt");
  ASSERT_EQ(r.metrics.size(), 2u);
  EXPECT_EQ(r.metrics[0].accumulator, 191081607.0);
  EXPECT_EQ(r.metrics[0].unit, MetricUnit::kNanoseconds);
  EXPECT_EQ(r.metrics[0].percentiles[0].second, 24320066.0);
  EXPECT_EQ(r.metrics[1].accumulator, 2605.0);
  ASSERT_EQ(r.counters.size(), 2u);  // the nested ones are not counters
  EXPECT_EQ(r.counters[0].name, "CachedCompile");
  EXPECT_EQ(r.counters[0].value, 0);
  EXPECT_EQ(r.counters[1].name, "aten::_local_scalar_dense");
}

TEST(MetricsParse, ConcatenatedReportsLaterValueWins) {
  MetricsReport r = ParseFixture("concatenated.txt");
  EXPECT_EQ(r.duplicates, 2u);
  ASSERT_EQ(r.metrics.size(), 1u);
  EXPECT_EQ(r.metrics[0].total_samples, 2);
  EXPECT_EQ(r.metrics[0].accumulator, 2.5 * kNsPerSec);
  EXPECT_EQ(r.metrics[0].rate, 1.5);
  EXPECT_EQ(r.metrics[0].line, 8u);
  ASSERT_EQ(r.counters.size(), 3u);
  EXPECT_EQ(r.counters[0].name, "xla::clone");
  EXPECT_EQ(r.counters[0].value, 103);
  EXPECT_EQ(r.counters[1].name, "UncachedCompile");
  EXPECT_EQ(r.counters[2].name, "xla::empty_symint");
  EXPECT_EQ(r.counters[2].value, 80);
}

TEST(MetricsParse, NoiseAndUnknownLinesAreWarnings) {
  std::vector<Diagnostic> w;
  MetricsReport r = ParseFixture("noise.txt", &w);
  ASSERT_EQ(r.metrics.size(), 1u);
  EXPECT_EQ(r.metrics[0].accumulator, 7202.0);
  EXPECT_EQ(r.metrics[0].rate, 15.487);
  ASSERT_EQ(r.counters.size(), 2u);
  EXPECT_EQ(r.counters[0].value, 3);
  EXPECT_EQ(r.counters[1].name, "CachedCompile");
  std::vector<std::pair<uint32_t, uint32_t>> where;
  for (const Diagnostic& d : w) where.emplace_back(d.line, d.column);
  EXPECT_EQ(where, (std::vector<std::pair<uint32_t, uint32_t>>{
                       {1, 1}, {2, 1}, {7, 3}, {9, 1}, {12, 3}}));
  EXPECT_EQ(w[2].ToString(),
            "fixtures/metrics/noise.txt:7:3: warning: unknown metric field "
            "'Histogram' skipped");
}

TEST(MetricsParse, ResNet18Fragments) {
  MetricsReport aot = ParseFixture("../../resnet18-xla5430/openxla/metrics.txt");
  MetricsReport eager =
      ParseFixture("../../resnet18-xla5430/torchxla_trace_once/metrics.txt");
  EXPECT_EQ(aot.FindCounter("xla::clone")->value, 103);
  EXPECT_EQ(aot.FindCounter("xla::empty_symint")->value, 80);
  EXPECT_EQ(eager.FindCounter("xla::clone")->value, 1);
  EXPECT_EQ(eager.FindCounter("xla::empty_symint")->value, 120);
  EXPECT_TRUE(aot.metrics.empty());
}

TEST(MetricsParse, ViaParseText) {
  absl::StatusOr<ParsedText> p =
      ParseText(ReadTestdata("fixtures/metrics/torch113_lazy_ts.txt"), "r.txt");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->format, DumpFormat::kMetrics);
  ASSERT_EQ(p->metrics.size(), 1u);
  EXPECT_EQ(p->metrics[0].counters.size(), 33u);
}

TEST(MetricsParse, IndentedWholeReportAndCrlf) {
  MetricsReport r = Parse(
      "    Metric: A\r\n      TotalSamples: 1\r\n      Accumulator: 1.00KB\r\n"
      "    Counter: B\r\n      Value: 7\r\n");
  ASSERT_EQ(r.metrics.size(), 1u);
  EXPECT_EQ(r.metrics[0].accumulator, 1024.0);
  ASSERT_EQ(r.counters.size(), 1u);
  EXPECT_EQ(r.counters[0].value, 7);
}

TEST(MetricsParse, UnitNames) {
  EXPECT_EQ(MetricUnitName(MetricUnit::kNumber), "number");
  EXPECT_EQ(MetricUnitName(MetricUnit::kNanoseconds), "ns");
  EXPECT_EQ(MetricUnitName(MetricUnit::kBytes), "bytes");
}

TEST(MetricsError, ExactPositionsAndCaret) {
  EXPECT_EQ(ErrorOf("Metric: X\n  TotalSamples: abc\n"),
            "m.txt:2:17: TotalSamples must be a non-negative integer\n"
            "  TotalSamples: abc\n"
            "                ^");
  EXPECT_EQ(ErrorOf("Counter: X\n  Value: 1x\n"),
            "m.txt:2:10: counter Value must be an integer\n"
            "  Value: 1x\n"
            "         ^");
  EXPECT_EQ(ErrorOf("Metric: X\n  TotalSamples: 1\n  Accumulator: 12qs\n")
                .substr(0, 52),
            "m.txt:3:16: malformed value '12qs' (expected a numbe");
  EXPECT_EQ(ErrorOf("Metric: X\n  TotalSamples: 1\n  Rate: x / second\n"),
            "m.txt:3:9: malformed rate 'x'\n  Rate: x / second\n        ^");
  std::string pct =
      ErrorOf("Metric: X\n  TotalSamples: 1\n  Percentiles: 1%=5.00; 5%=abc\n");
  EXPECT_EQ(pct.substr(0, 36), "m.txt:3:28: malformed value 'abc' (e");
  EXPECT_EQ(ErrorOf("Metric: X\n  Percentiles: 1%5.00\n"),
            "m.txt:2:16: expected a percentile such as `50%=1.00`\n"
            "  Percentiles: 1%5.00\n"
            "               ^");
  EXPECT_EQ(ErrorOf("Metric: X\n  TotalSamples: 1\n  Counter: oops\n").substr(0, 11),
            "m.txt:3:12:");
}

TEST(MetricsError, EmptyAndNonReports) {
  EXPECT_EQ(ErrorOf(""), "m.txt:1:1: empty metrics report\n\n^");
  EXPECT_EQ(ErrorOf("  \n\n").substr(0, 30), "m.txt:1:1: empty metrics repor");
  EXPECT_EQ(ErrorOf("hello world\n").substr(0, 25), "m.txt:1:1: not a metrics ");
  // A report of nothing but tolerated lines is a valid, empty report.
  MetricsReport r = Parse("TSBackendImpl: N/A\n");
  EXPECT_TRUE(r.metrics.empty());
  EXPECT_TRUE(r.counters.empty());
}

TEST(MetricsError, TruncatedBlocksAreDroppedWithWarnings) {
  std::vector<Diagnostic> w;
  MetricsReport r = Parse("Counter: A\n  Value: 1\nMetric: M\nCounter: B\n", &w);
  ASSERT_EQ(r.counters.size(), 1u);
  EXPECT_TRUE(r.metrics.empty());
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].line, 3u);
  EXPECT_EQ(w[1].message, "counter 'B' has no `Value:`; dropped");
}

TEST(MetricsError, EveryPrefixAndGarbageNeverCrash) {
  std::string text = ReadTestdata("fixtures/metrics/torch_xla_style.txt");
  for (size_t n = 0; n <= text.size(); ++n) {
    absl::StatusOr<MetricsReport> r = ParseMetrics(text.substr(0, n), "p");
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    }
  }
  std::string garbage;
  uint32_t seed = 12345;
  for (int i = 0; i < 20000; ++i) {
    seed = seed * 1103515245u + 12345u;
    garbage += static_cast<char>(seed >> 16);
  }
  absl::StatusOr<MetricsReport> g = ParseMetrics(garbage, "g");
  if (!g.ok()) {
    EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument);
  }
  std::string mixed("Metric: \xff\x00\x01\nCounter: \x80\n  Value: \x7f\n", 34);
  absl::StatusOr<MetricsReport> m = ParseMetrics(mixed, "x");
  EXPECT_FALSE(m.ok());
}

}  // namespace
}  // namespace graphdiff

namespace graphdiff {
namespace {

// The fast path for plain decimals gives exactly what from_chars gives, bit
// for bit, on values of every length it takes and some it hands on.
TEST(MetricValues, PlainNumbersAsFromChars) {
  std::mt19937_64 rng(7);
  std::vector<std::string> cases = {"0",     "-0",      "1.00",   "004.208", "53.48", "0.1",
                                    "0.3",   "1e3",     "5.",     ".5",      "1.2.3", "-",
                                    "12345678901234.5",  "123456789012345.6",  "9007199254740993",
                                    "0.000000000000001", "99999999999999.99"};
  for (int i = 0; i < 20000; ++i) {
    int digits = 1 + static_cast<int>(rng() % 18);
    std::string s = rng() % 4 == 0 ? "-" : "";
    int point = static_cast<int>(rng() % (digits + 1));
    for (int d = 0; d < digits; ++d) {
      if (d == point && d > 0) s += '.';
      s += static_cast<char>('0' + rng() % 10);
    }
    cases.push_back(s);
  }
  for (const std::string& s : cases) {
    double want = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), want);
    bool valid = ec == std::errc() && ptr == s.data() + s.size();
    std::optional<double> got = ParsePlainNumber(s);
    ASSERT_EQ(got.has_value(), valid) << s;
    if (valid) {
      ASSERT_EQ(std::memcmp(&*got, &want, sizeof want), 0) << s << " " << *got << " " << want;
    }
  }
}

}  // namespace
}  // namespace graphdiff
