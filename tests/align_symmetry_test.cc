// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Alignment where structure alone cannot tell nodes apart: real graphs from
// testdata/generated replicated as disjoint components, chained, turned into
// N identical parameter updates, or returning their parameters, each against
// its renumbered, reordered (and, for FX, renamed) copy. Every copy must be
// identical; a change planted in one replica must be found exactly, on that
// replica, and nothing else, both ways round.
#include <algorithm>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "graphdiff/align.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "testing/expect_alignment.h"
#include "testing/graph_builder.h"
#include "testing/graph_mutate.h"
#include "testing/symmetric.h"

namespace graphdiff {
namespace {

Graph Load(const std::string& relative) {
  const std::string path = std::string(GRAPHDIFF_TESTDATA_DIR) + "/generated/" + relative;
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  absl::StatusOr<ParsedText> parsed = ParseText(ss.str(), path);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok() || parsed->graphs.empty()) return Graph();
  return std::move(parsed->graphs[0]);
}

// Real graphs of both kinds, eager and AOT, small enough to replicate.
const std::vector<std::string>& Sources() {
  static const auto* s = new std::vector<std::string>{
      "mlp/ir_eager.txt",          "mlp/fx_aot_forward.txt",
      "resnet18/ir_eager.txt",     "resnet18/fx_aot_forward.txt",
      "transformer_block/ir_aot_forward.txt", "transformer_block/fx_make_fx.txt",
      "multi_output/fx_aot_forward.txt",
  };
  return *s;
}

testing::Mutated Shuffle(const Graph& g, uint64_t seed) {
  testing::Mutated r = testing::Renumber(g, seed);
  return testing::Then(r, testing::Reorder(r.graph, seed * 7 + 1));
}

void ExpectIdentical(const Graph& g, uint64_t seed, const std::string& what) {
  testing::Mutated m = Shuffle(g, seed);
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  ASSERT_TRUE(a.ok()) << what << ": " << a.status();
  EXPECT_TRUE(a->identical()) << what;
  testing::ExpectExactly(g, *a, m, what);
  absl::StatusOr<Alignment> b = Align(m.graph, g);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b->identical()) << what << " (swapped)";
  EXPECT_TRUE(VerifyAlignment(m.graph, g, *b).ok()) << what << ": "
                                                   << VerifyAlignment(m.graph, g, *b);
}

TEST(AlignSymmetryTest, ReplicatedComponentsAreIdentical) {
  for (const std::string& src : Sources()) {
    Graph g = Load(src);
    ASSERT_FALSE(g.nodes.empty()) << src;
    for (uint32_t n : {2u, 8u, 32u}) {
      ExpectIdentical(testing::Replicate(g, n), n, src + " x" + std::to_string(n));
    }
  }
}

TEST(AlignSymmetryTest, ChainedBlocksAreIdentical) {
  for (const std::string& src : Sources()) {
    Graph g = Load(src);
    ExpectIdentical(testing::Chain(g, 6), 3, src + " chained");
  }
}

TEST(AlignSymmetryTest, IdenticalParameterUpdatesAreIdentical) {
  for (const std::string& src : Sources()) {
    Graph step = testing::OptimizerStep(Load(src));
    ASSERT_FALSE(step.nodes.empty()) << src;
    ExpectIdentical(step, 5, src + " optimizer step");
    ExpectIdentical(testing::Replicate(step, 4), 6, src + " optimizer steps x4");
  }
}

TEST(AlignSymmetryTest, ParametersReturnedAsOutputsAreIdentical) {
  for (const std::string& src : Sources()) {
    Graph g = Load(src);
    ExpectIdentical(testing::ReturnInputs(g), 7, src + " returning inputs");
    ExpectIdentical(testing::ReturnInputs(testing::Replicate(g, 3)), 8,
                    src + " x3 returning inputs");
  }
}

