// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// StrIdMap keeps a value per string id as an array for a graph's own pool,
// and as a map for a pool shared with many other graphs; both give the same
// values, and ForEach walks them in id order.
#include "util/str_id_map.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace graphdiff {
namespace {

TEST(StrIdMap, ArrayAndMapAgree) {
  Graph small;
  small.nodes.resize(4);
  Graph big;  // a pool far larger than its graph: one of many sharing it
  big.nodes.resize(4);
  std::vector<StrId> small_ids, big_ids;
  for (int i = 0; i < 20000; ++i) {
    small_ids.push_back(small.intern("s" + std::to_string(i)));
    big_ids.push_back(big.intern("s" + std::to_string(i)));
  }
  for (Graph* g : {&small, &big}) {
    const bool array = g == &small;
    if (array) g->nodes.resize(5000);  // 4 x 5000 + 256 ids fit an array
    StrIdMap<int> m(*g, -1);
    const std::vector<StrId>& ids = array ? small_ids : big_ids;
    m[ids[19999]] = 7;
    m[ids[3]] = 5;
    m[StrId{40000}] = 9;  // past the pool: a graph built by hand
    EXPECT_EQ(m[ids[3]], 5);
    EXPECT_EQ(m[ids[4]], -1);
    std::vector<std::pair<uint32_t, int>> seen;
    m.ForEach([&](StrId id, int v) { seen.emplace_back(id.id, v); });
    EXPECT_EQ(seen, (std::vector<std::pair<uint32_t, int>>{
                        {ids[3].id, 5}, {ids[19999].id, 7}, {40000, 9}}))
        << (array ? "array" : "map");
  }
}

// A shared pool's ids start in a short list and move to a hash map past a
// handful: values set before the move are kept, and ForEach still walks
// every id once, in id order.
TEST(StrIdMap, ManyIdsOfASharedPoolKeepTheirValues) {
  Graph g;
  g.nodes.resize(2);
  std::vector<StrId> ids;
  for (int i = 0; i < 5000; ++i) ids.push_back(g.intern("s" + std::to_string(i)));
  for (int count : {1, 15, 16, 17, 100}) {
    StrIdMap<int> m(g, -1);
    // Every seventh id, from the top down: neither id nor insertion order
    // sorted.
    std::vector<std::pair<uint32_t, int>> want;
    for (int k = 0; k < count; ++k) {
      const StrId id = ids[(7 * (count - k)) % ids.size()];
      m[id] = k;
      ++m[id];
      want.emplace_back(id.id, k + 1);
    }
    for (const auto& [id, v] : want) EXPECT_EQ(m[StrId{id}], v) << count;
    EXPECT_EQ(m[ids[1]], -1);
    std::sort(want.begin(), want.end());
    std::vector<std::pair<uint32_t, int>> seen;
    m.ForEach([&](StrId id, int v) { seen.emplace_back(id.id, v); });
    EXPECT_EQ(seen, want) << count;
  }
}

}  // namespace
}  // namespace graphdiff
