// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Tolerant, never silent, reading: real dumps as people paste and log them
// (log prefixes on every format, indentation, headerless HLO, nan metrics,
// elided and truncated IR, garbled lines) are read, and every tolerance
// leaves a warning.
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "parse/error.h"
#include "parse/log_prefix.h"
#include "parse/parse_parallel.h"
#include "parse/metric_values.h"
#include "testing/model_text.h"
#include "testing/streamed_parse.h"
#include "testing/task_runners.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;
using testing::ReadTestdata;

std::string PrefixEveryLine(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) out += prefix + line + "\n";
  return out;
}

std::string AllWarnings(const std::vector<Diagnostic>& w) {
  std::string out;
  for (const Diagnostic& d : w) out += d.ToString() + "\n";
  return out;
}

TEST(LogPrefix, RecognisesCommonShapes) {
  EXPECT_EQ(LogPrefixLength("2021-04-19 13:28:12 10.164.0.25 [0] Metric: X"), 36u);
  EXPECT_EQ(LogPrefixLength("I1230 12:00:00.000123    42 file.cc:45] IR {"), 40u);
  EXPECT_EQ(LogPrefixLength("INFO:root:Counter: CachedCompile"), 10u);
  std::string torch =
      "[2024-01-01 00:00:00,000] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG] ";
  EXPECT_EQ(LogPrefixLength(torch + "TRACED GRAPH"), torch.size());
  EXPECT_EQ(LogPrefixLength("V0101 00:00:00.000000 140 torch/_dynamo/x.py:12] [0/0] "
                            "[__graph_code] def forward(self)"),
            std::string("V0101 00:00:00.000000 140 torch/_dynamo/x.py:12] [0/0] "
                        "[__graph_code] ")
                .size());
  EXPECT_EQ(LogPrefixLength("2024-01-01 00:00:00,000 - torch._dynamo - INFO - x = 1"),
            std::string("2024-01-01 00:00:00,000 - torch._dynamo - INFO - ").size());
  // The indentation after the prefix is the dump's: one separator only.
  EXPECT_EQ(LogPrefixLength("2021-04-19 13:28:12 host-7 [3]   Value: 4"), 31u);
  EXPECT_EQ(LogPrefixLength("[rank1]:Metric: CompileTime"), 8u);
  EXPECT_EQ(LogPrefixLength("[default0]:   TotalSamples: 2"), 12u);
  // torchrun's tag, then the worker's own logger header with no space between.
  const std::string glog = "[rank0]:V1205 10:00:00.123000 42 torch/_dynamo/output_graph.py:1150] ";
  EXPECT_EQ(LogPrefixLength(glog + "IR {"), glog.size());
  EXPECT_EQ(LogPrefixLength(glog + "[0/0] [__graph_code] def forward(self)"),
            glog.size() + std::string("[0/0] [__graph_code] ").size());
  EXPECT_EQ(LogPrefixLength("[rank3]:" + torch + "Metric: CompileTime"),
            8 + torch.size());
  EXPECT_EQ(LogPrefixLength("[rank12]:INFO:root:  TotalSamples: 2"), 19u);
}

TEST(LogPrefix, LeavesDumpTextAlone) {
  for (const char* line : {"IR {", "  %0 = f32[] prim::Constant(), value=0",
                           "[ScheduleSyncTensorsGraph]", "Metric: CompileTime",
                           "  TotalSamples: 2", "HloModule SyncTensorsGraph.9",
                           "def forward(self, x):", "    add = torch.ops.aten.add(x, 1)",
                           "ENTRY %main {", "## BEGIN_GRAPH", "Hashes: (1, 2)",
                           "[0] not a prefix without a time", "12:00 is not a time",
                           "[rank0] no colon, no tag"}) {
    EXPECT_EQ(LogPrefixLength(line), 0u) << line;
  }
}