// An op node of copy `copy` with at least one operand, spread by `k`.
uint32_t OpIn(const Graph& block, const std::vector<uint32_t>& offsets, uint32_t copy,
              uint32_t k) {
  std::vector<uint32_t> ops;
  for (uint32_t v = 0; v < block.nodes.size(); ++v) {
    if (block.nodes[v].kind == NodeKind::kOp && !block.nodes[v].operands.empty()) {
      ops.push_back(v);
    }
  }
  if (ops.empty()) return testing::kAbsent;
  return offsets[copy] + ops[(ops.size() * (2 * k + 1)) / (2 * (k + 2)) % ops.size()];
}

TEST(AlignSymmetryTest, ChangeInOneReplicaIsLocalised) {
  for (const std::string& src : Sources()) {
    Graph block = Load(src);
    const uint32_t copies = 32, target = 17;
    std::vector<uint32_t> offsets;
    Graph g = testing::Replicate(block, copies, &offsets);
    std::vector<std::pair<std::string, testing::Mutated>> cases;
    const uint32_t sub = OpIn(block, offsets, target, 1);
    ASSERT_NE(sub, testing::kAbsent) << src;
    cases.emplace_back("op renamed", testing::SubstituteOp(g, sub, "aten::planted_op"));
    cases.emplace_back("attribute",
                       testing::ChangeAttribute(g, OpIn(block, offsets, target, 0), "planted", "1"));
    cases.emplace_back("dead node", testing::AddDeadNode(g, OpIn(block, offsets, target, 2)));
    const uint32_t first_out = target * static_cast<uint32_t>(block.outputs.size());
    cases.emplace_back("output added",
                       testing::AddOutput(g, {OpIn(block, offsets, target, 3), 0}, first_out));
    // Rewire an operand of one node of the replica to an earlier op of the
    // same replica that it does not read yet.
    const uint32_t reader = OpIn(block, offsets, target, 2);
    for (uint32_t s = reader; s-- > offsets[target];) {
      const Node& rn = g.nodes[reader];
      if (g.nodes[s].kind != NodeKind::kOp || g.nodes[s].num_outputs() != 1) continue;
      bool reads = false;
      for (const ValueRef& r : rn.operands) reads |= r.node == s;
      if (reads) continue;
      cases.emplace_back("rewired", testing::RewireOperand(g, reader, 0, s));
      // The same op of another replica: two replicas change at once, and
      // the operand the reader no longer reads may be left with no user.
      cases.emplace_back("rewired across replicas",
                         testing::RewireOperand(g, reader, 0, offsets[3] + (s - offsets[target])));
      break;
    }
    for (auto& [what, planted] : cases) {
      const std::string label = src + " x32, " + what + " in copy 17";
      testing::Mutated m = testing::Then(planted, Shuffle(planted.graph, 11));
      absl::StatusOr<Alignment> a = Align(g, m.graph);
      ASSERT_TRUE(a.ok()) << label << ": " << a.status();
      EXPECT_FALSE(a->identical()) << label;
      testing::ExpectExactly(g, *a, m, label);
      EXPECT_EQ(a->right_only_outputs, m.added_outputs) << label;
      EXPECT_TRUE(a->left_only_outputs.empty()) << label;
      // Both ways round: what was added is now removed.
      absl::StatusOr<Alignment> b = Align(m.graph, g);
      ASSERT_TRUE(b.ok());
      EXPECT_TRUE(VerifyAlignment(m.graph, g, *b).ok()) << label;
      EXPECT_EQ(b->left_only, a->right_only) << label;
      EXPECT_EQ(b->right_only, a->left_only) << label;
      EXPECT_EQ(b->left_only_outputs, a->right_only_outputs) << label;
      size_t changed_a = 0, changed_b = 0;
      for (const NodePair& p : a->pairs) changed_a += p.changed();
      for (const NodePair& p : b->pairs) changed_b += p.changed();
      EXPECT_EQ(changed_a, changed_b) << label;
    }
  }
}

