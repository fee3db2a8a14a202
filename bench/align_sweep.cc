// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Alignment quality on look-alike copies, beyond what the test suite pins:
// real testdata graphs replicated 5 times (disjoint, or all copies reading
// the same inputs), the same change planted in 3 of the copies, then
// renumbered and reordered; aligned both ways round. Counts the cases not
// aligned exactly and prints each one with --detail.
//
//   align_sweep [--detail] [--pairs] [--source SUBSTRING] [--kind rewire|duplicate]
//
// --pairs also lists each wrong pair of a case not exact, with its matcher.
// Kinds: `rewire` makes an op read an earlier node of its operand's type (or
// op, when untyped) instead of that operand; `duplicate` clones an op's
// operand for that op alone (a missed common subexpression). A case is exact
// when every node pairs with its planted counterpart and nothing else is
// one-sided; two nodes that compute the same, one of them unused, may pair
// either way round (see Twins). Quality is reported, not
// asserted: the suite's tests (align_symmetry_test.cc) assert what is fixed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "graphdiff/align.h"
#include "graphdiff/dump.h"
#include "testing/graph_mutate.h"
#include "testing/symmetric.h"

namespace graphdiff {
namespace {

using testing::kAbsent;
using testing::Mutated;

Graph Load(const std::string& relative) {
  const std::string path = std::string(GRAPHDIFF_TESTDATA_DIR) + "/generated/" + relative;
  absl::StatusOr<Dump> dump = LoadDump(path);
  if (!dump.ok() || dump->files.empty() || dump->files[0].graphs.empty()) {
    std::fprintf(stderr, "align_sweep: cannot read %s\n", path.c_str());
    return Graph();
  }
  return std::move(dump->files[0].graphs[0]);
}

Mutated Shuffle(const Graph& g, uint64_t seed) {
  Mutated r = testing::Renumber(g, seed);
  return testing::Then(r, testing::Reorder(r.graph, seed * 7 + 1));
}

bool SameType(const TensorType& a, const TensorType& b) {
  return a.dtype == b.dtype && a.dims == b.dims;
}

// x and y compute the same (same op, operands and types) and one of them is
// unused: which of the two continues a node of the other side is a matter of
// convention (a weight whose readers moved to its twin; an op duplicated for
// its only reader, leaving the original unused).
bool Twins(const Graph& h, const std::vector<uint32_t>& uses, uint32_t x, uint32_t y) {
  const Node& a = h.nodes[x];
  const Node& b = h.nodes[y];
  if ((uses[x] != 0 && uses[y] != 0) || h.str(a.op) != h.str(b.op)) return false;
  if (a.operands.size() != b.operands.size() || a.num_results() != b.num_results()) return false;
  for (size_t i = 0; i < a.operands.size(); ++i) {
    if (a.operands[i].node != b.operands[i].node || a.operands[i].output != b.operands[i].output) {
      return false;
    }
  }
  for (uint32_t i = 0; i < a.num_results(); ++i) {
    if (!SameType(h.result(a, i), h.result(b, i))) return false;
  }
  return true;
}

// Empty when `a` (the original against m.graph) is exact; else what is wrong.
std::string Judge(const Alignment& a, const Mutated& m) {
  const std::vector<uint32_t> uses = CountUses(m.graph);
  size_t wrong = 0;
  for (const NodePair& p : a.pairs) {
    const uint32_t want = m.truth[p.left];
    if (want != p.right && (want == kAbsent || !Twins(m.graph, uses, p.right, want))) ++wrong;
  }
  std::string out;
  if (wrong > 0) out += std::to_string(wrong) + " mispaired";
  bool one_sided_ok = a.left_only.empty() && a.right_only.size() == m.added.size();
  for (uint32_t r : a.right_only) {
    bool found = false;
    for (uint32_t x : m.added) found = found || x == r || Twins(m.graph, uses, x, r);
    one_sided_ok = one_sided_ok && found;
  }
  if (!one_sided_ok) {
    if (!out.empty()) out += ", ";
    out += std::to_string(a.left_only.size()) + " left-only, " +
           std::to_string(a.right_only.size()) + " right-only (" +
           std::to_string(m.added.size()) + " added)";
  }
  return out;
}

// The node an op's operand 0 is rewired to: the nearest earlier node of the
// operand's type, else of its op; kAbsent when there is none.
uint32_t RewireSource(const Graph& block, uint32_t op) {
  const Node& n = block.nodes[op];
  const uint32_t cur = n.operands[0].node;
  const Node& c = block.nodes[cur];
  if (n.operands[0].output == 0 && c.num_results() > 0 && block.result(c, 0).dtype != DType::kUnknown) {
    for (uint32_t v = op; v-- > 0;) {
      if (v != cur && block.nodes[v].num_results() > 0 && SameType(block.result(block.nodes[v], 0), block.result(c, 0))) {
        return v;
      }
    }
  }
  for (uint32_t v = op; v-- > 0;) {
    if (v != cur && block.str(block.nodes[v].op) == block.str(c.op)) return v;
  }
  return kAbsent;
}

}  // namespace
}  // namespace graphdiff