TEST(TolerantRead, LogPrefixesOnEveryFormat) {
  const std::string prefix = "2021-04-19 13:28:12 10.164.0.25 [0] ";
  for (const char* file : {"resnet18-xla5430/openxla/metrics.txt",
                           "resnet18-xla5430/openxla/ir.txt",
                           "resnet18-xla5430/openxla/fx_graph.txt",
                           "fixtures/hlo/short_form_sync_tensors.txt",
                           "fixtures/ir/xla_new_root_hashes.txt"}) {
    std::string text = ReadTestdata(file);
    absl::StatusOr<ParsedText> plain = ParseText(text, file);
    ASSERT_TRUE(plain.ok()) << plain.status();
    for (const std::string& p : {prefix, std::string("I1230 12:00:00.000123 42 file.cc:45] "),
                                 std::string("INFO:root:"), std::string("[rank3]:"),
                                 std::string("[default0]: "), std::string("[2] "),
                                 std::string("[rank1]:I1230 12:00:00.000123 42 file.cc:45] "),
                                 "[rank0]:" + prefix}) {
      std::string logged = PrefixEveryLine(text, p);
      EXPECT_EQ(DetectFormat(logged), plain->format) << file << " with " << p;
      absl::StatusOr<ParsedText> read = ParseText(logged, file);
      ASSERT_TRUE(read.ok()) << file << ": " << read.status();
      ASSERT_EQ(read->graphs.size(), plain->graphs.size()) << file;
      for (size_t i = 0; i < read->graphs.size(); ++i) {
        EXPECT_EQ(read->graphs[i].nodes.size(), plain->graphs[i].nodes.size()) << file;
        EXPECT_EQ(read->graphs[i].outputs.size(), plain->graphs[i].outputs.size()) << file;
      }
      ASSERT_EQ(read->metrics.size(), plain->metrics.size());
      for (size_t i = 0; i < read->metrics.size(); ++i) {
        EXPECT_EQ(read->metrics[i].counters.size(), plain->metrics[i].counters.size());
        EXPECT_EQ(read->metrics[i].metrics.size(), plain->metrics[i].metrics.size());
      }
      EXPECT_THAT(AllWarnings(read->warnings), HasSubstr("read through log prefixes"));
    }
  }
}

// A logged FX dump is read in place: the FX parse takes each line's prefix
// off itself instead of reading a stripped copy of the text. What it reads
// must be what the stripped copy read (graphs, warnings in their order, the
// prefix warning first with every logged line counted, the cap on warnings
// and its tally), with columns counted in the file's own lines: a warning's
// column moves right by what the copy took off its line. Bare rank tags,
// which only their share of the whole text's lines makes a prefix, are still
// read from the copy (every line tagged, or untagged code among nine times
// as many tagged log lines). On one thread and in pieces.
TEST(TolerantRead, FxLogReadInPlaceAsItsStrippedCopyWas) {
  // AOT graphs returning None (warnings with columns), typed torch 2.x
  // code, a graph after them, and log text between them.
  std::string storage;
  size_t stripped = 0;
  const std::string text =
      std::string(StripLogPrefixes(ReadTestdata("fixtures/fx/aot_graphs_v2_4.log"), &storage,
                                   &stripped)) +
      ReadTestdata("fixtures/fx/print_readable_v2_0.py") + "TRACED GRAPH\n" +
      ReadTestdata("resnet18-xla5430/openxla/fx_graph.txt");
  ASSERT_GT(stripped, 0u);
  struct Case {
    std::string logged;
    bool in_place;  // else read from the copy, columns its own
  };
  std::vector<Case> cases;
  for (const std::string prefix :
       {"V0101 00:00:00.000000 140 torch/_dynamo/x.py:12] [0/0] [__graph_code] ",
        "[2024-01-01 00:00:00,000] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG] ",
        "2021-04-19 13:28:12 10.164.0.25 [0] ", "[rank3]:"}) {
    cases.push_back({PrefixEveryLine(text, prefix), true});
  }
  cases.push_back({PrefixEveryLine(text, "[2] "), false});
  std::string tagged_log;
  const size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  for (size_t i = 0; i < 10 * lines; ++i) tagged_log += "[2] step " + std::to_string(i) + "\n";
  cases.push_back({text + tagged_log, false});
  for (const Case& c : cases) {
    for (size_t cap : {size_t{100}, size_t{3}}) {
      SCOPED_TRACE(c.logged.substr(0, 80) + " cap " + std::to_string(cap));
      ParseOptions options;
      options.max_warnings = cap;
      // What reading the stripped copy gave: its warning first, then the
      // parse's.
      const std::string_view bare = StripLogPrefixes(c.logged, &storage, &stripped);
      ASSERT_GT(stripped, 0u);
      ParsedText expected;
      expected.format = DumpFormat::kFxCode;
      AddWarning(&expected.warnings, cap, "log", 0, 0,
                 "read through log prefixes (timestamps, hosts, ranks) removed from " +
                     std::to_string(stripped) + " lines");
      absl::StatusOr<std::vector<Graph>> graphs =
          ParseFxCode(bare, "log", options, &expected.warnings);
      ASSERT_TRUE(graphs.ok()) << graphs.status();
      expected.graphs = *std::move(graphs);
      // Read in place, a warning's column moves by the bytes the copy took
      // off its line (a prefix and, after one without a trailing blank, one
      // blank of the indent).
      std::vector<std::string> logged_lines, bare_lines;
      std::istringstream a(c.logged), b{std::string(bare)};
      for (std::string l; std::getline(a, l);) logged_lines.push_back(l);
      for (std::string l; std::getline(b, l);) bare_lines.push_back(l);
      ASSERT_EQ(logged_lines.size(), bare_lines.size());
      size_t at_columns = 0;
      for (Diagnostic& d : expected.warnings) {
        if (d.line == 0) continue;
        ++at_columns;
        if (c.in_place) {
          d.column += static_cast<uint32_t>(logged_lines[d.line - 1].size() -
                                            bare_lines[d.line - 1].size());
        }
      }
      EXPECT_GT(at_columns, 0u);
      const std::string want = testing::ModelText(expected);
      absl::StatusOr<ParsedText> one = ParseText(c.logged, "log", options);
      ASSERT_TRUE(one.ok()) << one.status();
      EXPECT_EQ(testing::ModelText(*one), want);
      for (size_t pieces : {2, 5}) {
        absl::StatusOr<ParsedText> cut =
            ParseTextParallel(c.logged, "log", options, testing::ThreadRunner(pieces));
        ASSERT_TRUE(cut.ok()) << cut.status();
        EXPECT_EQ(testing::ModelText(*cut), want) << pieces << " pieces";
      }
    }
  }
}