// Three copies of a block changed alike (an op substituted, an attribute
// changed, an unused reader added), the copies either reading one set
// of inputs (weights shared by unrolled steps) or disjoint. Over shared
// inputs, every input is read by a changed copy, so no input looks like its
// counterpart to structure, and the changed copies are look-alikes of each
// other that only their place (their outputs' positions, the far end of a
// chain of module calls) tells apart. Each changed copy must pair with its
// own left copy, one op changed, nothing left over, both ways round.
TEST(AlignSymmetryTest, ChangedCopiesAreLocalised) {
  std::vector<std::string> sources = Sources();
  // Module-level chains: the copies differ only sixty calls away.
  sources.push_back("vgg11_bn/fx_symbolic_trace.txt");
  sources.push_back("squeezenet1_0/fx_symbolic_trace.txt");
  for (const std::string& src : sources) {
    Graph block = Load(src);
    std::vector<uint32_t> ops;
    for (uint32_t v = 0; v < block.nodes.size(); ++v) {
      if (block.nodes[v].kind == NodeKind::kOp && !block.nodes[v].operands.empty()) ops.push_back(v);
    }
    ASSERT_FALSE(ops.empty()) << src;
    for (bool shared : {true, false}) {
      // 5 copies: the changed ones are neighbours, so are their outputs.
      for (uint32_t copies : {5u, 24u}) {
        std::vector<std::vector<ValueRef>> maps;
        std::vector<uint32_t> offsets;
        Graph g = shared ? testing::ShareInputs(block, copies, &maps)
                         : testing::Replicate(block, copies, &offsets);
        auto at = [&](uint32_t copy, uint32_t v) {
          return shared ? maps[copy][v].node : offsets[copy] + v;
        };
        // Early, middle and late in the block, and the last op, often the
        // one returned: the changed op's distance to the copy's outputs and
        // to its look-alike branches varies with it.
        for (size_t percent : {20, 50, 65, 80, 100}) {
          const uint32_t op = ops[std::min(ops.size() - 1, ops.size() * percent / 100)];
          // The op substituted, an attribute changed, or an unused reader
          // added: the changed copies alike in each.
          for (const char* kind : {"substituted", "attribute", "dead reader"}) {
            testing::Mutated planted = testing::Identity(g);
            for (uint32_t copy : {1u, copies / 2, copies - 2}) {
              const uint32_t node = planted.truth[at(copy, op)];
              const std::string_view k = kind;
              planted = testing::Then(
                  planted,
                  k == "substituted" ? testing::SubstituteOp(planted.graph, node, "aten::planted_op")
                  : k == "attribute" ? testing::ChangeAttribute(planted.graph, node, "planted", "7")
                                     : testing::AddDeadNode(planted.graph, node));
            }
            const std::string label = src + (shared ? " sharing inputs" : " disjoint") + " x" +
                                      std::to_string(copies) + ", 3 copies " + kind + " at " +
                                      std::to_string(percent) + "%";
            testing::Mutated m = testing::Then(planted, Shuffle(planted.graph, 13));
            absl::StatusOr<Alignment> a = Align(g, m.graph);
            ASSERT_TRUE(a.ok()) << label << ": " << a.status();
            testing::ExpectExactly(g, *a, m, label);
            size_t changed = 0;
            for (const NodePair& p : a->pairs) changed += p.changed();
            EXPECT_EQ(changed, m.changed.size()) << label;
            // Both ways round: the same pairs, mirrored.
            absl::StatusOr<Alignment> b = Align(m.graph, g);
            ASSERT_TRUE(b.ok()) << label << ": " << b.status();
            EXPECT_EQ(b->left_only, a->right_only) << label << " (swapped)";
            EXPECT_EQ(b->right_only, a->left_only) << label << " (swapped)";
            std::vector<std::pair<uint32_t, uint32_t>> forward, mirrored;
            for (const NodePair& p : a->pairs) forward.emplace_back(p.left, p.right);
            for (const NodePair& p : b->pairs) mirrored.emplace_back(p.right, p.left);
            std::sort(mirrored.begin(), mirrored.end());
            EXPECT_EQ(forward, mirrored) << label << " (swapped)";
          }
        }
      }
    }
  }
}

