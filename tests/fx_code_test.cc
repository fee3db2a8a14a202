// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/gate.h"
#include "graphdiff/graph.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "testing/model_text.h"
#include "testing/shared_pool.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using testing::ReadTestdata;

std::vector<Graph> ParseOk(const std::string& text,
                           std::vector<Diagnostic>* warnings = nullptr) {
  absl::StatusOr<std::vector<Graph>> gs = ParseFxCode(text, "t.py", {}, warnings);
  EXPECT_TRUE(gs.ok()) << gs.status();
  return gs.ok() ? *std::move(gs) : std::vector<Graph>{};
}

Graph ParseOne(const std::string& text, std::vector<Diagnostic>* warnings = nullptr) {
  std::vector<Graph> gs = ParseOk(text, warnings);
  EXPECT_EQ(gs.size(), 1u);
  return gs.empty() ? Graph{} : std::move(gs[0]);
}

const Node* Find(const Graph& g, std::string_view name) {
  for (const Node& n : g.nodes) {
    if (g.str(n.name) == name) return &n;
  }
  return nullptr;
}

uint32_t Index(const Graph& g, std::string_view name) {
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.str(g.nodes[i].name) == name) return static_cast<uint32_t>(i);
  }
  ADD_FAILURE() << "no node " << name;
  return 0;
}

std::string Attr(const Graph& g, const Node* n, std::string_view key) {
  if (n == nullptr) return "<no node>";
  auto v = g.attr(*n, key);
  return v ? std::string(*v) : "<absent>";
}

std::map<std::string, int> OpCounts(const Graph& g) {
  std::map<std::string, int> m;
  for (const Node& n : g.nodes) ++m[std::string(g.str(n.op))];
  return m;
}

// The `graphdiff stats` node count: every node but attribute fetches.
size_t CountedNodes(const Graph& g) {
  size_t c = 0;
  for (const Node& n : g.nodes) c += n.kind != NodeKind::kGetAttr;
  return c;
}

std::string ErrorOf(const std::string& text) {
  absl::StatusOr<std::vector<Graph>> gs = ParseFxCode(text, "bad.py");
  EXPECT_FALSE(gs.ok());
  return gs.ok() ? "" : std::string(gs.status().message());
}

TEST(FxCodeTest, FunctionCallsAndArguments) {
  Graph g = ParseOne(
      "def forward(self, primals_1, primals_2):\n"
      "    relu = torch.ops.aten.relu.default(primals_1);  primals_1 = None\n"
      "    convolution = torch.ops.aten.convolution.default(relu, primals_2, None, [2, 2], "
      "[3,3], [1, 1], False, [0, 0], 1)\n"
      "    cat = torch.cat([relu, convolution], dim = 1)\n"
      "    mp = torch.ops.xla.max_pool2d_forward.default(relu, [3, 3])\n"
      "    lin = torch._C._nn.linear(relu, primals_2)\n"
      "    r2 = torch.nn.functional.relu(lin, inplace = False)\n"
      "    full = torch.ops.aten.full.default([2], -inf, dtype = torch.float32, "
      "device = device(type='cpu'), pin_memory = False)\n"
      "    return (cat, mp, r2, full)\n");
  EXPECT_EQ(g.kind, GraphKind::kFx);
  EXPECT_EQ(g.name, "forward");
  ASSERT_EQ(g.inputs.size(), 2u);
  EXPECT_EQ(g.str(g.nodes[g.inputs[0]].name), "primals_1");
  EXPECT_EQ(g.nodes[g.inputs[0]].kind, NodeKind::kInput);
  EXPECT_EQ(g.str(g.nodes[g.inputs[0]].op), "fx::placeholder");
  const Node* relu = Find(g, "relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(g.str(relu->op), "aten::relu");
  EXPECT_EQ(g.str(relu->overload), "default");
  EXPECT_EQ(g.str(relu->raw_op), "torch.ops.aten.relu.default");
  EXPECT_EQ(relu->line, 2u);
  const Node* conv = Find(g, "convolution");
  ASSERT_EQ(conv->operands.size(), 2u);
  EXPECT_EQ(conv->operands[0], (ValueRef{Index(g, "relu"), 0}));
  EXPECT_EQ(Attr(g, conv, "arg2"), "None");
  EXPECT_EQ(Attr(g, conv, "arg3"), "[2, 2]");
  EXPECT_EQ(Attr(g, conv, "arg4"), "[3, 3]");  // whitespace normalised
  EXPECT_EQ(Attr(g, conv, "arg6"), "False");
  EXPECT_EQ(Attr(g, conv, "arg8"), "1");
  const Node* cat = Find(g, "cat");
  EXPECT_EQ(g.str(cat->op), "aten::cat");
  ASSERT_EQ(cat->operands.size(), 2u);
  EXPECT_EQ(Attr(g, cat, "arg0"), "[$0, $1]");
  EXPECT_EQ(Attr(g, cat, "dim"), "1");
  EXPECT_EQ(g.str(Find(g, "mp")->op), "xla::max_pool2d_forward");
  EXPECT_EQ(g.str(Find(g, "lin")->op), "aten::linear");
  EXPECT_EQ(g.str(Find(g, "r2")->op), "aten::relu");
  EXPECT_EQ(Attr(g, Find(g, "r2"), "inplace"), "False");
  const Node* full = Find(g, "full");
  EXPECT_TRUE(full->operands.empty());
  EXPECT_EQ(Attr(g, full, "arg1"), "-inf");
  EXPECT_EQ(Attr(g, full, "dtype"), "torch.float32");
  EXPECT_EQ(Attr(g, full, "device"), "device(type='cpu')");
  ASSERT_EQ(g.outputs.size(), 4u);
  EXPECT_EQ(g.outputs[3], (ValueRef{Index(g, "full"), 0}));
  EXPECT_EQ(g.source.first_line, 1u);
  EXPECT_EQ(g.source.last_line, 9u);
  EXPECT_EQ(g.source.file, "t.py");
}

// The graphs of one dump share one string pool, which holds each op, key
// and node name once for all of them; a string interned into one graph
// after the parse is not seen by the others.
TEST(FxCodeTest, GraphsOfOneDumpShareTheirStrings) {
  const std::string graph =
      "def forward(self, primals_1):\n"
      "    relu = torch.ops.aten.relu.default(primals_1)\n"
      "    add = torch.ops.aten.add.Tensor(relu, 1)\n"
      "    return (add,)\n";
  std::vector<Graph> gs = ParseOk(graph + graph + "\n" + graph);
  ASSERT_EQ(gs.size(), 3u);
  EXPECT_TRUE(gs[0].strings.shared());
  EXPECT_EQ(gs[0].strings.size(), gs[2].strings.size());
  const Node* relu = Find(gs[1], "relu");
  ASSERT_NE(relu, nullptr);
  EXPECT_EQ(relu->name, Find(gs[0], "relu")->name);  // stored once
  EXPECT_EQ(gs[1].str(relu->op), "aten::relu");
  EXPECT_EQ(Attr(gs[2], Find(gs[2], "add"), "arg1"), "1");
  testing::ExpectWriteStaysInOneGraph(gs[0], gs[1], Find(gs[0], "relu")->op, "aten::relu");
  // One graph alone has its pool to itself.
  EXPECT_FALSE(ParseOne(graph).strings.shared());
  // A big graph's names are stored as they come (no lookup per name), and
  // come back the same.
  std::string big_text = "def forward(self, x):\n    relu_0 = torch.ops.aten.relu.default(x)\n";
  for (int i = 1; i < 5000; ++i) {
    big_text += "    relu_" + std::to_string(i) + " = torch.ops.aten.relu.default(relu_" +
                std::to_string(i - 1) + ")\n";
  }
  big_text += "    return (relu_4999,)\n";
  Graph big = ParseOne(big_text);
  const Node* r = Find(big, "relu_4321");
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(big.strings.Find("relu_4321").empty());  // stored, not interned
  EXPECT_EQ(big.nodes[r->operands[0].node].name, Find(big, "relu_4320")->name);
}

TEST(FxCodeTest, RenamingValuesKeepsAttributes) {
  Graph a = ParseOne("def forward(self, x):\n    y = torch.cat([x, x], 0)\n    return y\n");
  Graph b = ParseOne("def forward(self, q):\n    y = torch.cat([q, q], 0)\n    return y\n");
  EXPECT_EQ(Attr(a, Find(a, "y"), "arg0"), Attr(b, Find(b, "y"), "arg0"));
  EXPECT_EQ(Attr(a, Find(a, "y"), "arg0"), "[$0, $1]");
}

TEST(FxCodeTest, OperatorsMapToAtenOps) {
  Graph g = ParseOne(
      "def forward(self, a, b):\n"
      "    add = a + b\n    sub = a - b\n    mul = a * 3.14\n    div = a / b\n"
      "    fd = a // 3\n    rem = a % b\n    pw = a ** 2\n    mm = a @ b\n    neg = -a\n"
      "    eq = a == b\n    ne = a != b\n    lt = a < b\n    le = a <= b\n"
      "    gt = a > b\n    ge = a >= b\n    ba = a & b\n    bo = a | b\n    bn = ~a\n"
      "    return (add, sub, mul, div, fd, rem, pw, mm, neg, eq, ne, lt, le, gt, ge, ba, bo, "
      "bn)\n");
  const std::map<std::string, std::string> expect = {
      {"add", "aten::add"}, {"sub", "aten::sub"}, {"mul", "aten::mul"},
      {"div", "aten::div"}, {"fd", "aten::floor_divide"}, {"rem", "aten::remainder"},
      {"pw", "aten::pow"}, {"mm", "aten::matmul"}, {"neg", "aten::neg"},
      {"eq", "aten::eq"}, {"ne", "aten::ne"}, {"lt", "aten::lt"}, {"le", "aten::le"},
      {"gt", "aten::gt"}, {"ge", "aten::ge"}, {"ba", "aten::bitwise_and"},
      {"bo", "aten::bitwise_or"}, {"bn", "aten::bitwise_not"}};
  for (const auto& [name, op] : expect) {
    const Node* n = Find(g, name);
    ASSERT_NE(n, nullptr) << name;
    EXPECT_EQ(g.str(n->op), op) << name;
  }
  const Node* mul = Find(g, "mul");
  ASSERT_EQ(mul->operands.size(), 1u);
  EXPECT_EQ(Attr(g, mul, "arg1"), "3.14");
  EXPECT_EQ(g.str(mul->raw_op), "*");
  EXPECT_EQ(g.outputs.size(), 18u);
}

TEST(FxCodeTest, AugmentedAssignmentIsNamedByItsAlias) {
  Graph g = ParseOne(
      "def forward(self, l_x_ : torch.Tensor):\n"
      "    a = self.L__self___bn(l_x_)\n"
      "    a += l_x_;  iadd = a;  a = l_x_ = None\n"
      "    b = self.L__self___relu(iadd);  iadd = None\n"
      "    b += 1;  iadd_1 = b;  b = None\n"
      "    return iadd_1\n");
  const Node* iadd = Find(g, "iadd");
  ASSERT_NE(iadd, nullptr);
  EXPECT_EQ(g.str(iadd->op), "aten::add_");
  ASSERT_EQ(iadd->operands.size(), 2u);
  EXPECT_EQ(iadd->operands[0], (ValueRef{Index(g, "a"), 0}));
  EXPECT_EQ(iadd->operands[1], (ValueRef{0, 0}));
  EXPECT_EQ(Find(g, "b")->operands[0], (ValueRef{Index(g, "iadd"), 0}));
  const Node* iadd1 = Find(g, "iadd_1");
  ASSERT_NE(iadd1, nullptr);
  EXPECT_EQ(Attr(g, iadd1, "arg1"), "1");
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.outputs[0], (ValueRef{Index(g, "iadd_1"), 0}));
  EXPECT_EQ(g.nodes.size(), 5u);
}

