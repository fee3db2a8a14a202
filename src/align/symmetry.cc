// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Symmetry: look-alikes that only their position tells apart (N identical
// parameter updates, replicated heads, parameters returned as outputs),
// resolved the way graph isomorphism solvers do it. Both graphs are coloured
// together by partition refinement, with the pairs made so far as fixed
// colours; then one pair among equal candidates is individualised at a time
// and refined again, so each choice propagates before the next one. The
// evidence for a choice, strongest first: the relative order of graph
// outputs, the order of graph inputs where a format makes it meaningful
// (FX placeholders, HLO parameter numbers), frames and names a format keeps
// stable (where held once on each side), and node order in the file only
// among nodes nothing else tells apart. A choice that splits a balanced
// cell unevenly is undone. Most of the choices are made at once
// beforehand, by a guess checked against the graphs (symmetry_guess.h);
// this is the path for what the check turns down.
#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "align/hash.h"
#include "align/matchers.h"
#include "align/partition.h"
#include "align/symmetry_guess.h"

namespace graphdiff::align {
namespace {

// Candidates tried for one node before it is left to later matchers.
constexpr int kTriesPerNode = 4;

class Symmetry {
 public:
  Symmetry(State& st, JointPartition& p) : st_(st), p_(p), n0_(st.side[0].size) {
    chosen_.assign(n0_, 0);
  }

  // Individualises the corresponding entries of both sides' output lists
  // (and input lists, where their order means something).
  void ByPositions(bool outputs) {
    for (const auto& [l, r] : AlignedPositions(st_, p_, outputs)) {
      const uint32_t c = p_.cell(l);
      if (p_.cell(r) != c || p_.size(c) == 2 || p_.fixed(c)) continue;
      Try(l, r);
    }
  }

  // Individualises the remaining balanced cells until none is left, then
  // the uneven ones (see Uneven), then the balanced ones that made, and so on.
  void Everything() {
    for (;;) {
      if (Round(/*uneven=*/false)) continue;
      if (!Round(/*uneven=*/true)) return;
    }
  }

  // Pairs every cell of one left and one right node.
  void Collect() {
    for (uint32_t c = 0; c < p_.num_cells(); ++c) {
      if (p_.fixed(c) || p_.left_count(c) != 1 || p_.right_count(c) != 1) continue;
      uint32_t l = *p_.begin(c), r = *(p_.begin(c) + 1);
      if (l > r) std::swap(l, r);
      r -= n0_;
      if (!st_.free(0, l) || !st_.free(1, r)) continue;
      st_.Match(l, r, chosen_[l] ? MatcherId::kSymmetry : MatcherId::kRefine);
    }
  }

 private:
  bool Balanced(uint32_t c) const {
    return !p_.fixed(c) && p_.left_count(c) >= 2 && p_.left_count(c) == p_.right_count(c);
  }

  // A cell of look-alikes with more of one side than the other: N identical
  // copies of a block on the left, N - k on the right beside k changed ones.
  // Which left look-alike a right one stands for, structure cannot tell
  // (refinement put them in one cell), and the matchers after this one see
  // no more than structure: left to them, one FX forward of 2,300 copies
  // took 99 s to diff, and whole copies went unpaired. So, as for balanced
  // cells, hints and then node order choose; min(left, right) pairs are
  // made, and the rest of the larger side goes on to later matchers.
  bool Uneven(uint32_t c) const {
    return !p_.fixed(c) && p_.left_count(c) >= 1 && p_.right_count(c) >= 1 &&
           p_.left_count(c) != p_.right_count(c);
  }

  // Pure aliases (`detach_copy`, unfolded projections) are never chosen:
  // readers see through them, so they have no users of their own here, and
  // look-alike aliases of one shared input (every copy's `detach_copy` of a
  // weight) would pair in node order across copies. Propagation pairs each
  // with its counterpart once its reader pairs, by the operand as written.
  bool Pairable(uint32_t c, bool uneven) const {
    if (AliasElement(st_, *p_.begin(c))) return false;
    return uneven ? Uneven(c) : Balanced(c);
  }

  // One pass over the cells that are Pairable(uneven) at its start, in a
  // side-symmetric order. True if a pair was made.
  bool Round(bool uneven) {
    std::vector<std::pair<uint64_t, uint32_t>> cells;
    for (uint32_t c = 0; c < p_.num_cells(); ++c) {
      if (!Pairable(c, uneven)) continue;
      uint32_t lo[2] = {kNone, kNone};
      for (const uint32_t* x = p_.begin(c); x != p_.end(c); ++x) {
        const int s = *x < n0_ ? 0 : 1;
        lo[s] = std::min(lo[s], *x - (s == 0 ? 0 : n0_));
      }
      // Side-symmetric order, so swapping the graphs mirrors the choices.
      cells.emplace_back(SymKey(lo[0], lo[1]), c);
    }
    std::sort(cells.begin(), cells.end());
    bool progress = false;
    for (const auto& [key, c] : cells) progress |= Resolve(c, uneven);
    return progress;
  }

  bool Try(uint32_t l, uint32_t r) {
    // Each failed choice costs a refinement and its undoing; past a budget
    // proportional to the graphs, what is left goes to later matchers.
    if (failures_ > failure_budget_) return false;
    if (!p_.Individualise(l, r)) {
      ++failures_;
      return false;
    }
    chosen_[l] = 1;
    return true;
  }