// Whether an FX text's bare rank tags are taken off is decided from every
// line, as StripLogPrefixes decides it, but the FX parse counts the lines
// itself as it reads them in place (no survey ahead of it). At the boundary
// (tags on exactly nine lines of ten, and one fewer) its choice must be the
// survey's, on one thread and in pieces, with tagged lines before and after
// the graph and blank lines that count for neither.
TEST(TolerantRead, FxRankTagsAreCountedByTheParse) {
  const std::string code = ReadTestdata("resnet18-xla5430/openxla/fx_graph.txt");
  size_t code_lines = 0;
  {
    std::istringstream in(code);
    for (std::string l; std::getline(in, l);) {
      code_lines += l.find_first_not_of(" \t\r") != std::string::npos;
    }
  }
  ASSERT_GT(code_lines, 100u);
  for (size_t tagged : {9 * code_lines, 9 * code_lines - 1}) {
    std::string log;
    size_t written = 0;
    auto tag = [&](size_t n) {
      for (size_t i = 0; i < n; ++i, ++written) {
        log += "[2] step " + std::to_string(written) + "\n\n";
      }
    };
    tag(tagged / 2);
    log += code;
    tag(tagged - written);
    ASSERT_EQ(written, tagged);
    const bool survey = SurveyLogPrefixes(log).rank_tags;
    EXPECT_EQ(survey, tagged == 9 * code_lines);
    SCOPED_TRACE(std::to_string(tagged) + " tagged lines");
    std::vector<absl::StatusOr<ParsedText>> reads;
    reads.push_back(ParseText(log, "log"));
    for (size_t pieces : {2, 5}) {
      reads.push_back(ParseTextParallel(log, "log", ParseOptions(),
                                        testing::ThreadRunner(pieces)));
    }
    for (const absl::StatusOr<ParsedText>& read : reads) {
      ASSERT_TRUE(read.ok()) << read.status();
      ASSERT_EQ(read->graphs.size(), 1u);
      const std::string warnings = AllWarnings(read->warnings);
      EXPECT_EQ(warnings.find("read through log prefixes (timestamps, hosts, ranks) removed "
                              "from " + std::to_string(tagged) + " lines") != std::string::npos,
                survey)
          << warnings;
    }
  }
}

