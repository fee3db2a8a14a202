// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Reports that fit a screen: the default ResNet-18 report, --verbose,
// --stat, --brief, --all, the width rules and standard input.
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/cli.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::CliOptions;
using testing::RunCli;

constexpr char kAot[] = "resnet18-xla5430/openxla";
constexpr char kEager[] = "resnet18-xla5430/torchxla_trace_once";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

size_t Longest(const std::string& text) {
  size_t n = 0;
  for (const std::string& l : Lines(text)) n = std::max(n, l.size());
  return n;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(CliReport, ResNetFitsOneScreenAndTellsTheStory) {
  testing::CliResult r = RunCli({"diff", kEager, kAot});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  EXPECT_LE(lines.size(), 40u) << r.out;
  EXPECT_LE(Longest(r.out), 80u);
  // The whole story on the first screen: verdict, the causes with their hint,
  // the consequences, and a line per pair.
  EXPECT_THAT(r.out, HasSubstr("Different: 2 of 2 graph pairs differ"));
  EXPECT_THAT(r.out, HasSubstr("extra-outputs: 80 extra outputs on the right (1 -> 81)"));
  EXPECT_THAT(r.out, HasSubstr("torch.no_grad()"));
  EXPECT_THAT(r.out, HasSubstr("dead-constant-expand"));
  EXPECT_THAT(r.out, HasSubstr("lifted-inputs"));
  EXPECT_THAT(r.out, HasSubstr("clones"));
  EXPECT_THAT(r.out, HasSubstr("ir.txt [IR]: nodes 197->277 (+80 -0 ~0), outputs 1->81"));
  EXPECT_THAT(r.out, HasSubstr("xla::clone 1 -> 103"));
  // The same hint is printed once.
  EXPECT_EQ(Count(r.out, "Run inference under"), 1u) << r.out;
  // One line of evidence per finding shown.
  EXPECT_THAT(r.out, HasSubstr("e.g. right "));
}

TEST(CliReport, VerboseHasTheDetail) {
  testing::CliResult r = RunCli({"diff", "--verbose", kEager, kAot});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_GT(Lines(r.out).size(), 100u);
  EXPECT_THAT(r.out, HasSubstr("changed pairs ("));
  EXPECT_THAT(r.out, HasSubstr("evidence ("));
  EXPECT_EQ(Count(r.out, "Run inference under"), 1u);
  EXPECT_THAT(r.out, HasSubstr("hint: as in 1."));
  EXPECT_EQ(RunCli({"diff", "--detail", kEager, kAot}).out, r.out);
}

TEST(CliReport, StatIsOneLinePerDifferingPair) {
  testing::CliResult r = RunCli({"diff", "--stat", kEager, kAot});
  ASSERT_EQ(r.exit_code, 1) << r.err;
  std::vector<std::string> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_THAT(lines[0], HasSubstr("fx_graph.txt"));
  EXPECT_THAT(lines[0], HasSubstr("| nodes 70 -> 173, outputs 1 -> 81"));
  EXPECT_THAT(lines[0], HasSubstr("+102 -0 ~70 +"));
  EXPECT_THAT(lines[1], HasSubstr("ir.txt"));
  EXPECT_THAT(lines[2], HasSubstr("metrics.txt"));
  EXPECT_THAT(lines[2], HasSubstr("2 of 2 counters changed"));
  EXPECT_EQ(lines[3], " 2 graph pairs differ, 0 same; 1 metrics report changed");
  EXPECT_LE(Longest(r.out), 80u);
}

TEST(CliReport, BriefIsOneLineAndTheExitCode) {
  testing::CliResult r = RunCli({"diff", "-q", kEager, kAot});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.out).size(), 1u) << r.out;
  EXPECT_THAT(r.out, HasSubstr("Different: 2 of 2 graph pairs differ"));
  EXPECT_THAT(r.out, HasSubstr("Top finding: 80 extra outputs"));
  testing::CliResult same = RunCli({"diff", "--brief", kAot, kAot});
  EXPECT_EQ(same.exit_code, 0);
  EXPECT_EQ(same.out,
            "Same up to numbering and order: 2 graph pairs and 1 metrics report compared.\n");
}

TEST(CliReport, IdenticalPairsAreCountedUnlessAllIsGiven) {
  testing::CliResult r = RunCli({"diff", kAot, kAot});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("Graph pairs (2: 0 differ, 2 same)"));
  EXPECT_THAT(r.out, HasSubstr("(2 identical pairs not listed; --all lists them)"));
  EXPECT_THAT(r.out, Not(HasSubstr("ir.txt [IR]")));
  testing::CliResult all = RunCli({"diff", "--all", kAot, kAot});
  EXPECT_THAT(all.out, HasSubstr("ir.txt [IR]: same (277 nodes)"));
  EXPECT_THAT(all.out, Not(HasSubstr("not listed")));
}

TEST(CliReport, WidthFromFlagThenColumnsThenEighty) {
  testing::CliResult narrow = RunCli({"diff", "--width", "50", kEager, kAot});
  EXPECT_LE(Longest(narrow.out), 50u) << narrow.out;
  CliOptions wide;
  wide.env = {"COLUMNS=140"};
  testing::CliResult columns = RunCli({"diff", kEager, kAot}, wide);
  EXPECT_GT(Longest(columns.out), 80u);
  EXPECT_LE(Longest(columns.out), 140u);
  EXPECT_LT(Lines(columns.out).size(), Lines(narrow.out).size());
  CliOptions junk;
  junk.env = {"COLUMNS=lots"};
  EXPECT_EQ(RunCli({"diff", kEager, kAot}, junk).out, RunCli({"diff", kEager, kAot}).out);
}

TEST(CliReport, DashReadsStandardInput) {
  CliOptions in;
  in.stdin_file = std::string(GRAPHDIFF_TESTDATA_DIR) + "/" + kAot + "/ir.txt";
  testing::CliResult r = RunCli({"diff", std::string(kEager) + "/ir.txt", "-"}, in);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("graphdiff: resnet18-xla5430/torchxla_trace_once/ir.txt -> -"));
  EXPECT_THAT(r.out, HasSubstr("nodes 197->277"));
  testing::CliResult stats = RunCli({"stats", "-"}, in);
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_THAT(stats.out, HasSubstr("nodes 277"));
  testing::CliResult both = RunCli({"diff", "-", "-"}, in);
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_THAT(both.err, HasSubstr("only one side can be read from standard input"));
  // An empty standard input is nothing to compare.
  testing::CliResult empty = RunCli({"diff", std::string(kEager) + "/ir.txt", "-"});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_THAT(empty.err, HasSubstr("standard input"));
}

}  // namespace
}  // namespace graphdiff
