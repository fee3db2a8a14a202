// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Snapshots and checks on real dumps (the ResNet-18 backends of
// pytorch/xla#5430) and on small hand-built baselines for each budget rule.
#include <algorithm>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/gate.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;

struct Snapshot {
  Baseline baseline;
  std::vector<Finding> findings;
};

Snapshot Take(const std::string& dir) {
  absl::StatusOr<Dump> dump = LoadDump(testing::TestdataPath(dir));
  EXPECT_TRUE(dump.ok()) << dump.status();
  if (!dump.ok()) return {};
  Snapshot s;
  s.findings = LintDump(*dump);
  s.baseline = SnapshotDump(*dump, s.findings);
  return s;
}

const GateUnit* FindUnit(const Baseline& b, std::string_view file, GateUnitKind kind) {
  for (const GateUnit& u : b.units) {
    if (u.file == file && u.kind == kind) return &u;
  }
  return nullptr;
}

const UnitCheck* FindCheck(const CheckResult& r, std::string_view key_prefix) {
  for (const UnitCheck& u : r.units) {
    if (u.key.compare(0, key_prefix.size(), key_prefix) == 0) return &u;
  }
  return nullptr;
}

std::string AllReasons(const CheckResult& r) {
  std::string out;
  for (const UnitCheck& u : r.units) {
    for (const std::string& reason : u.reasons) out += u.key + ": " + reason + "\n";
  }
  return out;
}

constexpr char kAot[] = "resnet18-xla5430/openxla";
constexpr char kEager[] = "resnet18-xla5430/torchxla_trace_once";

TEST(GateSnapshot, RecordsSizeFactsCountersAndKeys) {
  Snapshot s = Take(kAot);
  const GateUnit* ir = FindUnit(s.baseline, "ir.txt", GateUnitKind::kGraph);
  ASSERT_NE(ir, nullptr);
  EXPECT_EQ(ir->key.substr(0, 6), "ir.txt");
  EXPECT_EQ(ir->graph_kind, "ir");
  EXPECT_EQ(ir->value("nodes"), 277);
  EXPECT_EQ(ir->value("outputs"), 81);
  EXPECT_EQ(ir->value("op:xla::device_data"), 103);
  EXPECT_EQ(ir->value("op:aten::expand"), 48);
  EXPECT_EQ(ir->fingerprint.size(), 16u);
  const GateUnit* fx = FindUnit(s.baseline, "fx_graph.txt", GateUnitKind::kGraph);
  ASSERT_NE(fx, nullptr);
  EXPECT_EQ(fx->value("inputs"), 103);
  EXPECT_EQ(fx->value("outputs"), 81);
  const GateUnit* m = FindUnit(s.baseline, "metrics.txt", GateUnitKind::kMetrics);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->key, "metrics.txt");
  EXPECT_EQ(m->value("counter:xla::clone"), 103);
  EXPECT_EQ(m->value("counter:xla::empty_symint"), 80);
}

TEST(GateSnapshot, CountsLintFindingsOnTheirGraph) {
  Snapshot s = Take(kAot);
  const GateUnit* ir = FindUnit(s.baseline, "ir.txt", GateUnitKind::kGraph);
  ASSERT_NE(ir, nullptr);
  // The 40 dead expand-of-constant roots are the linter's; the snapshot must
  // attribute them to the IR graph, not to the dump as a whole.
  int64_t expected = 0;
  for (const Finding& f : s.findings) {
    if (f.id == "dead-constant-expand") expected += std::max<int64_t>(f.count, 1);
  }
  ASSERT_GT(expected, 0);
  EXPECT_EQ(ir->value("finding:dead-constant-expand"), expected);
  for (const GateUnit& u : s.baseline.units) {
    EXPECT_EQ(u.value("finding:size-facts"), 0) << u.key;
  }
}

TEST(GateSnapshot, SameKeysForBothBackends) {
  Snapshot a = Take(kAot), b = Take(kEager);
  ASSERT_EQ(a.baseline.units.size(), b.baseline.units.size());
  for (size_t i = 0; i < a.baseline.units.size(); ++i) {
    EXPECT_EQ(a.baseline.units[i].file, b.baseline.units[i].file);
  }
}