TEST(TolerantRead, IndentedAndHeaderlessHlo) {
  std::string text = ReadTestdata("fixtures/hlo/short_form_sync_tensors.txt");
  absl::StatusOr<ParsedText> plain = ParseText(text, "h.txt");
  ASSERT_TRUE(plain.ok());
  absl::StatusOr<ParsedText> indented = ParseText(PrefixEveryLine(text, "    "), "h.txt");
  ASSERT_TRUE(indented.ok()) << indented.status();
  ASSERT_EQ(indented->format, DumpFormat::kHloText);
  EXPECT_EQ(indented->graphs[0].nodes.size(), plain->graphs[0].nodes.size());

  const std::string headerless =
      "while_loop.40 {\n"
      "  p.1 = (s64[], f32[4]) parameter(0)\n"
      "  ROOT gte.2 = s64[] get-tuple-element(p.1), index=0\n"
      "}\n\n"
      "ENTRY SyncTensorsGraph.49 {\n"
      "  p0.1 = f32[4]{0} parameter(0)\n"
      "  c.2 = s64[] constant(0)\n"
      "  t.3 = (s64[], f32[4]{0}) tuple(c.2, p0.1)\n"
      "  w.4 = (s64[], f32[4]{0}) while(t.3), condition=while_loop.40, body=while_loop.40\n"
      "  ROOT g.5 = f32[4]{0} get-tuple-element(w.4), index=1\n"
      "}\n";
  EXPECT_EQ(DetectFormat(headerless), DumpFormat::kHloText);
  absl::StatusOr<ParsedText> read = ParseText(headerless, "paste.txt");
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_EQ(read->graphs.size(), 1u);
  EXPECT_EQ(read->graphs[0].nodes.size(), 5u);
  EXPECT_THAT(AllWarnings(read->warnings), HasSubstr("before any `HloModule` line"));
}

TEST(TolerantRead, MetricsNanInfAndEmptyPercentiles) {
  for (const char* v : {"nan", "nanB", "-inf", "infs", "NaN", "inf"}) {
    EXPECT_TRUE(ParseMetricValue(v).has_value()) << v;
  }
  EXPECT_EQ(ParseMetricValue("nanB")->unit, MetricUnit::kBytes);
  EXPECT_EQ(ParseMetricValue("infms")->unit, MetricUnit::kNanoseconds);
  EXPECT_FALSE(ParseMetricValue("nanX").has_value());
  const std::string report =
      "Metric: CompileTime\n"
      "  TotalSamples: 0\n"
      "  Accumulator: nanB\n"
      "  Mean: nanB\n"
      "  StdDev: nanB\n"
      "  Percentiles: \n"
      "Metric: ExecuteTime\n"
      "  TotalSamples: 3\n"
      "  Accumulator: 1s002ms\n"
      "  ValueRate: inf / second\n"
      "  Rate: nan / second\n"
      "  Percentiles: 1%=1ms; 50%=2ms\n"
      "Counter: CachedCompile\n"
      "  Value: 3\n";
  std::vector<Diagnostic> w;
  absl::StatusOr<MetricsReport> m = ParseMetrics(report, "m.txt", &w);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ(m->metrics.size(), 2u);
  EXPECT_TRUE(std::isnan(m->metrics[0].accumulator));
  EXPECT_EQ(m->metrics[0].unit, MetricUnit::kBytes);
  EXPECT_TRUE(m->metrics[0].percentiles.empty());
  EXPECT_EQ(m->metrics[1].accumulator, 1002e6);
  ASSERT_EQ(m->counters.size(), 1u);
  EXPECT_TRUE(w.empty()) << AllWarnings(w);
}

TEST(TolerantRead, GarbledMetricBlockIsCountedNotDropped) {
  const std::string report =
      "Metric: A\n  TotalSamples: 1\n  Accumulator: 1\n"
      "etric: CompileTime\n  TotalSamples: 3\n  Accumulator: 3s\n  Mean: 1s\n"
      "Counter: B\n  Value: 2\n";
  std::vector<Diagnostic> w;
  absl::StatusOr<MetricsReport> m = ParseMetrics(report, "m.txt", &w);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->metrics.size(), 1u);
  EXPECT_EQ(m->counters.size(), 1u);
  EXPECT_THAT(AllWarnings(w), HasSubstr("m.txt:4:1: warning: skipped a block of 4 lines "
                                        "under 'etric: CompileTime'"));
  // A tolerated header line with no block under it stays silent.
  std::vector<Diagnostic> quiet;
  ASSERT_TRUE(ParseMetrics("TSBackendImpl: N/A\nCounter: B\n  Value: 2\n", "m.txt", &quiet).ok());
  EXPECT_TRUE(quiet.empty()) << AllWarnings(quiet);
  // A stray field line is reported.
  std::vector<Diagnostic> stray;
  ASSERT_TRUE(ParseMetrics("Counter: B\n  Value: 2\nTotalSamples: 4\n", "m.txt", &stray).ok());
  EXPECT_THAT(AllWarnings(stray), HasSubstr("outside any `Metric:` or `Counter:` block"));
}

