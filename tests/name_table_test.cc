// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/name_table.h"

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace graphdiff {
namespace {

// HashName reads a name's last bytes in fixed-size loads; the value must be
// the one a byte-exact tail gives, so that the last characters, where FX
// names differ (`primals_1`, `primals_2`), land in the low bits the
// multiply spreads into the slot bits. A tail read into the high bits
// hashed a graph's names to a few slots (its lookups 3x slower).
TEST(NameTable, HashTakesTheTailInTheLowBits) {
  auto reference = [](std::string_view s) {
    uint64_t h = 0x9e3779b97f4a7c15ull ^ s.size();
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      uint64_t w = 0;
      for (size_t k = 0; k < 8; ++k) w |= uint64_t{static_cast<unsigned char>(s[i + k])} << (8 * k);
      h = (h ^ w) * 0xff51afd7ed558ccdull;
      h ^= h >> 32;
    }
    uint64_t tail = 0;
    for (size_t k = 0; i + k < s.size(); ++k) {
      tail |= uint64_t{static_cast<unsigned char>(s[i + k])} << (8 * k);
    }
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
  };
  const std::string text = "convolution_backward_\xff\x80primals_123456789_getitem_x";
  for (size_t from = 0; from < 8; ++from) {
    for (size_t n = 0; from + n <= text.size(); ++n) {
      const std::string_view s = std::string_view(text).substr(from, n);
      EXPECT_EQ(HashName(s), reference(s)) << "'" << s << "'";
    }
  }
  // A graph's names, which differ in their last characters, spread over the
  // slots (4,096 of them) about as random keys would (887 expected).
  std::map<uint64_t, int> slots;
  for (int k = 0; k < 1000; ++k) ++slots[(HashName("primals_" + std::to_string(k)) >> 32) & 4095];
  EXPECT_GE(slots.size(), 800u);
}

TEST(NameTable, FindsWhatWasSetAndNothingElse) {
  NameTable t;
  EXPECT_EQ(t.Find("x"), nullptr);  // empty table
  t.Set("x", ValueRef{1, 0});
  t.Set("getitem_1", ValueRef{2, 1});
  ASSERT_NE(t.Find("x"), nullptr);
  EXPECT_EQ(*t.Find("x"), (ValueRef{1, 0}));
  EXPECT_EQ(*t.Find("getitem_1"), (ValueRef{2, 1}));
  EXPECT_EQ(t.Find("getitem_"), nullptr);
  EXPECT_EQ(t.Find("getitem_10"), nullptr);
  EXPECT_EQ(t.Find(""), nullptr);
  t.Set("x", ValueRef{7, 3});  // rebinding replaces
  EXPECT_EQ(*t.Find("x"), (ValueRef{7, 3}));
}

// Names as FX prints them, across the 8-byte boundaries the hash reads in,
// with and without a reservation, against std::map, with rebinding.
TEST(NameTable, AgreesWithAMapThroughGrowth) {
  for (size_t reserve : {size_t{0}, size_t{1000}, size_t{300000}}) {
    NameTable t;
    t.Reserve(reserve);
    std::vector<std::string> names;  // keys are views: the strings must stay put
    names.reserve(200000);
    for (uint32_t i = 0; i < 200000; ++i) {
      names.push_back(i % 3 == 0   ? "convolution_" + std::to_string(i)
                      : i % 3 == 1 ? "r" + std::to_string(i)
                                   : "native_batch_norm_legit_functional_" + std::to_string(i));
    }
    std::map<std::string, ValueRef> want;
    std::mt19937 rng(static_cast<uint32_t>(reserve) + 1);
    for (uint32_t i = 0; i < names.size(); ++i) {
      ValueRef v{i, i % 4};
      t.Set(names[i], v);
      want[names[i]] = v;
      if (rng() % 8 == 0) {  // rebind an earlier name
        const std::string& k = names[rng() % (i + 1)];
        ValueRef w{static_cast<uint32_t>(rng()), 9};
        t.Set(k, w);
        want[k] = w;
      }
    }
    for (const auto& [k, v] : want) {
      const ValueRef* got = t.Find(k);
      ASSERT_NE(got, nullptr) << k;
      EXPECT_EQ(*got, v) << k;
    }
    EXPECT_EQ(t.Find("convolution_200000"), nullptr);
    EXPECT_EQ(t.Find("r"), nullptr);
    EXPECT_EQ(t.Find("convolution"), nullptr);
  }
}

// Large() gates asking for slots ahead: off for the small tables of the
// many graphs of a dump, on once the slots outgrow the caches.
TEST(NameTable, LargeOnceTheSlotsOutgrowTheCaches) {
  NameTable t;
  EXPECT_FALSE(t.Large());
  std::vector<std::string> names;  // the table keeps views
  for (uint32_t i = 0; i < 1000; ++i) names.push_back("n" + std::to_string(i));
  for (uint32_t i = 0; i < 1000; ++i) t.Set(names[i], ValueRef{i, 0});
  EXPECT_FALSE(t.Large());
  t.Reserve(200000);
  EXPECT_TRUE(t.Large());
  t.Prefetch("n7");
  EXPECT_EQ(t.Find("n7")->node, 7u);
}

}  // namespace
}  // namespace graphdiff
