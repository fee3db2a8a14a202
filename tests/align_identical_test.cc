// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Graphs equal node for node skip the matchers (align/identical.h): the
// shortcut must give what the matchers give, pair for pair, and must never
// be taken for graphs that differ in anything the matchers read.
#include <string>
#include <vector>

#include "align/identical.h"
#include "graphdiff/align.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "testing/graph_mutate.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

std::vector<Graph> TestdataGraphs() {
  std::vector<Graph> out;
  for (const std::string& rel : testing::ListDumpFiles()) {
    absl::StatusOr<ParsedText> parsed = ParseText(testing::ReadTestdata(rel), rel);
    if (!parsed.ok()) continue;
    for (Graph& g : parsed->graphs) out.push_back(std::move(g));
  }
  return out;
}

TEST(AlignIdentical, TheShortcutPairsAsTheMatchersDo) {
  std::vector<Graph> graphs = TestdataGraphs();
  ASSERT_GT(graphs.size(), 100u);
  size_t checked = 0;
  for (const Graph& g : graphs) {
    if (g.nodes.size() > 20000) continue;  // time: the big ones add nothing new
    const Graph copy = g;  // a sealed pool is shared: ids compare
    ASSERT_TRUE(align::EqualNodeForNode(g, copy)) << g.source.file;
    absl::StatusOr<Alignment> full = align::AlignByMatchers(g, copy, AlignOptions{});
    ASSERT_TRUE(full.ok()) << full.status();
    absl::StatusOr<Alignment> fast = Align(g, copy);
    ASSERT_TRUE(fast.ok()) << fast.status();
    const std::string where = g.source.file + " #" + std::to_string(g.source.record_index);
    ASSERT_EQ(fast->pairs.size(), full->pairs.size()) << where;
    for (size_t i = 0; i < fast->pairs.size(); ++i) {
      const NodePair& a = fast->pairs[i];
      const NodePair& b = full->pairs[i];
      EXPECT_EQ(a.left, b.left) << where;
      EXPECT_EQ(a.right, b.right) << where;
      EXPECT_EQ(a.reasons, b.reasons) << where;
      EXPECT_EQ(a.detail, b.detail) << where;
      EXPECT_EQ(a.matcher, Matcher::kIdentical);
    }
    EXPECT_EQ(fast->left_only, full->left_only) << where;
    EXPECT_EQ(fast->right_only, full->right_only) << where;
    EXPECT_EQ(fast->matched_outputs, full->matched_outputs) << where;
    EXPECT_EQ(fast->left_only_outputs, full->left_only_outputs) << where;
    EXPECT_EQ(fast->right_only_outputs, full->right_only_outputs) << where;
    EXPECT_TRUE(fast->identical()) << where;
    ++checked;
  }
  EXPECT_GT(checked, 100u);
}

TEST(AlignIdentical, StringsCompareByValueAcrossPools) {
  const std::string text = testing::ReadTestdata("resnet18-xla5430/openxla/ir.txt");
  absl::StatusOr<ParsedText> a = ParseText(text, "a.txt");
  absl::StatusOr<ParsedText> b = ParseText(text, "b.txt");
  ASSERT_TRUE(a.ok() && b.ok());
  const Graph& ga = a->graphs.at(0);
  const Graph& gb = b->graphs.at(0);
  ASSERT_NE(ga.strings.identity(), gb.strings.identity());
  EXPECT_TRUE(align::EqualNodeForNode(ga, gb));
  absl::StatusOr<Alignment> al = Align(ga, gb);
  ASSERT_TRUE(al.ok());
  EXPECT_EQ(al->pairs.at(0).matcher, Matcher::kIdentical);
}

TEST(AlignIdentical, AnyDifferenceTakesTheMatchers) {
  const std::string text = testing::ReadTestdata("resnet18-xla5430/openxla/ir.txt");
  absl::StatusOr<ParsedText> parsed = ParseText(text, "a.txt");
  ASSERT_TRUE(parsed.ok());
  const Graph& g = parsed->graphs.at(0);
  ASSERT_GT(g.nodes.size(), 10u);
  const uint32_t mid = static_cast<uint32_t>(g.nodes.size() / 2);
  uint32_t with_type = mid;
  while (with_type < g.nodes.size() && g.nodes[with_type].type_count == 0) ++with_type;
  ASSERT_LT(with_type, g.nodes.size());
  uint32_t with_operand = mid;
  while (g.nodes[with_operand].operands.empty()) ++with_operand;
  std::vector<std::pair<std::string, Graph>> changed;
  auto copy = [&](const std::string& what) -> Graph& {
    changed.emplace_back(what, g);
    return changed.back().second;
  };
  {
    Graph& c = copy("op");
    c.nodes[mid].op = c.intern("aten::something_else");
  }
  {
    Graph& c = copy("name");
    c.nodes[mid].name = c.intern("%renamed");
  }
  {
    Graph& c = copy("frame");
    c.nodes[mid].frame = c.intern("elsewhere@b.py:9");
  }
  {
    Graph& c = copy("attribute");
    c.nodes[mid].attrs.push_back(Attr{c.intern("k"), c.intern("v")});
  }
  {
    Graph& c = copy("type");
    TensorType t = c.results(c.nodes[with_type]).front();
    t.dims.push_back(Dim::Static(3));
    c.SetResults(c.nodes[with_type], {t});
  }
  {
    Graph& c = copy("operand");
    c.nodes[with_operand].operands[0].node = 0;
  }
  copy("outputs").outputs.push_back(ValueRef{0, 0});
  copy("kind").nodes[mid].kind = NodeKind::kConstant;
  copy("partial").partial = true;
  for (auto& [what, c] : changed) {
    if (what == "operand" && g.nodes[with_operand].operands[0].node == 0) continue;
    EXPECT_FALSE(align::EqualNodeForNode(g, c)) << what;
    absl::StatusOr<Alignment> al = Align(g, c);
    ASSERT_TRUE(al.ok()) << what;
    for (const NodePair& p : al->pairs) EXPECT_NE(p.matcher, Matcher::kIdentical) << what;
  }
  // Lines and names of graphs and sources label, they do not differ.
  Graph labelled = g;
  labelled.name = "other";
  labelled.source.file = "other.txt";
  for (Node& n : labelled.nodes) n.line += 7;
  EXPECT_TRUE(align::EqualNodeForNode(g, labelled));
}

TEST(AlignIdentical, TheMatcherNameRoundTrips) {
  Matcher m = Matcher::kNone;
  EXPECT_EQ(MatcherName(Matcher::kIdentical), "identical");
  ASSERT_TRUE(ParseMatcher("identical", &m));
  EXPECT_EQ(m, Matcher::kIdentical);
}

}  // namespace
}  // namespace graphdiff
