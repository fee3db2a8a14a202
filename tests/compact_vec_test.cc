// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// CompactVec: one pointer when empty, values intact through copies, moves
// and reassignment.
#include "graphdiff/compact_vec.h"

#include <cstdint>
#include <thread>
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

// Copies share one block: its values stay as long as any holder does,
// whichever is destroyed or reassigned first, and from any thread.
TEST(CompactVec, CopiesShareOneBlock) {
  const std::vector<int64_t> values = {8, 1};
  std::vector<CompactVec<int64_t>> copies;
  {
    CompactVec<int64_t> first = values;
    for (int i = 0; i < 100; ++i) copies.push_back(first);
    EXPECT_EQ(copies[0].data(), first.data());
    EXPECT_EQ(copies[99].data(), first.data());
    EXPECT_EQ(first.heap_capacity(), 1u);  // a share of 2 values among 101
  }  // the first holder goes; the copies keep the block
  {
    CompactVec<int64_t> alone = std::vector<int64_t>{1, 2, 3};
    EXPECT_EQ(alone.heap_capacity(), 3u);
    CompactVec<int64_t> other = alone;
    EXPECT_EQ(alone.heap_capacity(), 2u);  // 3 values between 2 holders
  }
  for (const auto& c : copies) EXPECT_EQ(c, values);
  copies[0] = {3};
  copies[1] = copies[0];
  EXPECT_EQ(copies[1], (std::vector<int64_t>{3}));
  EXPECT_EQ(copies[2], values);
  copies[2] = copies[2];  // NOLINT: self-assignment keeps the values
  EXPECT_EQ(copies[2], values);
  // Holders copied and dropped on several threads at once: a count that
  // lost an update would free the block under a holder (AddressSanitizer,
  // in the sanitizer run of the suite, reports the use).
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&copies, &values, t] {
      for (int i = 0; i < 10000; ++i) {
        CompactVec<int64_t> c = copies[10 + t];
        CompactVec<int64_t> d = c;
        c = CompactVec<int64_t>();
        if (d != values) ADD_FAILURE() << "thread " << t;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  copies.resize(3);
  EXPECT_EQ(copies[2], values);
}

}  // namespace
}  // namespace graphdiff