constexpr char kIr[] =
    "IR {\n"
    "  %0 = f32[4]{0} xla::device_data(), device=CPU:0\n"
    "  %1 = f32[4]{0} aten::relu(%0)\n"
    "  %2 = f32[4]{0} aten::neg(%1)\n"
    "  %3 = f32[4]{0} aten::add(%2, %0), ROOT=0\n"
    "}\n";

TEST(TolerantRead, ElidedIrIsPartialWithStandIns) {
  const std::string text =
      "IR {\n"
      "  %0 = f32[4]{0} xla::device_data(), device=CPU:0\n"
      "  ...\n"
      "  %3 = f32[4]{0} aten::add(%2, %0), ROOT=0\n"
      "}\n";
  std::vector<Diagnostic> w;
  absl::StatusOr<Graph> g = ParseIrText(text, "ir.txt", {}, &w);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_TRUE(g->partial);
  ASSERT_EQ(g->nodes.size(), 3u);
  EXPECT_EQ(g->str(g->nodes[1].op), kElidedOp);
  EXPECT_EQ(g->str(g->nodes[1].name), "%2");
  EXPECT_THAT(AllWarnings(w), HasSubstr("ir.txt:3:1: warning: 1 elision line ('...')"));
  absl::StatusOr<Graph> whole = ParseIrText(kIr, "ir.txt");
  ASSERT_TRUE(whole.ok());
  EXPECT_FALSE(whole->partial);
}

TEST(TolerantRead, UnclosedIrBlockIsKeptAsPartial) {
  std::string cut(kIr);
  cut = cut.substr(0, cut.find("  %3"));
  std::vector<Diagnostic> w;
  absl::StatusOr<Graph> g = ParseIrText(cut, "ir.txt", {}, &w);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_TRUE(g->partial);
  EXPECT_EQ(g->nodes.size(), 3u);
  EXPECT_THAT(AllWarnings(w), HasSubstr("has no closing '}'"));
  // In a save file, the unclosed last record is kept too, not dropped.
  std::string save = std::string(kIr) + "\n" + cut;
  std::vector<Diagnostic> sw;
  absl::StatusOr<std::vector<Graph>> gs = ParseSaveFile(save, "save.txt", {}, &sw);
  ASSERT_TRUE(gs.ok()) << gs.status();
  ASSERT_EQ(gs->size(), 2u);
  EXPECT_FALSE((*gs)[0].partial);
  EXPECT_TRUE((*gs)[1].partial);
  EXPECT_THAT(AllWarnings(sw), HasSubstr("partial"));
}

// FX and HLO read elisions and texts cut short as IR does: a warning, the
// graph kept and marked partial, never the file refused.
constexpr char kFx[] =
    "class GraphModule(torch.nn.Module):\n"
    "    def forward(self, primals_1: f32[4, 3], primals_2: f32[4]):\n"
    "        t = torch.ops.aten.t.default(primals_1)\n"
    "        relu = torch.ops.aten.relu.default(t);  t = None\n"
    "        return (relu, primals_2)\n";

TEST(TolerantRead, ElidedFxIsPartial) {
  std::string text(kFx);
  // The paste leaves out the line defining `t` but keeps a line using it.
  text.replace(text.find("        t = "), text.find("        relu") - text.find("        t = "),
               "        ... 3 more lines\n");
  std::vector<Diagnostic> w;
  absl::StatusOr<std::vector<Graph>> gs = ParseFxCode(text, "fx.txt", {}, &w);
  ASSERT_TRUE(gs.ok()) << gs.status();
  ASSERT_EQ(gs->size(), 1u);
  const Graph& g = (*gs)[0];
  EXPECT_TRUE(g.partial);
  EXPECT_EQ(g.outputs.size(), 2u);
  EXPECT_THAT(AllWarnings(w),
              HasSubstr("fx.txt:3:1: warning: 1 elision line ('...'): lines were left out of "
                        "this FX graph (1 reference to them dropped); the graph is marked "
                        "partial"));
  std::vector<Diagnostic> none;
  absl::StatusOr<std::vector<Graph>> whole = ParseFxCode(kFx, "fx.txt", {}, &none);
  ASSERT_TRUE(whole.ok());
  EXPECT_FALSE((*whole)[0].partial);
  EXPECT_TRUE(none.empty()) << AllWarnings(none);
}

