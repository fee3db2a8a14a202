// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The shapes of the check reports: text, JSON, Markdown and JUnit XML, and
// the escaping of names that come from dumps.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "graphdiff/gate.h"
#include "nlohmann/json.hpp"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

// Three graphs: one over budget with a hostile name, one smaller, one same.
CheckResult Sample() {
  Baseline old_b, new_b;
  old_b.dump = new_b.dump = "dumps/run 1";
  auto unit = [](std::string key, int64_t nodes, int64_t outputs) {
    GateUnit u;
    u.key = u.file = std::move(key);
    u.values = {{"nodes", nodes}, {"inputs", 1}, {"outputs", outputs}, {"op:aten::add", nodes}};
    return u;
  };
  old_b.units = {unit("a<b>&\"c|d\".txt", 10, 1), unit("small.txt", 10, 1), unit("same.txt", 4, 1)};
  new_b.units = {unit("a<b>&\"c|d\".txt", 12, 3), unit("small.txt", 8, 1), unit("same.txt", 4, 1)};
  Finding f;
  f.id = "extra-outputs";
  f.severity = Severity::kWarning;
  f.count = 2;
  f.title = "2 outputs <saved> for backward";
  f.hint = "use torch.no_grad()";
  f.graph = "a<b>&\"c|d\".txt";
  return CheckAgainstBaseline(old_b, new_b, DefaultBudget(), {f}, "base line.json");
}

TEST(GateRender, TextLeadsWithTheVerdictAndEndsWithTheCommand) {
  std::string text = RenderCheckText(Sample());
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "graphdiff check: FAIL (3 units: 1 failed, 1 improved, 1 passed)");
  EXPECT_THAT(text, HasSubstr("FAIL     graph a<b>&\"c|d\".txt\n"
                              "    nodes: 10 -> 12 (+2, +20.0%) exceeds limit +0\n"
                              "    outputs: 1 -> 3 (+2, +200.0%) exceeds limit +0\n"));
  EXPECT_THAT(text, HasSubstr("    finding extra-outputs (x2): 2 outputs <saved> for backward\n"
                              "      hint: use torch.no_grad()\n"));
  EXPECT_THAT(text, HasSubstr("IMPROVED graph small.txt\n    nodes: 10 -> 8 (-2)\n"));
  EXPECT_THAT(text, HasSubstr("graphdiff check 'dumps/run 1' --baseline 'base line.json' "
                              "--update-baseline\n"));
}

TEST(GateRender, JsonCarriesEveryChange) {
  nlohmann::json j = nlohmann::json::parse(RenderCheckJson(Sample()));
  EXPECT_EQ(j["schema"], "graphdiff-check");
  EXPECT_EQ(j["verdict"], "FAIL");
  EXPECT_EQ(j["summary"]["failed"], 1);
  EXPECT_EQ(j["summary"]["improved"], 1);
  EXPECT_EQ(j["summary"]["passed"], 1);
  ASSERT_EQ(j["units"].size(), 3u);
  const auto& bad = j["units"][0];
  EXPECT_EQ(bad["status"], "matched");
  EXPECT_EQ(bad["changes"][0]["metric"], "nodes");
  EXPECT_EQ(bad["changes"][0]["old"], 10);
  EXPECT_EQ(bad["changes"][0]["new"], 12);
  EXPECT_EQ(bad["changes"][0]["limit"], "+0");
  EXPECT_EQ(bad["changes"][0]["breached"], true);
  EXPECT_EQ(bad["findings"][0]["id"], "extra-outputs");
  EXPECT_EQ(j["units"][2]["changes"].size(), 0u);
}

TEST(GateRender, MarkdownTableIsEscaped) {
  std::string md = RenderCheckMarkdown(Sample());
  EXPECT_EQ(md.substr(0, md.find('\n')), "## graphdiff check: ❌ FAIL");
  EXPECT_THAT(md, HasSubstr("| verdict | unit | nodes | inputs | outputs | reasons |\n"
                            "|---|---|---|---|---|---|\n"));
  // One header row, one separator, one row per unit.
  EXPECT_EQ(Count(md, "\n| "), 4u);
  EXPECT_THAT(md, HasSubstr("| ❌ FAIL | graph a&lt;b&gt;&amp;\"c\\|d\".txt | **10 → 12** | = | "
                            "**1 → 3** |"));
  EXPECT_THAT(md, HasSubstr("| 📉 IMPROVED | graph small.txt | 10 → 8 | = | = |"));
  EXPECT_THAT(md, HasSubstr("<details><summary>Why a&lt;b&gt;&amp;\"c\\|d\".txt failed</summary>"));
  EXPECT_THAT(md, HasSubstr("2 outputs &lt;saved&gt; for backward"));
  EXPECT_THAT(md, HasSubstr("```sh\ngraphdiff check 'dumps/run 1' --baseline 'base line.json' "
                            "--update-baseline\n```\n"));
  EXPECT_EQ(md.find("<b>"), std::string::npos);
}

TEST(GateRender, JunitHasOneTestcasePerUnitAndEscapes) {
  std::string xml = RenderCheckJunit(Sample());
  EXPECT_EQ(xml.substr(0, xml.find('\n')), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
  EXPECT_THAT(xml, HasSubstr("<testsuites name=\"graphdiff check\" tests=\"3\" failures=\"1\">"));
  EXPECT_EQ(Count(xml, "<testcase "), 3u);
  EXPECT_EQ(Count(xml, "<failure "), 1u);
  EXPECT_THAT(xml, HasSubstr("name=\"a&lt;b&gt;&amp;&quot;c|d&quot;.txt\""));
  EXPECT_THAT(xml, HasSubstr("<failure type=\"FAIL\" message=\"nodes: 10 -&gt; 12 (+2, +20.0%) "
                             "exceeds limit +0 (and 1 more)\">"));
  EXPECT_THAT(xml, HasSubstr("finding extra-outputs (x2): 2 outputs &lt;saved&gt; for backward"));
  EXPECT_THAT(xml, HasSubstr("<testcase classname=\"graphdiff.check.graph\" name=\"same.txt\"/>"));
  EXPECT_EQ(Count(xml, "</testcase>") + Count(xml, "/>\n"), 3u);
  EXPECT_THAT(xml, HasSubstr("</testsuite>\n</testsuites>\n"));
}

}  // namespace
}  // namespace graphdiff