// Two nodes of `h` that no reader or output could tell apart: the same op,
// operands and result types, and both unused.
bool DeadTwins(const Graph& h, const std::vector<uint32_t>& uses, uint32_t x, uint32_t y) {
  const Node& a = h.nodes[x];
  const Node& b = h.nodes[y];
  if (uses[x] != 0 || uses[y] != 0 || h.str(a.op) != h.str(b.op)) return false;
  if (a.operands.size() != b.operands.size() || a.num_results() != b.num_results()) return false;
  for (size_t i = 0; i < a.operands.size(); ++i) {
    if (a.operands[i].node != b.operands[i].node || a.operands[i].output != b.operands[i].output) {
      return false;
    }
  }
  for (uint32_t i = 0; i < a.num_results(); ++i) {
    if (h.result(a, i).dtype != h.result(b, i).dtype || h.result(a, i).dims != h.result(b, i).dims) return false;
  }
  return true;
}

// A weight whose one reader is rewired to read something else, in 3 of 5
// copies: the weight is still there, unused. Its three unused copies are
// interchangeable, so which pairs with which is free, but each must pair:
// unpaired, they read as weights removed and others added.
TEST(AlignSymmetryTest, WeightsLeftUnusedByARewireStillPair) {
  size_t planted_cases = 0;
  for (const std::string& src : Sources()) {
    Graph block = Load(src);
    const std::vector<uint32_t> uses = CountUses(block);
    // A leaf of a type no other leaf has, read once, as operand 0; and an
    // earlier node of its dtype to read instead.
    uint32_t reader = testing::kAbsent, source = testing::kAbsent;
    for (uint32_t v = 0; v < block.nodes.size() && reader == testing::kAbsent; ++v) {
      const Node& n = block.nodes[v];
      if (n.operands.empty() || n.operands[0].output != 0) continue;
      const uint32_t w = n.operands[0].node;
      if (block.nodes[w].kind == NodeKind::kOp || uses[w] != 1 || block.nodes[w].num_results() != 1) {
        continue;
      }
      const TensorType& t = block.result(block.nodes[w], 0);
      if (t.dtype == DType::kUnknown) continue;
      bool unique = true;
      for (uint32_t u = 0; u < block.nodes.size() && unique; ++u) {
        unique = u == w || block.nodes[u].kind == NodeKind::kOp ||
                 block.nodes[u].num_results() != 1 || block.result(block.nodes[u], 0).dtype != t.dtype ||
                 block.result(block.nodes[u], 0).dims != t.dims;
      }
      if (!unique) continue;
      for (uint32_t u = v; u-- > 0;) {
        if (u != w && block.nodes[u].num_results() == 1 && block.result(block.nodes[u], 0).dtype == t.dtype) {
          reader = v;
          source = u;
          break;
        }
      }
    }
    if (reader == testing::kAbsent) continue;
    for (bool shared : {true, false}) {
      std::vector<std::vector<ValueRef>> maps;
      std::vector<uint32_t> offsets;
      Graph g = shared ? testing::ShareInputs(block, 5, &maps) : testing::Replicate(block, 5, &offsets);
      auto at = [&](uint32_t copy, uint32_t v) { return shared ? maps[copy][v].node : offsets[copy] + v; };
      testing::Mutated planted = testing::Identity(g);
      for (uint32_t copy : {1u, 2u, 3u}) {
        planted = testing::Then(planted, testing::RewireOperand(planted.graph, planted.truth[at(copy, reader)],
                                                                0, planted.truth[at(copy, source)]));
      }
      ++planted_cases;
      for (uint64_t seed : {13u, 29u}) {
        const std::string label = src + (shared ? " sharing inputs" : " disjoint") + ", seed " +
                                  std::to_string(seed);
        testing::Mutated m = testing::Then(planted, Shuffle(planted.graph, seed));
        const std::vector<uint32_t> right_uses = CountUses(m.graph);
        absl::StatusOr<Alignment> a = Align(g, m.graph);
        ASSERT_TRUE(a.ok()) << label << ": " << a.status();
        EXPECT_TRUE(a->left_only.empty()) << label;
        EXPECT_EQ(a->right_only, m.added) << label;
        for (const NodePair& p : a->pairs) {
          const uint32_t want = m.truth[p.left];
          EXPECT_TRUE(want == p.right || (want != testing::kAbsent && DeadTwins(m.graph, right_uses, p.right, want)))
              << label << ": left node " << p.left << " (" << g.str(g.nodes[p.left].op) << ") paired with "
              << p.right << ", not " << want;
        }
        absl::StatusOr<Alignment> b = Align(m.graph, g);
        ASSERT_TRUE(b.ok()) << label << ": " << b.status();
        EXPECT_EQ(b->left_only, a->right_only) << label << " (swapped)";
        EXPECT_EQ(b->right_only, a->left_only) << label << " (swapped)";
      }
    }
  }
  // The IR sources have such weights (ResNet-18's last bias, the MLP's).
  EXPECT_GE(planted_cases, 2u);
}

