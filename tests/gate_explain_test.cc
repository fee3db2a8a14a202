// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// A gate that cannot be disarmed and explains itself: graph structures in the
// baseline, failures explained by the structural diff, keys stable across
// run-stamped directories, refusals, CSV.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/gate.h"
#include "gtest/gtest.h"
#include "testing/cli.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RunCli;
using testing::WriteTempFile;
using testing::ReadTestdata;
using testing::TestdataPath;

constexpr char kAot[] = "resnet18-xla5430/openxla";
constexpr char kEager[] = "resnet18-xla5430/torchxla_trace_once";

Graph LoadIr(const std::string& path) {
  absl::StatusOr<Graph> g = ParseIrText(ReadTestdata(path), path);
  EXPECT_TRUE(g.ok()) << g.status();
  return g.ok() ? *std::move(g) : Graph{};
}

TEST(GraphCodec, RoundTripsStructure) {
  Graph g = LoadIr(std::string(kAot) + "/ir.txt");
  std::string encoded = EncodeGraph(g);
  EXPECT_EQ(encoded.substr(0, 4), "gd1:");
  EXPECT_LT(encoded.size(), 16000u);  // compact: the IR text is ~40 KB
  absl::StatusOr<Graph> back = DecodeGraph(encoded, "ir.txt");
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->nodes.size(), g.nodes.size());
  EXPECT_EQ(back->inputs, g.inputs);
  EXPECT_EQ(back->outputs, g.outputs);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    EXPECT_EQ(back->str(back->nodes[i].op), g.str(g.nodes[i].op));
    EXPECT_EQ(back->str(back->nodes[i].name), g.str(g.nodes[i].name));
    EXPECT_EQ(back->nodes[i].operands, g.nodes[i].operands);
    EXPECT_EQ(FormatResults(*back, back->nodes[i]), FormatResults(g, g.nodes[i]));
    ASSERT_EQ(back->nodes[i].attrs.size(), g.nodes[i].attrs.size());
  }
  // Aligning the decoded graph with the original finds nothing.
  absl::StatusOr<DiffResult> d = DiffGraphs(g, *back);
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->identical());
}

TEST(GraphCodec, RejectsCorruptInput) {
  std::string encoded = EncodeGraph(LoadIr(std::string(kEager) + "/ir.txt"));
  for (const std::string& bad :
       {std::string(""), std::string("gd1:"), std::string("xx1:AAAA"),
        std::string("gd1:!!!!"), encoded.substr(0, encoded.size() / 2),
        encoded.substr(0, 20) + "AAAAAAAAAAAAAAAAAAAAAAAA" + encoded.substr(44)}) {
    absl::StatusOr<Graph> g = DecodeGraph(bad, "b.json");
    EXPECT_FALSE(g.ok()) << bad.substr(0, 30);
    if (!g.ok()) {
      EXPECT_THAT(std::string(g.status().message()), HasSubstr("b.json"));
    }
  }
}

TEST(GateKeys, RunStampedDirectoriesNormalise) {
  EXPECT_EQ(NormalizeUnitPath("torch_compile_debug/run_2024_01_01_12_00_00_000000-pid_111/"
                              "torchinductor/model__0_forward_1.0/fx_graph_readable.py"),
            "torch_compile_debug/run_*/torchinductor/model__0_forward_1.0/"
            "fx_graph_readable.py");
  EXPECT_EQ(NormalizeUnitPath("rank_3/graphs.txt"), "rank_*/graphs.txt");
  EXPECT_EQ(NormalizeUnitPath("logs.zip!rank0/ir.txt"), "logs.zip!rank*/ir.txt");
  EXPECT_EQ(NormalizeUnitPath("runner/ir.txt"), "runner/ir.txt");
  EXPECT_EQ(NormalizeUnitPath("run_a/ir.txt"), "run_a/ir.txt");
  EXPECT_EQ(NormalizeUnitPath("ranking_3/x"), "ranking_3/x");
}

TEST(GateKeys, StableAcrossRunsAndDistinctAcrossRanks) {
  std::string ir = ReadTestdata(std::string(kEager) + "/ir.txt");
  absl::StatusOr<Dump> a = LoadDumpFromMemory(
      "a", {{"run_2024_01_01_00_00_00_000001-pid_111/rank_0/ir.txt", ir},
            {"run_2024_01_01_00_00_00_000001-pid_111/rank_1/ir.txt", ir}});
  absl::StatusOr<Dump> b = LoadDumpFromMemory(
      "b", {{"run_2024_02_02_00_00_00_000002-pid_222/rank_0/ir.txt", ir},
            {"run_2024_02_02_00_00_00_000002-pid_222/rank_1/ir.txt", ir}});
  ASSERT_TRUE(a.ok() && b.ok());
  Baseline ba = SnapshotDump(*a), bb = SnapshotDump(*b);
  ASSERT_EQ(ba.units.size(), 2u);
  EXPECT_EQ(ba.units[0].key, "run_*/rank_*/ir.txt");
  EXPECT_EQ(ba.units[1].key, "run_*/rank_*/ir.txt~2");
  CheckResult r = CheckAgainstBaseline(ba, bb, DefaultBudget());
  EXPECT_EQ(r.verdict, GateVerdict::kPass);
  for (const UnitCheck& u : r.units) EXPECT_EQ(u.matched_by, "key") << u.key;
}

