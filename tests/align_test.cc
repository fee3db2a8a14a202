// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Alignment on small graphs built in code: the whole pipeline and each
// matcher on its own.
#include "graphdiff/align.h"

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "align/identical.h"
#include "align/matchers.h"
#include "align/module_class.h"
#include "align/state.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "testing/graph_builder.h"
#include "testing/graph_mutate.h"
#include "testing/random_blocks.h"

namespace graphdiff {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::GraphBuilder;

// A small conv net: conv -> bn -> relu -> conv -> bn -> add(residual) -> relu,
// with lots of same-typed parameters that only their users tell apart.
Graph SmallNet(GraphKind kind = GraphKind::kIr, int blocks = 2) {
  GraphBuilder b(kind);
  uint32_t x = b.Input("f32[4,8,16,16]");
  uint32_t cur = x;
  for (int i = 0; i < blocks; ++i) {
    uint32_t skip = cur;
    for (int j = 0; j < 2; ++j) {
      uint32_t w = b.Input("f32[8,8,3,3]");
      uint32_t conv = b.Op("aten::convolution_overrideable", {cur, w}, "f32[4,8,16,16]",
                           {{"stride", "(1, 1)"}, {"padding", "(1, 1)"}});
      std::vector<uint32_t> bn_ops = {conv};
      for (int k = 0; k < 4; ++k) bn_ops.push_back(b.Input("f32[8]"));
      uint32_t bn = b.Op("aten::native_batch_norm", bn_ops,
                         "(f32[4,8,16,16], f32[8], f32[8], f32[8])",
                         {{"training", "0"}, {"eps", "1e-05"}, {"num_outputs", "4"}});
      if (j == 0) {
        cur = b.OpRefs("aten::relu", {{bn, 0}}, "f32[4,8,16,16]");
      } else {
        uint32_t add = b.OpRefs("aten::add", {{bn, 0}, {skip, 0}}, "f32[4,8,16,16]");
        cur = b.Op("aten::relu", {add}, "f32[4,8,16,16]");
      }
    }
  }
  uint32_t mean = b.Op("aten::mean", {cur}, "f32[4,8]", {{"dimensions", "(3, 2)"}});
  b.Output(mean);
  return b.Build();
}

std::vector<std::pair<uint32_t, uint32_t>> PairList(const Alignment& a) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const NodePair& p : a.pairs) out.emplace_back(p.left, p.right);
  return out;
}

// Every original node paired with its truth counterpart, nothing else.
void ExpectMatchesTruth(const Alignment& a, const testing::Mutated& m) {
  std::vector<std::pair<uint32_t, uint32_t>> want;
  for (uint32_t i = 0; i < m.truth.size(); ++i) {
    if (m.truth[i] != testing::kAbsent) want.emplace_back(i, m.truth[i]);
  }
  EXPECT_EQ(PairList(a), want);
  EXPECT_EQ(a.right_only, m.added);
}

const NodePair* PairOf(const Alignment& a, uint32_t left) {
  for (const NodePair& p : a.pairs) {
    if (p.left == left) return &p;
  }
  return nullptr;
}

TEST(AlignTest, IdenticalGraphsAreIdentical) {
  Graph g = SmallNet();
  // Align takes the shortcut for graphs equal node for node; the matchers,
  // asked alone, find the same pairs as anchors.
  for (Matcher want : {Matcher::kIdentical, Matcher::kAnchor}) {
    absl::StatusOr<Alignment> a = want == Matcher::kIdentical
                                      ? Align(g, g)
                                      : align::AlignByMatchers(g, g, AlignOptions{});
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_TRUE(a->identical());
    EXPECT_EQ(a->pairs.size(), g.nodes.size());
    for (const NodePair& p : a->pairs) {
      EXPECT_EQ(p.left, p.right);
      EXPECT_EQ(p.matcher, want) << p.left;
    }
    EXPECT_THAT(a->matched_outputs, ElementsAre(std::make_pair(0u, 0u)));
  }
}

TEST(AlignTest, RenumberedAndReorderedIsIdentical) {
  Graph g = SmallNet(GraphKind::kIr, 3);
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    testing::Mutated renamed = testing::Renumber(g, seed);
    testing::Mutated m = testing::Then(renamed, testing::Reorder(renamed.graph, seed));
    absl::StatusOr<Alignment> a = Align(g, m.graph);
    ASSERT_TRUE(a.ok());
    ExpectMatchesTruth(*a, m);
    EXPECT_TRUE(a->identical()) << "seed " << seed;
  }
}

