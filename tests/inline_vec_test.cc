// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/inline_vec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace graphdiff {
namespace {

// Strings longer than the small-string buffer own heap memory, so the
// sanitizer pass catches a lost destructor or a double free.
std::string Long(int i) { return "a string long enough to live on the heap #" + std::to_string(i); }

std::vector<std::string> Std(const InlineVec<std::string, 2>& v) {
  return std::vector<std::string>(v.begin(), v.end());
}

TEST(InlineVec, StaysInPlaceUpToNThenSpills) {
  InlineVec<std::string, 2> v;
  EXPECT_EQ(v.heap_capacity(), 0u);
  v.push_back(Long(0));
  v.push_back(Long(1));
  EXPECT_EQ(v.heap_capacity(), 0u);
  v.push_back(Long(2));
  EXPECT_GE(v.heap_capacity(), 3u);
  EXPECT_EQ(Std(v), (std::vector<std::string>{Long(0), Long(1), Long(2)}));
}

TEST(InlineVec, PushBackOfItsOwnElementWhileGrowing) {
  InlineVec<std::string, 2> v{Long(0), Long(1)};
  v.push_back(v[0]);  // grows: the argument refers into the old storage
  v.push_back(v.back());
  EXPECT_EQ(Std(v), (std::vector<std::string>{Long(0), Long(1), Long(0), Long(0)}));
}

TEST(InlineVec, CopyAndMoveInPlaceAndOnHeap) {
  for (int n : {1, 2, 5}) {
    InlineVec<std::string, 2> a;
    for (int i = 0; i < n; ++i) a.push_back(Long(i));
    InlineVec<std::string, 2> copy(a);
    EXPECT_EQ(copy, a);
    InlineVec<std::string, 2> moved(std::move(a));
    EXPECT_EQ(moved, copy);
    EXPECT_TRUE(a.empty());  // NOLINT: moved-from is empty by contract
    a = moved;
    EXPECT_EQ(a, copy);
    InlineVec<std::string, 2> assigned{Long(9)};
    assigned = std::move(moved);
    EXPECT_EQ(assigned, copy);
    a.swap(assigned);
    EXPECT_EQ(a, copy);
  }
}

TEST(InlineVec, InsertEraseResizeAssign) {
  InlineVec<std::string, 2> v{Long(0), Long(2)};
  v.insert(v.begin() + 1, Long(1));
  EXPECT_EQ(Std(v), (std::vector<std::string>{Long(0), Long(1), Long(2)}));
  std::vector<std::string> more{Long(3), Long(4)};
  v.insert(v.end(), more.begin(), more.end());
  EXPECT_EQ(v.size(), 5u);
  v.erase(v.begin(), v.begin() + 2);
  EXPECT_EQ(Std(v), (std::vector<std::string>{Long(2), Long(3), Long(4)}));
  v.erase(v.begin() + 1);
  EXPECT_EQ(Std(v), (std::vector<std::string>{Long(2), Long(4)}));
  v.resize(4, Long(7));
  EXPECT_EQ(Std(v), (std::vector<std::string>{Long(2), Long(4), Long(7), Long(7)}));
  v.resize(1);
  EXPECT_EQ(Std(v), (std::vector<std::string>{Long(2)}));
  v.assign(3, Long(5));
  EXPECT_EQ(Std(v), (std::vector<std::string>{Long(5), Long(5), Long(5)}));
  v = std::vector<std::string>{Long(8)};
  EXPECT_EQ(v.ToVector(), (std::vector<std::string>{Long(8)}));
  v.pop_back();
  EXPECT_TRUE(v.empty());
  EXPECT_THROW(v.at(0), std::out_of_range);
}

TEST(InlineVec, ZeroInPlaceAlwaysUsesTheHeap) {
  InlineVec<int64_t, 0> v;
  EXPECT_TRUE(v.empty());
  v.push_back(3);
  v.push_back(4);
  EXPECT_EQ(v.heap_capacity(), v.capacity());
  EXPECT_EQ(v.ToVector(), (std::vector<int64_t>{3, 4}));
  InlineVec<int64_t, 0> w = v;
  EXPECT_EQ(w, v);
  EXPECT_FALSE(w < v);
}

// The record is the in-place bytes and one 32-bit word, aligned as the
// elements are, so short lists of 4-byte values pack into a node record
// without padding.
TEST(InlineVec, RecordIsTheElementsAndOneWord) {
  struct Pair {
    uint32_t a, b;
  };
  EXPECT_EQ(sizeof(InlineVec<Pair, 3>), 3 * sizeof(Pair) + sizeof(uint32_t));
  EXPECT_EQ(alignof(InlineVec<Pair, 3>), alignof(uint32_t));
  EXPECT_EQ(alignof(InlineVec<double, 2>), alignof(double));
}

// Spilled elements sit after the heap block's capacity word, padded to their
// alignment; a misaligned double or string would fault under UBSan.
TEST(InlineVec, SpilledElementsKeepTheirAlignment) {
  InlineVec<double, 1> d;
  InlineVec<char, 3> c;
  InlineVec<std::string, 1> s;
  for (int i = 0; i < 100; ++i) {
    d.push_back(i * 0.5);
    c.push_back(static_cast<char>('a' + i % 26));
    s.push_back(Long(i));
  }
  EXPECT_EQ(reinterpret_cast<uintptr_t>(d.data()) % alignof(double), 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(s.data()) % alignof(std::string), 0u);
  EXPECT_EQ(d[99], 49.5);
  EXPECT_EQ(c[27], 'b');
  EXPECT_EQ(s[42], Long(42));
  EXPECT_GE(d.capacity(), 100u);
  EXPECT_EQ(d.heap_capacity(), d.capacity());
  // Shrinking the size keeps the block and its capacity.
  size_t cap = s.capacity();
  s.resize(2);
  EXPECT_EQ(s.capacity(), cap);
  EXPECT_EQ(Std(InlineVec<std::string, 2>(s.begin(), s.end())),
            (std::vector<std::string>{Long(0), Long(1)}));
  InlineVec<std::string, 1> moved(std::move(s));
  EXPECT_EQ(moved.size(), 2u);
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(s.heap_capacity(), 0u);
  s.push_back(Long(7));  // a moved-from vector is in place and usable
  EXPECT_EQ(s[0], Long(7));
}

}  // namespace
}  // namespace graphdiff
