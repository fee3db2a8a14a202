// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Budget files and limits: what parses, what each limit allows, and the
// exact error a user sees for each kind of mistake.
#include <string>

#include "gtest/gtest.h"
#include "graphdiff/gate.h"

namespace graphdiff {
namespace {

constexpr char kValidMetrics[] =
    "valid metrics: nodes, inputs, outputs, constants, parameter_bytes, op:<op>, "
    "counter:<name>, finding:<id> (ids: compilation, extra-outputs, removed-outputs, "
    "outputs-replaced, dead-constant-expand, lifted-inputs, removed-inputs, clones, "
    "clones-removed, collectives, dtype-change, shape-change, attribute-change, "
    "op-substitution, counter-delta, dead-code, duplicate-subgraph, "
    "dead-constant-expand-removed, dead-code-removed, duplicate-subgraph-removed, "
    "other-changes, size-delta, size-facts); op/counter/finding names may use * and ?";

TEST(GateLimit, ParsesTheThreeForms) {
  absl::StatusOr<GateLimit> abs = ParseGateLimit("+3");
  ASSERT_TRUE(abs.ok());
  EXPECT_EQ(abs->kind, GateLimit::Kind::kAbsoluteGrowth);
  EXPECT_EQ(abs->amount, 3);
  absl::StatusOr<GateLimit> rel = ParseGateLimit(" +2.5% ");
  ASSERT_TRUE(rel.ok());
  EXPECT_EQ(rel->kind, GateLimit::Kind::kRelativeGrowth);
  EXPECT_DOUBLE_EQ(rel->amount, 2.5);
  EXPECT_EQ(rel->text, "+2.5%");
  absl::StatusOr<GateLimit> ceil = ParseGateLimit("500");
  ASSERT_TRUE(ceil.ok());
  EXPECT_EQ(ceil->kind, GateLimit::Kind::kCeiling);
  EXPECT_EQ(ceil->amount, 500);
}

TEST(GateLimit, RejectsMalformed) {
  for (const char* bad : {"2%", "+", "-3", "+x", "", "+2%%", "1e3", "+1.2.3"}) {
    absl::StatusOr<GateLimit> l = ParseGateLimit(bad);
    ASSERT_FALSE(l.ok()) << bad;
    EXPECT_EQ(std::string(l.status().message()),
              std::string("bad limit \"") + bad +
                  "\": expected \"+N\" (grow by at most N), \"+P%\" (grow by at most P "
                  "percent) or \"N\" (at most N)");
  }
}

TEST(GateLimit, BreachedFollowsEachKind) {
  GateLimit abs = *ParseGateLimit("+2");
  EXPECT_FALSE(abs.Breached(10, 12));
  EXPECT_TRUE(abs.Breached(10, 13));
  EXPECT_FALSE(abs.Breached(std::nullopt, 1000));  // growth needs a baseline
  GateLimit rel = *ParseGateLimit("+10%");
  EXPECT_FALSE(rel.Breached(10, 11));
  EXPECT_TRUE(rel.Breached(10, 12));
  EXPECT_TRUE(rel.Breached(0, 1));  // any growth from zero is unbounded
  GateLimit ceil = *ParseGateLimit("5");
  EXPECT_FALSE(ceil.Breached(100, 5));
  EXPECT_TRUE(ceil.Breached(1, 6));
  EXPECT_TRUE(ceil.Breached(std::nullopt, 6));
}

TEST(GateBudget, ParsesEverySection) {
  absl::StatusOr<Budget> b = ParseBudget(R"({
    "version": 1,
    "default": {"nodes": "+2%", "outputs": "+0", "op:aten::clone": "+0",
                "counter:xla::clone": "+0", "finding:extra-outputs": 0,
                "parameter_bytes": ["+1%", "100000000"]},
    "graphs": {"ir.txt": {"nodes": "+10"}, "run*/graphs.txt#*": {"op:*": "+0"}},
    "allow": ["op:aten::expand", "counter:*"],
    "new_graphs": true,
    "missing_graphs": false,
    "noise": "+1%"
  })", "budget.json");
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ(b->defaults.size(), 6u);
  EXPECT_EQ(b->defaults[0].first, "nodes");
  EXPECT_EQ(b->defaults[4].second[0].kind, GateLimit::Kind::kCeiling);
  ASSERT_EQ(b->defaults[5].second.size(), 2u);
  ASSERT_EQ(b->graphs.size(), 2u);
  EXPECT_EQ(b->graphs[1].first, "run*/graphs.txt#*");
  EXPECT_EQ(b->allow, (std::vector<std::string>{"op:aten::expand", "counter:*"}));
  EXPECT_TRUE(b->new_graphs);
  EXPECT_FALSE(b->missing_graphs);
  ASSERT_TRUE(b->noise.has_value());
  EXPECT_EQ(b->noise->kind, GateLimit::Kind::kRelativeGrowth);
}

TEST(GateBudget, WithoutDefaultKeepsTheBuiltInDefault) {
  absl::StatusOr<Budget> b = ParseBudget(R"({"new_graphs": true})", "b.json");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->defaults.size(), DefaultBudget().defaults.size());
  EXPECT_TRUE(b->new_graphs);
}