TEST(FxCodeTest, ModuleCallsGetAttrsAndMethods) {
  Graph g = ParseOne(
      "def forward(self, x):\n"
      "    c1 = self.L__self___conv1(x)\n"
      "    c2 = self.getattr_L__self___layer1___0___conv1(c1)\n"
      "    c3 = getattr(self.layer1, \"0\").conv1(c2)\n"
      "    c4 = self.conv1(c3)\n"
      "    layer_0 = getattr(self.layer, \"0\")(c4)\n"
      "    p = self.L__self___param\n"
      "    w = getattr(self.layer1, \"0\").conv1.weight\n"
      "    _param_constant0 = self._param_constant0\n"
      "    mean = layer_0.mean([2, 3])\n"
      "    mx = mean.max(dim = 1)\n"
      "    return (mx, p, w, _param_constant0)\n");
  const Node* c1 = Find(g, "c1");
  EXPECT_EQ(c1->kind, NodeKind::kModuleCall);
  EXPECT_EQ(Attr(g, c1, "target"), "conv1");
  EXPECT_EQ(g.str(c1->op), "module::conv1");
  // The raw op is the callee less `self.`, the target's own string when
  // the two are one text; a callee spelled with getattr is its path.
  EXPECT_EQ(g.str(c1->raw_op), "L__self___conv1");
  EXPECT_EQ(g.str(Find(g, "c3")->raw_op), "layer1.0.conv1");
  EXPECT_EQ(g.str(Find(g, "layer_0")->raw_op), "layer.0");
  EXPECT_EQ(g.str(Find(g, "c4")->raw_op), "conv1");
  EXPECT_EQ(Attr(g, Find(g, "c2"), "target"), "layer1.0.conv1");
  EXPECT_EQ(g.str(Find(g, "c2")->op), "module::layer1.0.conv1");
  EXPECT_EQ(Attr(g, Find(g, "c3"), "target"), "layer1.0.conv1");
  EXPECT_EQ(Attr(g, Find(g, "c4"), "target"), "conv1");
  EXPECT_EQ(Attr(g, Find(g, "layer_0"), "target"), "layer.0");
  // A module called again keeps the target's id, as an interned string
  // would (duplicate-subgraph fingerprints compare ids).
  auto target_id = [&](const char* name) {
    for (const graphdiff::Attr& a : Find(g, name)->attrs) {
      if (g.str(a.key) == "target") return a.value;
    }
    return StrId{};
  };
  EXPECT_EQ(target_id("c1"), target_id("c4"));
  EXPECT_EQ(target_id("c2"), target_id("c3"));
  EXPECT_EQ(Find(g, "c4")->raw_op, target_id("c4"));
  EXPECT_EQ(Find(g, "c3")->raw_op, target_id("c3"));
  EXPECT_NE(target_id("c1"), target_id("c2"));
  const Node* p = Find(g, "p");
  EXPECT_EQ(p->kind, NodeKind::kGetAttr);
  EXPECT_EQ(g.str(p->op), "fx::get_attr");
  EXPECT_EQ(Attr(g, p, "target"), "param");
  EXPECT_EQ(Attr(g, Find(g, "w"), "target"), "layer1.0.conv1.weight");
  EXPECT_EQ(Attr(g, Find(g, "_param_constant0"), "target"), "_param_constant0");
  const Node* mean = Find(g, "mean");
  EXPECT_EQ(mean->kind, NodeKind::kMethodCall);
  EXPECT_EQ(g.str(mean->op), "aten::mean");
  ASSERT_EQ(mean->operands.size(), 1u);
  EXPECT_EQ(mean->operands[0], (ValueRef{Index(g, "layer_0"), 0}));
  EXPECT_EQ(Attr(g, mean, "arg1"), "[2, 3]");
  EXPECT_EQ(Attr(g, Find(g, "mx"), "dim"), "1");
  EXPECT_EQ(CountedNodes(g), 8u);  // 1 input, 5 module calls, 2 methods
}

