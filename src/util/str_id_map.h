// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// StrIdMap: a value per string id of one graph, for caches and counts keyed
// by string (a key's hash, how many nodes run an op).
#ifndef GRAPHDIFF_SRC_UTIL_STR_ID_MAP_H_
#define GRAPHDIFF_SRC_UTIL_STR_ID_MAP_H_

#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "graphdiff/graph.h"

namespace graphdiff {

// An array indexed by id when the graph's pool is about the graph's size,
// a hash map when the pool is shared with many other graphs (the modules of
// one HLO dump) and an array would be sized by all of them, once per graph.
template <typename T>
class StrIdMap {
 public:
  StrIdMap(const Graph& g, T absent) : absent_(absent) {
    const size_t ids = g.strings.size();
    if (ids <= 4 * g.nodes.size() + 256) dense_.assign(ids, absent);
  }
  // The value for `id`, `absent` until set. Ids past the pool (a graph
  // built by hand) go to the map too.
  T& operator[](StrId id) {
    if (id.id < dense_.size()) return dense_[id.id];
    return map_.try_emplace(id.id, absent_).first->second;
  }
  // Calls f(id, value) for every value set, in id order.
  template <typename F>
  void ForEach(F f) const {
    for (size_t id = 0; id < dense_.size(); ++id) {
      if (dense_[id] != absent_) f(StrId{static_cast<uint32_t>(id)}, dense_[id]);
    }
    std::vector<uint32_t> ids;
    ids.reserve(map_.size());
    for (const auto& entry : map_) ids.push_back(entry.first);
    std::sort(ids.begin(), ids.end());
    for (uint32_t id : ids) {
      const T& v = map_.at(id);
      if (v != absent_) f(StrId{id}, v);
    }
  }

 private:
  T absent_;
  std::vector<T> dense_;
  absl::flat_hash_map<uint32_t, T> map_;
};

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_UTIL_STR_ID_MAP_H_
