// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Alignment on every real dump under testdata: against renumbered and
// reordered copies (must be exact), against planted perturbations (exactly
// the planted changes, nothing else), and the ResNet-18 cases end to end.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "graphdiff/align.h"
#include "graphdiff/parse.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/expect_alignment.h"
#include "testing/graph_mutate.h"

namespace graphdiff {
namespace {

namespace fs = std::filesystem;

struct NamedGraph {
  std::string path;
  Graph graph;
};

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every graph of every graph dump under testdata, in path order; under
// $GRAPHDIFF_ALIGN_DUMPS instead when it is set, so the same properties can
// be asked of dumps the project has never seen (bench/heldout_models.py
// --dumps writes such a directory; README, "Development").
const std::vector<NamedGraph>& AllGraphs() {
  static const auto* graphs = [] {
    auto* out = new std::vector<NamedGraph>;
    std::vector<fs::path> files;
    const char* dumps = std::getenv("GRAPHDIFF_ALIGN_DUMPS");
    const fs::path root = dumps != nullptr && *dumps != '\0' ? dumps : GRAPHDIFF_TESTDATA_DIR;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (e.is_regular_file()) files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      std::string text = ReadFile(f);
      DumpFormat format = DetectFormat(text);
      if (format == DumpFormat::kUnknown || format == DumpFormat::kMetrics) continue;
      absl::StatusOr<ParsedText> parsed = ParseText(text, f.string());
      if (!parsed.ok()) {
        // The parser's own tests own its failures; here it only means one
        // graph fewer to align.
        std::cerr << "note: skipping unparsable " << f << ": " << parsed.status() << "\n";
        continue;
      }
      for (Graph& g : parsed->graphs) {
        if (g.nodes.size() > 200000) continue;  // the benchmark covers size
        out->push_back({f.string(), std::move(g)});
      }
    }
    return out;
  }();
  return *graphs;
}

Graph LoadOne(const std::string& relative) {
  std::string path = std::string(GRAPHDIFF_TESTDATA_DIR) + "/" + relative;
  absl::StatusOr<ParsedText> parsed = ParseText(ReadFile(path), path);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok() || parsed->graphs.empty()) return Graph();
  return std::move(parsed->graphs[0]);
}

// A deterministic choice of an op node with operands, spread by `k`.
uint32_t PickOpNode(const Graph& g, uint32_t k) {
  std::vector<uint32_t> ops;
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    if (g.nodes[v].kind == NodeKind::kOp && !g.nodes[v].operands.empty()) ops.push_back(v);
  }
  if (ops.empty()) return testing::kAbsent;
  return ops[(ops.size() * (2 * k + 1)) / (2 * (k + 2)) % ops.size()];
}

TEST(AlignTestdataTest, FindsGraphs) { EXPECT_GE(AllGraphs().size(), 1u); }

TEST(AlignTestdataTest, RenumberedReorderedCopiesAlignExactly) {
  for (const NamedGraph& ng : AllGraphs()) {
    for (uint64_t seed : {1u, 2u, 3u}) {
      testing::Mutated r = testing::Renumber(ng.graph, seed);
      testing::Mutated m = testing::Then(r, testing::Reorder(r.graph, seed * 31));
      absl::StatusOr<Alignment> a = Align(ng.graph, m.graph);
      ASSERT_TRUE(a.ok()) << ng.path << ": " << a.status();
      testing::Score s = testing::Compare(ng.graph, *a, m);
      EXPECT_GE(s.precision, 0.999) << ng.path << " seed " << seed;
      EXPECT_GE(s.recall, 0.999) << ng.path << " seed " << seed;
      EXPECT_TRUE(a->identical()) << ng.path << " seed " << seed;
      testing::ExpectExactly(ng.graph, *a, m, ng.path);
    }
  }
}

TEST(AlignTestdataTest, PlantedPerturbationsAreReportedExactly) {
  for (const NamedGraph& ng : AllGraphs()) {
    const Graph& g = ng.graph;
    uint32_t a_node = PickOpNode(g, 0);
    if (a_node == testing::kAbsent) continue;
    std::vector<std::pair<std::string, testing::Mutated>> cases;
    cases.emplace_back("attribute", testing::ChangeAttribute(g, a_node, "planted", "1"));
    cases.emplace_back("substitute",
                       testing::SubstituteOp(g, PickOpNode(g, 1), "aten::planted_op"));
    cases.emplace_back("dead", testing::InsertDeadNodes(g, 3, 5));
    cases.emplace_back("outputs", testing::AddExtraOutputs(g, 2, 6));
    // Rewire an operand to an earlier op whose value is not already used
    // there.
    uint32_t reader = PickOpNode(g, 2);
    const ValueRef old = g.nodes[reader].operands[0];
    for (uint32_t src = reader; src-- > 0;) {
      if (src != old.node && g.nodes[src].kind == NodeKind::kOp &&
          g.nodes[src].num_outputs() == 1 &&
          std::none_of(g.nodes[reader].operands.begin(), g.nodes[reader].operands.end(),
                       [&](const ValueRef& r) { return r.node == src; })) {
        cases.emplace_back("rewire", testing::RewireOperand(g, reader, 0, src));
        break;
      }
    }
    for (auto& [what, m] : cases) {
      // Reorder too, so nothing rides on positions.
      testing::Mutated shuffled = testing::Then(m, testing::Reorder(m.graph, 77));
      absl::StatusOr<Alignment> a = Align(g, shuffled.graph);
      ASSERT_TRUE(a.ok()) << a.status();
      testing::ExpectExactly(g, *a, shuffled, ng.path + " " + what);
      if (what == "outputs") {
        EXPECT_EQ(a->right_only_outputs, shuffled.added_outputs) << ng.path;
        EXPECT_TRUE(a->left_only_outputs.empty()) << ng.path;
      }
      // Symmetric and deterministic.
      absl::StatusOr<Alignment> b = Align(shuffled.graph, g);
      absl::StatusOr<Alignment> again = Align(g, shuffled.graph);
      ASSERT_TRUE(b.ok() && again.ok());
      EXPECT_EQ(a->left_only, b->right_only) << ng.path << " " << what;
      EXPECT_EQ(a->right_only, b->left_only) << ng.path << " " << what;
      ASSERT_EQ(a->pairs.size(), b->pairs.size()) << ng.path << " " << what;
      ASSERT_EQ(a->pairs.size(), again->pairs.size());
      for (size_t i = 0; i < a->pairs.size(); ++i) {
        EXPECT_EQ(a->pairs[i].left, again->pairs[i].left);
        EXPECT_EQ(a->pairs[i].right, again->pairs[i].right);
        EXPECT_EQ(a->pairs[i].detail, again->pairs[i].detail);
      }
    }
  }
}