TEST(AlignTest, EqualParametersToldApartByTheirUsers) {
  // Eight f32[8] inputs, each the bias of its own add in a chain.
  GraphBuilder b;
  uint32_t x = b.Input("f32[8]");
  uint32_t cur = x;
  std::vector<uint32_t> params;
  for (int i = 0; i < 8; ++i) params.push_back(b.Input("f32[8]"));
  for (int i = 0; i < 8; ++i) cur = b.Op("aten::add", {cur, params[i]}, "f32[8]");
  b.Output(cur);
  Graph g = b.Build();
  testing::Mutated m = testing::Reorder(g, 7);
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  ASSERT_TRUE(a.ok());
  ExpectMatchesTruth(*a, m);
}

TEST(AlignTest, ExtraOutputIsTheSameNode) {
  Graph g = SmallNet();
  testing::Mutated m = testing::AddExtraOutputs(g, 3, 11);
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  ASSERT_TRUE(a.ok());
  ExpectMatchesTruth(*a, m);
  for (const NodePair& p : a->pairs) EXPECT_FALSE(p.changed()) << p.detail;
  EXPECT_EQ(a->right_only_outputs, m.added_outputs);
  EXPECT_TRUE(a->left_only_outputs.empty());
  EXPECT_THAT(a->matched_outputs, ElementsAre(std::make_pair(0u, 0u)));
}

TEST(AlignTest, DeadNodesAreRightOnly) {
  Graph g = SmallNet();
  testing::Mutated m = testing::Then(testing::InsertDeadNodes(g, 4, 3),
                                     testing::Reorder(testing::InsertDeadNodes(g, 4, 3).graph, 5));
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  ASSERT_TRUE(a.ok());
  ExpectMatchesTruth(*a, m);
  EXPECT_TRUE(a->left_only.empty());
  // Swapped: the same nodes are left-only.
  absl::StatusOr<Alignment> b = Align(m.graph, g);
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->left_only, m.added);
}

TEST(AlignTest, ChangedAttributeIsReportedWithDetail) {
  Graph g = SmallNet();
  uint32_t conv = 0;
  while (g.str(g.nodes[conv].op) != "aten::convolution_overrideable") ++conv;
  testing::Mutated m = testing::ChangeAttribute(g, conv, "stride", "(2, 2)");
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  ASSERT_TRUE(a.ok());
  ExpectMatchesTruth(*a, m);
  for (const NodePair& p : a->pairs) {
    if (p.left == conv) {
      EXPECT_EQ(p.reasons, kChangedAttributes);
      EXPECT_THAT(p.detail, HasSubstr("stride=(1, 1) -> (2, 2)"));
    } else {
      EXPECT_FALSE(p.changed()) << p.left << ": " << p.detail;
    }
  }
}

TEST(AlignTest, SubstitutedOpIsARelaxedPair) {
  Graph g = SmallNet();
  uint32_t relu = 0;
  while (g.str(g.nodes[relu].op) != "aten::relu") ++relu;
  testing::Mutated m = testing::SubstituteOp(g, relu, "aten::gelu");
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  ASSERT_TRUE(a.ok());
  ExpectMatchesTruth(*a, m);
  const NodePair* p = PairOf(*a, relu);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->matcher, Matcher::kRelaxed);
  EXPECT_EQ(p->reasons, kChangedOp);
  EXPECT_THAT(p->detail, HasSubstr("aten::relu -> aten::gelu (substitution)"));
  for (const NodePair& q : a->pairs) {
    if (q.left != relu) {
      EXPECT_FALSE(q.changed()) << q.detail;
    }
  }
}

TEST(AlignTest, KnownEquivalentOpsAnchorAndSaySo) {
  Graph g = SmallNet();
  testing::Mutated m = testing::Identity(g);
  std::vector<uint32_t> bns;
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    if (g.str(g.nodes[v].op) == "aten::native_batch_norm") {
      m.graph.nodes[v].op = m.graph.intern("aten::_native_batch_norm_legit_no_training");
      bns.push_back(v);
    }
  }
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  ASSERT_TRUE(a.ok());
  ExpectMatchesTruth(*a, m);
  for (uint32_t bn : bns) {
    const NodePair* p = PairOf(*a, bn);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->matcher, Matcher::kAnchor);
    EXPECT_EQ(p->reasons, kChangedOp);
    EXPECT_THAT(p->detail, HasSubstr("(known equivalent)"));
  }
}