// A callee spelled with nested getattr calls is read by a shortcut for that
// shape alone (the parser keeps one node for it, the builder reads the path
// from its tokens). A trailing comma inside each getattr sends the same
// call down the general descent: both must build the same graph, in every
// spelling the shortcut takes or leaves.
TEST(FxCodeTest, GetattrCalleesParseAsTheGeneralDescentDoes) {
  const std::string body =
      "def forward(self, x):\n"
      "    a = getattr(self.layer1, \"0\")(x)\n"
      "    b = getattr(getattr(self.features, \"3\"), \"0\")(a)\n"
      "    c = getattr(getattr(getattr(self.features_c8, \"1\"), \"0\").block, \"2\").fc1(b)\n"
      "    d = getattr(self.L__self___layer1, \"0\").conv1(c)\n"
      "    e = getattr(self, \"weird name\")(d)\n"
      "    f = getattr(\n"
      "        getattr(self.features, \"1\"), '0')(e)\n"
      "    g = getattr(self.f, r'2').getattr_L__self___x___y(f, dim = 1)\n"
      "    getattr(self.f, \"5\")(g)\n"
      "    h = getattr(getattr(self.a.b, \"6\").c.d, \"7\")(g, f)\n"
      "    w = getattr(self.f, \"6\").weight\n"
      "    s = getattr(h, \"shape\")\n"
      "    t = getattr(x, \"7\")(h)\n"
      "    u = getattr(self.f, \"8\" \"9\")(h)\n"
      "    return (a, b, c, d, e, f, g, h, w, s, t, u)\n";
  // `getattr(A, "s")` -> `getattr(A, "s",)`, which only the descent takes.
  std::string general;
  size_t depth = 0;
  std::vector<bool> in_getattr;
  for (size_t i = 0; i < body.size(); ++i) {
    const char ch = body[i];
    if (ch == '(') {
      in_getattr.push_back(i >= 7 && body.compare(i - 7, 7, "getattr") == 0);
      ++depth;
    } else if (ch == ')' && depth > 0) {
      --depth;
      if (in_getattr.back()) general.push_back(',');
      in_getattr.pop_back();
    }
    general.push_back(ch);
  }
  ASSERT_NE(general.find("\"3\",)"), std::string::npos) << general;
  std::vector<Diagnostic> warn_short, warn_general;
  const Graph fast = ParseOne(body, &warn_short);
  const Graph slow = ParseOne(general, &warn_general);
  EXPECT_EQ(warn_short.size(), warn_general.size());
  ASSERT_EQ(fast.nodes.size(), slow.nodes.size());
  auto describe = [](const Graph& g, const Node& n) {
    std::string d = fmt::format("{} {} {}", g.str(n.name), static_cast<int>(n.kind), g.str(n.op));
    for (const ValueRef& r : n.operands) d += fmt::format(" %{}.{}", r.node, r.output);
    for (const graphdiff::Attr& a : n.attrs) {
      // A rendered argument holds the callee's text, commas and all.
      if (g.str(a.key) == "target") d += fmt::format(" target={}", g.str(a.value));
    }
    // A module call spelled with getattr is its path; a getattr read of a
    // module keeps its text, which the commas change.
    if (n.kind == NodeKind::kModuleCall) d += fmt::format(" raw={}", g.str(n.raw_op));
    return d;
  };
  for (size_t i = 0; i < fast.nodes.size(); ++i) {
    EXPECT_EQ(describe(fast, fast.nodes[i]), describe(slow, slow.nodes[i]));
  }
  EXPECT_EQ(fast.outputs, slow.outputs);
  EXPECT_EQ(Attr(fast, Find(fast, "c"), "target"), "features_c8.1.0.block.2.fc1");
  EXPECT_EQ(fast.str(Find(fast, "c")->raw_op), "features_c8.1.0.block.2.fc1");
  EXPECT_EQ(Attr(fast, Find(fast, "d"), "target"), "layer1.0.conv1");
  EXPECT_EQ(Attr(fast, Find(fast, "e"), "target"), "weird name");
  EXPECT_EQ(Attr(fast, Find(fast, "f"), "target"), "features.1.0");
  EXPECT_EQ(Attr(fast, Find(fast, "g"), "target"), "f.2.x.y");
  EXPECT_EQ(Attr(fast, Find(fast, "g"), "dim"), "1");
  EXPECT_EQ(Attr(fast, Find(fast, "call"), "target"), "f.5");
  EXPECT_EQ(Attr(fast, Find(fast, "h"), "target"), "a.b.6.c.d.7");
  EXPECT_EQ(fast.nodes[Index(fast, "h")].operands.size(), 2u);
  EXPECT_EQ(Find(fast, "w")->kind, NodeKind::kGetAttr);
  EXPECT_EQ(Attr(fast, Find(fast, "w"), "target"), "f.6.weight");
  EXPECT_EQ(fast.str(Find(fast, "s")->op), "builtins::getattr");
  EXPECT_NE(Find(fast, "t")->kind, NodeKind::kModuleCall);  // rooted at a value
  EXPECT_EQ(Attr(fast, Find(fast, "u"), "target"), "f.8");  // the first string, as before
}

TEST(FxCodeTest, ProjectionsFoldIntoValueRefs) {
  Graph g = ParseOne(
      "def forward(self, x):\n"
      "    bn = torch.ops.aten._native_batch_norm_legit_no_training.default(x, None, None, "
      "None, None, 0.1, 1e-05)\n"
      "    getitem = bn[0]\n"
      "    getitem_2 = bn[2];  bn = None\n"
      "    max_1 = torch.max(getitem, dim = 1)\n"
      "    getattr_1 = max_1.indices\n"
      "    shape = x.shape\n"
      "    sl = x[(slice(None, None, None), 0)]\n"
      "    g0 = shape[0]\n"
      "    l_x_ = x\n"
      "    return (getitem, getitem_2, getattr_1, sl, g0, l_x_)\n");
  const uint32_t bn = Index(g, "bn");
  EXPECT_EQ(Find(g, "getitem"), nullptr);
  // Untyped: the three outputs are counted, not held as unknown types.
  EXPECT_EQ(g.nodes[bn].num_results(), 3u);
  EXPECT_TRUE(g.results(g.nodes[bn]).empty());
  EXPECT_EQ(g.nodes[bn].num_outputs(), 3u);
  EXPECT_EQ(FormatResults(g, g.nodes[bn]), "(?, ?, ?)");
  EXPECT_EQ(Attr(g, &g.nodes[bn], "arg6"), "1e-05");
  ASSERT_EQ(g.outputs.size(), 6u);
  EXPECT_EQ(g.outputs[0], (ValueRef{bn, 0}));
  EXPECT_EQ(g.outputs[1], (ValueRef{bn, 2}));
  EXPECT_EQ(g.outputs[2], (ValueRef{Index(g, "max_1"), 1}));
  EXPECT_EQ(g.nodes[Index(g, "max_1")].operands[0], (ValueRef{bn, 0}));
  const Node* shape = Find(g, "shape");
  EXPECT_EQ(g.str(shape->op), "builtins::getattr");
  EXPECT_EQ(Attr(g, shape, "arg1"), "\"shape\"");
  const Node* sl = Find(g, "sl");
  EXPECT_EQ(g.str(sl->op), "aten::getitem");
  EXPECT_EQ(Attr(g, sl, "arg1"), "(slice(None, None, None), 0)");
  EXPECT_EQ(g.str(Find(g, "g0")->op), "aten::getitem");  // shape is not a call
  EXPECT_EQ(g.outputs[5], (ValueRef{0, 0}));               // alias of x
  EXPECT_EQ(Find(g, "l_x_"), nullptr);
}

