// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Propagation: a matched pair vouches for its neighbours. Operands pair by
// position, users by role (op class, operand position, output read).
#include <algorithm>
#include <deque>
#include <utility>
#include <vector>

#include "align/matchers.h"
#include "align/roles.h"
#include "util/prefetch.h"

namespace graphdiff::align {
namespace {

void FreeUsers(const State& st, int s, uint32_t v, std::vector<Role>* out) {
  out->clear();
  const SideView& view = st.side[s];
  const std::vector<uint64_t>& fp = st.fp[s].bottom_up;
  const absl::Span<const Use> users = view.users(v);
  // A hub's users lie all over the graph, each a cache miss in two arrays:
  // the reads of the users ahead are started while this one is read.
  constexpr size_t kAhead = 8;
  for (size_t i = 0; i < users.size(); ++i) {
    if (i + kAhead < users.size() && st.free(s, users[i + kAhead].user)) {
      const uint32_t ahead = users[i + kAhead].user;
      PrefetchForRead(&view.cls[ahead]);
      if (!fp.empty()) PrefetchForRead(&fp[ahead]);
    }
    const Use& u = users[i];
    if (!st.free(s, u.user)) continue;
    out->push_back({view.cls[u.user], u.pos, u.output,
                    fp.empty() ? 0 : fp[u.user], u.user});
  }
  SortRoles(out);
  // A node reading v twice is one user.
  out->erase(std::unique(out->begin(), out->end(),
                         [](const Role& a, const Role& b) { return a.node == b.node; }),
             out->end());
}

bool HasFreeNeighbour(const State& st, int s, uint32_t v) {
  const SideView& view = st.side[s];
  for (const ValueRef& r : view.operands(v)) {
    if (st.free(s, r.node)) return true;
  }
  for (const ValueRef& r : view.graph->nodes[v].operands) {
    if (st.free(s, r.node)) return true;
  }
  for (const Use& u : view.users(v)) {
    if (st.free(s, u.user)) return true;
  }
  return false;
}

// Pairs to look at for seeds past which two threads look at them.
constexpr size_t kParallelSeeds = 1 << 16;

// Pairs with fewer users than this are visited again rather than
// remembered as quiet.
constexpr size_t kQuietUsers = 16;

// How many users of l and of r are free. A visit that paired nothing can
// pair something later only if this drops. What it reads of operands
// (resolved, as written, and the one above a node inserted on one side)
// pairs them whenever they are all free, so such a visit found one of them
// taken, and taken nodes stay taken; among users, one taken can leave
// another alone in its role.
uint32_t FreeUsersAround(const State& st, uint32_t l, uint32_t r) {
  uint32_t n = 0;
  for (const Use& u : st.side[0].users(l)) n += st.free(0, u.user);
  for (const Use& u : st.side[1].users(r)) n += st.free(1, u.user);
  return n;
}

}  // namespace

void PropagationMatcher::Run(State& st) {
  if (!st.AnyFree(0) || !st.AnyFree(1)) return;
  std::deque<std::pair<uint32_t, uint32_t>> work;
  {
    // Only pairs with a free neighbour on both sides can vouch for
    // anything; after the first run that is a thin fringe, so later runs
    // stay proportional to what is left. Neighbours only ever stop being
    // free, so today's seeds are among the last run's and the new pairs.
    // Looking is a few cache misses a pair; after the symmetry matcher has
    // paired a million look-alikes, the two halves of the list are looked
    // at on two threads. The sort gives the seeds their order either way.
    const size_t fringe = st.fringe.size();
    const size_t total = fringe + (st.paired.size() - st.fringe_paired);
    std::vector<std::pair<uint64_t, uint32_t>> seeds, more;
    auto consider = [&](size_t begin, size_t end, std::vector<std::pair<uint64_t, uint32_t>>& out) {
      for (size_t k = begin; k < end; ++k) {
        const uint32_t l = k < fringe ? st.fringe[k] : st.paired[st.fringe_paired + k - fringe];
        const uint32_t r = st.map[0][l];
        if (HasFreeNeighbour(st, 0, l) && HasFreeNeighbour(st, 1, r)) {
          out.push_back({SymKey(l, r), l});
        }
      }
    };
    ForBothSides(st.parallel && total >= kParallelSeeds, [&](int half) {
      if (half == 0) {
        consider(0, total / 2, seeds);
      } else {
        consider(total / 2, total, more);
      }
    });
    seeds.insert(seeds.end(), more.begin(), more.end());
    st.fringe_paired = st.paired.size();
    std::sort(seeds.begin(), seeds.end());
    st.fringe.clear();
    for (const auto& [key, l] : seeds) {
      st.fringe.push_back(l);
      work.emplace_back(l, st.map[0][l]);
    }
  }
  std::vector<Role> lu, ru;
  // A pair whose own type and attributes also agree is taken at once; one
  // that only shares the op class waits until the exact evidence has run
  // dry. Near a change (a rewired operand between two look-alike `view`s),
  // the positional guess would otherwise steal the node that the exact
  // chain from the other side reaches a moment later.
  const SideView& L = st.side[0];
  const SideView& R = st.side[1];
  auto exact = [&](uint32_t a, uint32_t b) {
    return (!st.use_types || L.type_hash[a] == R.type_hash[b]) &&
           (!st.same_kind || L.attr_hash[a] == R.attr_hash[b]);
  };
  std::deque<std::pair<uint32_t, uint32_t>> pending;
  auto match = [&](uint32_t l, uint32_t r) {
    if (!st.free(0, l) || !st.free(1, r)) return;
    if (!exact(l, r)) {
      pending.emplace_back(l, r);
      return;
    }
    st.Match(l, r, MatcherId::kPropagate);
    work.emplace_back(l, r);
  };
  // One visit of a pair: its operands by position, then its users by role.
  auto visit = [&](uint32_t l, uint32_t r) {
    auto lo = st.side[0].operands(l);
    auto ro = st.side[1].operands(r);
    for (size_t i = 0; i < lo.size() && i < ro.size(); ++i) {
      uint32_t a = lo[i].node, b = ro[i].node;
      if (lo[i].output != ro[i].output || !st.free(0, a) || !st.free(1, b)) continue;
      if (st.side[0].cls[a] != st.side[1].cls[b]) {
        // A node inserted on one side between the pair and its operand (a
        // `convert_element_type` before a `bmm`): the operand is one step
        // further up, and the inserted node stays one-sided.
        for (int s = 0; s < 2; ++s) {
          const SideView& in = st.side[s];
          const uint32_t x = s == 0 ? a : b, y = s == 0 ? b : a;
          if (in.operands(x).size() != 1 || in.users(x).size() != 1) continue;
          const uint32_t up = in.operands(x)[0].node;
          if (!st.free(s, up) || in.cls[up] != st.side[1 - s].cls[y]) continue;
          if (s == 0) {
            match(up, b);
          } else {
            match(a, up);
          }
          break;
        }
        continue;
      }
      match(a, b);
    }
    // The operands as written, too: readers see through pure aliases, so an
    // alias whose own source changed (a rewired `detach`) has no other route
    // to its counterpart.
    const Node& ln = st.side[0].graph->nodes[l];
    const Node& rn = st.side[1].graph->nodes[r];
    // When one of the two written operands is an alias and the other is
    // not, they still sit in the same place: an alias replaced by a real op
    // (or the reverse) is a substitution. Only as a late guess, since the
    // classes differ.
    for (size_t i = 0; i < ln.operands.size() && i < rn.operands.size(); ++i) {
      uint32_t a = ln.operands[i].node, b = rn.operands[i].node;
      if (ln.operands[i].output != rn.operands[i].output || !st.free(0, a) ||
          !st.free(1, b)) {
        continue;
      }
      if (st.side[0].cls[a] == st.side[1].cls[b]) {
        match(a, b);
      } else if (st.side[0].alias[a] != st.side[1].alias[b]) {
        pending.emplace_back(a, b);
      }
    }
    FreeUsers(st, 0, l, &lu);
    if (lu.empty()) return;
    FreeUsers(st, 1, r, &ru);
    // Walk both sorted lists role by role.
    size_t i = 0, j = 0;
    while (i < lu.size() && j < ru.size()) {
      if (!lu[i].SameRole(ru[j])) {
        if (lu[i] < ru[j]) {
          ++i;
        } else {
          ++j;
        }
        continue;
      }
      size_t ie = i, je = j;
      while (ie < lu.size() && lu[ie].SameRole(lu[i])) ++ie;
      while (je < ru.size() && ru[je].SameRole(ru[j])) ++je;
      if (ie - i == 1 && je - j == 1) {
        match(lu[i].node, ru[j].node);
      } else {
        // Several users in one role: those with a fingerprint unique on
        // both sides still pair.
        size_t a = i, b = j;
        while (a < ie && b < je) {
          if (lu[a].fp != ru[b].fp) {
            if (lu[a].fp < ru[b].fp) {
              ++a;
            } else {
              ++b;
            }
            continue;
          }
          size_t ae = a, be = b;
          while (ae < ie && lu[ae].fp == lu[a].fp) ++ae;
          while (be < je && ru[be].fp == ru[b].fp) ++be;
          if (ae - a == 1 && be - b == 1 && st.free(0, lu[a].node) &&
              st.free(1, ru[b].node)) {
            match(lu[a].node, ru[b].node);
          }
          a = ae;
          b = be;
        }
      }
      i = ie;
      j = je;
    }
  };
  for (;;) {
    if (work.empty()) {
      // One deferred guess at a time, so what it vouches for goes first.
      // Before the anchors and positions have all had their say, no
      // guesses at all: they may still reach these nodes exactly.
      while (!exact_only_ && !pending.empty() && work.empty()) {
        auto [a, b] = pending.front();
        pending.pop_front();
        if (!st.free(0, a) || !st.free(1, b)) continue;
        st.Match(a, b, MatcherId::kPropagate);
        work.emplace_back(a, b);
      }
      if (work.empty()) break;
    }
    auto [l, r] = work.front();
    work.pop_front();
    if (auto q = st.quiet.find(l); q != st.quiet.end()) {
      if (q->second.fp_generation == st.fp_generation &&
          q->second.free_users == FreeUsersAround(st, l, r)) {
        continue;
      }
      st.quiet.erase(q);
    }
    const size_t paired_before = st.paired.size(), pending_before = pending.size();
    visit(l, r);
    // Remembered only where a visit costs more than counting its users
    // again: pairs with many users (sorted by role on each visit).
    if (st.paired.size() == paired_before && pending.size() == pending_before &&
        st.side[0].users(l).size() + st.side[1].users(r).size() >= kQuietUsers) {
      st.quiet[l] = {FreeUsersAround(st, l, r), st.fp_generation};
    }
  }
}

}  // namespace graphdiff::align