TEST(AlignTest, RewiredOperandOnlyFlagsTheReader) {
  Graph g = SmallNet(GraphKind::kIr, 2);
  uint32_t add = 0;
  while (g.str(g.nodes[add].op) != "aten::add") ++add;
  // Read the block input's predecessor's relu instead of the skip value.
  uint32_t source = 0;
  while (g.str(g.nodes[source].op) != "aten::relu") ++source;
  ASSERT_NE(g.nodes[add].operands[1].node, source);
  testing::Mutated m = testing::RewireOperand(g, add, 1, source);
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  ASSERT_TRUE(a.ok());
  ExpectMatchesTruth(*a, m);
  for (const NodePair& p : a->pairs) {
    if (p.left == add) {
      EXPECT_EQ(p.reasons, kChangedOperands);
      EXPECT_THAT(p.detail, HasSubstr("operand 1"));
    } else {
      EXPECT_FALSE(p.changed()) << p.left << ": " << p.detail;
    }
  }
}

TEST(AlignTest, DuplicatedNodeIsRightOnlyAndReaderRewired) {
  GraphBuilder b;
  uint32_t x = b.Input("f32[8]");
  uint32_t e = b.Op("aten::exp", {x}, "f32[8]");
  uint32_t u1 = b.Op("aten::sin", {e}, "f32[8]");
  uint32_t u2 = b.Op("aten::cos", {e}, "f32[8]");
  uint32_t s = b.Op("aten::add", {u1, u2}, "f32[8]");
  b.Output(s);
  Graph g = b.Build();
  testing::Mutated m = testing::DuplicateNode(g, e, u2);
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  ASSERT_TRUE(a.ok());
  ExpectMatchesTruth(*a, m);
  EXPECT_EQ(PairOf(*a, u2)->reasons, kChangedOperands);
  EXPECT_FALSE(PairOf(*a, u1)->changed());
}

TEST(AlignTest, TypeChangeIsReported) {
  Graph g = SmallNet();
  testing::Mutated m = testing::Identity(g);
  uint32_t mean = static_cast<uint32_t>(g.nodes.size() - 1);
  m.graph.SetResults(m.graph.nodes[mean], testing::ParseTypes("bf16[4,8]"));
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  ASSERT_TRUE(a.ok());
  ExpectMatchesTruth(*a, m);
  const NodePair* p = PairOf(*a, mean);
  EXPECT_EQ(p->reasons, kChangedType);
  EXPECT_THAT(p->detail, HasSubstr("type f32[4,8] -> bf16[4,8]"));
}

TEST(AlignTest, SwappingSidesSwapsTheResult) {
  Graph g = SmallNet(GraphKind::kIr, 3);
  testing::Mutated m = testing::Then(testing::InsertDeadNodes(g, 3, 1),
                                     testing::Reorder(testing::InsertDeadNodes(g, 3, 1).graph, 9));
  uint32_t relu = 0;
  while (m.graph.str(m.graph.nodes[relu].op) != "aten::relu") ++relu;
  m.graph.nodes[relu].op = m.graph.intern("aten::gelu");
  absl::StatusOr<Alignment> ab = Align(g, m.graph);
  absl::StatusOr<Alignment> ba = Align(m.graph, g);
  ASSERT_TRUE(ab.ok() && ba.ok());
  std::vector<std::pair<uint32_t, uint32_t>> swapped;
  for (const NodePair& p : ba->pairs) swapped.emplace_back(p.right, p.left);
  std::sort(swapped.begin(), swapped.end());
  EXPECT_EQ(PairList(*ab), swapped);
  EXPECT_EQ(ab->left_only, ba->right_only);
  EXPECT_EQ(ab->right_only, ba->left_only);
  EXPECT_EQ(ab->left_only_outputs, ba->right_only_outputs);
}

TEST(AlignTest, Deterministic) {
  Graph g = SmallNet(GraphKind::kIr, 3);
  testing::Mutated m = testing::Reorder(g, 42);
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  absl::StatusOr<Alignment> b = Align(g, m.graph);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->pairs.size(), b->pairs.size());
  for (size_t i = 0; i < a->pairs.size(); ++i) {
    EXPECT_EQ(a->pairs[i].left, b->pairs[i].left);
    EXPECT_EQ(a->pairs[i].right, b->pairs[i].right);
    EXPECT_EQ(a->pairs[i].matcher, b->pairs[i].matcher);
    EXPECT_EQ(a->pairs[i].detail, b->pairs[i].detail);
  }
}

TEST(AlignTest, RejectsGraphsOutOfTopologicalOrder) {
  GraphBuilder b;
  uint32_t x = b.Input("f32[8]");
  uint32_t y = b.Op("aten::exp", {x}, "f32[8]");
  Graph g = b.Build();
  g.nodes[y].operands[0].node = y;  // a self-loop
  absl::StatusOr<Alignment> a = Align(g, g);
  EXPECT_EQ(a.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(a.status().message()), HasSubstr("topological"));
}