TEST(FxCodeTest, AnnotationsInEveryForm) {
  Graph g = ParseOne(
      "def forward(self, a: f32[2, 4], b: \"f32[64, 3, 7, 7][147, 49, 7, 1]cpu\", "
      "c: \"Sym(s0)\", d: \"bf16[s0, 3]\", e : torch.Tensor, f: \"i64[]\"):\n"
      "    t: \"f32[4, 2][1, 4]cuda:0\" = torch.ops.aten.t.default(a)\n"
      "    return (t,)\n");
  ASSERT_EQ(g.inputs.size(), 6u);
  const TensorType& a = g.results(g.nodes[g.inputs[0]]).at(0);
  EXPECT_EQ(a.dtype, DType::kF32);
  ASSERT_EQ(a.dims.size(), 2u);
  EXPECT_EQ(a.dims[1].value(), 4);
  const TensorType& b = g.results(g.nodes[g.inputs[1]]).at(0);
  EXPECT_EQ(b.dims.size(), 4u);
  EXPECT_EQ(b.strides, (std::vector<int64_t>{147, 49, 7, 1}));
  EXPECT_EQ(g.str(b.device), "cpu");
  const Node& c = g.nodes[g.inputs[2]];
  EXPECT_EQ(g.results(c).at(0).dtype, DType::kS64);
  EXPECT_TRUE(g.results(c).at(0).rank_known);
  EXPECT_TRUE(g.results(c).at(0).dims.empty());
  EXPECT_EQ(Attr(g, &c, "sym"), "s0");
  const TensorType& d = g.results(g.nodes[g.inputs[3]]).at(0);
  EXPECT_EQ(d.dtype, DType::kBF16);
  EXPECT_EQ(d.dims[0].kind(), Dim::Kind::kSymbolic);
  EXPECT_EQ(g.str(d.dims[0].symbol()), "s0");
  EXPECT_TRUE(g.results(g.nodes[g.inputs[4]]).empty());
  EXPECT_TRUE(g.results(g.nodes[g.inputs[5]]).at(0).rank_known);
  const Node* t = Find(g, "t");
  EXPECT_EQ(g.str(g.results(*t).at(0).device), "cuda:0");
  EXPECT_EQ(g.results(*t).at(0).strides, (std::vector<int64_t>{1, 4}));
}

TEST(FxCodeTest, FramesFromFileComments) {
  Graph g = ParseOne(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        # File: /m.py:5 in forward, code: y = x.relu()\n"
      "        relu = torch.relu(x)\n"
      "        \n"
      "        # No stacktrace found for following nodes\n"
      "        neg = -relu\n"
      "        return neg\n");
  EXPECT_EQ(g.name, "GraphModule");
  EXPECT_EQ(g.str(Find(g, "relu")->frame), "/m.py:5 in forward, code: y = x.relu()");
  EXPECT_EQ(Find(g, "relu")->line, 4u);
  EXPECT_TRUE(Find(g, "neg")->frame.empty());
  EXPECT_TRUE(Find(g, "x")->frame.empty());
}

TEST(FxCodeTest, ReturnForms) {
  EXPECT_EQ(ParseOne("def forward(self, x):\n    return x\n").outputs.size(), 1u);
  EXPECT_EQ(ParseOne("def forward(self, x):\n    return [x]\n").outputs.size(), 1u);
  EXPECT_EQ(ParseOne("def forward(self, x):\n    return (x, (x, x))\n").outputs.size(), 3u);
  std::vector<Diagnostic> w;
  Graph g = ParseOne(
      "def forward(self, x, y):\n"
      "    return [\n"
      "        x,  # PlainAOTOutput(idx=0)\n"
      "        None,  # PlainAOTOutput(idx=1)\n"
      "        y,  # PlainAOTOutput(idx=2)\n"
      "    ]\n",
      &w);
  ASSERT_EQ(g.outputs.size(), 2u);
  EXPECT_EQ(g.outputs[1], (ValueRef{1, 0}));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].line, 4u);
}

TEST(FxCodeTest, PytreeFlattenAndUnflatten) {
  Graph g = ParseOne(
      "class joint_helper(torch.nn.Module):\n"
      "    def forward(self, primals, tangents):\n"
      "        primals_1: \"f32[3, 3][3, 1]cpu\"; primals_2: \"f32[3][1]cpu\"; "
      "tangents_1: \"f32[3, 3][3, 1]cpu\"; \n"
      "        primals_1, primals_2, tangents_1, = fx_pytree.tree_flatten_spec([primals, "
      "tangents], self._in_spec)\n"
      "        mul = torch.ops.aten.mul.Tensor(tangents_1, primals_1)\n"
      "        return pytree.tree_unflatten([mul, None], self._out_spec)\n");
  ASSERT_EQ(g.inputs.size(), 3u);
  EXPECT_EQ(g.str(g.nodes[g.inputs[0]].name), "primals_1");
  EXPECT_EQ(g.str(g.nodes[g.inputs[2]].name), "tangents_1");
  EXPECT_EQ(g.results(g.nodes[g.inputs[1]]).at(0).dims.size(), 1u);
  EXPECT_EQ(Find(g, "primals"), nullptr);
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.outputs[0], (ValueRef{Index(g, "mul"), 0}));
  EXPECT_EQ(g.name, "joint_helper");
}

// A big graph reserves its strings at the rate of its first sixteenth
// (FxBuilder::ReserveStrings): a rate that then changes, up or down, must
// still give every node its own strings, and room kept by the estimate
// stays a fraction of the graph.
TEST(FxCodeTest, BigGraphsWhoseStringRateChangesParseWhole) {
  constexpr int kLines = 80000;
  for (const int modules_first : {1, 0, -1}) {  // -1: every line a module call
    std::string text = "def forward(self, x):\n";
    for (int i = 0; i < kLines; ++i) {
      const std::string in = i == 0 ? "x" : fmt::format("v{}", i - 1);
      const bool module = modules_first < 0 || (i < kLines / 16) == (modules_first == 1);
      text += module ? fmt::format("    v{} = self.block{}.conv({})\n", i, i, in)
                     : fmt::format("    v{} = torch.relu({})\n", i, in);
    }
    text += fmt::format("    return v{}\n", kLines - 1);
    Graph g = ParseOne(text);
    ASSERT_EQ(g.nodes.size(), kLines + 1u) << modules_first;  // and the input
    size_t modules = 0;
    for (size_t i = 1; i < g.nodes.size(); ++i) {
      const Node& n = g.nodes[i];
      const int line = static_cast<int>(i) - 1;
      ASSERT_EQ(g.str(n.name), fmt::format("v{}", line));
      if (n.kind == NodeKind::kModuleCall) {
        ++modules;
        ASSERT_EQ(g.str(n.op), fmt::format("module::block{}.conv", line));
      } else {
        ASSERT_EQ(g.str(n.op), "aten::relu");
      }
    }
    EXPECT_EQ(modules, modules_first < 0    ? kLines
                       : modules_first == 1 ? kLines / 16u
                                            : kLines - kLines / 16u);
    // Views (8 bytes each) with at most an eighth to spare, the text, and
    // the chunks' bookkeeping: no lookup table (dropped once sealed).
    EXPECT_LE(g.strings.MemoryBytes(), g.strings.size() * 9 + g.strings.bytes() + 65536)
        << modules_first;
  }
}

