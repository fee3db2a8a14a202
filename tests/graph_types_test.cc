// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Result types held by the graph, a range per node (Graph::types): ranges a
// parser shares between nodes of one type spelling, and the calls that give
// a node a range of its own so that changing it leaves the others alone.
#include <string>
#include <vector>

#include "graphdiff/graph.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"

namespace graphdiff {
namespace {

TensorType Shape(DType dtype, std::vector<int64_t> dims) {
  TensorType t;
  t.dtype = dtype;
  t.rank_known = true;
  for (int64_t d : dims) t.dims.push_back(Dim::Static(d));
  return t;
}

const Node& Named(const Graph& g, std::string_view name) {
  for (const Node& n : g.nodes) {
    if (g.str(n.name) == name) return n;
  }
  ADD_FAILURE() << "no node " << name;
  static const Node kNone;
  return kNone;
}

Graph ParseOne(const std::string& text, const char* source) {
  absl::StatusOr<ParsedText> parsed = ParseText(text, source, ParseOptions{});
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok() || parsed->graphs.size() != 1) {
    ADD_FAILURE() << "expected one graph";
    return Graph{};
  }
  return std::move(parsed->graphs[0]);
}

TEST(GraphTypes, SetAndReadResults) {
  Graph g;
  Node& a = g.nodes.emplace_back();
  const std::vector<TensorType> two = {Shape(DType::kF32, {4, 8}), Shape(DType::kS64, {})};
  g.SetResults(a, two);
  ASSERT_EQ(g.results(a).size(), 2u);
  EXPECT_EQ(FormatResults(g, a), "(f32[4,8], s64[])");
  EXPECT_EQ(a.num_results(), 2u);
  // Past the types given, an unknown type; output_count says how many exist.
  a.output_count = 3;
  EXPECT_EQ(a.num_results(), 3u);
  EXPECT_EQ(FormatType(g, g.result(a, 2)), "?");
  Node& b = g.nodes.emplace_back();
  EXPECT_TRUE(g.results(b).empty());
  EXPECT_EQ(b.num_outputs(), 1u);
  EXPECT_EQ(FormatResults(g, b), "?");
}

TEST(GraphTypes, ChangingASharedRangeLeavesTheOtherNodeAlone) {
  Graph g;
  g.nodes.resize(2);
  const std::vector<TensorType> one = {Shape(DType::kF32, {4})};
  g.SetResults(g.nodes[0], one);
  // Node 1 shares node 0's range, as a parser does for one spelling.
  g.nodes[1].first_type = g.nodes[0].first_type;
  g.nodes[1].type_count = g.nodes[0].type_count;
  absl::Span<TensorType> mine = g.MutableResults(g.nodes[1], 2);
  ASSERT_EQ(mine.size(), 2u);
  mine[0].dtype = DType::kBF16;
  EXPECT_EQ(FormatResults(g, g.nodes[0]), "f32[4]");
  EXPECT_EQ(FormatResults(g, g.nodes[1]), "(bf16[4], ?)");
  // Shrinking keeps the first ones.
  g.MutableResults(g.nodes[1], 1);
  EXPECT_EQ(FormatResults(g, g.nodes[1]), "bf16[4]");
  // A node's types set from another node's range, which the copy may move.
  for (int i = 0; i < 20; ++i) {
    Node& n = g.nodes.emplace_back();
    g.SetResults(n, g.results(g.nodes[0]));
  }
  g.SetResults(g.nodes[1], g.results(g.nodes[0]));
  EXPECT_EQ(FormatResults(g, g.nodes[1]), "f32[4]");
  EXPECT_EQ(FormatResults(g, g.nodes.back()), "f32[4]");
  g.ShrinkTypes();
  EXPECT_LE(g.types.capacity() - g.types.size(), g.types.size() / 8);
  EXPECT_EQ(FormatResults(g, g.nodes[0]), "f32[4]");
}

// A graph that gives node after node a range of its own (FX typing each
// multi-output call's outputs by a projection) grows its list as a vector
// grows: each call moving the whole list made that quadratic. Counted in
// moves of the list, and in what the graph typed by projections keeps.
TEST(GraphTypes, RangesOfTheirOwnGrowTheListGeometrically) {
  Graph g;
  g.nodes.resize(4096);
  const std::vector<TensorType> one = {Shape(DType::kF32, {4})};
  g.SetResults(g.nodes[0], one);
  size_t moves = 0;
  const TensorType* data = g.types.data();
  for (size_t i = 1; i < g.nodes.size(); ++i) {
    g.nodes[i].first_type = g.nodes[0].first_type;
    g.nodes[i].type_count = 1;
    g.MutableResults(g.nodes[i], 2)[1] = Shape(DType::kS64, {4});
    moves += g.types.data() != data;
    data = g.types.data();
  }
  EXPECT_LE(moves, 16u);
  EXPECT_EQ(FormatResults(g, g.nodes[4095]), "(f32[4], s64[4])");

  std::string text = "def forward(self, x):\n";
  for (int k = 0; k < 3000; ++k) {
    text += "    m_" + std::to_string(k) + " = torch.ops.aten.foo.default(x)\n";
  }
  for (int k = 0; k < 3000; ++k) {
    text += "    g_" + std::to_string(k) + ": \"f32[4]\" = m_" + std::to_string(k) + "[0]\n";
  }
  text += "    return (g_0,)\n";
  absl::StatusOr<std::vector<Graph>> gs = ParseFxCode(text, "fx.py");
  ASSERT_TRUE(gs.ok()) << gs.status();
  ASSERT_EQ(gs->size(), 1u);
  EXPECT_EQ(FormatResults((*gs)[0], Named((*gs)[0], "m_2999")), "f32[4]");
  EXPECT_LE((*gs)[0].types.capacity(), 2 * (*gs)[0].types.size() + 16);
}

// Lazy-tensor IR repeats a handful of type spellings over a whole graph:
// nodes of one spelling hold one range, nodes of another their own.
TEST(GraphTypes, IrNodesOfOneSpellingShareARange) {
  Graph g = ParseOne(
      "IR {\n"
      "  %0 = f32[4,64]{1,0} xla::device_data(), device=CPU:0\n"
      "  %1 = f32[4,64]{1,0} xla::device_data(), device=CPU:0\n"
      "  %2 = f32[4,64]{1,0} aten::add(%0, %1), num_outputs=1\n"
      "  %3 = (f32[4,64]{1,0}, s64[4]{0}) aten::max(%2), num_outputs=2\n"
      "  %4 = f32[4,64]{1,0} aten::mul(%2, %3.0), ROOT=0\n"
      "}\n",
      "ir.txt");
  ASSERT_EQ(g.nodes.size(), 5u);
  for (int i : {1, 2, 4}) {
    EXPECT_EQ(g.nodes[i].first_type, g.nodes[0].first_type) << i;
    EXPECT_EQ(g.nodes[i].type_count, 1u) << i;
  }
  EXPECT_EQ(g.nodes[3].type_count, 2u);
  EXPECT_EQ(FormatResults(g, g.nodes[3]), "(f32[4,64], s64[4])");
  EXPECT_EQ(g.str(g.result(g.nodes[3], 1).layout), "{0}");
  EXPECT_EQ(g.types.size(), 3u);
}

TEST(GraphTypes, HloInstructionsOfOneShapeShareARange) {
  Graph g = ParseOne(
      "HloModule m\n\n"
      "ENTRY %main (p0.1: f32[4,64], p1.2: f32[4,64]) -> f32[4,64] {\n"
      "  %p0.1 = f32[4,64]{1,0} parameter(0)\n"
      "  %p1.2 = f32[4,64]{1,0} parameter(1)\n"
      "  %t.3 = (f32[4,64]{1,0}, s32[]) tuple(f32[4,64]{1,0} %p0.1, s32[] %c.4)\n"
      "  %c.4 = s32[] constant(1)\n"
      "  ROOT %add.5 = f32[4,64]{1,0} add(f32[4,64]{1,0} %p0.1, f32[4,64]{1,0} %p1.2)\n"
      "}\n",
      "m.hlo");
  ASSERT_EQ(g.nodes.size(), 5u);
  const Node& p0 = Named(g, "p0.1");
  const Node& add = Named(g, "add.5");
  EXPECT_EQ(add.first_type, p0.first_type);
  EXPECT_EQ(Named(g, "p1.2").first_type, p0.first_type);
  EXPECT_EQ(FormatResults(g, Named(g, "t.3")), "(f32[4,64], s32[])");
  EXPECT_EQ(FormatResults(g, Named(g, "c.4")), "s32[]");
  EXPECT_EQ(g.types.size(), 4u);
}

// Typed FX outputs arrive one projection at a time, sometimes after other
// typed nodes: each node ends with its own types whatever the order.
TEST(GraphTypes, FxProjectionsTypedInAnyOrder) {
  Graph g = ParseOne(
      "def forward(self, x: \"f32[4, 8]\"):\n"
      "    split = torch.ops.aten.split.Tensor(x, 2)\n"
      "    getitem: \"f32[2, 8]\" = split[0]\n"
      "    relu: \"f32[4, 8]\" = torch.ops.aten.relu.default(x)\n"
      "    getitem_1: \"f32[2, 8]\" = split[1]\n"
      "    max_1 = torch.ops.aten.max.dim(relu, 1)\n"
      "    getitem_3: \"s64[4]\" = max_1[1]\n"
      "    getitem_2: \"f32[4]\" = max_1[0]\n"
      "    return (getitem, getitem_1, getitem_2, getitem_3)\n",
      "t.py");
  EXPECT_EQ(FormatResults(g, Named(g, "split")), "(f32[2,8], f32[2,8])");
  EXPECT_EQ(FormatResults(g, Named(g, "relu")), "f32[4,8]");
  EXPECT_EQ(FormatResults(g, Named(g, "max_1")), "(f32[4], s64[4])");
  EXPECT_EQ(FormatResults(g, g.nodes[g.inputs[0]]), "f32[4,8]");
  // Growing the last range in place leaves no copies behind: split moved
  // once (relu came between), max_1 never.
  EXPECT_LE(g.types.size(), 7u);
}

// Torch 2.x writes a type on every node; nodes written alike share one
// range, and a projection that retypes one of them leaves the others alone.
TEST(GraphTypes, FxNodesOfOneAnnotationShareARange) {
  Graph g = ParseOne(
      "def forward(self, x: \"f32[4, 8]\"):\n"
      "    a: \"f32[4, 8]\" = torch.ops.aten.relu.default(x)\n"
      "    b: \"f32[4, 8]\" = torch.ops.aten.relu.default(a)\n"
      "    c: \"bf16[4, 8]\" = torch.ops.aten.relu.default(b)\n"
      "    d: \"f32[4, 8]\" = torch.ops.aten.relu.default(c)\n"
      "    u: f32[4, 8] = torch.ops.aten.relu.default(d)\n"
      "    v: f32[4, 8] = torch.ops.aten.relu.default(u)\n"
      "    s: \"Sym(s0)\" = torch.ops.aten.sym_size(d, 0)\n"
      "    t: \"Sym(s0)\" = torch.ops.aten.sym_size(c, 0)\n"
      "    e: \"f32[2, 8]\" = b[1]\n"
      "    return (a, b, d, e, s, t, v)\n",
      "t.py");
  const Node& a = Named(g, "a");
  EXPECT_EQ(Named(g, "d").first_type, a.first_type);
  EXPECT_NE(Named(g, "c").first_type, a.first_type);
  EXPECT_EQ(FormatResults(g, Named(g, "c")), "bf16[4,8]");
  // b was typed as a was, then its output 1 was: its own range now.
  EXPECT_NE(Named(g, "b").first_type, a.first_type);
  EXPECT_EQ(FormatResults(g, Named(g, "b")), "(f32[4,8], f32[2,8])");
  EXPECT_EQ(FormatResults(g, a), "f32[4,8]");
  EXPECT_EQ(FormatResults(g, Named(g, "d")), "f32[4,8]");
  // Torch 2.0 writes the annotation without quotes.
  EXPECT_EQ(Named(g, "v").first_type, Named(g, "u").first_type);
  EXPECT_EQ(FormatResults(g, Named(g, "v")), "f32[4,8]");
  // Symbolic sizes keep their attribute each.
  for (const char* name : {"s", "t"}) {
    const Node& n = Named(g, name);
    ASSERT_EQ(n.attrs.size() >= 1, true) << name;
    EXPECT_EQ(g.attr(n, "sym").value_or(""), "s0") << name;
  }
}

}  // namespace
}  // namespace graphdiff
