// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// GraphBuilder: build small Graphs in test code without a parser.
//
//   GraphBuilder b(GraphKind::kIr);
//   uint32_t x = b.Input("f32[4,64]");
//   uint32_t w = b.Input("f32[64]");
//   uint32_t y = b.Op("aten::mul", {x, w}, "f32[4,64]", {{"alpha", "1"}});
//   b.Output(y);
//   Graph g = b.Build();
#ifndef GRAPHDIFF_TESTS_TESTING_GRAPH_BUILDER_H_
#define GRAPHDIFF_TESTS_TESTING_GRAPH_BUILDER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "graphdiff/graph.h"

namespace graphdiff::testing {

class GraphBuilder {
 public:
  explicit GraphBuilder(GraphKind kind = GraphKind::kIr, std::string name = "test");

  // A graph input (kInput) named automatically; `type` like "f32[4,64]",
  // "(f32[4], s64[])" or "" for unknown.
  uint32_t Input(std::string_view type = "", std::string_view op = "");
  // A literal (kConstant, op prim::Constant unless given).
  uint32_t Constant(std::string_view value, std::string_view type = "f32[]",
                    std::string_view op = "prim::Constant");
  // An op reading output 0 of each operand node.
  uint32_t Op(std::string_view op, const std::vector<uint32_t>& operands,
              std::string_view type = "",
              const std::vector<std::pair<std::string, std::string>>& attrs = {},
              NodeKind kind = NodeKind::kOp);
  // An op with explicit (node, output) operands.
  uint32_t OpRefs(std::string_view op, const std::vector<ValueRef>& operands,
                  std::string_view type = "",
                  const std::vector<std::pair<std::string, std::string>>& attrs = {},
                  NodeKind kind = NodeKind::kOp);
  // An FX module call `self.<path>(operands)`.
  uint32_t Module(std::string_view path, const std::vector<uint32_t>& operands);
  void Output(uint32_t node, uint32_t output = 0);
  // Sets a node's display name (default "%<index>").
  void Name(uint32_t node, std::string_view name);

  Graph Build() { return std::move(g_); }
  Graph& graph() { return g_; }

 private:
  uint32_t Add(Node n);
  Graph g_;
};

// Parses "f32[4,64]", "pred[]", "(f32[4], u32[4])"; empty or "?" = no types.
std::vector<TensorType> ParseTypes(std::string_view text);

}  // namespace graphdiff::testing

#endif  // GRAPHDIFF_TESTS_TESTING_GRAPH_BUILDER_H_