TEST(AlignTest, EmptyGraphs) {
  Graph empty;
  Graph g = SmallNet();
  absl::StatusOr<Alignment> a = Align(empty, g);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(a->pairs.empty());
  EXPECT_EQ(a->right_only.size(), g.nodes.size());
  EXPECT_EQ(a->right_only_outputs.size(), 1u);
  EXPECT_TRUE(Align(empty, empty)->identical());
}

TEST(AlignTest, ChangeReasonNamesInBitOrder) {
  EXPECT_THAT(ChangeReasonNames(kChangedOp | kChangedType),
              ElementsAre("type", "op"));
  EXPECT_TRUE(ChangeReasonNames(0).empty());
}

// Module-level FX: `self.fc(flatten)` against aten-level `t` + `addmm`.
// An AOT-style forward takes the weights as inputs: the module graph's one
// input pairs with the input read as data (here between two weights, and
// with no types to tell them apart), never with a weight, whichever side it
// is given on; the weights stay right-only and the Linear's `t` and `addmm`
// are its decomposition.
TEST(AlignTest, LiftedParametersDoNotTakeTheDataInput) {
  GraphBuilder m(GraphKind::kFx, "module");
  uint32_t x = m.Input();
  uint32_t conv = m.Module("stem", {x});
  uint32_t relu = m.Module("act", {conv});
  uint32_t fc = m.Module("head", {relu});
  m.Output(fc);
  Graph left = m.Build();

  GraphBuilder a(GraphKind::kFx, "aot");
  uint32_t w = a.Input();
  uint32_t data = a.Input();
  uint32_t b = a.Input();
  uint32_t fw = a.Input();
  uint32_t fb = a.Input();
  uint32_t c = a.Op("aten::convolution", {data, w, b});
  uint32_t r = a.Op("aten::relu", {c});
  uint32_t t = a.Op("aten::t", {fw});
  uint32_t mm = a.Op("aten::addmm", {fb, r, t});
  a.Output(mm);
  a.Output(r);     // saved for backward
  a.Output(data);  // saved for backward
  Graph right = a.Build();

  for (bool swap : {false, true}) {
    absl::StatusOr<Alignment> al = swap ? Align(right, left) : Align(left, right);
    ASSERT_TRUE(al.ok());
    auto paired = [&](uint32_t l, uint32_t r) {
      for (const NodePair& q : al->pairs) {
        if (swap ? (q.right == l && q.left == r) : (q.left == l && q.right == r)) return true;
      }
      return false;
    };
    EXPECT_TRUE(paired(x, data)) << swap;
    EXPECT_TRUE(paired(conv, c)) << swap;
    EXPECT_TRUE(paired(relu, r)) << swap;
    EXPECT_TRUE(paired(fc, mm)) << swap;
    EXPECT_TRUE(paired(fc, t)) << swap;
    const std::vector<uint32_t>& only = swap ? al->left_only : al->right_only;
    EXPECT_THAT(only, ElementsAre(w, b, fw, fb)) << swap;
    // The model's output pairs with the first output; the saved ones are extra.
    EXPECT_THAT(al->matched_outputs, ElementsAre(std::make_pair(0u, 0u))) << swap;
  }
}

