// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The alignment verifier: what every alignment must satisfy, checked from
// the graphs and the result alone, so a matcher's bug shows as a named
// violation instead of a wrong report.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "align/matchers.h"
#include "fmt/format.h"
#include "graphdiff/align.h"

namespace graphdiff {
namespace {

using align::State;

std::string Label(const Graph& g, uint32_t v) {
  return fmt::format("{} ({})", g.str(g.nodes[v].name), g.str(g.nodes[v].op));
}

uint64_t PairKey(uint32_t l, uint32_t r) { return (static_cast<uint64_t>(l) << 32) | r; }

absl::Status Violation(const std::string& what) {
  return absl::InternalError("inconsistent alignment: " + what);
}

absl::Status CheckCoverage(const Graph& g, const char* side, const std::vector<uint32_t>& in_pairs,
                           const std::vector<uint32_t>& only) {
  std::vector<uint8_t> listed(g.nodes.size(), 0);
  for (size_t i = 0; i < only.size(); ++i) {
    const uint32_t v = only[i];
    if (v >= g.nodes.size()) {
      return Violation(fmt::format("{}-only node {} is out of range", side, v));
    }
    if (i > 0 && only[i - 1] >= v) {
      return Violation(fmt::format("{}-only nodes are not ascending at {}", side, v));
    }
    listed[v] = 1;
  }
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    if (listed[v] && in_pairs[v] > 0) {
      return Violation(fmt::format("{} node {} is both paired and {}-only", side, Label(g, v), side));
    }
    if (!listed[v] && in_pairs[v] == 0) {
      return Violation(
          fmt::format("{} node {} is neither paired nor {}-only", side, Label(g, v), side));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckOutputs(const Graph& left, const Graph& right, const Alignment& a,
                          const absl::flat_hash_set<uint64_t>& pairs) {
  std::vector<uint8_t> seen[2] = {std::vector<uint8_t>(left.outputs.size(), 0),
                                  std::vector<uint8_t>(right.outputs.size(), 0)};
  auto mark = [&](int s, uint32_t pos) -> absl::Status {
    if (pos >= seen[s].size()) {
      return Violation(fmt::format("{} output position {} is out of range",
                                   s == 0 ? "left" : "right", pos));
    }
    if (seen[s][pos]++) {
      return Violation(fmt::format("{} output {} is listed twice", s == 0 ? "left" : "right", pos));
    }
    return absl::OkStatus();
  };
  for (const auto& [i, j] : a.matched_outputs) {
    if (absl::Status s = mark(0, i); !s.ok()) return s;
    if (absl::Status s = mark(1, j); !s.ok()) return s;
    const ValueRef& l = left.outputs[i];
    const ValueRef& r = right.outputs[j];
    if (l.output != r.output || !pairs.contains(PairKey(l.node, r.node))) {
      return Violation(fmt::format("outputs {} and {} are matched but {} and {} are not paired",
                                   i, j, Label(left, l.node), Label(right, r.node)));
    }
  }
  for (uint32_t i : a.left_only_outputs) {
    if (absl::Status s = mark(0, i); !s.ok()) return s;
  }
  for (uint32_t j : a.right_only_outputs) {
    if (absl::Status s = mark(1, j); !s.ok()) return s;
  }
  for (int s = 0; s < 2; ++s) {
    for (size_t p = 0; p < seen[s].size(); ++p) {
      if (!seen[s][p]) {
        return Violation(fmt::format("{} output {} is neither matched nor one-sided",
                                     s == 0 ? "left" : "right", p));
      }
    }
  }
  return absl::OkStatus();
}

// Operand i of an unchanged pair: the resolved operands pair, or (where an
// alias on one side became a real op) the operands as written do.
bool OperandAgrees(const State& st, const absl::flat_hash_set<uint64_t>& pairs, uint32_t l,
                   uint32_t r, size_t i) {
  auto lo = st.side[0].operands(l);
  auto ro = st.side[1].operands(r);
  if (lo[i].output == ro[i].output && pairs.contains(PairKey(lo[i].node, ro[i].node))) {
    return true;
  }
  const Node& ln = st.side[0].graph->nodes[l];
  const Node& rn = st.side[1].graph->nodes[r];
  return i < ln.operands.size() && i < rn.operands.size() &&
         ln.operands[i].output == rn.operands[i].output &&
         pairs.contains(PairKey(ln.operands[i].node, rn.operands[i].node));
}

}  // namespace

absl::Status VerifyAlignment(const Graph& left, const Graph& right, const Alignment& a,
                             const AlignOptions& options) {
  State st;
  if (absl::Status s = align::Normalizer().Run(left, right, options, st); !s.ok()) return s;
  std::vector<uint32_t> count[2] = {std::vector<uint32_t>(left.nodes.size(), 0),
                                    std::vector<uint32_t>(right.nodes.size(), 0)};
  absl::flat_hash_set<uint64_t> pairs;
  pairs.reserve(a.pairs.size());
  for (const NodePair& p : a.pairs) {
    if (p.left >= left.nodes.size() || p.right >= right.nodes.size()) {
      return Violation(fmt::format("pair ({}, {}) is out of range", p.left, p.right));
    }
    if (!pairs.insert(PairKey(p.left, p.right)).second) {
      return Violation(fmt::format("pair {} / {} is listed twice", Label(left, p.left),
                                   Label(right, p.right)));
    }
    ++count[0][p.left];
    ++count[1][p.right];
  }
  for (const NodePair& p : a.pairs) {
    if ((count[0][p.left] > 1 || count[1][p.right] > 1) && p.matcher != Matcher::kRelaxed) {
      return Violation(fmt::format(
          "{} / {} shares a node with another pair but was made by \"{}\", not by the "
          "one-to-many matcher",
          Label(left, p.left), Label(right, p.right), MatcherName(p.matcher)));
    }
  }
  if (absl::Status s = CheckCoverage(left, "left", count[0], a.left_only); !s.ok()) return s;
  if (absl::Status s = CheckCoverage(right, "right", count[1], a.right_only); !s.ok()) return s;
  for (const NodePair& p : a.pairs) {
    if (p.changed()) continue;
    if (left.str(left.nodes[p.left].op) != right.str(right.nodes[p.right].op)) {
      return Violation(fmt::format("{} / {} is unchanged but the ops differ",
                                   Label(left, p.left), Label(right, p.right)));
    }
    const size_t nl = st.side[0].operands(p.left).size();
    const size_t nr = st.side[1].operands(p.right).size();
    // Operands one side has beyond the other's are allowed only as unpaired
    // leaves: the parameters a module call keeps inside its module.
    for (int s = 0; s < 2; ++s) {
      auto ops = st.side[s].operands(s == 0 ? p.left : p.right);
      for (size_t i = std::min(nl, nr); i < ops.size(); ++i) {
        if (!st.side[s].leaf[ops[i].node] || count[s][ops[i].node] > 0) {
          return Violation(fmt::format("{} / {} is unchanged but has {} and {} operands",
                                       Label(left, p.left), Label(right, p.right), nl, nr));
        }
      }
    }
    for (size_t i = 0; i < std::min(nl, nr); ++i) {
      if (!OperandAgrees(st, pairs, p.left, p.right, i)) {
        return Violation(fmt::format(
            "{} / {} is unchanged but operand {} ({} / {}) is not paired",
            Label(left, p.left), Label(right, p.right), i,
            Label(left, st.side[0].operands(p.left)[i].node),
            Label(right, st.side[1].operands(p.right)[i].node)));
      }
    }
  }
  return CheckOutputs(left, right, a, pairs);
}

}  // namespace graphdiff
