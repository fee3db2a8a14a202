// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The alignment pipeline: the matchers in their fixed order, then outputs and
// verdicts.
#include "graphdiff/align.h"

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "align/identical.h"
#include "align/matchers.h"
#include "align/sequence.h"
#include "align/state.h"
#include "align/verdict.h"

namespace graphdiff {
namespace {

using align::kNone;
using align::State;

void MatchOutputs(const Graph& left, const Graph& right, const State& st,
                  Alignment& out) {
  // Right output positions sorted by value, so each left output finds the
  // first unused right position holding its counterpart's value.
  struct Pos {
    uint32_t node, output, pos;
  };
  std::vector<Pos> rpos;
  for (uint32_t i = 0; i < right.outputs.size(); ++i) {
    rpos.push_back({right.outputs[i].node, right.outputs[i].output, i});
  }
  std::sort(rpos.begin(), rpos.end(), [](const Pos& a, const Pos& b) {
    return std::tie(a.node, a.output, a.pos) < std::tie(b.node, b.output, b.pos);
  });
  std::vector<uint8_t> used(right.outputs.size(), 0);
  // A value returned at several positions: positions pair in relative order
  // first, so an output inserted on one side shifts nothing.
  std::vector<uint64_t> a(left.outputs.size()), b(right.outputs.size());
  auto key = [](uint32_t node, uint32_t output) {
    return (static_cast<uint64_t>(node) << 32) | output;
  };
  for (uint32_t i = 0; i < left.outputs.size(); ++i) {
    const uint32_t m = st.map[0][left.outputs[i].node];
    a[i] = m == kNone ? ~uint64_t{i} : key(m, left.outputs[i].output);
  }
  for (uint32_t j = 0; j < right.outputs.size(); ++j) {
    b[j] = key(right.outputs[j].node, right.outputs[j].output);
  }
  std::vector<uint8_t> paired(left.outputs.size(), 0);
  for (const auto& [i, j] : align::AlignSequences(a, b)) {
    used[j] = paired[i] = 1;
    out.matched_outputs.emplace_back(i, j);
  }
  for (uint32_t i = 0; i < left.outputs.size(); ++i) {
    if (paired[i]) continue;
    const ValueRef& v = left.outputs[i];
    uint32_t m = st.map[0][v.node];
    bool found = false;
    if (m != kNone) {
      auto it = std::lower_bound(rpos.begin(), rpos.end(), Pos{m, v.output, 0},
                                 [](const Pos& a, const Pos& b) {
                                   return std::tie(a.node, a.output, a.pos) <
                                          std::tie(b.node, b.output, b.pos);
                                 });
      for (; it != rpos.end() && it->node == m && it->output == v.output; ++it) {
        if (!used[it->pos]) {
          used[it->pos] = 1;
          out.matched_outputs.emplace_back(i, it->pos);
          found = true;
          break;
        }
      }
    }
    if (!found) out.left_only_outputs.push_back(i);
  }
  std::sort(out.matched_outputs.begin(), out.matched_outputs.end());
  for (uint32_t j = 0; j < right.outputs.size(); ++j) {
    if (!used[j]) out.right_only_outputs.push_back(j);
  }
}

void BuildPairs(const State& st, Alignment& out) {
  const uint32_t nl = st.side[0].size, nr = st.side[1].size;
  std::vector<std::pair<uint32_t, uint32_t>> all;
  all.reserve(nl + st.extra.size());
  for (uint32_t l = 0; l < nl; ++l) {
    if (st.map[0][l] != kNone) all.emplace_back(l, st.map[0][l]);
  }
  if (!st.extra.empty()) {
    all.insert(all.end(), st.extra.begin(), st.extra.end());
    std::sort(all.begin(), all.end());
  }
  // Group sizes, for one-to-many pairs: a left node's partners are a run of
  // `all`; a right node's are gathered in CSR form (flat arrays, since a
  // million-node graph must not cost a million small vectors).
  std::vector<uint32_t> left_count(nl, 0), right_begin(nr + 1, 0);
  for (const auto& [l, r] : all) {
    ++left_count[l];
    ++right_begin[r + 1];
  }
  for (uint32_t r = 0; r < nr; ++r) right_begin[r + 1] += right_begin[r];
  std::vector<uint32_t> right_members(all.size());
  {
    std::vector<uint32_t> fill(right_begin.begin(), right_begin.end() - 1);
    for (const auto& [l, r] : all) right_members[fill[r]++] = l;  // ascending l
  }
  // Each verdict reads both nodes of its pair, one of them far from the
  // last: on big graphs the halves run on both sides' threads.
  out.pairs.resize(all.size());
  align::ForBothSides(st.parallel, [&](int half) {
    const size_t begin = half == 0 ? 0 : all.size() / 2;
    const size_t end = half == 0 ? all.size() / 2 : all.size();
    std::vector<uint32_t> gl(1), gr(1);
    for (size_t i = begin; i < end; ++i) {
      const auto [l, r] = all[i];
      NodePair& p = out.pairs[i];
      p.left = l;
      p.right = r;
      // Extra members of a one-to-many group come from the relaxed matcher.
      p.matcher = static_cast<Matcher>(st.map[0][l] == r ? st.how[0][l]
                                                         : align::MatcherId::kRelaxed);
      // A group: one side's node with all the other side's nodes it pairs with.
      if (right_begin[r + 1] - right_begin[r] > 1) {
        gl.assign(right_members.begin() + right_begin[r],
                  right_members.begin() + right_begin[r + 1]);
      } else {
        gl.assign(1, l);
      }
      if (left_count[l] > 1) {
        size_t first = i;
        while (first > 0 && all[first - 1].first == l) --first;
        gr.clear();
        for (size_t k = first; k < all.size() && all[k].first == l; ++k) {
          gr.push_back(all[k].second);
        }
      } else {
        gr.assign(1, r);
      }
      align::ComputeVerdict(st, gl, gr, p);
    }
  });
  for (uint32_t l = 0; l < nl; ++l) {
    if (left_count[l] == 0) out.left_only.push_back(l);
  }
  for (uint32_t r = 0; r < nr; ++r) {
    if (right_begin[r + 1] == right_begin[r]) out.right_only.push_back(r);
  }
}

}  // namespace

std::vector<std::string> ChangeReasonNames(uint32_t reasons) {
  std::vector<std::string> out;
  if (reasons & kChangedType) out.emplace_back("type");
  if (reasons & kChangedAttributes) out.emplace_back("attributes");
  if (reasons & kChangedOperands) out.emplace_back("operands");
  if (reasons & kChangedOp) out.emplace_back("op");
  return out;
}

bool Alignment::identical() const {
  if (!left_only.empty() || !right_only.empty() || !left_only_outputs.empty() ||
      !right_only_outputs.empty()) {
    return false;
  }
  for (const NodePair& p : pairs) {
    if (p.changed()) return false;
  }
  for (const auto& [l, r] : matched_outputs) {
    if (l != r) return false;  // the same values, returned in another order
  }
  return true;
}

absl::StatusOr<Alignment> Align(const Graph& left, const Graph& right,
                                const AlignOptions& options) {
  if (!align::EqualNodeForNode(left, right)) return align::AlignByMatchers(left, right, options);
  // Equal graphs: one check stands for both.
  if (absl::Status s = align::CheckAlignable(left); !s.ok()) return s;
  Alignment out = align::NodeForNode(left);
  if (options.verify) {
    if (absl::Status v = VerifyAlignment(left, right, out, options); !v.ok()) return v;
  }
  return out;
}

absl::StatusOr<Alignment> align::AlignByMatchers(const Graph& left, const Graph& right,
                                                 const AlignOptions& options) {
  State st;
  absl::Status status = align::Normalizer().Run(left, right, options, st);
  if (!status.ok()) return status;

  // The fixed order: exact evidence first, then what it vouches for, then
  // progressively weaker evidence for what is left.
  // Propagation only follows exact local agreement until every anchor level
  // and the positions have run; then it may guess by op class.
  align::PropagationMatcher exact(/*exact_only=*/true), propagate;
  align::AnchorMatcher(align::Level::kFull).Run(st);
  exact.Run(st);
  align::HubMatcher().Run(st);
  exact.Run(st);
  align::PositionMatcher::RunSignature(st);
  exact.Run(st);
  align::SymmetryMatcher().Run(st);
  exact.Run(st);
  align::AnchorMatcher(align::Level::kStructure).Run(st);
  exact.Run(st);
  align::AnchorMatcher(align::Level::kSkeleton).Run(st);
  exact.Run(st);
  // Positions come after every kind of structural evidence and before any
  // guess: what they pair is exactly what structure could not tell.
  align::PositionMatcher().Run(st);
  exact.Run(st);
  // Module calls against their decompositions, from what is paired so far
  // and before any guess by op class could pair a module with a look-alike.
  align::ModuleChainMatcher().Run(st);
  exact.Run(st);
  propagate.Run(st);
  // Certain pairs before guesses: candidates without a rival, then
  // substitutions without one, each followed by propagation; only then are
  // ties among look-alikes broken. Three changed copies of a block over
  // shared inputs tie at every node until a changed op pairs by its
  // surroundings, and a tie broken first pairs one copy's nodes with
  // another's.
  align::SimilarityMatcher(/*certain_only=*/true).Run(st);
  propagate.Run(st);
  if (options.relaxed) {
    align::PositionMatcher::RunGaps(st);
    propagate.Run(st);
    align::RelaxedMatcher::RunCertainSubstitutions(st);
  }
  align::SimilarityMatcher().Run(st);
  propagate.Run(st);
  // Different ops with matched surroundings pair before any leftovers are
  // paired as twins: a substituted op's operands then follow it by position
  // instead of being guessed.
  if (options.relaxed) align::RelaxedMatcher().Run(st);
  align::TwinMatcher(/*aliases=*/false).Run(st);
  propagate.Run(st);
  align::TwinMatcher(/*aliases=*/true).Run(st);
  propagate.Run(st);

  Alignment out;
  BuildPairs(st, out);
  MatchOutputs(left, right, st, out);
  if (options.verify) {
    if (absl::Status v = VerifyAlignment(left, right, out, options); !v.ok()) return v;
  }
  return out;
}

}  // namespace graphdiff