TEST(AlignTest, ModuleLevelAgainstAtenLevel) {
  GraphBuilder m(GraphKind::kFx, "module");
  uint32_t x = m.Input();
  uint32_t conv = m.Module("layer1.0.conv1", {x});
  uint32_t bn = m.Module("layer1.0.bn1", {conv});
  uint32_t relu = m.Module("layer1.0.relu", {bn});
  uint32_t conv2 = m.Module("layer1.0.conv2", {relu});
  uint32_t bn2 = m.Module("layer1.0.bn2", {conv2});
  uint32_t iadd = m.Op("aten::add_", {bn2, relu});
  uint32_t relu2 = m.Module("layer1.0.relu", {iadd});
  uint32_t pool = m.Module("avgpool", {relu2});
  uint32_t flat = m.Op("aten::flatten", {pool}, "", {{"arg1", "1"}});
  uint32_t fc = m.Module("fc", {flat});
  m.Output(fc);
  Graph left = m.Build();

  GraphBuilder a(GraphKind::kFx, "aten");
  std::vector<uint32_t> p;
  for (int i = 0; i < 14; ++i) p.push_back(a.Input());
  uint32_t t = a.Op("aten::t", {p[13]});
  uint32_t c1 = a.Op("aten::convolution", {p[0], p[1]}, "", {{"arg3", "[1, 1]"}});
  uint32_t b1 = a.Op("aten::_native_batch_norm_legit_no_training", {c1, p[2], p[3], p[4], p[5]});
  uint32_t r1 = a.OpRefs("aten::relu", {{b1, 0}});
  uint32_t c2 = a.Op("aten::convolution", {r1, p[6]}, "", {{"arg3", "[1, 1]"}});
  uint32_t b2 = a.Op("aten::_native_batch_norm_legit_no_training", {c2, p[7], p[8], p[9], p[10]});
  uint32_t add = a.OpRefs("aten::add", {{b2, 0}, {r1, 0}});
  uint32_t r2 = a.Op("aten::relu", {add});
  uint32_t mean = a.Op("aten::mean", {r2}, "", {{"arg1", "[-1, -2]"}});
  uint32_t view = a.Op("aten::view", {mean}, "", {{"arg1", "[4, 512]"}});
  uint32_t addmm = a.Op("aten::addmm", {p[12], view, t});
  a.Output(addmm);
  a.Output(r1);
  Graph right = a.Build();

  absl::StatusOr<Alignment> al = Align(left, right);
  ASSERT_TRUE(al.ok());
  auto paired = [&](uint32_t l, uint32_t r) {
    for (const NodePair& q : al->pairs) {
      if (q.left == l && q.right == r) return true;
    }
    return false;
  };
  EXPECT_TRUE(paired(x, p[0]));
  EXPECT_TRUE(paired(conv, c1));
  EXPECT_TRUE(paired(bn, b1));
  EXPECT_TRUE(paired(relu, r1));
  EXPECT_TRUE(paired(conv2, c2));
  EXPECT_TRUE(paired(bn2, b2));
  EXPECT_TRUE(paired(iadd, add));
  EXPECT_TRUE(paired(relu2, r2));
  EXPECT_TRUE(paired(pool, mean));
  EXPECT_TRUE(paired(flat, view));
  EXPECT_TRUE(paired(fc, addmm));
  EXPECT_TRUE(paired(fc, t));
  const NodePair* q = PairOf(*al, conv);
  EXPECT_THAT(q->detail, HasSubstr("module name evidence"));
  EXPECT_THAT(al->matched_outputs, ElementsAre(std::make_pair(0u, 0u)));
  EXPECT_THAT(al->right_only_outputs, ElementsAre(1u));
  for (const NodePair& r : al->pairs) {
    if (r.left == fc) {
      EXPECT_THAT(r.detail, HasSubstr("decomposition, 1 to 2"));
    }
  }
}

TEST(AlignModuleClassTest, NamesMapToOps) {
  using align::ModuleOpFromName;
  EXPECT_EQ(ModuleOpFromName("layer1.0.conv1"), "aten::convolution");
  EXPECT_EQ(ModuleOpFromName("getattr_L__self___layer1___0___bn2"), "aten::batch_norm");
  EXPECT_EQ(ModuleOpFromName("L__self___relu"), "aten::relu");
  EXPECT_EQ(ModuleOpFromName("L__self___maxpool"), "aten::max_pool2d");
  EXPECT_EQ(ModuleOpFromName("L__self___avgpool"), "aten::adaptive_avg_pool2d");
  EXPECT_EQ(ModuleOpFromName("module::L__self___fc"), "aten::linear");
  EXPECT_EQ(ModuleOpFromName("layer2.0.downsample.0"), "aten::convolution");
  EXPECT_EQ(ModuleOpFromName("getattr_L__self___layer2___0___downsample_1"),
            "aten::batch_norm");
  EXPECT_EQ(ModuleOpFromName("encoder.layers.3.self_attn.q_proj"), "aten::linear");
  EXPECT_EQ(ModuleOpFromName("blocks.2.dropout"), "aten::dropout");
  EXPECT_EQ(ModuleOpFromName("tok_embed"), "aten::embedding");
  EXPECT_EQ(ModuleOpFromName("mystery"), "");
  EXPECT_EQ(ModuleOpFromName("blocks.0"), "");
  // Numbered Sequential children: the container's name is not the module's.
  EXPECT_EQ(ModuleOpFromName("features.3.conv.0.1"), "");
  EXPECT_EQ(ModuleOpFromName("classifier.0"), "");
  EXPECT_EQ(ModuleOpFromName("getattr_L__self___features___3___conv___0___1"), "");
  // The op's own "module" prefix is no token of the name; a name that is
  // nothing else says nothing. Case and trailing punctuation do not matter.
  EXPECT_EQ(ModuleOpFromName("module::features.denseblock1.denselayer1.norm1"),
            "aten::batch_norm");
  EXPECT_EQ(ModuleOpFromName("module::layers"), "");
  EXPECT_EQ(ModuleOpFromName("modulelist"), "");
  EXPECT_EQ(ModuleOpFromName("Layer2.0.DownSample.1"), "aten::batch_norm");
  EXPECT_EQ(ModuleOpFromName("layer2.0.downsample.2"), "");
  EXPECT_EQ(ModuleOpFromName("encoder.FC2."), "aten::linear");
  EXPECT_EQ(ModuleOpFromName(""), "");
  EXPECT_EQ(ModuleOpFromName("._."), "");
}