// A big graph interns a module call's strings one statement late (the
// lookup's slot arrives while the next line is lexed): the ids must be what
// interning at once gives, whatever comes between: a module called again,
// a callee written as getattr calls, two calls on one line, a callee over
// two lines, a literal argument, and a call on the last line.
TEST(FxCodeTest, BigGraphsOfModuleCallsInternTheirStringsAsSmallOnes) {
  for (const int lines : {100, 6000}) {  // names interned, and not
    std::string text = "def forward(self, x):\n";
    struct Want {
      std::string path, raw;
    };
    std::vector<Want> want;  // per node after the input, in order
    std::string in = "x";
    for (int i = 0; i < lines; ++i) {
      const std::string v = fmt::format("v{}", i);
      switch (i % 6) {
        case 0:  // a module of its own
          text += fmt::format("    {} = self.block{}.conv({})\n", v, i, in);
          want.push_back({fmt::format("block{}.conv", i), fmt::format("block{}.conv", i)});
          break;
        case 1:  // one module called again and again
          text += fmt::format("    {} = self.shared.relu({});  {} = None\n", v, in, in);
          want.push_back({"shared.relu", "shared.relu"});
          break;
        case 2:  // getattr calls: the raw op is the path, not the callee's text
          text += fmt::format("    {} = getattr(getattr(self.features, \"{}\"), \"0\")({})\n", v, i,
                              in);
          want.push_back({fmt::format("features.{}.0", i), fmt::format("features.{}.0", i)});
          break;
        case 3:  // two calls on one line, as two statements
          text += fmt::format("    {}a = self.outer{}({});  {} = self.inner{}({}a)\n", v, i, in, v,
                              i, v);
          want.push_back({fmt::format("outer{}", i), fmt::format("outer{}", i)});
          want.push_back({fmt::format("inner{}", i), fmt::format("inner{}", i)});
          break;
        case 4:  // a callee over two lines, and a literal argument
          text += fmt::format("    {} = getattr(\n        self.wide, \"{}\")({}, 0.5)\n", v, i, in);
          want.push_back({fmt::format("wide.{}", i), ""});
          break;
        default:  // a function between module calls
          text += fmt::format("    {} = torch.relu({})\n", v, in);
          want.push_back({"", ""});
          break;
      }
      in = v;
    }
    text += fmt::format("    w = self.last({})\n", in);
    want.push_back({"last", "last"});
    // Cut short after a module call, too: no line comes after it.
    std::vector<Diagnostic> warnings;
    const Graph cut = ParseOne(text, &warnings);
    ASSERT_TRUE(cut.partial);
    ASSERT_EQ(cut.str(cut.nodes.back().op), "module::last") << lines;
    text += "    return w\n";
    Graph g = ParseOne(text);
    ASSERT_EQ(g.nodes.size(), want.size() + 1) << lines;
    std::map<std::string, std::pair<StrId, StrId>> seen;  // path -> op, target
    uint32_t last_new_op = 0;
    for (size_t i = 1; i < g.nodes.size(); ++i) {
      const Node& n = g.nodes[i];
      const Want& w = want[i - 1];
      if (w.path.empty()) {
        ASSERT_EQ(g.str(n.op), "aten::relu") << lines << " node " << i;
        continue;
      }
      ASSERT_EQ(n.kind, NodeKind::kModuleCall) << lines << " node " << i;
      ASSERT_EQ(g.str(n.op), "module::" + w.path) << lines << " node " << i;
      ASSERT_EQ(g.attr(n, "target").value_or("?"), w.path) << lines << " node " << i;
      if (!w.raw.empty()) {
        ASSERT_EQ(g.str(n.raw_op), w.raw) << lines << " node " << i;
      }
      ASSERT_EQ(g.strings.Find(g.str(n.op)), n.op) << "the op is interned: " << i;
      StrId target;
      for (const auto& a : n.attrs) {
        if (g.str(a.key) == "target") target = a.value;
      }
      auto [it, added] = seen.try_emplace(w.path, n.op, target);
      if (added) {
        // Ops are in the pool in the order nodes first use them.
        ASSERT_GT(n.op.id, last_new_op) << lines << " node " << i;
        last_new_op = n.op.id;
      } else {
        // A module called again keeps the first call's op and target ids.
        ASSERT_EQ(n.op, it->second.first) << lines << " node " << i;
        ASSERT_EQ(target, it->second.second) << lines << " node " << i;
      }
    }
  }
}

TEST(FxCodeTest, LogsWithBannersPrefixesAndManyGraphs) {
  const std::string text =
      "[2024-04-30 17:13:04,190] [0/0] torch._dynamo.output_graph: [INFO] Step 2\n"
      "[2024-04-30 17:13:04,191] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG] "
      "TRACED GRAPH\n"
      "[2024-04-30 17:13:04,191] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]  "
      "===== __compiled_fn_1 =====\n"
      "[2024-04-30 17:13:04,191] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]  "
      "<eval_with_key>.0 class GraphModule(torch.nn.Module):\n"
      "[2024-04-30 17:13:04,191] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]     "
      "def forward(self, L_x_ : torch.Tensor):\n"
      "[2024-04-30 17:13:04,191] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]       "
      "  l_x_ = L_x_\n"
      "[2024-04-30 17:13:04,191] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]       "
      "  sin = torch.sin(l_x_);  l_x_ = None\n"
      "[2024-04-30 17:13:04,191] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]       "
      "  return (sin,)\n"
      "V0120 22:19:37.029000 2343082 torch/_dynamo/output_graph.py:1983] [1/0] "
      "[__graph_code] TRACED GRAPH\n"
      "V0120 22:19:37.029000 2343082 torch/_dynamo/output_graph.py:1983] [1/0] "
      "[__graph_code]  ===== __compiled_fn_3 =====\n"
      "V0120 22:19:37.029000 2343082 torch/_dynamo/output_graph.py:1983] [1/0] "
      "[__graph_code]  /x/_lazy_graph_module.py class GraphModule(torch.nn.Module):\n"
      "V0120 22:19:37.029000 2343082 torch/_dynamo/output_graph.py:1983] [1/0] "
      "[__graph_code]     def forward(self, L_y_: \"f32[4][1]cpu\"):\n"
      "V0120 22:19:37.029000 2343082 torch/_dynamo/output_graph.py:1983] [1/0] "
      "[__graph_code]         l_y_ = L_y_\n"
      "V0120 22:19:37.029000 2343082 torch/_dynamo/output_graph.py:1983] [1/0] "
      "[__graph_code]         cos: \"f32[4][1]cpu\" = torch.cos(l_y_);  l_y_ = None\n"
      "V0120 22:19:37.029000 2343082 torch/_dynamo/output_graph.py:1983] [1/0] "
      "[__graph_code]         return (cos,)\n";
  std::vector<Graph> gs = ParseOk(text);
  ASSERT_EQ(gs.size(), 2u);
  EXPECT_EQ(gs[0].name, "__compiled_fn_1");
  EXPECT_EQ(gs[0].source.graph_name, "GraphModule");
  EXPECT_EQ(gs[1].name, "__compiled_fn_3");
  EXPECT_EQ(gs[0].inputs.size(), 1u);
  EXPECT_EQ(gs[0].str(gs[0].nodes[1].op), "aten::sin");
  EXPECT_EQ(gs[0].nodes[1].line, 7u);
  EXPECT_EQ(gs[0].source.first_line, 5u);
  EXPECT_EQ(gs[1].source.first_line, 12u);
  EXPECT_EQ(gs[1].source.record_index, 1u);
  ASSERT_EQ(gs[1].outputs.size(), 1u);
  EXPECT_EQ(gs[1].results(gs[1].nodes[1]).at(0).dims.size(), 1u);
}