TEST(AlignSymmetryTest, Deterministic) {
  Graph g = testing::Replicate(Load("resnet18/ir_eager.txt"), 8);
  testing::Mutated m = Shuffle(testing::SubstituteOp(g, 500, "aten::planted_op").graph, 3);
  absl::StatusOr<Alignment> a = Align(g, m.graph);
  absl::StatusOr<Alignment> b = Align(g, m.graph);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->pairs.size(), b->pairs.size());
  for (size_t i = 0; i < a->pairs.size(); ++i) {
    EXPECT_EQ(a->pairs[i].left, b->pairs[i].left);
    EXPECT_EQ(a->pairs[i].right, b->pairs[i].right);
    EXPECT_EQ(a->pairs[i].matcher, b->pairs[i].matcher);
  }
}

// Dead copies of a three-node chain over one input, each node named
// `<letter><copy>`; `neg_name(k)` names copy k's neg, and copy `changed`
// (if any) has a sigmoid for its relu. Every node has one frame, or with
// `frame_per_copy` copy k's are `model.py:<k>`.
Graph NamedCopies(int copies, const std::function<int(int)>& neg_name, int changed = -1,
                  bool frame_per_copy = false) {
  testing::GraphBuilder b(GraphKind::kFx);
  const uint32_t x = b.Input("f32[8]");
  b.Name(x, "x");
  for (int k = 0; k < copies; ++k) {
    const uint32_t e = b.Op("aten::exp", {x}, "f32[8]");
    const uint32_t n = b.Op("aten::neg", {e}, "f32[8]");
    const uint32_t r = b.Op(k == changed ? "aten::sigmoid" : "aten::relu", {n}, "f32[8]");
    b.Name(e, "e" + std::to_string(k));
    b.Name(n, "n" + std::to_string(neg_name(k)));
    b.Name(r, "r" + std::to_string(k));
    // One line of the model made every copy, as a loop over layers does.
    const std::string frame = "model.py:" + std::to_string(frame_per_copy ? k : 7);
    for (uint32_t v : {e, n, r}) b.graph().nodes[v].frame = b.graph().intern(frame);
  }
  const uint32_t out = b.Op("aten::sum", {x}, "f32[]");
  b.Name(out, "out");
  b.Output(out);
  return b.Build();
}

std::string NameOf(const Graph& g, uint32_t v) { return std::string(g.str(g.nodes[v].name)); }

// Names that disagree with structure (the first three copies' negs named
// round by one on the right): the symmetry matcher's all-at-once guess by
// name fails its check there, and those copies must still pair exactly, by
// name where structure allows, the rest at once.
TEST(AlignSymmetryTest, NamesThatContradictStructureStillPairExactly) {
  const Graph g = NamedCopies(8, [](int k) { return k; });
  const Graph h = NamedCopies(8, [](int k) { return k < 3 ? (k + 1) % 3 : k; });
  for (bool swap : {false, true}) {
    const Graph& l = swap ? h : g;
    const Graph& r = swap ? g : h;
    absl::StatusOr<Alignment> a = Align(l, r);
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_TRUE(a->identical());
    EXPECT_TRUE(VerifyAlignment(l, r, *a).ok()) << VerifyAlignment(l, r, *a);
    for (const NodePair& p : a->pairs) {
      const std::string ln = NameOf(l, p.left), rn = NameOf(r, p.right);
      if (ln[0] != 'n') {
        EXPECT_EQ(ln, rn) << (swap ? "swapped" : "");
      }
    }
  }
}