TEST(GateBaseline, RoundTripsThroughJson) {
  for (const char* dir : {kAot, kEager}) {
    Snapshot s = Take(dir);
    std::string json = BaselineToJson(s.baseline);
    absl::StatusOr<Baseline> back = ParseBaseline(json, "baseline.json");
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_TRUE(*back == s.baseline) << dir;
    EXPECT_EQ(BaselineToJson(*back), json);
  }
}

TEST(GateBaseline, RoundTripsDumpWideFindings) {
  Baseline b;
  b.dump = "d";
  GateUnit g;
  g.key = "a.txt";
  g.file = "a.txt";
  g.values = {{"nodes", 3}, {"inputs", 1}, {"outputs", 1}, {"op:aten::add", 2}};
  GateUnit d;
  d.kind = GateUnitKind::kDump;
  d.key = "(dump)";
  d.values = {{"finding:dead-code", 4}};
  b.units = {g, d};
  absl::StatusOr<Baseline> back = ParseBaseline(BaselineToJson(b), "b.json");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(*back == b);
}

TEST(GateBaseline, ErrorsNameTheFile) {
  absl::StatusOr<Baseline> b = ParseBaseline("{\"schema\": \"graphdiff-baseline\",\n", "base.json");
  ASSERT_FALSE(b.ok());
  EXPECT_THAT(std::string(b.status().message()), HasSubstr("base.json:2:1: invalid JSON"));
  b = ParseBaseline(R"({"graphs": []})", "base.json");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(std::string(b.status().message()),
            "base.json: top level: not a graphdiff baseline (\"schema\" is not "
            "\"graphdiff-baseline\"); write one with `graphdiff snapshot DUMP -o FILE`");
  b = ParseBaseline(
      R"({"schema": "graphdiff-baseline", "schema_version": 1, "graphs": [{"key": "a", "nodes": "7"}]})",
      "base.json");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(std::string(b.status().message()), "base.json: graphs[0].nodes: must be an integer");
  b = ParseBaseline(R"({"schema": "graphdiff-baseline", "schema_version": 9})", "base.json");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(std::string(b.status().message()),
            "base.json: \"schema_version\": unsupported; this graphdiff reads version 1");
}

TEST(GateCheck, AotAgainstNonAotBaselineFails) {
  Snapshot base = Take(kEager), now = Take(kAot);
  CheckResult r = CheckAgainstBaseline(base.baseline, now.baseline, DefaultBudget(),
                                       now.findings, "eager.json");
  EXPECT_EQ(r.verdict, GateVerdict::kFail);
  std::string reasons = AllReasons(r);
  const UnitCheck* ir = FindCheck(r, "ir.txt");
  ASSERT_NE(ir, nullptr);
  EXPECT_EQ(ir->verdict, GateVerdict::kFail);
  EXPECT_EQ(ir->matched_by, "key");
  EXPECT_THAT(reasons, HasSubstr("ir.txt: nodes: 197 -> 277 (+80, +40.6%) exceeds limit +0"));
  EXPECT_THAT(reasons, HasSubstr("ir.txt: outputs: 1 -> 81 (+80, +8000.0%) exceeds limit +0"));
  const UnitCheck* fx = FindCheck(r, "fx_graph.txt");
  ASSERT_NE(fx, nullptr);
  EXPECT_EQ(fx->verdict, GateVerdict::kFail);
  EXPECT_THAT(reasons, HasSubstr("inputs: 1 -> 103 (+102"));
  const UnitCheck* m = FindCheck(r, "metrics.txt");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->verdict, GateVerdict::kFail);
  EXPECT_THAT(reasons,
              HasSubstr("metrics.txt: counter:xla::clone: 1 -> 103 (+102, +10200.0%) exceeds "
                        "limit +0"));
  // Not gated by default, so not a reason, but still reported as a change.
  EXPECT_THAT(reasons, ::testing::Not(HasSubstr("empty_symint")));
  bool expand_change = false;
  for (const GateChange& c : ir->changes) {
    if (c.metric == "op:aten::expand") {
      expand_change = true;
      EXPECT_EQ(c.old_value, 8);
      EXPECT_EQ(c.new_value, 48);
      EXPECT_FALSE(c.breached);
    }
  }
  EXPECT_TRUE(expand_change);
  // The explanation quotes the aot dump's own findings on that graph.
  bool dead_expand = std::any_of(ir->findings.begin(), ir->findings.end(),
                                 [](const FindingNote& f) { return f.id == "dead-constant-expand"; });
  EXPECT_TRUE(dead_expand);
  EXPECT_EQ(r.update_command,
            "graphdiff check " + now.baseline.dump + " --baseline eager.json --update-baseline");
}

