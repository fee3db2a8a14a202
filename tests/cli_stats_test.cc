// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// `graphdiff stats` from the outside: arguments, output formats, exit codes
// and error messages as a user sees them.
#include <filesystem>
#include <string>

#include "commands.h"
#include "fmt/format.h"
#include "graphdiff/dump.h"
#include "graphdiff/stats.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/cli.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using testing::RunCli;
using testing::WriteTempFile;

TEST(CliStats, JsonOnResNet18Directories) {
  testing::CliResult r = RunCli({"stats", "--format", "json",
                                 "resnet18-xla5430/torchxla_trace_once",
                                 "resnet18-xla5430/openxla"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> by_source;
  for (const auto& g : j["graphs"]) by_source[g["source"]] = g;
  ASSERT_EQ(by_source.size(), 4u) << r.out;
  const auto& aot_ir = by_source["resnet18-xla5430/openxla/ir.txt"];
  EXPECT_EQ(aot_ir["kind"], "ir");
  EXPECT_EQ(aot_ir["nodes"], 277);
  EXPECT_EQ(aot_ir["outputs"], 81);
  EXPECT_EQ(aot_ir["ops"]["xla::device_data"], 103);
  const auto& eager_ir = by_source["resnet18-xla5430/torchxla_trace_once/ir.txt"];
  EXPECT_EQ(eager_ir["nodes"], 197);
  EXPECT_EQ(eager_ir["outputs"], 1);
  const auto& aot_fx = by_source["resnet18-xla5430/openxla/fx_graph.txt"];
  EXPECT_EQ(aot_fx["kind"], "fx");
  EXPECT_EQ(aot_fx["inputs"], 103);
  EXPECT_EQ(aot_fx["outputs"], 81);
  const auto& eager_fx = by_source["resnet18-xla5430/torchxla_trace_once/fx_graph.txt"];
  EXPECT_EQ(eager_fx["inputs"], 1);
  EXPECT_EQ(eager_fx["outputs"], 1);

  std::map<std::string, nlohmann::json> metrics;
  for (const auto& m : j["metrics"]) metrics[m["source"]] = m;
  EXPECT_EQ(metrics["resnet18-xla5430/openxla/metrics.txt"]["counters"]["xla::clone"], 103);
  EXPECT_EQ(metrics["resnet18-xla5430/torchxla_trace_once/metrics.txt"]["counters"]["xla::clone"], 1);
  EXPECT_EQ(metrics["resnet18-xla5430/openxla/metrics.txt"]["counters"]["xla::empty_symint"], 80);
  EXPECT_EQ(metrics["resnet18-xla5430/torchxla_trace_once/metrics.txt"]["counters"]["xla::empty_symint"], 120);
}

TEST(CliStats, TextOnSingleFile) {
  testing::CliResult r = RunCli({"stats", "resnet18-xla5430/openxla/ir.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("nodes 277"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("outputs 81"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("aten::native_batch_norm"), std::string::npos);
}

TEST(CliStats, ParseErrorIsPositionedWithCaretAndExit2) {
  std::string path = WriteTempFile(
      "dangling.txt",
      "IR {\n  %0 = f32[] prim::Constant(), value=0\n"
      "  %1 = f32[4]{0} aten::expand(%7), size=(4), ROOT=0\n}\n");
  testing::CliResult r = RunCli({"stats", path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  std::string expected_prefix = "graphdiff: " + path + ":3:";
  EXPECT_EQ(r.err.rfind(expected_prefix, 0), 0u) << r.err;
  EXPECT_NE(r.err.find("aten::expand(%7)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("^"), std::string::npos) << r.err;
}

// The report is written a graph at a time, a megabyte at once: over a
// directory of several megabytes of report (thousands of FX graphs, a
// metrics report, a file it skips), the bytes are those of the library's
// RenderStatsText (or StatsToJson) over the whole report, written at once.
TEST(CliStats, TextWrittenInPiecesIsTheWholeReport) {
  const std::string dir = ::testing::TempDir() + "/stats_in_pieces";
  std::filesystem::create_directories(dir + "/more");
  // Over two pieces of 4 MiB: `stats` takes its graphs a piece at a time.
  std::string fx;
  for (int i = 0; i < 50000; ++i) {
    fx += fmt::format(
        "class Graph{0}(torch.nn.Module):\n"
        "    def forward(self, x_{0}, w):\n"
        "        mm = torch.ops.aten.mm.default(x_{0}, w)\n"
        "        relu_{0} = torch.ops.aten.relu.default(mm);  mm = None\n"
        "        return (relu_{0},)\n\n",
        i);
  }
  WriteTempFile("stats_in_pieces/graphs.py", fx);
  // More such files than jobs: a thread waiting for the text of one file's
  // graphs may load another file and take its graphs.
  WriteTempFile("stats_in_pieces/more/graphs.py", fx);
  WriteTempFile("stats_in_pieces/more/graphs_2.py", fx);
  WriteTempFile("stats_in_pieces/more/graphs_3.py", fx);
  WriteTempFile("stats_in_pieces/metrics.txt", testing::ReadTestdata("resnet18-xla5430/openxla/metrics.txt"));
  WriteTempFile("stats_in_pieces/notes.txt", "not a dump\n");
  absl::StatusOr<Dump> dump = LoadDump(dir, LoadOptions{});
  ASSERT_TRUE(dump.ok()) << dump.status();
  StatsReport whole;
  cli::AddStats(*dump, dir, &whole);
  ASSERT_GT(fx.size(), size_t{9} << 20);
  ASSERT_EQ(whole.graphs.size(), 200000u);
  ASSERT_EQ(whole.metrics.size(), 1u);
  ASSERT_EQ(whole.skipped.size(), 1u);
  const std::string expected = RenderStatsText(whole);
  ASSERT_GT(expected.size(), size_t{2} << 20);

  for (const char* jobs : {"1", "2", "3"}) {
    testing::CliResult r = RunCli({"stats", "--jobs", jobs, dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out == expected) << jobs << " jobs: the report differs at byte "
                                   << std::mismatch(r.out.begin(), r.out.end(),
                                                    expected.begin(), expected.end()).first -
                                          r.out.begin();
  }
  testing::CliResult r;
  const std::string json = StatsToJson(whole);
  for (const char* jobs : {"1", "2"}) {
    r = RunCli({"stats", "--format", "json", "--jobs", jobs, dir});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out == json) << jobs << " jobs: the JSON differs at byte "
                               << std::mismatch(r.out.begin(), r.out.end(), json.begin(),
                                                json.end()).first - r.out.begin();
  }
  const std::string file = dir + "_report.txt";
  r = RunCli({"stats", "--top", "1", "-o", file, dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(testing::Slurp(file) == RenderStatsText(whole, 1));
}

TEST(CliStats, MissingPathIsTrouble) {
  testing::CliResult r = RunCli({"stats", "no/such/dump"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.rfind("graphdiff: ", 0), 0u) << r.err;
}

TEST(CliStats, UsageErrorIsTrouble) {
  EXPECT_EQ(RunCli({"stats"}).exit_code, 2);
  EXPECT_EQ(RunCli({"no-such-command"}).exit_code, 2);
  testing::CliResult v = RunCli({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_NE(v.out.find("."), std::string::npos);
}

}  // namespace
}  // namespace graphdiff