// A changed copy among look-alikes named alike on both sides: the other
// copies pair by name, not shifted by one past the changed copy.
TEST(AlignSymmetryTest, ChangedCopyLeavesTheOthersPairedByName) {
  const Graph g = NamedCopies(10, [](int k) { return k; });
  const Graph h = NamedCopies(10, [](int k) { return k; }, /*changed=*/4);
  for (bool swap : {false, true}) {
    const Graph& l = swap ? h : g;
    const Graph& r = swap ? g : h;
    absl::StatusOr<Alignment> a = Align(l, r);
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_TRUE(VerifyAlignment(l, r, *a).ok()) << VerifyAlignment(l, r, *a);
    EXPECT_GE(a->pairs.size(), 10u * 3 - 1);
    for (const NodePair& p : a->pairs) {
      EXPECT_EQ(NameOf(l, p.left), NameOf(r, p.right)) << (swap ? "swapped" : "");
    }
  }
}

// A frame held once on each side outranks a name: copies made by lines of
// their own pair by line, whatever the names say.
TEST(AlignSymmetryTest, FramesOutrankNames) {
  const int copies = 6;
  const Graph g = NamedCopies(copies, [](int k) { return k; }, -1, /*frame_per_copy=*/true);
  // The same copies, their frames the other way round.
  Graph h = NamedCopies(copies, [](int k) { return k; }, -1, /*frame_per_copy=*/true);
  for (Node& node : h.nodes) {
    const std::string frame(h.str(node.frame));
    if (frame.empty()) continue;
    const int k = std::stoi(frame.substr(frame.find(':') + 1));
    node.frame = h.intern("model.py:" + std::to_string(copies - 1 - k));
  }
  absl::StatusOr<Alignment> a = Align(g, h);
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_TRUE(a->identical());
  for (const NodePair& p : a->pairs) {
    EXPECT_EQ(g.str(g.nodes[p.left].frame), h.str(h.nodes[p.right].frame)) << NameOf(g, p.left);
  }
}

TEST(AlignVerifyTest, CatchesInconsistentAlignments) {
  Graph g = Load("mlp/ir_eager.txt");
  absl::StatusOr<Alignment> a = Align(g, g);
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(VerifyAlignment(g, g, *a).ok());
  // Two unchanged pairs with their partners swapped: their readers' operands
  // no longer pair up.
  Alignment swapped = *a;
  uint32_t x = testing::kAbsent, y = testing::kAbsent;
  for (size_t i = 0; i < swapped.pairs.size() && y == testing::kAbsent; ++i) {
    const Node& n = g.nodes[swapped.pairs[i].left];
    if (n.kind != NodeKind::kOp) continue;
    (x == testing::kAbsent ? x : y) = static_cast<uint32_t>(i);
  }
  ASSERT_NE(y, testing::kAbsent);
  std::swap(swapped.pairs[x].right, swapped.pairs[y].right);
  EXPECT_FALSE(VerifyAlignment(g, g, swapped).ok());
  // A node both paired and one-sided.
  Alignment twice = *a;
  twice.left_only.push_back(twice.pairs.back().left);
  EXPECT_FALSE(VerifyAlignment(g, g, twice).ok());
  // An output matched to a position whose node is not its pair.
  if (g.outputs.size() >= 2) {
    Alignment outs = *a;
    std::swap(outs.matched_outputs[0].second, outs.matched_outputs[1].second);
    EXPECT_EQ(VerifyAlignment(g, g, outs).ok(), g.outputs[0] == g.outputs[1]);
  }
  // A node missing from both lists.
  Alignment missing = *a;
  missing.pairs.pop_back();
  EXPECT_FALSE(VerifyAlignment(g, g, missing).ok());
}

}  // namespace
}  // namespace graphdiff
