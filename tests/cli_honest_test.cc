// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Comparing nothing is trouble, never sameness: every command exits 2 with a
// reason on input that holds no recognised dump, and names what it skipped.
#include <filesystem>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/cli.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunCli;
using testing::WriteTempFile;

constexpr char kAot[] = "resnet18-xla5430/openxla";
constexpr char kEager[] = "resnet18-xla5430/torchxla_trace_once";

std::string EmptyDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "/" + name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

void ExpectTrouble(const testing::CliResult& r, const std::string& reason) {
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr(reason));
  EXPECT_THAT(r.out, Not(HasSubstr("Same up to numbering")));
}

TEST(CliHonest, EmptyDirectoriesAreTrouble) {
  std::string dir = EmptyDir("honest_empty");
  testing::CliResult r = RunCli({"diff", dir, dir});
  ExpectTrouble(r, "nothing to compare on the left side");
  EXPECT_THAT(r.err, HasSubstr("holds no files"));
  EXPECT_THAT(r.err, HasSubstr("docs/producing-dumps.md"));
}

TEST(CliHonest, UnrecognisedFilesAreTroubleAndNamed) {
  std::string bin = WriteTempFile("honest.bin", std::string("\x7f\x45\x4c\x46\x00\x01\x02", 7));
  ExpectTrouble(RunCli({"diff", bin, bin}), "not a recognised dump (binary)");
  std::string json = WriteTempFile("honest.json", "{\"a\": [1, 2, 3]}\n");
  testing::CliResult r = RunCli({"diff", json, json});
  ExpectTrouble(r, "no recognised dump in " + json);
  EXPECT_THAT(r.err, HasSubstr("1 not a recognised dump"));
  // The right side is checked too, even when the left is fine.
  ExpectTrouble(RunCli({"diff", kAot, json}), "nothing to compare on the right side");
}

// --verify checks every alignment and otherwise changes nothing: a consistent
// alignment gives the same report and exit code as without it.
TEST(CliHonest, VerifyChecksAndChangesNothing) {
  testing::CliResult plain = RunCli({"diff", "--color", "never", kEager, kAot});
  testing::CliResult verified = RunCli({"diff", "--color", "never", "--verify", kEager, kAot});
  EXPECT_EQ(plain.exit_code, 1) << plain.err;
  EXPECT_EQ(verified.exit_code, plain.exit_code) << verified.err;
  EXPECT_EQ(verified.out, plain.out);
  testing::CliResult same = RunCli({"diff", "--verify", kAot, kAot});
  EXPECT_EQ(same.exit_code, 0) << same.err;
}

TEST(CliHonest, SelectorThatSelectsNothingIsTrouble) {
  testing::CliResult r = RunCli({"diff", "--graph", "nomatch", kEager, kAot});
  ExpectTrouble(r, "nothing selected by --graph 'nomatch'");
  EXPECT_THAT(r.err, HasSubstr("ir.txt"));  // what could have been selected
  EXPECT_EQ(RunCli({"lint", "--graph", "nomatch", kAot}).exit_code, 2);
}

TEST(CliHonest, NothingPairsIsTrouble) {
  testing::CliResult r = RunCli({"diff", std::string(kAot) + "/metrics.txt",
                                 std::string(kAot) + "/ir.txt"});
  ExpectTrouble(r, "no comparable graphs");
  EXPECT_THAT(r.err, HasSubstr("left: 0 graphs, 1 metrics reports"));
}

TEST(CliHonest, LintStatsSnapshotRefuseUnrecognisedInput) {
  std::string junk = WriteTempFile("honest_junk.txt", "hello, world\nnot a dump\n");
  ExpectTrouble(RunCli({"lint", junk}), "nothing to lint");
  ExpectTrouble(RunCli({"stats", junk}), "no stats");
  std::string base = WriteTempFile("honest_base.json", "");
  ExpectTrouble(RunCli({"snapshot", junk, "-o", base}), "no graphs to gate");
  // A dump of metrics alone has nothing for a graph gate either.
  ExpectTrouble(RunCli({"snapshot", std::string(kAot) + "/metrics.txt", "-o", base}),
                "holds only metrics reports");
}

TEST(CliHonest, SkippedFilesAreListedInTheReport) {
  std::string dir = EmptyDir("honest_mixed");
  std::filesystem::copy(std::string(GRAPHDIFF_TESTDATA_DIR) + "/" + kAot, dir,
                        std::filesystem::copy_options::recursive);
  WriteTempFile("honest_mixed/notes.json", "{\"note\": true}\n");
  testing::CliResult r = RunCli({"diff", kAot, dir});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Skipped, not compared (1)"));
  EXPECT_THAT(r.out, HasSubstr("right: notes.json: not a recognised dump"));
  testing::CliResult json = RunCli({"diff", "--format", "json", kAot, dir});
  EXPECT_THAT(json.out, HasSubstr("\"reason\": \"not a recognised dump\""));
  testing::CliResult md = RunCli({"diff", "--format", "markdown", kAot, dir});
  EXPECT_THAT(md.out, HasSubstr("### Skipped, not compared (1)"));
  testing::CliResult lint_json = RunCli({"lint", "--format", "json", dir});
  EXPECT_THAT(lint_json.out, HasSubstr("\"reason\": \"not a recognised dump\""));
  testing::CliResult lint = RunCli({"lint", dir});
  EXPECT_THAT(lint.out, HasSubstr("Skipped, not read (1)"));
}

TEST(CliHonest, SubcommandTypoGetsASuggestion) {
  testing::CliResult r = RunCli({"dif", kAot, kEager});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("unknown command 'dif'; did you mean 'diff'?"));
  EXPECT_THAT(RunCli({"snapshto"}).err, HasSubstr("did you mean 'snapshot'?"));
  testing::CliResult far = RunCli({"frobnicate"});
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_THAT(far.err, HasSubstr("unknown command 'frobnicate' (commands: diff, stats"));
}

TEST(CliHonest, ErrorsSayWhy) {
  testing::CliResult r =
      RunCli({"diff", kEager, kAot, "-o", "/nonexistent-dir/graphdiff/report.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("cannot write /nonexistent-dir/graphdiff/report.txt: No such "
                               "file or directory"));
  testing::CliResult e = RunCli({"diff", "--equiv", "/nonexistent.json", kEager, kAot});
  EXPECT_EQ(e.exit_code, 2);
  EXPECT_THAT(e.err, HasSubstr("cannot read --equiv file /nonexistent.json: No such file"));
  // Failures after the file opened say why too: a full device, a directory.
  testing::CliResult full = RunCli({"diff", kEager, kAot, "-o", "/dev/full"});
  EXPECT_EQ(full.exit_code, 2);
  EXPECT_THAT(full.err, HasSubstr("cannot write /dev/full: No space left on device"));
  testing::CliResult dir = RunCli({"stats", kEager, "-o", GRAPHDIFF_TESTDATA_DIR});
  EXPECT_EQ(dir.exit_code, 2);
  EXPECT_THAT(dir.err, HasSubstr(std::string("cannot write ") + GRAPHDIFF_TESTDATA_DIR +
                                 ": Is a directory"));
}

}  // namespace
}  // namespace graphdiff
