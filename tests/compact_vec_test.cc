// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// CompactVec: one pointer when empty, values intact through copies, moves
// and reassignment.
#include "graphdiff/compact_vec.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace graphdiff {
namespace {

TEST(CompactVec, EmptyIsOnePointer) {
  static_assert(sizeof(CompactVec<int64_t>) == sizeof(void*));
  CompactVec<int64_t> v;
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.size(), 0u);
  EXPECT_EQ(v.begin(), v.end());
  EXPECT_EQ(v.heap_capacity(), 0u);
  v = std::vector<int64_t>{};
  EXPECT_TRUE(v.empty());
}

TEST(CompactVec, CopiesMovesAndCompares) {
  CompactVec<int64_t> a = std::vector<int64_t>{147, 49, 7, 1};
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0], 147);
  EXPECT_EQ(a.ToVector(), (std::vector<int64_t>{147, 49, 7, 1}));
  CompactVec<int64_t> b = a;
  EXPECT_EQ(a, b);
  b = {1, 2};
  EXPECT_NE(a, b);
  EXPECT_EQ(a, (std::vector<int64_t>{147, 49, 7, 1}));  // a copy, not a view
  CompactVec<int64_t> c = std::move(a);
  EXPECT_TRUE(a.empty());  // NOLINT: moved-from is empty, by design
  EXPECT_EQ(c.size(), 4u);
  c = c;  // NOLINT: self-assignment keeps the values
  EXPECT_EQ(c, (std::vector<int64_t>{147, 49, 7, 1}));
  c = std::move(b);
  EXPECT_EQ(c, (std::vector<int64_t>{1, 2}));
}

}  // namespace
}  // namespace graphdiff
