// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Fingerprints: a bottom-up Merkle hash (what a node computes from what) and
// a top-down context (who uses it, at which operand position), so identical
// leaves such as a hundred f32[64] parameters are told apart by their users.
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "align/hash.h"
#include "align/matchers.h"

namespace graphdiff::align {
namespace {

constexpr uint64_t kMatchedSeed = 0x6d617463686564ULL;
constexpr uint64_t kLiftedSeed = 0x6c6966746564ULL;
constexpr uint64_t kTopDownSeed = 0x746f70ULL;

}  // namespace

uint64_t LocalKey(const State& state, int side, uint32_t v) {
  const SideView& s = state.side[side];
  uint64_t key = Combine(s.cls[v], s.leaf[v] * 2 + s.module[v] + s.lifted[v] * 4);
  if (state.same_kind) key = Combine(key, s.attr_hash[v]);
  if (state.use_types) key = Combine(key, s.type_hash[v]);
  return key;
}

namespace {

// The bottom-up Merkle fingerprint of every node of one side, into `out`.
void BottomUp(const State& state, int side, Level level, std::vector<uint64_t>* out) {
  const SideView& s = state.side[side];
  const uint32_t n = s.size;
  std::vector<uint64_t>& bottom_up = *out;
  bottom_up.resize(n);
  const bool attrs = level == Level::kFull && state.same_kind;
  const bool types = level == Level::kFull && state.use_types;
  for (uint32_t v = 0; v < n; ++v) {
    // A matched node is known: its identity is its pair, named the same way
    // on both sides (by the left index), which pins down free neighbours.
    uint32_t pair = state.map[side][v];
    if (pair != kNone) {
      bottom_up[v] = Combine(kMatchedSeed, side == 0 ? v : pair);
      continue;
    }
    uint64_t h = s.cls[v];
    // A lifted parameter is never the data input it looks like.
    if (s.lifted[v]) h = Combine(h, kLiftedSeed);
    if (attrs) h = Combine(h, s.attr_hash[v]);
    if (types) h = Combine(h, s.type_hash[v]);
    for (const ValueRef& r : s.operands(v)) {
      if (level == Level::kSkeleton && s.leaf[r.node]) continue;
      h = Combine(h, Combine(bottom_up[r.node], r.output));
    }
    bottom_up[v] = h;
  }
}

// The users of v, each by its key (key(user)) and how it reads v; sums
// keep it independent of user order.
template <typename Key>
uint64_t UsersSum(const SideView& s, uint32_t v, Key key) {
  uint64_t c = 0;
  for (const Use& u : s.users(v)) c += Combine(Combine(key(u.user), u.pos), u.output);
  return c;
}

// Node v's two top-down keys, from the sum over its users of their first
// round of context.
void SetContext(const SideView& s, uint32_t v, uint64_t users, Fingerprints* fp) {
  fp->context[v] = Combine(fp->bottom_up[v], users);
  fp->top_down[v] = Combine(Combine(s.cls[v], kTopDownSeed), users);
}

}  // namespace

std::vector<uint64_t> BottomUpFingerprints(const State& state, int side, Level level) {
  std::vector<uint64_t> out;
  BottomUp(state, side, level, &out);
  return out;
}

Fingerprints ComputeFingerprints(const State& state, int side, Level level) {
  const SideView& s = state.side[side];
  const uint32_t n = s.size;
  Fingerprints fp;
  BottomUp(state, side, level, &fp.bottom_up);
  fp.context.resize(n);
  fp.top_down.resize(n);
  // Two rounds of user context.
  const std::vector<uint64_t>& bottom_up = fp.bottom_up;
  std::vector<uint64_t> round1(n);
  for (uint32_t v = 0; v < n; ++v) {
    round1[v] = Combine(bottom_up[v], UsersSum(s, v, [&](uint32_t u) { return bottom_up[u]; }));
  }
  for (uint32_t v = 0; v < n; ++v) {
    SetContext(s, v, UsersSum(s, v, [&](uint32_t u) { return round1[u]; }), &fp);
  }
  return fp;
}

void RefreshFingerprints(const State& state, int side, Level level, Fingerprints* fp) {
  const SideView& s = state.side[side];
  const uint32_t n = s.size;
  std::vector<uint32_t> free_nodes;
  for (uint32_t v = 0; v < n; ++v) {
    if (state.free(side, v)) free_nodes.push_back(v);
  }
  // Most nodes free: every node's keys, as ComputeFingerprints.
  if (free_nodes.size() * 8 >= n) {
    *fp = ComputeFingerprints(state, side, level);
    return;
  }
  BottomUp(state, side, level, &fp->bottom_up);
  fp->context.assign(n, 0);
  fp->top_down.assign(n, 0);
  // The first round only where a free node's second round reads it: at
  // its users.
  const std::vector<uint64_t>& bottom_up = fp->bottom_up;
  absl::flat_hash_map<uint32_t, uint64_t> round1;
  for (uint32_t v : free_nodes) {
    for (const Use& u : s.users(v)) {
      auto [it, added] = round1.try_emplace(u.user, 0);
      if (added) {
        it->second = Combine(bottom_up[u.user],
                             UsersSum(s, u.user, [&](uint32_t w) { return bottom_up[w]; }));
      }
    }
  }
  for (uint32_t v : free_nodes) {
    SetContext(s, v, UsersSum(s, v, [&](uint32_t u) { return round1.at(u); }), fp);
  }
}

}  // namespace graphdiff::align