TEST(TolerantRead, FxCutShortIsKeptAsPartial) {
  std::string cut(kFx);
  cut = cut.substr(0, cut.find("        return"));
  std::vector<Diagnostic> w;
  absl::StatusOr<std::vector<Graph>> gs = ParseFxCode(cut, "fx.txt", {}, &w);
  ASSERT_TRUE(gs.ok()) << gs.status();
  ASSERT_EQ(gs->size(), 1u);
  EXPECT_TRUE((*gs)[0].partial);
  EXPECT_EQ((*gs)[0].nodes.size(), 4u);
  EXPECT_THAT(AllWarnings(w), HasSubstr("FX graph has no return statement (truncated dump?); "
                                        "its 4 nodes are kept and the graph is marked partial"));
}

constexpr char kHlo[] =
    "HloModule m, entry_computation_layout={(f32[4]{0})->f32[4]{0}}\n"
    "\n"
    "ENTRY main {\n"
    "  p0 = f32[4]{0} parameter(0)\n"
    "  a = f32[4]{0} negate(p0)\n"
    "  ROOT b = f32[4]{0} add(a, p0)\n"
    "}\n";

TEST(TolerantRead, ElidedHloIsPartial) {
  std::string text(kHlo);
  text.replace(text.find("  a = "), text.find("  ROOT") - text.find("  a = "), "  ...\n");
  std::vector<Diagnostic> w;
  absl::StatusOr<std::vector<Graph>> gs = ParseHloText(text, "m.hlo", {}, &w);
  ASSERT_TRUE(gs.ok()) << gs.status();
  ASSERT_EQ(gs->size(), 1u);
  const Graph& g = (*gs)[0];
  EXPECT_TRUE(g.partial);
  ASSERT_EQ(g.nodes.size(), 2u);
  EXPECT_EQ(g.nodes[1].operands.size(), 1u);  // `a` was left out; `p0` stays
  std::string all = AllWarnings(w);
  EXPECT_THAT(all, HasSubstr("m.hlo:5:1: warning: 1 elision line ('...'): instructions were "
                             "left out of computation 'main'; the graph is marked partial"));
  EXPECT_THAT(all, HasSubstr("1 operand of computation 'main' names instructions left out"));
  std::vector<Diagnostic> none;
  absl::StatusOr<std::vector<Graph>> whole = ParseHloText(kHlo, "m.hlo", {}, &none);
  ASSERT_TRUE(whole.ok());
  EXPECT_FALSE((*whole)[0].partial);
  EXPECT_TRUE(none.empty()) << AllWarnings(none);
}

TEST(TolerantRead, UnclosedHloComputationIsKeptAsPartial) {
  std::string cut(kHlo);
  cut = cut.substr(0, cut.find("  ROOT"));
  std::vector<Diagnostic> w;
  absl::StatusOr<std::vector<Graph>> gs = ParseHloText(cut, "m.hlo", {}, &w);
  ASSERT_TRUE(gs.ok()) << gs.status();
  ASSERT_EQ(gs->size(), 1u);
  EXPECT_TRUE((*gs)[0].partial);
  EXPECT_EQ((*gs)[0].nodes.size(), 2u);
  EXPECT_THAT(AllWarnings(w), HasSubstr("computation 'main' (line 3) is not closed with '}' "
                                        "before the text ends (truncated dump?); its 2 "
                                        "instructions are kept"));
  // Cut short by the next module: both modules are kept, the first partial.
  std::vector<Diagnostic> w2;
  absl::StatusOr<std::vector<Graph>> two = ParseHloText(cut + kHlo, "m.hlo", {}, &w2);
  ASSERT_TRUE(two.ok()) << two.status();
  ASSERT_EQ(two->size(), 2u);
  EXPECT_TRUE((*two)[0].partial);
  EXPECT_FALSE((*two)[1].partial);
  EXPECT_THAT(AllWarnings(w2), HasSubstr("is not closed with '}' before line 6"));
}

TEST(TolerantRead, WarningsBeyondTheCapAreCounted) {
  std::string report = "Counter: A\n  Value: 1\n";
  for (int i = 0; i < 250; ++i) report += "junk line " + std::to_string(i) + "\n";
  std::vector<Diagnostic> w;
  ASSERT_TRUE(ParseMetrics(report, "m.txt", &w).ok());
  ASSERT_EQ(w.size(), ParseOptions{}.max_warnings);
  uint64_t total = 0;
  for (const Diagnostic& d : w) total += d.count;
  EXPECT_EQ(total, 250u);
  EXPECT_EQ(w.back().message, "further warnings not listed");
  EXPECT_THAT(w.back().ToString(), HasSubstr("(x151)"));
}