TEST(FxCodeTest, NestedSubgraphClassesBecomeGraphs) {
  const std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_x_: \"f32[8]\"):\n"
      "        l_x_ = L_x_\n"
      "        subgraph_0 = self.subgraph_0\n"
      "        invoke_subgraph = torch.ops.higher_order.invoke_subgraph(subgraph_0, "
      "'subgraph_0', l_x_);  subgraph_0 = l_x_ = None\n"
      "        getitem: \"f32[8]\" = invoke_subgraph[0];  invoke_subgraph = None\n"
      "        return (getitem,)\n"
      "\n"
      "    class subgraph_0(torch.nn.Module):\n"
      "        def forward(self, l_x_: \"f32[8]\"):\n"
      "            sin: \"f32[8]\" = torch.sin(l_x_);  l_x_ = None\n"
      "            return (sin,)\n";
  std::vector<Graph> gs = ParseOk(text);
  ASSERT_EQ(gs.size(), 2u);
  EXPECT_EQ(gs[0].name, "GraphModule");
  EXPECT_EQ(gs[1].name, "subgraph_0");
  const Node* call = Find(gs[0], "invoke_subgraph");
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(gs[0].str(call->op), "higher_order::invoke_subgraph");
  EXPECT_EQ(Attr(gs[0], call, "subgraph"), "subgraph_0");
  EXPECT_EQ(Attr(gs[0], call, "arg1"), "'subgraph_0'");
  EXPECT_EQ(gs[0].results(*call).at(0).dtype, DType::kF32);
  EXPECT_EQ(gs[1].nodes.size(), 2u);
  EXPECT_EQ(gs[1].source.first_line, 10u);
}

TEST(FxCodeTest, UnknownPythonIsSkippedWithAWarning) {
  std::vector<Diagnostic> w;
  Graph g = ParseOne(
      "def forward(self, x):\n"
      "    assert x is not None\n"
      "    pass\n"
      "    y = [a for a in x]\n"
      "    z = torch.relu(x)\n"
      "    return z\n",
      &w);
  EXPECT_EQ(w.size(), 3u);
  EXPECT_EQ(g.nodes.size(), 2u);
}

TEST(FxCodeTest, Errors) {
  std::string e = ErrorOf("def forward(self, x):\n    y = torch.relu(nope)\n    return y\n");
  EXPECT_NE(e.find("bad.py:2:20: undefined name 'nope'"), std::string::npos) << e;
  EXPECT_NE(e.find("\n                   ^"), std::string::npos) << e;
  e = ErrorOf("def forward(self, x):\n    y = torch.relu(x\n");
  EXPECT_NE(e.find("bad.py:2:19:"), std::string::npos) << e;
  e = ErrorOf("def forward(self, x):\n    y = torch.relu(x))\n    return y\n");
  EXPECT_NE(e.find("bad.py:2:22:"), std::string::npos) << e;
  e = ErrorOf("def forward(self, x):\n    y = \x01\x02\n");
  EXPECT_NE(e.find("bad.py:2:9:"), std::string::npos) << e;
  e = ErrorOf("def forward(self, x):\n    y = \n");
  EXPECT_NE(e.find("bad.py:2:"), std::string::npos) << e;
  e = ErrorOf("def forward(self, x):\n    return nope\n");
  EXPECT_NE(e.find("bad.py:2:12:"), std::string::npos) << e;
  e = ErrorOf("");
  EXPECT_NE(e.find("empty"), std::string::npos) << e;
  e = ErrorOf("just some text\n");
  EXPECT_NE(e.find("def forward"), std::string::npos) << e;
}

TEST(FxCodeTest, ResNet18AotGraph) {
  std::string text = ReadTestdata("resnet18-xla5430/openxla/fx_graph.txt");
  Graph g = ParseOne(text);
  EXPECT_EQ(g.inputs.size(), 103u);
  EXPECT_EQ(g.outputs.size(), 81u);
  std::map<std::string, int> ops = OpCounts(g);
  EXPECT_EQ(ops["aten::_native_batch_norm_legit_no_training"], 20);
  EXPECT_EQ(ops["aten::t"], 1);
  EXPECT_EQ(ops["aten::convolution"], 20);
  EXPECT_EQ(ops["xla::max_pool2d_forward"], 1);
  EXPECT_EQ(ops["aten::addmm"], 1);
  EXPECT_EQ(ops.count("aten::getitem"), 0u);
  EXPECT_EQ(Find(g, "getitem"), nullptr);
  // 103 placeholders + 130 assignments - 60 getitem projections.
  EXPECT_EQ(CountedNodes(g), 173u);
  for (const Node& n : g.nodes) {
    if (g.str(n.op) == "aten::_native_batch_norm_legit_no_training") {
      EXPECT_EQ(n.num_results(), 3u);
    }
  }
}

TEST(FxCodeTest, ResNet18DynamoGraph) {
  std::string text = ReadTestdata("resnet18-xla5430/torchxla_trace_once/fx_graph.txt");
  Graph g = ParseOne(text);
  ASSERT_EQ(g.inputs.size(), 1u);
  EXPECT_EQ(g.str(g.nodes[g.inputs[0]].name), "l_x_");
  EXPECT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(Attr(g, Find(g, "getattr_l__self___layer1___0___conv1"), "target"),
            "layer1.0.conv1");
  EXPECT_EQ(Attr(g, Find(g, "getattr_l__self___layer2___0___downsample_0"), "target"),
            "layer2.0.downsample_0");
  std::map<std::string, int> ops = OpCounts(g);
  EXPECT_EQ(ops["aten::add_"], 8);
  EXPECT_EQ(ops["aten::flatten"], 1);
  EXPECT_EQ(ops["module::layer1.0.conv1"], 1);
  for (const char* name : {"iadd", "iadd_1", "iadd_7"}) {
    const Node* n = Find(g, name);
    ASSERT_NE(n, nullptr) << name;
    EXPECT_EQ(g.str(n->op), "aten::add_");
  }
  // 1 placeholder + 61 assignments + 8 in-place adds.
  EXPECT_EQ(CountedNodes(g), 70u);
  EXPECT_EQ(g.outputs[0], (ValueRef{Index(g, "l__self___fc"), 0}));
}

// `name` is typed f32[s0, 4] in `g`.
void ExpectF32S0By4(const Graph& g, const char* name) {
  const Node* n = Find(g, name);
  ASSERT_NE(n, nullptr) << name;
  const TensorType& t = g.result(*n, 0);
  EXPECT_EQ(t.dtype, DType::kF32) << name;
  ASSERT_EQ(t.dims.size(), 2u) << name;
  EXPECT_EQ(g.str(t.dims[0].symbol()), "s0") << name;
  EXPECT_EQ(t.dims[1], Dim::Static(4)) << name;
}

// A quoted annotation is parsed once for the dump: a later graph that
// spells it again gets the same type, and a symbol's attribute, as the
// first.
TEST(FxCodeTest, AnnotationsSpelledAgainInALaterGraphParseTheSame) {
  const std::string graph =
      "def forward(self, primals_1: \"f32[s0, 4][4, 1]cpu\", primals_2: \"Sym(s0)\"):\n"
      "    relu: \"f32[s0, 4][4, 1]cpu\" = torch.ops.aten.relu.default(primals_1)\n"
      "    return (relu, primals_2)\n";
  std::vector<Graph> gs = ParseOk(graph + graph + graph);
  ASSERT_EQ(gs.size(), 3u);
  for (const Graph& g : gs) {
    const Node* relu = Find(g, "relu");
    const Node* sym = Find(g, "primals_2");
    ASSERT_NE(relu, nullptr);
    ASSERT_NE(sym, nullptr);
    EXPECT_EQ(Attr(g, sym, "sym"), "s0");
    EXPECT_EQ(FormatResults(g, *sym), FormatResults(gs[0], *Find(gs[0], "primals_2")));
    ExpectF32S0By4(g, "relu");
    const TensorType& t = g.result(*relu, 0);
    EXPECT_EQ(std::vector<int64_t>(t.strides.begin(), t.strides.end()),
              (std::vector<int64_t>{4, 1}));
    EXPECT_EQ(g.str(t.device), "cpu");
    EXPECT_EQ(FormatResults(g, *relu), FormatResults(g, *Find(g, "primals_1")));
  }
}

