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
// A shared pool's first few ids go to a short list: a log of 10^5 small
// graphs asks for a handful of ids per graph, and a hash map per graph
// (its allocation, a hash a node) was most of counting their ops.
template <typename T>
class StrIdMap {
 public:
  StrIdMap(const Graph& g, T absent) : absent_(absent) {
    const size_t ids = g.strings.size();
    if (ids <= 4 * g.nodes.size() + 256) dense_.assign(ids, absent);
  }
  // The value for `id`, `absent` until set. Ids past the pool (a graph
  // built by hand) go to the map too.
  // A reference stays good until the next call.
  T& operator[](StrId id) {
    if (id.id < dense_.size()) return dense_[id.id];
    if (map_.empty()) {
      for (auto& entry : few_) {
        if (entry.first == id.id) return entry.second;
      }
      if (few_.size() < kFew) return few_.emplace_back(id.id, absent_).second;
      map_.reserve(2 * kFew);
      for (const auto& entry : few_) map_.emplace(entry.first, entry.second);
      few_.clear();
    }
    return map_.try_emplace(id.id, absent_).first->second;
  }
  // Calls f(id, value) for every value set, in id order.
  template <typename F>
  void ForEach(F f) const {
    for (size_t id = 0; id < dense_.size(); ++id) {
      if (dense_[id] != absent_) f(StrId{static_cast<uint32_t>(id)}, dense_[id]);
    }
    std::vector<std::pair<uint32_t, T>> rest(few_.begin(), few_.end());
    rest.reserve(rest.size() + map_.size());
    for (const auto& entry : map_) rest.emplace_back(entry.first, entry.second);
    std::sort(rest.begin(), rest.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [id, v] : rest) {
      if (v != absent_) f(StrId{id}, v);
    }
  }

 private:
  static constexpr size_t kFew = 16;
  T absent_;
  std::vector<T> dense_;
  std::vector<std::pair<uint32_t, T>> few_;  // until kFew ids, then map_
  absl::flat_hash_map<uint32_t, T> map_;
};

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_UTIL_STR_ID_MAP_H_