TEST(TolerantRead, LoadedDumpCarriesWarningsAndPartialIntoTheDiff) {
  std::string elided = std::string(kIr);
  elided.replace(elided.find("  %1"), elided.find("  %2") - elided.find("  %1"), "  ...\n");
  absl::StatusOr<Dump> left = LoadDumpFromMemory("a", {{"ir.txt", kIr}});
  absl::StatusOr<Dump> right =
      LoadDumpFromMemory("b", {{"ir.txt", elided}, {"notes.json", "{\"x\": 1}\n"}});
  ASSERT_TRUE(left.ok() && right.ok());
  absl::StatusOr<DiffResult> d = DiffDumps(*left, *right);
  ASSERT_TRUE(d.ok()) << d.status();
  ASSERT_EQ(d->pairs.size(), 1u);
  EXPECT_FALSE(d->pairs[0].left_partial);
  EXPECT_TRUE(d->pairs[0].right_partial);
  ASSERT_EQ(d->skipped.size(), 1u);
  EXPECT_EQ(d->skipped[0].side, Side::kRight);
  EXPECT_EQ(d->skipped[0].path, "notes.json");
  ASSERT_FALSE(d->warnings.empty());
  EXPECT_EQ(d->warnings[0].side, Side::kRight);
  for (const Finding& f : d->findings) {
    EXPECT_NE(f.id, "op-substitution") << f.title;  // stand-ins are no substitution
  }
}

}  // namespace
}  // namespace graphdiff