// The matchers one at a time, on a shared State.
class AlignMatcherTest : public ::testing::Test {
 protected:
  void Start(const Graph& l, const Graph& r) {
    st_ = align::State();
    options_.equivalence = &eq_;
    ASSERT_TRUE(align::Normalizer().Run(l, r, options_, st_).ok());
  }
  size_t Matched() const {
    size_t n = 0;
    for (uint32_t m : st_.map[0]) n += m != align::kNone;
    return n;
  }
  AlignOptions options_;
  OpEquivalence eq_ = OpEquivalence::BuiltIn();
  align::State st_;
};

TEST_F(AlignMatcherTest, NormalizerClassesAndUsers) {
  GraphBuilder b(GraphKind::kFx);
  uint32_t x = b.Input();
  uint32_t c = b.Module("conv1", {x});
  uint32_t a = b.Op("aten::alias", {c});
  uint32_t r = b.Op("aten::relu_", {a});
  Graph g = b.Build();
  GraphBuilder b2(GraphKind::kFx);
  uint32_t y = b2.Input();
  uint32_t c2 = b2.Op("aten::convolution_overrideable", {y});
  uint32_t r2 = b2.Op("aten::relu", {c2});
  Graph h = b2.Build();
  Start(g, h);
  EXPECT_EQ(st_.side[0].cls[c], st_.side[1].cls[c2]);
  EXPECT_EQ(st_.side[0].cls[r], st_.side[1].cls[r2]);
  EXPECT_EQ(st_.side[0].cls[x], st_.side[1].cls[y]);
  // The relu reads the conv through the alias.
  ASSERT_EQ(st_.side[0].operands(r).size(), 1u);
  EXPECT_EQ(st_.side[0].operands(r)[0].node, c);
  EXPECT_EQ(st_.side[0].height[r], 2u);
  EXPECT_TRUE(st_.side[0].leaf[x]);
  EXPECT_FALSE(st_.side[0].leaf[c]);
}

// The anchor matcher against its definition, done the obvious way: in
// each pass (context, then bottom-up, then top-down fingerprints), a key
// held by exactly one free node on each side pairs them, tallest first,
// unless the operands already paired disagree.
TEST_F(AlignMatcherTest, AnchorsAreTheKeysHeldOnceOnEachSide) {
  size_t anchored = 0;
  for (uint64_t seed = 0; seed < 24; ++seed) {
    // Odd seeds: one more copy on the right, so keys held once on the left
    // are held twice there.
    const int copies = 1 + static_cast<int>(seed / 2 % 3);
    const Graph left = testing::RandomBlocks(seed, copies);
    testing::Mutated right =
        testing::Renumber(testing::RandomBlocks(seed, copies + static_cast<int>(seed % 2)), seed);
    if (seed % 4 == 2) right = testing::InsertDeadNodes(right.graph, 3, seed);
    Start(left, right.graph);
    const align::State before = st_;
    align::AnchorMatcher(align::Level::kFull).Run(st_);

    align::State want = before;
    align::Fingerprints fp[2] = {align::ComputeFingerprints(want, 0, align::Level::kFull),
                                 align::ComputeFingerprints(want, 1, align::Level::kFull)};
    for (auto keys : {&align::Fingerprints::context, &align::Fingerprints::bottom_up,
                      &align::Fingerprints::top_down}) {
      std::map<uint64_t, std::vector<uint32_t>> holders[2];
      for (int s = 0; s < 2; ++s) {
        for (uint32_t v = 0; v < want.side[s].size; ++v) {
          if (want.free(s, v)) holders[s][(fp[s].*keys)[v]].push_back(v);
        }
      }
      // (-height, SymKey, left > right) orders candidates, as documented.
      std::vector<std::tuple<int64_t, uint64_t, bool, uint32_t, uint32_t>> cands;
      for (const auto& [key, ls] : holders[0]) {
        auto it = holders[1].find(key);
        if (ls.size() != 1 || it == holders[1].end() || it->second.size() != 1) continue;
        const uint32_t l = ls[0], r = it->second[0];
        cands.emplace_back(-static_cast<int64_t>(std::max(want.side[0].height[l],
                                                          want.side[1].height[r])),
                           align::SymKey(l, r), l > r, l, r);
      }
      std::sort(cands.begin(), cands.end());
      for (const auto& [h, sym, bit, l, r] : cands) {
        int agree = 0, conflict = 0;
        auto lo = want.side[0].operands(l);
        auto ro = want.side[1].operands(r);
        for (size_t i = 0; i < lo.size() && i < ro.size(); ++i) {
          const uint32_t m = want.map[0][lo[i].node];
          if (m == align::kNone) continue;
          (m == ro[i].node && lo[i].output == ro[i].output ? agree : conflict) += 1;
        }
        if (conflict == 0 || agree > conflict) want.Match(l, r, align::MatcherId::kAnchor);
      }
    }
    EXPECT_EQ(st_.map[0], want.map[0]) << "seed " << seed;
    EXPECT_EQ(st_.map[1], want.map[1]) << "seed " << seed;
    anchored += Matched();
  }
  EXPECT_GT(anchored, 0u);
}