// pytorch/xla#5430: the non-aot IR against the aot IR.
TEST(AlignTestdataTest, ResNetIrTraceOnceAgainstOpenXla) {
  Graph left = LoadOne("resnet18-xla5430/torchxla_trace_once/ir.txt");
  Graph right = LoadOne("resnet18-xla5430/openxla/ir.txt");
  ASSERT_EQ(left.nodes.size(), 197u);
  ASSERT_EQ(right.nodes.size(), 277u);
  absl::StatusOr<Alignment> a = Align(left, right);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->pairs.size(), 197u);
  EXPECT_TRUE(a->left_only.empty());
  for (const NodePair& p : a->pairs) {
    EXPECT_FALSE(p.changed()) << left.str(left.nodes[p.left].name) << " -> "
                              << right.str(right.nodes[p.right].name) << ": " << p.detail;
  }
  ASSERT_EQ(a->right_only.size(), 80u);
  std::map<std::string, int> ops;
  for (uint32_t r : a->right_only) ++ops[std::string(right.str(right.nodes[r].op))];
  EXPECT_EQ(ops["prim::Constant"], 40);
  EXPECT_EQ(ops["aten::expand"], 40);
  EXPECT_EQ(a->right_only_outputs.size(), 80u);
  EXPECT_EQ(a->matched_outputs.size(), 1u);
  EXPECT_TRUE(a->left_only_outputs.empty());
}

// The aten-level aot FX graph against the module-level Dynamo graph: module
// calls must land on their aten ops.
TEST(AlignTestdataTest, ResNetFxAtenAgainstModuleLevel) {
  Graph left = LoadOne("resnet18-xla5430/openxla/fx_graph.txt");
  Graph right = LoadOne("resnet18-xla5430/torchxla_trace_once/fx_graph.txt");
  ASSERT_FALSE(left.nodes.empty());
  ASSERT_FALSE(right.nodes.empty());
  absl::StatusOr<Alignment> a = Align(left, right);
  ASSERT_TRUE(a.ok()) << a.status();
  // Expected aten op words per module-name word.
  auto expected = [](std::string_view module_op) -> std::vector<std::string> {
    std::string m(module_op);
    if (m.find("downsample_0") != std::string::npos || m.find("conv") != std::string::npos) {
      return {"convolution"};
    }
    if (m.find("downsample_1") != std::string::npos || m.find("bn") != std::string::npos) {
      return {"batch_norm"};
    }
    if (m.find("relu") != std::string::npos) return {"relu"};
    if (m.find("maxpool") != std::string::npos) return {"max_pool"};
    if (m.find("avgpool") != std::string::npos) return {"mean", "avg_pool"};
    if (m.find("fc") != std::string::npos) return {"addmm", "aten::t"};
    if (m == "aten::add_") return {"aten::add"};
    return {};
  };
  int calls = 0, hits = 0, adds = 0, fc_parts = 0;
  for (uint32_t r = 0; r < right.nodes.size(); ++r) {
    const Node& n = right.nodes[r];
    std::string_view op = right.str(n.op);
    if (n.kind != NodeKind::kModuleCall && op != "aten::add_") continue;
    ++calls;
    std::vector<std::string> want = expected(op);
    bool hit = false;
    for (const NodePair& p : a->pairs) {
      if (p.right != r) continue;
      std::string lop(left.str(left.nodes[p.left].op));
      for (const std::string& w : want) hit |= lop.find(w) != std::string::npos;
      if (op.find("fc") != std::string_view::npos) ++fc_parts;
    }
    hits += hit;
    adds += hit && op == "aten::add_";
  }
  EXPECT_GE(calls, 60);
  EXPECT_GE(hits, calls * 95 / 100) << hits << " of " << calls;
  EXPECT_EQ(adds, 8);
  EXPECT_EQ(fc_parts, 2);  // fc ~ t + addmm
  // The image input pairs with the one module-level input.
  ASSERT_EQ(right.inputs.size(), 1u);
  bool input_paired = false;
  for (const NodePair& p : a->pairs) input_paired |= p.right == right.inputs[0];
  EXPECT_TRUE(input_paired);
}

}  // namespace
}  // namespace graphdiff