// So is an unquoted one (torch 2.0's print_readable), by its span of the
// dump: a later graph that spells it again, or spells it with other spaces,
// gets the type the first graph's spelling parsed to.
TEST(FxCodeTest, UnquotedAnnotationsSpelledAgainParseTheSame) {
  const std::string graph =
      "class <lambda>(torch.nn.Module):\n"
      "    def forward(self, arg0_1: f32[s0, 4], arg1_1: Sym(s0), arg2_1: i64[]):\n"
      "        relu: f32[s0, 4] = torch.ops.aten.relu.default(arg0_1)\n"
      "        neg: f32[s0,4] = torch.ops.aten.neg.default(relu)\n"
      "        add: i64[] = torch.ops.aten.add.Tensor(arg2_1, 1)\n"
      "        view: f32[8] = torch.ops.aten.view.default(neg, [8])\n"
      "        return (view, arg1_1, add)\n"
      "        \n";
  std::vector<Graph> gs = ParseOk(graph + graph + graph);
  ASSERT_EQ(gs.size(), 3u);
  for (const Graph& g : gs) {
    for (const char* name : {"arg0_1", "relu", "neg"}) ExpectF32S0By4(g, name);
    const Node* sym = Find(g, "arg1_1");
    ASSERT_NE(sym, nullptr);
    EXPECT_EQ(Attr(g, sym, "sym"), "s0");
    EXPECT_EQ(FormatResults(g, *sym), FormatResults(gs[0], *Find(gs[0], "arg1_1")));
    const Node* add = Find(g, "add");
    ASSERT_NE(add, nullptr);
    EXPECT_EQ(g.result(*add, 0).dtype, DType::kS64);
    EXPECT_TRUE(g.result(*add, 0).rank_known);
    EXPECT_TRUE(g.result(*add, 0).dims.empty());
    const Node* view = Find(g, "view");
    ASSERT_NE(view, nullptr);
    ASSERT_EQ(g.result(*view, 0).dims.size(), 1u);
    EXPECT_EQ(g.result(*view, 0).dims[0], Dim::Static(8));
  }
}

// The graphs of a dump are parsed one after another by one builder, which
// keeps its tables' room from graph to graph: what the graph before left
// (names bound, callees, types, a big graph's table) must not show in the
// next one.
TEST(FxCodeTest, AGraphParsesTheSameAfterAnyOther) {
  std::string big = "def forward(self, x):\n    relu_0 = torch.ops.aten.relu.default(x)\n";
  for (int i = 1; i < 6000; ++i) {
    big += "    relu_" + std::to_string(i) + ": \"f32[" + std::to_string(i % 7 + 1) +
           "][1]cpu\" = torch.ops.aten.relu.default(relu_" + std::to_string(i - 1) + ")\n";
  }
  big += "    return (relu_5999,)\n";
  std::vector<std::string> texts = {
      ReadTestdata("fixtures/fx/aot_graphs_v2_4.log"),
      ReadTestdata("fixtures/fx/invoke_subgraph_v2_6.py"),
      ReadTestdata("fixtures/fx/print_readable_v2_0.py"),
      ReadTestdata("generated/mlp/fx_aot_backward.txt"),
      ReadTestdata("generated/transformer_block/fx_symbolic_trace.txt"),
      big,
  };
  for (std::string& text : texts) {
    if (text.back() != '\n') text += '\n';
  }
  // Every field but the position among the dump's graphs.
  auto model = [](std::vector<Graph> graphs, size_t from) {
    ParsedText parsed;
    for (size_t i = from; i < graphs.size(); ++i) {
      graphs[i].source.record_index = 0;
      parsed.graphs.push_back(std::move(graphs[i]));
    }
    return testing::ModelText(parsed);
  };
  for (const std::string& before : texts) {
    const size_t graphs_before = ParseOk(before).size();
    const size_t lines_before = static_cast<size_t>(std::count(before.begin(), before.end(), '\n'));
    for (const std::string& after : texts) {
      // Blank lines in place of the graphs before keep the line numbers.
      EXPECT_EQ(model(ParseOk(before + after), graphs_before),
                model(ParseOk(std::string(lines_before, '\n') + after), 0));
    }
  }
}

// A name or literal argument before `,` or the close takes a short path to
// its atom. At the nesting limit it must fail as any other argument there:
// `y` (the short path) and `y.z` (the full descent) hit the limit at the
// same depth of unary minus, with the same message, and parse alike below it.
TEST(FxCode, ShortArgumentsKeepTheNestingLimit) {
  size_t first_failure[2] = {0, 0};
  const char* args[2] = {"y", "y.z"};
  for (int k = 0; k < 2; ++k) {
    for (size_t depth = 480; depth <= 510; ++depth) {
      std::string minus;
      for (size_t i = 0; i < depth; ++i) minus += "- ";
      const std::string text = std::string("def forward(self, x, y):\n") +
                               "    a = torch.ops.aten.foo.default(x, " + minus + "(" +
                               args[k] + ", 1))\n    return (a,)\n";
      absl::StatusOr<std::vector<Graph>> gs = ParseFxCode(text, "t.py", {}, nullptr);
      if (!gs.ok()) {
        EXPECT_NE(std::string(gs.status().message()).find("nested too deeply"), std::string::npos)
            << gs.status();
        if (first_failure[k] == 0) first_failure[k] = depth;
      } else {
        EXPECT_EQ(first_failure[k], 0u) << args[k] << " parsed at " << depth
                                        << " after failing at " << first_failure[k];
      }
    }
  }
  EXPECT_NE(first_failure[0], 0u);
  EXPECT_EQ(first_failure[0], first_failure[1]);
}

// Literal arguments, keyword names and frames are interned through a small
// cache of recent ids, kept from graph to graph of one dump: with more
// distinct literals than it has slots, and the same ones again in a later
// graph, every attribute still reads its own text.
TEST(FxCode, RecentLiteralsKeepTheirOwnText) {
  std::string text;
  for (int graph = 0; graph < 3; ++graph) {
    text += "def forward(self, x):\n";
    for (int i = 0; i < 1500; ++i) {
      const int v = graph == 1 ? 1499 - i : i;  // the second graph in reverse
      text += "    # File: m.py:" + std::to_string(v % 7) + " in forward\n";
      text += "    a" + std::to_string(i) + " = torch.ops.aten.add.Tensor(x, " +
              std::to_string(v) + ", alpha" + std::to_string(v % 3) + " = [" +
              std::to_string(v) + ", 1])\n";
    }
    text += "    return (a0,)\n";
  }
  std::vector<Graph> gs = ParseOk(text);
  ASSERT_EQ(gs.size(), 3u);
  for (int graph = 0; graph < 3; ++graph) {
    const Graph& g = gs[graph];
    for (int i = 0; i < 1500; ++i) {
      const int v = graph == 1 ? 1499 - i : i;
      const Node* n = Find(g, "a" + std::to_string(i));
      ASSERT_NE(n, nullptr) << graph << " " << i;
      EXPECT_EQ(g.attr(*n, "arg1"), std::to_string(v));
      EXPECT_EQ(g.attr(*n, "alpha" + std::to_string(v % 3)), "[" + std::to_string(v) + ", 1]");
      EXPECT_EQ(g.str(n->frame), "m.py:" + std::to_string(v % 7) + " in forward");
    }
  }
}