// Once pairs exist the anchors read fingerprints of free nodes only, worked
// out around them when few are left: they must be the full computation's.
TEST_F(AlignMatcherTest, RefreshedFingerprintsAreTheFullOnesOfFreeNodes) {
  for (uint64_t seed = 0; seed < 16; ++seed) {
    const Graph g = testing::RandomBlocks(seed, 8);
    const testing::Mutated m = testing::Renumber(g, seed);
    Start(g, m.graph);
    std::mt19937_64 rng(seed);
    // All but about one node in 24 paired on odd seeds (worked out around
    // the free ones), half on even ones (worked out for every node).
    const uint32_t keep_free = seed % 2 == 1 ? 24 : 2;
    size_t free = 0;
    for (uint32_t l = 0; l < st_.side[0].size; ++l) {
      if (rng() % keep_free != 0) {
        st_.Match(l, m.truth[l], align::MatcherId::kAnchor);
      } else {
        ++free;
      }
    }
    ASSERT_EQ(free * 8 < st_.side[0].size, seed % 2 == 1) << free;
    for (align::Level level :
         {align::Level::kFull, align::Level::kStructure, align::Level::kSkeleton}) {
      for (int s = 0; s < 2; ++s) {
        const align::Fingerprints full = align::ComputeFingerprints(st_, s, level);
        align::Fingerprints fresh;
        align::RefreshFingerprints(st_, s, level, &fresh);
        EXPECT_EQ(fresh.bottom_up, full.bottom_up);
        for (uint32_t v = 0; v < st_.side[s].size; ++v) {
          if (!st_.free(s, v)) continue;
          EXPECT_EQ(fresh.context[v], full.context[v]) << "seed " << seed << " node " << v;
          EXPECT_EQ(fresh.top_down[v], full.top_down[v]) << "seed " << seed << " node " << v;
        }
      }
    }
  }
}

TEST_F(AlignMatcherTest, AnchorsPairUniqueFingerprintsOnly) {
  GraphBuilder b;
  uint32_t x = b.Input("f32[8]");
  uint32_t e1 = b.Op("aten::exp", {x}, "f32[8]");
  uint32_t e2 = b.Op("aten::exp", {x}, "f32[8]");  // twin of e1, same users
  uint32_t s = b.Op("aten::add", {e1, e2}, "f32[8]");
  Graph g = b.Build();
  Start(g, g);
  align::AnchorMatcher(align::Level::kFull).Run(st_);
  EXPECT_EQ(st_.map[0][x], x);
  EXPECT_EQ(st_.map[0][s], s);
  // The twins differ by their operand position in the add.
  EXPECT_EQ(st_.map[0][e1], e1);
  EXPECT_EQ(st_.map[0][e2], e2);
  EXPECT_EQ(st_.how[0][s], align::MatcherId::kAnchor);
}

TEST_F(AlignMatcherTest, FingerprintsIgnoreOutputsAndPresentation) {
  GraphBuilder b;
  uint32_t x = b.Input("f32[8]");
  uint32_t e = b.Op("aten::exp", {x}, "f32[8]", {{"xla_shape", "f32[8]{0}"}});
  Graph g = b.Build();
  GraphBuilder b2;
  uint32_t y = b2.Input("f32[8]");
  uint32_t e2 = b2.Op("aten::exp", {y}, "f32[8]", {{"ROOT", "0"}});
  b2.Output(e2);
  Graph h = b2.Build();
  Start(g, h);
  align::Fingerprints f0 = align::ComputeFingerprints(st_, 0, align::Level::kFull);
  align::Fingerprints f1 = align::ComputeFingerprints(st_, 1, align::Level::kFull);
  EXPECT_EQ(f0.bottom_up[e], f1.bottom_up[e2]);
  EXPECT_EQ(f0.context[e], f1.context[e2]);
}