TEST(GateExplain, FailureIsExplainedByTheStructuralDiff) {
  absl::StatusOr<Dump> eager = LoadDump(TestdataPath(kEager));
  absl::StatusOr<Dump> aot = LoadDump(TestdataPath(kAot));
  ASSERT_TRUE(eager.ok() && aot.ok());
  Baseline base = SnapshotDump(*eager);
  absl::StatusOr<Baseline> stored = ParseBaseline(BaselineToJson(base), "base.json");
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(*stored, base);
  CheckResult r = CheckAgainstBaseline(*stored, SnapshotDump(*aot), DefaultBudget());
  ASSERT_EQ(r.verdict, GateVerdict::kFail);
  bool explained = false;
  for (const UnitCheck& u : r.units) {
    if (u.key != "ir.txt") continue;
    ASSERT_FALSE(u.diff_findings.empty());
    EXPECT_EQ(u.diff_findings[0].id, "extra-outputs");
    EXPECT_EQ(u.diff_findings[0].count, 80);
    EXPECT_THAT(u.diff_findings[0].hint, HasSubstr("torch.no_grad()"));
    explained = true;
  }
  EXPECT_TRUE(explained);
  std::string text = RenderCheckText(r);
  EXPECT_THAT(text, HasSubstr("explained by the diff against the baseline graph"));
  EXPECT_THAT(RenderCheckJson(r), HasSubstr("\"diff_findings\""));
  EXPECT_THAT(RenderCheckMarkdown(r), HasSubstr("diff against the baseline graph"));
}

TEST(GateExplain, BaselineWithoutStructureSaysSo) {
  absl::StatusOr<Dump> eager = LoadDump(TestdataPath(kEager));
  absl::StatusOr<Dump> aot = LoadDump(TestdataPath(kAot));
  ASSERT_TRUE(eager.ok() && aot.ok());
  Baseline base = SnapshotDump(*eager);
  for (GateUnit& u : base.units) u.structure.clear();
  CheckResult r = CheckAgainstBaseline(base, SnapshotDump(*aot), DefaultBudget());
  bool said = false;
  for (const UnitCheck& u : r.units) {
    for (const FindingNote& f : u.diff_findings) said = said || f.id == "no-structure";
  }
  EXPECT_TRUE(said);
}

TEST(GateCsv, EveryFactOfEveryUnit) {
  absl::StatusOr<Dump> eager = LoadDump(TestdataPath(kEager));
  absl::StatusOr<Dump> aot = LoadDump(TestdataPath(kAot));
  ASSERT_TRUE(eager.ok() && aot.ok());
  CheckResult r =
      CheckAgainstBaseline(SnapshotDump(*eager), SnapshotDump(*aot), DefaultBudget());
  std::string csv = RenderCheckCsv(r);
  EXPECT_EQ(csv.substr(0, csv.find('\n')), "unit,kind,metric,baseline,current,delta,limit,status");
  EXPECT_THAT(csv, HasSubstr("\nir.txt,graph,outputs,1,81,80,+0,FAIL\n"));
  EXPECT_THAT(csv, HasSubstr("\nir.txt,graph,inputs,103,103,0,,same\n"));
  EXPECT_THAT(csv, HasSubstr("\nmetrics.txt,metrics,counter:xla::clone,1,103,102,+0,FAIL\n"));
  // Quoting and formula neutralising.
  CheckResult odd;
  UnitCheck u;
  u.key = "=cmd,\"x\"";
  u.new_values["nodes"] = 1;
  u.old_values["nodes"] = 1;
  odd.units.push_back(u);
  EXPECT_THAT(RenderCheckCsv(odd), HasSubstr("\"'=cmd,\"\"x\"\"\",graph,nodes,1,1,0,,same"));
}

std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(GateCliRefusals, EmptyBaselineAndSilentRemoval) {
  std::string empty = WriteTempFile(
      "refuse_empty.json", "{\"schema\": \"graphdiff-baseline\", \"schema_version\": 1, "
                           "\"graphs\": []}\n");
  testing::CliResult r = RunCli({"check", kAot, "--baseline", empty});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("holds no graphs, so it would pass anything"));

  // A baseline of the whole dump; the update from a dump that lost a graph is refused.
  std::string base = WriteTempFile("refuse_removal.json", "");
  ASSERT_EQ(RunCli({"snapshot", kAot, "-o", base}).exit_code, 0);
  std::string before = Slurp(base);
  std::string ir_only = std::string(kAot) + "/ir.txt";
  testing::CliResult up = RunCli({"check", ir_only, "--baseline", base, "--update-baseline"});
  EXPECT_EQ(up.exit_code, 2) << up.out;
  EXPECT_THAT(up.err, HasSubstr("missing from " + ir_only));
  EXPECT_THAT(up.err, HasSubstr("--allow-removal"));
  EXPECT_EQ(Slurp(base), before);  // untouched
  testing::CliResult allowed =
      RunCli({"check", ir_only, "--baseline", base, "--update-baseline", "--allow-removal"});
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_NE(Slurp(base), before);
  // Updating from an empty dump is refused before anything is written.
  std::string junk = WriteTempFile("refuse_junk.txt", "no dump here\n");
  std::string after = Slurp(base);
  EXPECT_EQ(RunCli({"check", junk, "--baseline", base, "--update-baseline", "--allow-removal"})
                .exit_code,
            2);
  EXPECT_EQ(Slurp(base), after);
}