namespace graphdiff {
namespace {

TEST(LogPrefix, NeverReadsPastTheLine) {
  // Every prefix of every shape, cut at every length: no out-of-range read
  // (the sanitizer build checks), and a prefix never exceeds its line.
  const char* shapes[] = {
      "2021-04-19 13:28:12 10.164.0.25 [0]   Value: 4",
      "I1230 12:00:00.000123    42 file.cc:45] IR {",
      "[2024-01-01 00:00:00,000] [0/0] torch._dynamo.output_graph: [DEBUG] x",
      "INFO:root:Metric: A", "[rank12]:[W101 00:00:00.000] y", "[3] Counter: B",
      "2024-01-01T00:00:00.123+01:00 host [1] z", "V0101 00:00:00.000000 1 a.py:1] [0/0] q"};
  for (const char* shape : shapes) {
    std::string s(shape);
    for (size_t n = 0; n <= s.size(); ++n) {
      std::string cut = s.substr(0, n);
      EXPECT_LE(LogPrefixLength(cut), cut.size()) << cut;
    }
  }
}

// A save file that `graphdiff stats` reads a wave of pieces at a time is
// read in place: each piece is surveyed for log prefixes by the task that
// parses it, not the whole file first. A prefix on any line (the first,
// one in the last record, every line) and bare rank tags on nine lines of
// ten must make it read as the stripped copy is read, and one fewer tag,
// or none, as the file's own text: what the unstreamed parse reads, for
// every number of pieces, a piece or three a wave, or all at once.
TEST(TolerantRead, AStreamedSaveFileIsSurveyedAsItIsParsed) {
  std::string records;
  for (int i = 0; i < 3; ++i) {
    for (const char* file : {"fixtures/ir/ltc_real_save.txt", "fixtures/ir/xla_new_root_hashes.txt",
                             "fixtures/ir/xla_old_hashes.txt"}) {
      records += ReadTestdata(file);
      if (records.back() != '\n') records += '\n';
    }
  }
  size_t lines = 0;
  {
    std::istringstream in(records);
    for (std::string l; std::getline(in, l);) {
      lines += l.find_first_not_of(" \t\r") != std::string::npos;
    }
  }
  const std::string glog = "I1230 12:00:00.000123 42 file.cc:45] ";
  const size_t last = records.rfind("[ScheduleSyncTensorsGraph]");
  ASSERT_NE(last, std::string::npos);
  auto tagged = [&](size_t tags) {
    std::string out;
    for (size_t i = 0; i < tags / 2; ++i) out += "[2] step " + std::to_string(i) + "\n";
    out += records;
    for (size_t i = tags / 2; i < tags; ++i) out += "[2] step " + std::to_string(i) + "\n";
    return out;
  };
  const std::vector<std::pair<std::string, std::string>> texts = {
      {"plain", records},
      {"first line", glog + records},
      {"last record", records.substr(0, last) + glog + records.substr(last)},
      {"every line", PrefixEveryLine(records, glog)},
      {"rank tags on nine lines of ten", tagged(9 * lines)},
      {"one tag fewer", tagged(9 * lines - 1)},
  };
  for (const auto& [what, text] : texts) {
    SCOPED_TRACE(what);
    absl::StatusOr<ParsedText> whole = ParseText(text, "s.txt");
    ASSERT_TRUE(whole.ok()) << whole.status();
    ASSERT_EQ(whole->format, DumpFormat::kSaveFile);
    const bool stripped = AllWarnings(whole->warnings).find("read through log prefixes") !=
                          std::string::npos;
    EXPECT_EQ(stripped, what != "plain" && what != "one tag fewer");
    const std::string expected = testing::ModelText(*whole) + AllWarnings(whole->warnings);
    for (size_t pieces = 2; pieces <= 10; ++pieces) {
      // Parsed on threads, not handed out (`graphdiff diff`): read in place too.
      const TaskRunner runner = testing::ReverseRunner(pieces);
      absl::StatusOr<ParsedText> parallel =
          ParseDetected(text, Detect(text), "s.txt", {}, &runner, nullptr);
      ASSERT_TRUE(parallel.ok()) << parallel.status();
      ASSERT_EQ(testing::ModelText(*parallel) + AllWarnings(parallel->warnings), expected)
          << pieces << " pieces, not streamed";
      for (size_t wave : {1, 3}) {
        size_t restarts = 0;
        absl::StatusOr<ParsedText> streamed = testing::ParseDetectedStreamed(
            text, "s.txt", {}, testing::StreamRunner(text, pieces, wave), nullptr, &restarts);
        ASSERT_TRUE(streamed.ok()) << streamed.status();
        ASSERT_EQ(testing::ModelText(*streamed) + AllWarnings(streamed->warnings), expected)
            << pieces << " pieces, " << wave << " a wave";
        // The file's own text is read once, in pieces.
        if (!stripped) {
          EXPECT_EQ(restarts, 0u) << pieces << " pieces, " << wave << " a wave";
        }
      }
    }
  }
}

// Only lines that start unindented can carry a prefix or a rank tag; the
// survey looks at those alone, sixteen bytes a step. A prefixed line
// anywhere, at any offset, with CRLF or without a final newline, must still
// be found, and rank tags still decide by their share of every non-blank
// line, indented ones included.
TEST(LogPrefix, SurveyFindsAPrefixOnAnyLine) {
  std::string body;
  for (int i = 0; i < 300; ++i) body += "  %" + std::to_string(i) + " = aten::relu(%0)\n";
  const std::string prefixed = "I1230 12:00:00.000123    42 file.cc:45] IR {";
  std::string storage;
  size_t stripped = 0;
  for (size_t pad = 0; pad < 20; ++pad) {
    for (const std::string eol : {"\n", "\r\n", ""}) {
      SCOPED_TRACE(std::to_string(pad) + " [" + eol + "]");
      const std::string text = body + std::string(pad, 'x') + "\n" + prefixed + eol;
      EXPECT_EQ(StripLogPrefixes(text, &storage, &stripped),
                body + std::string(pad, 'x') + "\n" + "IR {" + eol);
      EXPECT_EQ(stripped, 1u);
    }
  }
  // No prefix: the text itself comes back.
  const std::string plain = body + "IR {\n\tx\n\n}";
  EXPECT_EQ(StripLogPrefixes(plain, &storage, &stripped).data(), plain.data());
  EXPECT_EQ(stripped, 0u);
  // Rank tags on nine lines of ten are stripped, on fewer are not: the
  // indented lines count.
  std::string tagged, few;
  for (int i = 0; i < 90; ++i) tagged += "[3] Metric: A" + std::to_string(i) + "\n";
  few = tagged;
  for (int i = 0; i < 10; ++i) tagged += "  Value: 1\n";
  for (int i = 0; i < 11; ++i) few += "  Value: 1\n";
  StripLogPrefixes(tagged, &storage, &stripped);
  EXPECT_EQ(stripped, 90u);
  EXPECT_EQ(StripLogPrefixes(few, &storage, &stripped).data(), few.data());
  EXPECT_EQ(stripped, 0u);
}

}  // namespace
}  // namespace graphdiff