TEST_F(AlignMatcherTest, PropagationFollowsOperandsAndUserRoles) {
  // Anchoring only the root pair must pull in the whole chain.
  GraphBuilder b;
  uint32_t x = b.Input("f32[8]");
  uint32_t w = b.Input("f32[8]");
  uint32_t m = b.Op("aten::mul", {x, w}, "f32[8]");
  uint32_t e = b.Op("aten::exp", {m}, "f32[8]");
  uint32_t u = b.Op("aten::neg", {x}, "f32[8]");
  Graph g = b.Build();
  Start(g, g);
  st_.Match(m, m, align::MatcherId::kAnchor);
  align::PropagationMatcher().Run(st_);
  EXPECT_EQ(st_.map[0][x], x);
  EXPECT_EQ(st_.map[0][w], w);
  EXPECT_EQ(st_.map[0][e], e);
  EXPECT_EQ(st_.map[0][u], u);  // a user of x, by role
  EXPECT_EQ(st_.how[0][u], align::MatcherId::kPropagate);
}

TEST_F(AlignMatcherTest, SymmetryPairsIdenticalOutputsInOrder) {
  GraphBuilder b;
  std::vector<uint32_t> outs;
  for (int i = 0; i < 3; ++i) {
    uint32_t c = b.Constant("0");
    outs.push_back(b.Op("aten::expand", {c}, "f32[0]", {{"size", "(0)"}}));
  }
  for (uint32_t o : outs) b.Output(o);
  Graph g = b.Build();
  testing::Mutated m = testing::Reorder(g, 3);
  Start(g, m.graph);
  align::AnchorMatcher(align::Level::kFull).Run(st_);
  EXPECT_EQ(Matched(), 0u);  // all alike
  align::SymmetryMatcher().Run(st_);
  for (uint32_t v = 0; v < g.nodes.size(); ++v) EXPECT_EQ(st_.map[0][v], m.truth[v]);
  // The output positions made the choice; the constants followed.
  EXPECT_EQ(st_.how[0][outs[0]], align::MatcherId::kSymmetry);
  EXPECT_EQ(st_.how[0][g.nodes[outs[0]].operands[0].node], align::MatcherId::kRefine);
}

TEST_F(AlignMatcherTest, SimilarityScoresNeighbours) {
  // pow's attribute changed, so no full fingerprint matches, but its
  // matched neighbours agree.
  GraphBuilder b;
  uint32_t x = b.Input("f32[8]");
  uint32_t y = b.Input("f32[8]");
  uint32_t e = b.Op("aten::pow", {x, y}, "f32[8]", {{"k", "1"}});
  uint32_t n = b.Op("aten::neg", {e}, "f32[8]");
  Graph g = b.Build();
  testing::Mutated m = testing::ChangeAttribute(g, e, "k", "2");
  Start(g, m.graph);
  st_.Match(x, x, align::MatcherId::kAnchor);
  st_.Match(y, y, align::MatcherId::kAnchor);
  st_.Match(n, n, align::MatcherId::kAnchor);
  align::SimilarityMatcher().Run(st_);
  EXPECT_EQ(st_.map[0][e], e);
  EXPECT_EQ(st_.how[0][e], align::MatcherId::kSimilarity);
}

TEST_F(AlignMatcherTest, RelaxedFindsDecomposition) {
  GraphBuilder b(GraphKind::kFx);
  uint32_t x = b.Input();
  uint32_t lin = b.Module("proj", {x});
  uint32_t out = b.Op("aten::relu", {lin});
  Graph g = b.Build();
  GraphBuilder a(GraphKind::kFx);
  uint32_t y = a.Input();
  uint32_t w = a.Input();
  uint32_t bias = a.Input();
  uint32_t t = a.Op("aten::t", {w});
  uint32_t mm = a.Op("aten::addmm", {bias, y, t});
  uint32_t out2 = a.Op("aten::relu", {mm});
  Graph h = a.Build();
  Start(g, h);
  st_.Match(x, y, align::MatcherId::kAnchor);
  st_.Match(out, out2, align::MatcherId::kAnchor);
  align::RelaxedMatcher().Run(st_);
  EXPECT_EQ(st_.map[0][lin], mm);
  EXPECT_TRUE(st_.covered[1][t]);
  ASSERT_EQ(st_.extra.size(), 1u);
  EXPECT_EQ(st_.extra[0], std::make_pair(lin, t));
}

}  // namespace
}  // namespace graphdiff
