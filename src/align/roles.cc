// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/roles.h"

#include <algorithm>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "align/hash.h"

namespace graphdiff::align {

void SortRoles(std::vector<Role>* roles) {
  std::vector<Role>& out = *roles;
  if (out.size() < kGroupedRoles) {
    std::sort(out.begin(), out.end());
    return;
  }
  // A weight read by every copy of a block has thousands of users in a few
  // roles: they are grouped by (role, fingerprint) in one pass and only the
  // groups sorted. The list comes in node order, so each group is in its
  // sorted order already.
  struct Key {
    uint64_t cls, fp;
    uint32_t pos, output;
    bool operator==(const Key& o) const {
      return cls == o.cls && fp == o.fp && pos == o.pos && output == o.output;
    }
    bool operator<(const Key& o) const {
      return std::tie(cls, pos, output, fp) < std::tie(o.cls, o.pos, o.output, o.fp);
    }
  };
  struct KeyHash {
    size_t operator()(const Key& k) const {
      return Combine(Combine(k.cls, k.fp), (uint64_t{k.pos} << 32) | k.output);
    }
  };
  absl::flat_hash_map<Key, uint32_t, KeyHash> group_of;
  std::vector<std::pair<Key, uint32_t>> groups;  // key, members
  std::vector<uint32_t> group(out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const Role& u = out[i];
    const Key k{u.cls, u.fp, u.pos, u.output};
    auto [it, added] = group_of.try_emplace(k, static_cast<uint32_t>(groups.size()));
    if (added) groups.emplace_back(k, 0);
    group[i] = it->second;
    ++groups[it->second].second;
  }
  std::vector<uint32_t> order(groups.size());
  for (uint32_t g = 0; g < order.size(); ++g) order[g] = g;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return groups[a].first < groups[b].first; });
  std::vector<uint32_t> start(groups.size());
  uint32_t at = 0;
  for (uint32_t g : order) {
    start[g] = at;
    at += groups[g].second;
  }
  std::vector<Role> sorted(out.size());
  for (size_t i = 0; i < out.size(); ++i) sorted[start[group[i]]++] = out[i];
  out.swap(sorted);
}

}  // namespace graphdiff::align
