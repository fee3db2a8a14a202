// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Every FX dump committed under testdata/ parses, and the hand-written
// fixtures of newer PyTorch versions give the graphs their README states.
#include <optional>
#include <string>
#include <vector>

#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "parse/fx_unwrap.h"
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

// A TORCH_TRACE log: each graph is a record's payload, named by the record;
// the output code, guards and JSON artifacts between them are not graphs.
TEST(FxFixturesTest, TorchTraceLog) {
  std::vector<Graph> gs = Parse("fixtures/fx/torch_trace_v2_5.log");
  const std::vector<std::string> kinds = {"dynamo_output_graph", "before_pre_grad_graph",
                                          "aot_joint_graph",     "aot_forward_graph",
                                          "aot_backward_graph",  "inductor_post_grad_graph"};
  ASSERT_EQ(gs.size(), 2 * kinds.size());
  for (size_t i = 0; i < gs.size(); ++i) {
    const std::string name = kinds[i % kinds.size()] + (i < kinds.size() ? " [0/0]" : " [1/0]");
    EXPECT_EQ(gs[i].name, name);
    EXPECT_EQ(gs[i].source.graph_name, name);
  }
  EXPECT_EQ(gs[0].source.first_line, 8u);
  EXPECT_EQ(gs[0].inputs.size(), 3u);
  EXPECT_EQ(gs[0].outputs.size(), 1u);
  EXPECT_EQ(gs[3].inputs.size(), 3u);
  EXPECT_EQ(gs[3].outputs.size(), 3u);
  EXPECT_EQ(gs[4].outputs.size(), 2u);  // the None gradient is skipped
  for (const Graph& g : gs) {
    for (const Node& n : g.nodes) EXPECT_NE(g.str(n.op), "aten::empty_strided") << g.name;
  }
}

TEST(FxTraceRecordHeader, KindCompileIdAndPayload) {
  std::optional<FxTraceRecord> r = FxTraceRecordHeader(
      R"({"aot_forward_graph": {}, "frame_id": 3, "frame_compile_id": 1, "attempt": 0, )"
      R"("has_payload": "b7223b9fb4b31ba8b1b70405759f9704"})");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->kind, "aot_forward_graph");
  EXPECT_EQ(r->compile_id, "3/1");
  EXPECT_TRUE(r->has_payload);
  EXPECT_EQ(FxTraceGraphName(*r), "aot_forward_graph [3/1]");
  // Artifacts and graph dumps are named in their object; a retried compile
  // and compiled autograd have ids of their own; the tag the log prefix left
  // before the record is passed.
  r = FxTraceRecordHeader(
      R"([0/0_1] {"artifact": {"name": "after_post_grad_graph", "encoding": "string"}, )"
      R"("frame_id": 0, "frame_compile_id": 0, "attempt": 1, "has_payload": "ab"}  )");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->kind, "after_post_grad_graph");
  EXPECT_EQ(r->compile_id, "0/0_1");
  r = FxTraceRecordHeader(
      R"({"compiled_autograd_graph": {}, "compiled_autograd_id": 2, "frame_id": null, )"
      R"("frame_compile_id": null, "attempt": 0, "has_payload": "ab"})");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->compile_id, "!2");
  r = FxTraceRecordHeader(
      R"({"graph_dump": {"name": "optimize_ddp_split_child"}, "compiled_autograd_id": 1, )"
      R"("frame_id": 4, "frame_compile_id": 0, "attempt": 0, "has_payload": "ab"})");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(FxTraceGraphName(*r), "optimize_ddp_split_child [!1/4/0]");
  // Records without a payload, without a compile, and lines that are not
  // records.
  r = FxTraceRecordHeader(
      R"({"compilation_metrics": {"compile_id": "0/0", "frame_key": "1"}, "frame_id": 0, )"
      R"("frame_compile_id": 0, "attempt": 0})");
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->has_payload);
  r = FxTraceRecordHeader(R"({"str": ["/tmp/model.py", 0]})");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->kind, "str");
  EXPECT_TRUE(r->compile_id.empty());
  EXPECT_FALSE(FxTraceRecordHeader("{x: 1}").has_value());
  EXPECT_FALSE(FxTraceRecordHeader(R"({"a": 1)").has_value());
  EXPECT_FALSE(FxTraceRecordHeader("def forward(self, x):").has_value());
}

// A graph takes the name of the record whose payload holds it, never of an
// earlier record: not across a record without a graph, nor across a record
// without a payload.
TEST(FxTraceRecordHeader, NamesOnlyTheGraphOfItsOwnPayload) {
  const std::string graph =
      "\tdef forward(self, x):\n\t    y = torch.relu(x)\n\t    return (y,)\n";
  const std::string text =
      std::string(R"(V1205 10:00:00.000001 1 a.py:1] [0/0] {"inductor_output_code": {}, )"
                  R"("frame_id": 0, "frame_compile_id": 0, "attempt": 0, "has_payload": "1"})") +
      "\n\tdef call(args):\n\t    return ()\n" +
      R"(V1205 10:00:00.000002 1 a.py:1] [0/0] {"compilation_metrics": {}, "frame_id": 0, )"
      R"("frame_compile_id": 0, "attempt": 0})" "\n" + "def forward(self, x):\n    return (x,)\n" +
      R"([rank1]:V1205 10:00:00.000003 1 a.py:1] [1/0] {"aot_forward_graph": {}, )"
      R"("frame_id": 1, "frame_compile_id": 0, "attempt": 0, "has_payload": "2"})" "\n" + graph;
  std::vector<Diagnostic> warnings;
  absl::StatusOr<std::vector<Graph>> gs = ParseFxCode(text, "t.log", {}, &warnings);
  ASSERT_TRUE(gs.ok()) << gs.status();
  ASSERT_EQ(gs->size(), 2u);
  EXPECT_EQ((*gs)[0].name, "forward");
  EXPECT_EQ((*gs)[1].name, "aot_forward_graph [1/0]");
  EXPECT_EQ((*gs)[1].nodes.size(), 2u);
}

}  // namespace
}  // namespace graphdiff