int main(int argc, char** argv) {
  using namespace graphdiff;
  bool detail = false, pairs = false;
  std::string only_source, only_kind;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--detail") == 0) {
      detail = true;
    } else if (std::strcmp(argv[i], "--pairs") == 0) {
      detail = pairs = true;
    } else if (std::strcmp(argv[i], "--source") == 0 && i + 1 < argc) {
      only_source = argv[++i];
    } else if (std::strcmp(argv[i], "--kind") == 0 && i + 1 < argc) {
      only_kind = argv[++i];
    } else {
      std::fprintf(stderr, "usage: align_sweep [--detail] [--pairs] [--source SUBSTRING] [--kind rewire|duplicate]\n");
      return 2;
    }
  }
  const std::vector<std::string> sources = {
      "mlp/ir_eager.txt",           "mlp/fx_aot_forward.txt",
      "resnet18/ir_eager.txt",      "resnet18/fx_aot_forward.txt",
      "transformer_block/ir_aot_forward.txt", "transformer_block/fx_make_fx.txt",
      "multi_output/fx_aot_forward.txt",      "vgg11_bn/fx_symbolic_trace.txt",
      "squeezenet1_0/fx_symbolic_trace.txt"};
  const uint32_t copies = 5;
  size_t total = 0, wrong = 0;
  for (const char* kind : {"rewire", "duplicate"}) {
    if (!only_kind.empty() && only_kind != kind) continue;
    for (const std::string& src : sources) {
      if (!only_source.empty() && src.find(only_source) == std::string::npos) continue;
      const Graph block = Load(src);
      std::vector<uint32_t> ops;
      for (uint32_t v = 0; v < block.nodes.size(); ++v) {
        if (block.nodes[v].kind == NodeKind::kOp && !block.nodes[v].operands.empty()) ops.push_back(v);
      }
      if (ops.empty()) continue;
      size_t src_total = 0, src_wrong = 0;
      for (bool shared : {true, false}) {
        std::vector<std::vector<ValueRef>> maps;
        std::vector<uint32_t> offsets;
        const Graph g = shared ? testing::ShareInputs(block, copies, &maps)
                               : testing::Replicate(block, copies, &offsets);
        auto at = [&](uint32_t copy, uint32_t v) {
          return shared ? maps[copy][v].node : offsets[copy] + v;
        };
        for (size_t percent : {20, 35, 50, 65, 80, 100}) {
          const uint32_t op = ops[std::min(ops.size() - 1, ops.size() * percent / 100)];
          const uint32_t operand = block.nodes[op].operands[0].node;
          const bool rewire = std::strcmp(kind, "rewire") == 0;
          const uint32_t source = rewire ? RewireSource(block, op) : kAbsent;
          if (rewire && source == kAbsent) continue;
          if (!rewire && block.nodes[operand].kind != NodeKind::kOp) continue;
          Mutated planted = testing::Identity(g);
          for (uint32_t copy : {1u, copies / 2, copies - 2}) {
            const uint32_t node = planted.truth[at(copy, op)];
            planted = testing::Then(
                planted, rewire ? testing::RewireOperand(planted.graph, node, 0,
                                                         planted.truth[at(copy, source)])
                                : testing::DuplicateNode(planted.graph,
                                                         planted.truth[at(copy, operand)], node));
          }
          for (uint64_t seed : {13u, 29u}) {
            const Mutated m = testing::Then(planted, Shuffle(planted.graph, seed));
            absl::StatusOr<Alignment> forward = Align(g, m.graph);
            absl::StatusOr<Alignment> backward = Align(m.graph, g);
            if (!forward.ok() || !backward.ok()) {
              std::fprintf(stderr, "align_sweep: %s: alignment failed\n", src.c_str());
              return 1;
            }
            std::string why = Judge(*forward, m);
            if (why.empty() && (backward->left_only != forward->right_only ||
                                backward->right_only != forward->left_only)) {
              why = "not the same both ways round";
            }
            ++total;
            ++src_total;
            if (!why.empty()) {
              ++wrong;
              ++src_wrong;
              if (detail) {
                std::printf("  %s %s, %s, op %u (%s) at %zu%%, seed %llu: %s\n", kind, src.c_str(),
                            shared ? "sharing inputs" : "disjoint", op,
                            std::string(block.str(block.nodes[op].op)).c_str(), percent,
                            static_cast<unsigned long long>(seed), why.c_str());
              }
              if (pairs) {
                std::vector<uint32_t> inv(m.graph.nodes.size(), kAbsent);
                for (uint32_t x = 0; x < m.truth.size(); ++x) {
                  if (m.truth[x] != kAbsent) inv[m.truth[x]] = x;
                }
                for (const NodePair& p : forward->pairs) {
                  if (m.truth[p.left] == p.right) continue;
                  const std::string whose =
                      inv[p.right] == kAbsent ? "an added node" : "left " + std::to_string(inv[p.right]) + "'s copy";
                  std::printf("    left %u (%s) paired with right %u, %s (%s), by %s\n", p.left,
                              std::string(g.str(g.nodes[p.left].op)).c_str(), p.right, whose.c_str(),
                              std::string(m.graph.str(m.graph.nodes[p.right].op)).c_str(),
                              std::string(MatcherName(p.matcher)).c_str());
                }
              }
            }
          }
        }
      }
      std::printf("%-9s %-40s %3zu of %3zu not exact\n", kind, src.c_str(), src_wrong, src_total);
    }
  }
  std::printf("all: %zu of %zu not exact\n", wrong, total);
  return 0;
}