  // What a format keeps stable across runs and a tie can be broken by: the
  // model frame (kind 0) and the FX value name (kind 1). Empty when absent.
  std::string_view Hint(uint32_t element, int kind) const {
    const int s = element < n0_ ? 0 : 1;
    const Graph& g = *st_.side[s].graph;
    const Node& node = g.nodes[element - (s == 0 ? 0 : n0_)];
    if (kind == 0) return g.str(node.frame);
    return g.kind == GraphKind::kFx ? g.str(node.name) : std::string_view();
  }

  // Tries the pairs of cell c's members (`left`, `right`, in node order)
  // that share a hint of `kind` held once on each side, in left order. A
  // hint held more than once says nothing: a frame usually made a whole
  // cell (a loop over layers runs one line for every copy), and pairing
  // its first holders was node order by another name, which ignored the
  // names and shifted every copy after a changed one.
  bool ByHint(uint32_t c, bool uneven, int kind, const std::vector<uint32_t>& left,
              const std::vector<uint32_t>& right) {
    constexpr uint32_t kTwice = kNone - 1;
    absl::flat_hash_map<std::string_view, std::pair<uint32_t, uint32_t>> holders;
    for (int s = 0; s < 2; ++s) {
      for (uint32_t x : s == 0 ? left : right) {
        const std::string_view h = Hint(x, kind);
        if (h.empty()) continue;
        uint32_t& slot = s == 0 ? holders[h].first : holders[h].second;
        slot = slot == 0 ? x + 1 : kTwice;  // 0: none yet, x + 1: held once by x
      }
    }
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (const auto& [hint, at] : holders) {
      if (at.first != 0 && at.first != kTwice && at.second != 0 && at.second != kTwice) {
        pairs.emplace_back(at.first - 1, at.second - 1);
      }
    }
    std::sort(pairs.begin(), pairs.end());
    bool progress = false;
    for (const auto& [l, r] : pairs) {
      if (p_.cell(l) != c || p_.cell(r) != c || !Pairable(c, uneven)) continue;
      progress |= Try(l, r);
    }
    return progress;
  }

  // Individualises pairs of cell c, lowest node numbers first, until it is
  // resolved or nothing more can be chosen. True if a pair was made.
  bool Resolve(uint32_t c, bool uneven) {
    if (!Pairable(c, uneven)) return false;
    std::vector<uint32_t> left, right;
    for (const uint32_t* x = p_.begin(c); x != p_.end(c); ++x) {
      (*x < n0_ ? left : right).push_back(*x);
    }
    std::sort(left.begin(), left.end());
    std::sort(right.begin(), right.end());
    // Hints first, for every member: a node taken in order by an earlier
    // member would leave its own hint's holder unpaired, and in an uneven
    // cell each such slip shifts the pairs of every copy after it.
    bool progress = ByHint(c, uneven, /*kind=*/0, left, right);
    progress |= ByHint(c, uneven, /*kind=*/1, left, right);
    size_t next_right = 0;
    std::vector<uint32_t> candidates;
    for (uint32_t l : left) {
      if (p_.cell(l) != c || !Pairable(c, uneven)) continue;
      candidates.clear();
      while (next_right < right.size() && p_.cell(right[next_right]) != c) ++next_right;
      for (size_t k = next_right; k < right.size() && candidates.size() < kTriesPerNode; ++k) {
        if (p_.cell(right[k]) == c) candidates.push_back(right[k]);
      }
      for (uint32_t r : candidates) {
        if (Try(l, r)) {
          progress = true;
          break;
        }
      }
    }
    return progress;
  }

  State& st_;
  JointPartition& p_;
  uint32_t n0_;
  std::vector<uint8_t> chosen_;  // left nodes individualised by a choice
  uint64_t failures_ = 0;
  uint64_t failure_budget_ = 64 + (st_.side[0].size + st_.side[1].size) / 64;
};

}  // namespace

void SymmetryMatcher::Run(State& st) {
  const uint32_t n0 = st.side[0].size, n1 = st.side[1].size;
  if (n0 == 0 || n1 == 0) return;
  std::vector<uint64_t> key(n0 + n1);
  ForBothSides(st.parallel, [&](int s) {
    const SideView& v = st.side[s];
    const uint32_t off = s == 0 ? 0 : n0;
    // The full-level fingerprints (operands in order, users by position)
    // are what refinement would find itself, computed in two linear
    // passes: starting from them leaves it little to split.
    const std::vector<uint64_t>& context = st.full_fp[s].context;
    for (uint32_t x = 0; x < v.size; ++x) {
      if (!st.free(s, x)) continue;
      uint64_t k = LocalKey(st, s, x);
      if (context.size() == v.size) k = Combine(k, context[x]);
      key[off + x] = k;
    }
  });
  JointPartition p(st, key);
  p.Refine();
  // The starting keys are done with once the partition has them.
  GuessLookAlikes(st, p, key);
  Symmetry sym(st, p);
  sym.ByPositions(/*outputs=*/true);
  if (OrderedInputs(*st.side[0].graph) && OrderedInputs(*st.side[1].graph)) {
    sym.ByPositions(/*outputs=*/false);
  }
  sym.Everything();
  sym.Collect();
}

}  // namespace graphdiff::align
