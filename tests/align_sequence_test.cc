// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Aligning output and input lists: entries inserted on one side shift
// nothing, a changed entry among look-alikes stays in place, and swapping
// the lists swaps the result.
#include <algorithm>
#include <utility>
#include <vector>

#include "align/sequence.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace graphdiff::align {
namespace {

using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;

Pairs Swapped(Pairs p) {
  for (auto& [a, b] : p) std::swap(a, b);
  std::sort(p.begin(), p.end());
  return p;
}

void ExpectSymmetric(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  EXPECT_EQ(Swapped(AlignSequences(b, a)), AlignSequences(a, b));
}

TEST(AlignSequences, InsertedEntriesShiftNothing) {
  const std::vector<uint64_t> a = {1, 2, 3, 4};
  const std::vector<uint64_t> b = {1, 9, 2, 3, 8, 4};
  EXPECT_EQ(AlignSequences(a, b), (Pairs{{0, 0}, {1, 2}, {2, 3}, {3, 5}}));
  ExpectSymmetric(a, b);
}

// One replica of many changed: its entry is a substitution in place, and the
// look-alikes after it keep their partners instead of shifting by one. The
// middle is larger than the dynamic-programming limit here too.
TEST(AlignSequences, ChangedLookAlikeStaysInPlace) {
  for (size_t n : {8u, 300u, 5000u}) {
    std::vector<uint64_t> a(n, 7), b(n, 7);
    b[2] = 5;
    b[n - 3] = 6;
    Pairs expected;
    for (uint32_t i = 0; i < n; ++i) {
      if (i != 2 && i != n - 3) expected.emplace_back(i, i);
    }
    EXPECT_EQ(AlignSequences(a, b), expected) << n;
    ExpectSymmetric(a, b);
  }
}

// Removed at one place, added at another: what lies between still pairs.
TEST(AlignSequences, RemovedAndAddedElsewhere) {
  const std::vector<uint64_t> a = {1, 2, 3, 4, 5, 6};
  const std::vector<uint64_t> b = {1, 3, 4, 5, 9, 6};
  EXPECT_EQ(AlignSequences(a, b), (Pairs{{0, 0}, {2, 1}, {3, 2}, {4, 3}, {5, 5}}));
  ExpectSymmetric(a, b);
}

// Where two alignments are equally good, only what both directions agree
// on is kept.
TEST(AlignSequences, TiesKeepOnlyWhatBothDirectionsAgreeOn) {
  const std::vector<uint64_t> a = {1, 2};
  const std::vector<uint64_t> b = {2, 1};
  ExpectSymmetric(a, b);
  EXPECT_LE(AlignSequences(a, b).size(), 1u);
  ExpectSymmetric({3, 3, 3}, {3, 3});
}

}  // namespace
}  // namespace graphdiff::align
