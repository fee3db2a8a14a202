// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// --jobs on every command that loads dumps: the output never depends on it.
// The progress line: absent from pipes, present and well-formed when asked.
#include <regex>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/cli.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using testing::RunCli;

// A save file of many records, large enough to be cut into pieces (a few
// MiB per piece): the testdata save files one after another, repeated.
const std::string& ManyRecordSaveFile() {
  static const std::string path = [] {
    std::string one;
    for (const char* name : {"generated/mlp/ltc_save.txt", "generated/resnet18/ltc_save.txt",
                             "generated/multi_output/ltc_save.txt",
                             "generated/transformer_block/ltc_save.txt",
                             "fixtures/ir/xla_hlo_sharding.txt"}) {
      one += testing::ReadTestdata(name);
    }
    std::string text;
    while (text.size() < (10u << 20)) text += one;
    return testing::WriteTempFile("many_records_save.txt", text);
  }();
  return path;
}

void ExpectSameForJobs(std::vector<std::string> args) {
  std::vector<std::string> one = args, two = args;
  one.insert(one.begin() + 1, {"--jobs", "1"});
  two.insert(two.begin() + 1, {"-j", "2"});
  testing::CliResult a = RunCli(one);
  testing::CliResult b = RunCli(two);
  EXPECT_EQ(a.exit_code, b.exit_code) << a.err << b.err;
  EXPECT_LT(a.exit_code, 2) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_EQ(a.err, b.err);
  EXPECT_FALSE(a.out.empty());
}

TEST(CliJobs, MultiRecordSaveFileSameForAnyJobs) {
  const std::string& save = ManyRecordSaveFile();
  ExpectSameForJobs({"stats", "--format", "json", save});
  // The text is made on every core, a share of the graphs each.
  ExpectSameForJobs({"stats", save});
  ExpectSameForJobs({"stats", "--top", "2", save});
  ExpectSameForJobs({"lint", "--format", "json", save});
  ExpectSameForJobs({"snapshot", save});
}

TEST(CliJobs, MultiFileDirectorySameForAnyJobs) {
  ExpectSameForJobs({"stats", "--format", "json", "generated"});
  ExpectSameForJobs({"stats", "generated"});
  ExpectSameForJobs({"lint", "--format", "json", "generated/resnet18"});
  ExpectSameForJobs({"diff", "--format", "json", "resnet18-xla5430/torchxla_trace_once",
                     "resnet18-xla5430/openxla"});
}

TEST(CliJobs, CheckTakesJobs) {
  testing::CliResult snap = RunCli({"snapshot", "generated/mlp"});
  ASSERT_EQ(snap.exit_code, 0) << snap.err;
  std::string baseline = testing::WriteTempFile("jobs_baseline.json", snap.out);
  ExpectSameForJobs({"check", "generated/mlp", "--baseline", baseline});
}

TEST(CliProgress, NoLineInAPipe) {
  // stderr is a pipe here: nothing but the report, even on a long load.
  testing::CliResult r = RunCli({"stats", ManyRecordSaveFile()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("graphdiff:"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos);
}

TEST(CliProgress, ForcedLineEndsWithASummary) {
  testing::CliResult r = RunCli({"stats", "--progress", "generated/mlp"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // Off a terminal: whole lines, no carriage returns or escapes.
  EXPECT_EQ(r.err.find('\r'), std::string::npos);
  EXPECT_EQ(r.err.find('\033'), std::string::npos);
  std::regex summary(
      "graphdiff: done: 10 files, [0-9]+ graphs, [0-9]+\\.[0-9] (KB|MB) read, [0-9]+\\.[0-9] s\n$");
  EXPECT_TRUE(std::regex_search(r.err, summary)) << r.err;
  EXPECT_FALSE(r.out.empty());
}

TEST(CliProgress, NoProgressWinsAndCiDoesNotForce) {
  testing::CliResult off = RunCli({"stats", "--no-progress", "generated/mlp"});
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_TRUE(off.err.empty()) << off.err;
  testing::CliOptions ci;
  ci.env = {"CI=true", "TERM=dumb"};
  testing::CliResult in_ci = RunCli({"diff", "generated/mlp", "generated/mlp"}, ci);
  EXPECT_EQ(in_ci.exit_code, 0) << in_ci.err;
  EXPECT_TRUE(in_ci.err.empty()) << in_ci.err;
  testing::CliResult asked = RunCli({"diff", "--progress", "generated/mlp", "generated/mlp"}, ci);
  EXPECT_EQ(asked.exit_code, 0) << asked.err;
  EXPECT_NE(asked.err.find("graphdiff: done: 20 files"), std::string::npos) << asked.err;
}

}  // namespace
}  // namespace graphdiff