// A graph longer than the lines the parse keeps ahead: its body is counted
// past them, the lines behind the parse are dropped as it goes, and what it
// reports at the end (an undefined name, with its line and caret) is as for
// a small graph; without the error it parses every node.
TEST(FxCode, LongGraphDropsLinesBehindItsParse) {
  const int nodes = 40000;
  std::string body;
  for (int i = 0; i < nodes; ++i) {
    body += "    # File: m.py:" + std::to_string(i) + " in forward\n";
    body += "    a" + std::to_string(i) + " = torch.ops.aten.relu.default(" +
            (i == 0 ? std::string("x") : "a" + std::to_string(i - 1)) + ")\n\n";
  }
  const std::string head = "def forward(self, x):\n";
  Graph g = ParseOne(head + body + "    return (a" + std::to_string(nodes - 1) + ",)\n");
  EXPECT_EQ(g.nodes.size(), static_cast<size_t>(nodes) + 1);
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.str(g.nodes[g.outputs[0].node].name), "a" + std::to_string(nodes - 1));
  absl::StatusOr<std::vector<Graph>> bad =
      ParseFxCode(head + body + "    b = torch.ops.aten.add.Tensor(a7, zz)\n    return (b,)\n",
                  "t.py");
  ASSERT_FALSE(bad.ok());
  const std::string message(bad.status().message());
  const int bad_line = 1 + 3 * nodes + 1;
  EXPECT_NE(message.find("t.py:" + std::to_string(bad_line) + ":"), std::string::npos) << message;
  EXPECT_NE(message.find("undefined name 'zz'"), std::string::npos) << message;
  EXPECT_NE(message.find("b = torch.ops.aten.add.Tensor(a7, zz)"), std::string::npos) << message;
}

// A definition that repeats one parsed before (line for line after the log
// prefixes) is copied from that parse: each graph must still be what its
// definition parses to alone, on its own lines, saying what it says alone.
// Definitions one after another, each followed by a blank line: each graph
// of the whole text is what parsing it alone on its lines gives, and so are
// the warnings.
// Sets `*said` to the number of warnings said.
void ExpectEachDefinitionParsesAsAlone(const std::vector<std::string>& defs, size_t* said);

TEST(FxCodeTest, ARepeatedDefinitionIsItsParseAlone) {
  const std::string mlp =
      "def forward(self, input):\n"
      "    input_1 = input\n"
      "    _0 = getattr(self, \"0\")(input_1);  input_1 = None\n"
      "    _1 = getattr(self, \"1\")(_0);  _0 = None\n"
      "    return _1\n";
  const std::string none_out =
      "def forward(self, x):\n"
      "    relu = torch.ops.aten.relu.default(x);  x = None\n"
      "    return [relu, None]\n";
  // The lines of `mlp` and the blank line after it, then a comment the
  // body goes on to: not a copy of `mlp` followed by a blank line.
  const std::string goes_on = mlp + "\n    # trailing comment\n";
  auto logged = [](const std::string& code, const std::string& pid) {
    std::string out;
    size_t start = 0;
    for (int k = 0; start < code.size(); ++k) {
      const size_t end = code.find('\n', start) + 1;
      out += fmt::format("I1205 10:00:0{}.123456 {} m.py:1] ", k % 10, pid) +
             code.substr(start, end - start);
      start = end;
    }
    return out;
  };
  size_t said = 0;
  ExpectEachDefinitionParsesAsAlone(
      {mlp, none_out, mlp, mlp, goes_on, none_out, logged(mlp, "42"), logged(mlp, "42"),
       logged(none_out, "42"), logged(none_out, "4242"), goes_on, mlp},
      &said);
  EXPECT_GE(said, 4u);  // each `none_out` says so
}

TEST(FxCodeTest, ACycleOfDefinitionsIsCopiedAsParsed) {
  // A log that cycles through twelve graphs, three times, one of them with
  // a warning (a None output).
  std::vector<std::string> cycle;
  for (int k = 0; k < 12; ++k) {
    cycle.push_back(fmt::format(
        "def forward(self, x):\n"
        "    a = torch.ops.aten.relu.default(x);  x = None\n"
        "    b = torch.ops.aten.mul.Tensor(a, {});  a = None\n"
        "    return {}\n",
        k, k == 5 ? "[b, None]" : "(b,)"));
  }
  std::vector<std::string> defs;
  for (int round = 0; round < 3; ++round) defs.insert(defs.end(), cycle.begin(), cycle.end());
  size_t said = 0;
  ExpectEachDefinitionParsesAsAlone(defs, &said);
  EXPECT_EQ(said, 3u);
}

// AOTAutograd's backward graphs return None for each input that takes no
// gradient, hundreds in a big model: one warning says how many, at the
// first. Repeated, such a definition is copied like any other.
TEST(FxCodeTest, NoneOutputsAreSaidOnce) {
  std::string def = "def forward(self, x, y):\n    return [";
  for (int i = 0; i < 100; ++i) def += i % 25 == 7 ? "x, " : "None, ";
  def += "y]\n";
  std::vector<Diagnostic> w;
  Graph g = ParseOne(def, &w);
  EXPECT_EQ(g.outputs.size(), 5u);  // four x and the y
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].message, "skipped 96 None graph outputs");
  EXPECT_EQ(w[0].line, 2u);
  EXPECT_EQ(w[0].column, 13u);  // the first None
  size_t said = 0;
  ExpectEachDefinitionParsesAsAlone({def, def, def}, &said);
  EXPECT_EQ(said, 3u);
}

void ExpectEachDefinitionParsesAsAlone(const std::vector<std::string>& defs, size_t* said) {
  std::string text;
  std::vector<uint32_t> first_lines;
  uint32_t line = 1;
  for (const std::string& d : defs) {
    first_lines.push_back(line);
    text += d + "\n";
    line += static_cast<uint32_t>(std::count(d.begin(), d.end(), '\n')) + 1;
  }
  std::vector<Diagnostic> warnings;
  absl::StatusOr<std::vector<Graph>> gs = ParseFxCode(text, "log.txt", {}, &warnings);
  ASSERT_TRUE(gs.ok()) << gs.status().message();
  ASSERT_EQ(gs->size(), defs.size());
  std::vector<std::string> alone_said;
  for (size_t i = 0; i < defs.size(); ++i) {
    SCOPED_TRACE(i);
    std::vector<Diagnostic> said;
    absl::StatusOr<std::vector<Graph>> alone =
        ParseFxCode(std::string(first_lines[i] - 1, '\n') + defs[i], "log.txt", {}, &said);
    ASSERT_TRUE(alone.ok()) << alone.status().message();
    ASSERT_EQ(alone->size(), 1u);
    const Graph& g = (*gs)[i];
    const Graph& a = alone->front();
    EXPECT_EQ(EncodeGraph(g), EncodeGraph(a));
    EXPECT_EQ(g.partial, a.partial);
    EXPECT_EQ(g.source.first_line, a.source.first_line);
    EXPECT_EQ(g.source.last_line, a.source.last_line);
    ASSERT_EQ(g.nodes.size(), a.nodes.size());
    for (size_t k = 0; k < g.nodes.size(); ++k) EXPECT_EQ(g.nodes[k].line, a.nodes[k].line);
    for (const Diagnostic& d : said) alone_said.push_back(d.ToString());
  }
  std::vector<std::string> file_said;
  for (const Diagnostic& d : warnings) file_said.push_back(d.ToString());
  EXPECT_EQ(file_said, alone_said);
  *said = alone_said.size();
}

}  // namespace
}  // namespace graphdiff
