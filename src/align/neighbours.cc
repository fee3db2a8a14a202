// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/neighbours.h"

#include <algorithm>

namespace graphdiff::align {
namespace {

// Users of `v` as sorted node ids.
void UserIds(const SideView& s, uint32_t v, std::vector<uint32_t>* out) {
  out->clear();
  for (const Use& u : s.users(v)) out->push_back(u.user);
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

}  // namespace

Agreement CompareNeighbours(const State& st, uint32_t l, uint32_t r, bool by_position) {
  Agreement a;
  const SideView& L = st.side[0];
  const SideView& R = st.side[1];
  auto lo = L.operands(l);
  auto ro = R.operands(r);
  if (by_position) {
    for (size_t i = 0; i < std::max(lo.size(), ro.size()); ++i) {
      if (i >= lo.size() || i >= ro.size()) {
        const ValueRef& x = i < lo.size() ? lo[i] : ro[i];
        const SideView& s = i < lo.size() ? L : R;
        int side = i < lo.size() ? 0 : 1;
        if (!(s.leaf[x.node] && st.free(side, x.node))) ++a.disagree;
        continue;
      }
      uint32_t m = st.map[0][lo[i].node];
      if (m == kNone) {
        if (st.map[1][ro[i].node] != kNone) ++a.disagree;
        continue;
      }
      if (m == ro[i].node && lo[i].output == ro[i].output) {
        ++a.agree;
      } else {
        ++a.disagree;
      }
    }
  } else {
    for (const ValueRef& x : lo) {
      uint32_t m = st.map[0][x.node];
      if (m == kNone) continue;
      bool found = false;
      for (const ValueRef& y : ro) found |= (y.node == m && y.output == x.output);
      found ? ++a.agree : ++a.disagree;
    }
    for (const ValueRef& y : ro) {
      uint32_t m = st.map[1][y.node];
      if (m == kNone) continue;
      bool found = false;
      for (const ValueRef& x : lo) found |= (x.node == m && x.output == y.output);
      if (!found) ++a.disagree;
    }
  }
  // The same output position is evidence too (outputs are ordered); a
  // different one is not against, since extra outputs shift positions.
  // Only for same-class pairs: for relaxed pairs it would let one node of a
  // decomposition grab the output.
  if (by_position && L.out_pos[l] != kNone && L.out_pos[l] == R.out_pos[r]) ++a.agree;
  // Users, as sets.
  thread_local std::vector<uint32_t> lu, ru;
  UserIds(L, l, &lu);
  UserIds(R, r, &ru);
  for (uint32_t u : lu) {
    uint32_t m = st.map[0][u];
    if (m == kNone) continue;
    std::binary_search(ru.begin(), ru.end(), m) ? ++a.agree : ++a.disagree;
  }
  for (uint32_t u : ru) {
    uint32_t m = st.map[1][u];
    if (m == kNone) continue;
    if (!std::binary_search(lu.begin(), lu.end(), m)) ++a.disagree;
  }
  return a;
}

void NearbyCandidates(const State& st, int side, uint32_t v, bool same_class,
                      uint32_t limit, std::vector<uint32_t>* out) {
  out->clear();
  const int other = 1 - side;
  const SideView& s = st.side[side];
  const SideView& o = st.side[other];
  // Hubs (a constant read by thousands) would make this quadratic; a bounded
  // scan keeps the pass near-linear, in a deterministic order. Readers
  // already paired are passed over at a sixty-fourth of the cost: of a weight
  // that every copy of a block reads, the few free readers (the copies that
  // changed) sit anywhere in its list.
  const uint32_t scan = limit * 4;
  const uint32_t skip = scan * 64;
  auto consider = [&](uint32_t c) {
    if (!st.free(other, c)) return;
    if (same_class && o.cls[c] != s.cls[v]) return;
    if (!same_class && o.leaf[c] != s.leaf[v]) return;
    out->push_back(c);
  };
  for (const ValueRef& x : s.operands(v)) {
    uint32_t m = st.map[side][x.node];
    if (m == kNone) continue;
    uint32_t seen = 0, skipped = 0;
    for (const Use& u : o.users(m)) {
      if (!st.free(other, u.user)) {
        if (++skipped > skip) break;
        continue;
      }
      if (++seen > scan) break;
      if (u.output == x.output) consider(u.user);
    }
  }
  uint32_t seen_users = 0;
  for (const Use& u : s.users(v)) {
    if (++seen_users > scan) break;
    uint32_t m = st.map[side][u.user];
    if (m == kNone) continue;
    for (const ValueRef& y : o.operands(m)) consider(y.node);
  }
  const uint32_t pos = s.out_pos[v];
  if (same_class && pos != kNone && pos < o.graph->outputs.size()) consider(o.graph->outputs[pos].node);
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
  if (out->size() > limit) out->resize(limit);
}

}  // namespace graphdiff::align
