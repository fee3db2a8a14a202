// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// `graphdiff snapshot` and `graphdiff check` as a CI job runs them: exit
// codes, report files, --update-baseline, and messages for bad input.
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/cli.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;
using testing::RunCli;
using testing::WriteTempFile;

std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

constexpr char kAot[] = "resnet18-xla5430/openxla";
constexpr char kEager[] = "resnet18-xla5430/torchxla_trace_once";

std::string SnapshotTo(const char* dump, const std::string& name) {
  std::string path = WriteTempFile(name, "");
  testing::CliResult r = RunCli({"snapshot", dump, "-o", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return path;
}

TEST(GateCli, FailPassImprovedExitCodes) {
  std::string eager = SnapshotTo(kEager, "gate_cli_eager.json");
  std::string aot = SnapshotTo(kAot, "gate_cli_aot.json");
  testing::CliResult fail = RunCli({"check", kAot, "--baseline", eager});
  EXPECT_EQ(fail.exit_code, 1) << fail.err;
  EXPECT_THAT(fail.out, HasSubstr("graphdiff check: FAIL"));
  EXPECT_THAT(fail.out, HasSubstr("outputs: 1 -> 81 (+80, +8000.0%) exceeds limit +0"));
  EXPECT_THAT(fail.out, HasSubstr("counter:xla::clone: 1 -> 103"));
  testing::CliResult pass = RunCli({"check", kAot, "--baseline", aot});
  EXPECT_EQ(pass.exit_code, 0) << pass.err;
  EXPECT_THAT(pass.out, HasSubstr("graphdiff check: PASS"));
  testing::CliResult better = RunCli({"check", kEager, "--baseline", aot});
  EXPECT_EQ(better.exit_code, 0) << better.err;
  EXPECT_THAT(better.out, HasSubstr("graphdiff check: IMPROVED"));
  EXPECT_THAT(better.out, HasSubstr("graphdiff check " + std::string(kEager) + " --baseline " +
                                    aot + " --update-baseline"));
}

TEST(GateCli, UpdateBaselineAcceptsTheDump) {
  std::string base = SnapshotTo(kEager, "gate_cli_update.json");
  testing::CliResult up = RunCli({"check", kAot, "--baseline", base, "--update-baseline"});
  EXPECT_EQ(up.exit_code, 0) << up.err;
  EXPECT_THAT(up.err, HasSubstr("baseline " + base + " updated from " + kAot +
                                ": 3 changed, 0 new, 0 removed"));
  testing::CliResult again = RunCli({"check", kAot, "--baseline", base});
  EXPECT_EQ(again.exit_code, 0) << again.out;
  EXPECT_EQ(Slurp(base), RunCli({"snapshot", kAot}).out);
}

TEST(GateCli, UpdateBaselineCreatesAMissingBaseline) {
  std::string path = ::testing::TempDir() + "/gate_cli_fresh_baseline.json";
  std::remove(path.c_str());
  testing::CliResult first = RunCli({"check", kEager, "--baseline", path});
  EXPECT_EQ(first.exit_code, 2);
  EXPECT_THAT(first.err, HasSubstr("cannot read baseline " + path));
  testing::CliResult created = RunCli({"check", kEager, "--baseline", path, "--update-baseline"});
  EXPECT_EQ(created.exit_code, 0) << created.err;
  EXPECT_EQ(RunCli({"check", kEager, "--baseline", path}).exit_code, 0);
}

TEST(GateCli, ReportFilesForCi) {
  std::string base = SnapshotTo(kEager, "gate_cli_reports.json");
  std::string md = WriteTempFile("gate_cli_summary.md", "");
  std::string xml = WriteTempFile("gate_cli_junit.xml", "");
  testing::CliResult r = RunCli({"check", kAot, "--baseline", base, "--format", "json",
                                 "--markdown", md, "--junit", xml});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("\"verdict\": \"FAIL\""));
  EXPECT_THAT(Slurp(md), HasSubstr("## graphdiff check: ❌ FAIL"));
  EXPECT_THAT(Slurp(xml), HasSubstr("<testsuites name=\"graphdiff check\" tests=\"3\" failures=\"3\">"));
}

TEST(GateCli, BudgetLoosensTheGate) {
  std::string base = SnapshotTo(kEager, "gate_cli_budget_base.json");
  std::string budget = WriteTempFile(
      "gate_cli_budget.json",
      R"({"default": {"nodes": "+150%", "outputs": "100", "inputs": "+102"},
          "allow": ["counter:*", "finding:*"]})");
  testing::CliResult r = RunCli({"check", kAot, "--baseline", base, "--budget", budget});
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

TEST(GateCli, BadBudgetIsTrouble) {
  std::string base = SnapshotTo(kEager, "gate_cli_bad_base.json");
  std::string budget = WriteTempFile("gate_cli_bad_budget.json", "{\"default\": {\"nods\": \"+0\"}}");
  testing::CliResult r = RunCli({"check", kAot, "--baseline", base, "--budget", budget});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("graphdiff: " + budget +
                               ": \"default\"[\"nods\"]: unknown metric \"nods\"; valid metrics: "
                               "nodes, inputs, outputs"));
  std::string broken = WriteTempFile("gate_cli_broken_budget.json", "{\n  \"default\": [,]\n}");
  r = RunCli({"check", kAot, "--baseline", base, "--budget", broken});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("graphdiff: " + broken + ":2:15: invalid JSON"));
}

}  // namespace
}  // namespace graphdiff