TEST(GateCliRefusals, GateFromTheDocsCatchesExtraOutputs) {
  // docs/gate.md, "Setting up a gate": snapshot a good dump, check a fresh one.
  std::string base = WriteTempFile("docs_gate.json", "");
  ASSERT_EQ(RunCli({"snapshot", kEager, "-o", base}).exit_code, 0);
  testing::CliResult r = RunCli({"check", kAot, "--baseline", base});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("outputs: 1 -> 81"));
  EXPECT_THAT(r.out, HasSubstr("extra-outputs (x80): 80 extra outputs on the right"));
  EXPECT_THAT(r.out, HasSubstr("torch.no_grad()"));
  // Both graphs have the extra outputs; the hint is printed once.
  size_t first = r.out.find("Run inference under");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(r.out.find("Run inference under", first + 1), std::string::npos);
  EXPECT_THAT(r.out, HasSubstr("hint: as above"));
  // What the dump holds besides graphs is listed, not silently ignored.
  std::string dir = ::testing::TempDir() + "/gate_with_junk";
  std::filesystem::remove_all(dir);
  std::filesystem::copy(TestdataPath(kAot), dir, std::filesystem::copy_options::recursive);
  WriteTempFile("gate_with_junk/readme.json", "{}\n");
  testing::CliResult junk = RunCli({"check", dir, "--baseline", base});
  EXPECT_EQ(junk.exit_code, 1);
  EXPECT_THAT(junk.out, HasSubstr("Skipped, not checked (1):"));
  EXPECT_THAT(junk.out, HasSubstr("readme.json: not a recognised dump"));
  testing::CliResult snap = RunCli({"snapshot", dir, "-o", WriteTempFile("junk_base.json", "")});
  EXPECT_EQ(snap.exit_code, 0);
  EXPECT_THAT(snap.err, HasSubstr("not in the baseline: " + dir + "/readme.json"));
  testing::CliResult csv = RunCli({"check", kAot, "--baseline", base, "--format", "csv"});
  EXPECT_EQ(csv.exit_code, 1);
  EXPECT_THAT(csv.out, HasSubstr("ir.txt,graph,outputs,1,81,80,+0,FAIL"));
}

}  // namespace
}  // namespace graphdiff

namespace graphdiff {
namespace {

TEST(GateKeys, GrownHloModuleIsTheSameUnit) {
  // XLA names modules by id; a graph that grows is renamed .49 -> .52, and
  // two of them in one file stay told apart by record order.
  auto module = [](int id, int extra) {
    std::string text = "HloModule SyncTensorsGraph." + std::to_string(id) + "\n\nENTRY main {\n" +
                       "  p0 = f32[4]{0} parameter(0)\n";
    std::string last = "p0";
    for (int i = 0; i < extra; ++i) {
      std::string name = "n" + std::to_string(i);
      text += "  " + name + " = f32[4]{0} negate(" + last + ")\n";
      last = name;
    }
    return text + "  ROOT r = (f32[4]{0}) tuple(" + last + ")\n}\n\n";
  };
  absl::StatusOr<Dump> before =
      LoadDumpFromMemory("a", {{"graphs.txt", module(49, 1) + module(60, 2)}});
  absl::StatusOr<Dump> after =
      LoadDumpFromMemory("b", {{"graphs.txt", module(52, 3) + module(61, 4)}});
  ASSERT_TRUE(before.ok() && after.ok()) << before.status() << after.status();
  CheckResult r = CheckAgainstBaseline(SnapshotDump(*before), SnapshotDump(*after),
                                       DefaultBudget());
  ASSERT_EQ(r.units.size(), 2u);
  for (const UnitCheck& u : r.units) {
    EXPECT_FALSE(u.is_new) << u.key;
    EXPECT_FALSE(u.is_missing) << u.key;
    EXPECT_EQ(u.matched_by, "name") << u.key;
    EXPECT_EQ(u.verdict, GateVerdict::kFail) << u.key;  // nodes grew
  }
  EXPECT_EQ(r.units[0].baseline_key, "graphs.txt#0:SyncTensorsGraph.49");
  EXPECT_EQ(r.units[1].baseline_key, "graphs.txt#1:SyncTensorsGraph.60");
}

}  // namespace
}  // namespace graphdiff