std::string BudgetError(const std::string& text) {
  absl::StatusOr<Budget> b = ParseBudget(text, "budget.json");
  EXPECT_FALSE(b.ok()) << text;
  return b.ok() ? "" : std::string(b.status().message());
}

TEST(GateBudget, SyntaxErrorNamesLineAndColumn) {
  std::string msg = BudgetError("{\n  \"default\": {\"nodes\" \"+1\"}\n}\n");
  EXPECT_EQ(msg.substr(0, msg.find('\n')),
            "budget.json:2:26: invalid JSON: syntax error while parsing object separator - "
            "unexpected string literal; expected ':'");
  EXPECT_NE(msg.find("\n  \"default\": {\"nodes\" \"+1\"}\n"), std::string::npos) << msg;
  EXPECT_NE(msg.find('^'), std::string::npos) << msg;
}

TEST(GateBudget, UnknownMetricListsTheValidOnes) {
  EXPECT_EQ(BudgetError(R"({"default": {"node": "+0"}})"),
            std::string("budget.json: \"default\"[\"node\"]: unknown metric \"node\"; ") +
                kValidMetrics);
  EXPECT_EQ(BudgetError(R"({"graphs": {"ir.txt": {"finding:extra-output": 0}}})"),
            std::string("budget.json: graphs[\"ir.txt\"][\"finding:extra-output\"]: unknown "
                        "finding id \"extra-output\"; ") +
                kValidMetrics);
  EXPECT_EQ(BudgetError(R"({"allow": ["op:"]})"),
            std::string("budget.json: allow[0]: unknown metric \"op:\"; ") + kValidMetrics);
}

TEST(GateBudget, BadLimitsAndShapes) {
  EXPECT_EQ(BudgetError(R"({"default": {"nodes": "2%"}})"),
            "budget.json: \"default\"[\"nodes\"]: bad limit \"2%\": expected \"+N\" (grow by "
            "at most N), \"+P%\" (grow by at most P percent) or \"N\" (at most N)");
  EXPECT_EQ(BudgetError(R"({"default": {"nodes": -1}})"),
            "budget.json: \"default\"[\"nodes\"]: limit -1 must be a number >= 0");
  EXPECT_EQ(BudgetError(R"({"default": {"nodes": true}})"),
            "budget.json: \"default\"[\"nodes\"]: limit true must be a string such as \"+0\", "
            "\"+2%\" or \"500\", a number, or a list of them");
  EXPECT_EQ(BudgetError(R"({"defaults": {}})"),
            "budget.json: \"defaults\": unknown key; valid keys: default, graphs, allow, "
            "new_graphs, missing_graphs, noise, version");
  EXPECT_EQ(BudgetError(R"({"new_graphs": "yes"})"),
            "budget.json: \"new_graphs\": must be true or false");
  EXPECT_EQ(BudgetError(R"([1, 2])"), "budget.json: top level: expected a JSON object");
}

}  // namespace
}  // namespace graphdiff
