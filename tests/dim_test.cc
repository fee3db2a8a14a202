// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Dim packs its kind and its value (or symbol) into 64 bits held as two
// 32-bit halves; every kind and the extremes must come back as they went in.
#include <cstdint>

#include "graphdiff/graph.h"
#include "gtest/gtest.h"

namespace graphdiff {
namespace {

TEST(Dim, KindsAndValuesRoundTrip) {
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{4096},
                    int64_t{1} << 40, -(int64_t{1} << 40), Dim::kMaxValue, -Dim::kMaxValue}) {
    EXPECT_EQ(Dim::Static(v).kind(), Dim::Kind::kStatic);
    EXPECT_EQ(Dim::Static(v).value(), v);
    EXPECT_EQ(Dim::Bounded(v).kind(), Dim::Kind::kBounded);
    EXPECT_EQ(Dim::Bounded(v).value(), v);
    EXPECT_EQ(Dim::Static(v).symbol().id, 0u);
  }
  Dim s = Dim::Symbolic(StrId{0xfffffffe});
  EXPECT_EQ(s.kind(), Dim::Kind::kSymbolic);
  EXPECT_EQ(s.symbol().id, 0xfffffffeu);
  EXPECT_EQ(s.value(), 0);
  EXPECT_EQ(Dim::Unknown().kind(), Dim::Kind::kUnknown);
  EXPECT_EQ(Dim().kind(), Dim::Kind::kStatic);
  EXPECT_EQ(Dim().value(), 0);
}

TEST(Dim, OutOfRangeClampsAndEqualityIsByKindAndValue) {
  EXPECT_EQ(Dim::Static(INT64_MAX).value(), Dim::kMaxValue);
  EXPECT_EQ(Dim::Static(INT64_MIN).value(), -Dim::kMaxValue);
  EXPECT_EQ(Dim::Static(7), Dim::Static(7));
  EXPECT_NE(Dim::Static(7), Dim::Bounded(7));
  EXPECT_NE(Dim::Static(int64_t{1} << 32), Dim::Static(0));  // the high half counts
  static_assert(Dim::Static(-3).value() == -3, "Dim stays usable in constant expressions");
}

}  // namespace
}  // namespace graphdiff