TEST(GateCheck, DumpAgainstItsOwnSnapshotPasses) {
  for (const char* dir : {kAot, kEager}) {
    Snapshot s = Take(dir);
    CheckResult r = CheckAgainstBaseline(s.baseline, s.baseline, DefaultBudget(), s.findings);
    EXPECT_EQ(r.verdict, GateVerdict::kPass) << dir << "\n" << AllReasons(r);
    for (const UnitCheck& u : r.units) {
      EXPECT_EQ(u.verdict, GateVerdict::kPass) << u.key;
      EXPECT_TRUE(u.changes.empty()) << u.key;
    }
  }
}

TEST(GateCheck, NonAotAgainstAotBaselineImproves) {
  Snapshot base = Take(kAot), now = Take(kEager);
  CheckResult r = CheckAgainstBaseline(base.baseline, now.baseline, DefaultBudget(), now.findings);
  EXPECT_EQ(r.verdict, GateVerdict::kImproved) << AllReasons(r);
  EXPECT_EQ(r.failed(), 0);
  const UnitCheck* ir = FindCheck(r, "ir.txt");
  ASSERT_NE(ir, nullptr);
  EXPECT_EQ(ir->verdict, GateVerdict::kImproved);
  EXPECT_THAT(AllReasons(r), HasSubstr("outputs: 81 -> 1 (-80)"));
  EXPECT_THAT(AllReasons(r), HasSubstr("counter:xla::clone: 103 -> 1 (-102)"));
}

// A one-graph baseline for the rule tests.
Baseline One(std::string key, std::map<std::string, int64_t> values) {
  Baseline b;
  b.dump = "dump";
  GateUnit u;
  u.key = key;
  u.file = key;
  u.values = std::move(values);
  b.units.push_back(std::move(u));
  return b;
}

Budget MustParse(const char* text) {
  absl::StatusOr<Budget> b = ParseBudget(text, "budget.json");
  EXPECT_TRUE(b.ok()) << b.status();
  return b.ok() ? *b : Budget{};
}

TEST(GateCheck, RelativeAndPerGraphLimits) {
  Budget budget = MustParse(R"({"default": {"nodes": "+2%"},
                               "graphs": {"big/*": {"nodes": "+10%"}}})");
  EXPECT_EQ(CheckAgainstBaseline(One("a.txt", {{"nodes", 100}}), One("a.txt", {{"nodes", 102}}),
                                 budget).verdict,
            GateVerdict::kPass);
  CheckResult over = CheckAgainstBaseline(One("a.txt", {{"nodes", 100}}),
                                          One("a.txt", {{"nodes", 103}}), budget);
  EXPECT_EQ(over.verdict, GateVerdict::kFail);
  EXPECT_EQ(over.units[0].reasons,
            std::vector<std::string>{"nodes: 100 -> 103 (+3, +3.0%) exceeds limit +2%"});
  EXPECT_EQ(CheckAgainstBaseline(One("big/x", {{"nodes", 100}}), One("big/x", {{"nodes", 109}}),
                                 budget).verdict,
            GateVerdict::kPass);
}

