// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Every FX dump committed under testdata/ parses, and the hand-written
// fixtures of newer PyTorch versions give the graphs their README states.
#include <string>
#include <vector>

#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using testing::ListDumpFiles;
using testing::ReadTestdata;

std::vector<Graph> Parse(const std::string& path) {
  std::string text = ReadTestdata(path);
  std::vector<Diagnostic> warnings;
  absl::StatusOr<std::vector<Graph>> gs = ParseFxCode(text, path, {}, &warnings);
  EXPECT_TRUE(gs.ok()) << gs.status();
  return gs.ok() ? *std::move(gs) : std::vector<Graph>{};
}

TEST(FxFixturesTest, EveryCommittedFxDumpParses) {
  size_t files = 0;
  for (const std::string& path : ListDumpFiles()) {
    std::string text = ReadTestdata(path);
    if (text.find("def forward(") == std::string::npos) continue;
    if (text.find("IR {") != std::string::npos) continue;  // not an FX dump
    ++files;
    std::vector<Diagnostic> warnings;
    absl::StatusOr<std::vector<Graph>> gs = ParseFxCode(text, path, {}, &warnings);
    ASSERT_TRUE(gs.ok()) << path << ": " << gs.status();
    for (const Graph& g : *gs) {
      EXPECT_FALSE(g.nodes.empty()) << path;
      EXPECT_FALSE(g.outputs.empty()) << path << " " << g.name;
      for (size_t i = 0; i < g.nodes.size(); ++i) {
        for (const ValueRef& r : g.nodes[i].operands) {
          EXPECT_LT(r.node, i) << path << " node " << g.str(g.nodes[i].name);
        }
      }
    }
    // Backward graphs return None for inputs without gradients; that, and
    // the file-level count of log lines around the graphs, are the only
    // warnings a well-formed dump may cause.
    for (const Diagnostic& d : warnings) {
      bool log_lines = d.line == 0 && d.message.find("outside the graph code") != std::string::npos;
      EXPECT_TRUE(d.message.find("None graph output") != std::string::npos || log_lines)
          << d.ToString();
    }
  }
  EXPECT_GE(files, 6u);
}

TEST(FxFixturesTest, AotGraphsLog) {
  std::vector<Graph> gs = Parse("fixtures/fx/aot_graphs_v2_4.log");
  ASSERT_EQ(gs.size(), 3u);
  EXPECT_EQ(gs[0].name, "Joint graph 0");
  EXPECT_EQ(gs[0].source.graph_name, "joint_helper");
  EXPECT_EQ(gs[0].inputs.size(), 5u);
  EXPECT_EQ(gs[0].outputs.size(), 3u);
  const Node& sym = gs[0].nodes[gs[0].inputs[3]];
  EXPECT_EQ(gs[0].results(sym).at(0).dtype, DType::kS64);
  EXPECT_EQ(gs[1].name, "Forward graph 0");
  EXPECT_EQ(gs[1].inputs.size(), 4u);
  EXPECT_EQ(gs[1].outputs.size(), 4u);
  EXPECT_EQ(gs[1].source.first_line, 24u);
  EXPECT_EQ(gs[1].str(gs[1].nodes[4].frame),
            "/tmp/model.py:9 in forward, code: return torch.relu(self.fc(x))");
  EXPECT_EQ(gs[2].name, "Backward graph 0");
  EXPECT_EQ(gs[2].inputs.size(), 4u);
  EXPECT_EQ(gs[2].outputs.size(), 2u);
  const TensorType& le = gs[2].results(gs[2].nodes[gs[2].inputs[2]]).at(0);
  EXPECT_EQ(le.dtype, DType::kBool);
  EXPECT_EQ(le.strides, (std::vector<int64_t>{8, 1}));
}

TEST(FxFixturesTest, GraphCodeLog) {
  std::vector<Graph> gs = Parse("fixtures/fx/graph_code_v2_1.log");
  ASSERT_EQ(gs.size(), 2u);
  EXPECT_EQ(gs[0].name, "__compiled_fn_1");
  EXPECT_EQ(gs[0].inputs.size(), 1u);
  ASSERT_EQ(gs[0].outputs.size(), 2u);
  EXPECT_EQ(gs[0].str(gs[0].nodes[gs[0].outputs[1].node].op), "aten::max");
  EXPECT_EQ(gs[0].outputs[1].output, 1u);
  EXPECT_EQ(gs[1].name, "__compiled_fn_3");
  EXPECT_EQ(gs[1].inputs.size(), 2u);
}

TEST(FxFixturesTest, PrintReadableV20) {
  std::vector<Graph> gs = Parse("fixtures/fx/print_readable_v2_0.py");
  ASSERT_EQ(gs.size(), 1u);
  EXPECT_EQ(gs[0].name, "<lambda>");
  EXPECT_EQ(gs[0].inputs.size(), 4u);
  EXPECT_EQ(gs[0].outputs.size(), 5u);
  EXPECT_EQ(gs[0].results(gs[0].nodes[gs[0].inputs[0]]).at(0).dims.size(), 2u);
}

TEST(FxFixturesTest, InvokeSubgraph) {
  std::vector<Graph> gs = Parse("fixtures/fx/invoke_subgraph_v2_6.py");
  ASSERT_EQ(gs.size(), 2u);
  EXPECT_EQ(gs[0].name, "GraphModule");
  EXPECT_EQ(gs[1].name, "subgraph_0");
  EXPECT_EQ(gs[1].inputs.size(), 2u);
  EXPECT_EQ(gs[0].outputs.size(), 1u);
}

}  // namespace
}  // namespace graphdiff