TEST(GateCheck, OpGlobsExactNamesAndAllow) {
  Budget budget = MustParse(R"({"default": {"op:*": "+0", "op:aten::add": "+5"},
                               "allow": ["op:aten::expand"]})");
  Baseline old_b = One("g", {{"op:aten::add", 1}, {"op:aten::expand", 1}});
  EXPECT_EQ(CheckAgainstBaseline(old_b, One("g", {{"op:aten::add", 6}, {"op:aten::expand", 50}}),
                                 budget).verdict,
            GateVerdict::kPass);
  CheckResult r = CheckAgainstBaseline(
      old_b, One("g", {{"op:aten::add", 1}, {"op:aten::expand", 1}, {"op:aten::clone", 1}}),
      budget);
  EXPECT_EQ(r.verdict, GateVerdict::kFail);
  EXPECT_EQ(r.units[0].reasons,
            std::vector<std::string>{"op:aten::clone: 0 -> 1 (+1) exceeds limit +0"});
}

TEST(GateCheck, CeilingsApplyWithoutGrowth) {
  Budget budget = MustParse(R"({"default": {"nodes": 50}})");
  CheckResult r =
      CheckAgainstBaseline(One("g", {{"nodes", 60}}), One("g", {{"nodes", 55}}), budget);
  EXPECT_EQ(r.verdict, GateVerdict::kFail);
  EXPECT_EQ(r.units[0].reasons,
            std::vector<std::string>{"nodes: 60 -> 55 (-5, -8.3%) exceeds limit 50"});
}

TEST(GateCheck, NoiseHidesSmallImprovements) {
  Budget budget = MustParse(R"({"default": {"nodes": "+0"}, "noise": "+5%"})");
  EXPECT_EQ(CheckAgainstBaseline(One("g", {{"nodes", 100}}), One("g", {{"nodes", 96}}), budget)
                .verdict,
            GateVerdict::kPass);
  EXPECT_EQ(CheckAgainstBaseline(One("g", {{"nodes", 100}}), One("g", {{"nodes", 90}}), budget)
                .verdict,
            GateVerdict::kImproved);
}

TEST(GateCheck, NewAndMissingGraphs) {
  Baseline old_b = One("old.txt", {{"nodes", 5}});
  Baseline new_b = One("new.txt", {{"nodes", 7}});
  new_b.units[0].fingerprint = "1";
  old_b.units[0].fingerprint = "2";
  CheckResult r = CheckAgainstBaseline(old_b, new_b, DefaultBudget());
  EXPECT_EQ(r.verdict, GateVerdict::kFail);
  ASSERT_EQ(r.units.size(), 2u);
  EXPECT_TRUE(r.units[0].is_new);
  EXPECT_EQ(r.units[0].verdict, GateVerdict::kFail);
  EXPECT_EQ(r.units[0].reasons[0],
            "new graph, not in the baseline (a budget with \"new_graphs\": true allows new "
            "graphs)");
  EXPECT_TRUE(r.units[1].is_missing);
  EXPECT_EQ(r.units[1].key, "old.txt");
  EXPECT_EQ(r.units[1].verdict, GateVerdict::kFail);

  Budget lenient = MustParse(R"({"new_graphs": true, "missing_graphs": true})");
  r = CheckAgainstBaseline(old_b, new_b, lenient);
  EXPECT_EQ(r.units[0].verdict, GateVerdict::kPass);
  EXPECT_EQ(r.units[1].verdict, GateVerdict::kImproved);
  EXPECT_EQ(r.verdict, GateVerdict::kImproved);
}

TEST(GateCheck, FingerprintRecognisesAMovedGraph) {
  Baseline old_b = One("run1/ir.txt", {{"nodes", 5}});
  Baseline new_b = One("run2/ir.txt", {{"nodes", 5}});
  old_b.units[0].fingerprint = new_b.units[0].fingerprint = "abcd";
  CheckResult r = CheckAgainstBaseline(old_b, new_b, DefaultBudget());
  EXPECT_EQ(r.verdict, GateVerdict::kPass);
  ASSERT_EQ(r.units.size(), 1u);
  EXPECT_EQ(r.units[0].matched_by, "fingerprint");
  EXPECT_EQ(r.units[0].baseline_key, "run1/ir.txt");
}

}  // namespace
}  // namespace graphdiff
