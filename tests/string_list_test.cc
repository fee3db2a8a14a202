// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// StringList: one pointer, strings intact through copies, moves and
// reassignment, a block shared by copies and freed by its last holder.
#include "graphdiff/string_list.h"

#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace graphdiff {
namespace {

using ::testing::ElementsAre;

TEST(StringList, EmptyIsOnePointer) {
  static_assert(sizeof(StringList) == sizeof(void*));
  StringList l;
  EXPECT_TRUE(l.empty());
  EXPECT_EQ(l.size(), 0u);
  EXPECT_EQ(l.begin(), l.end());
  EXPECT_EQ(l.heap_bytes(), 0u);
  EXPECT_TRUE(l.Holds(nullptr, 0));
  EXPECT_EQ(l, StringList(std::vector<std::string_view>{}));
}

TEST(StringList, KeepsEveryStringWhole) {
  std::vector<std::string> items = {"mark_step (xla_model.py:1055)", "", "<module> (train.py:15)",
                                    std::string(3, '\0')};
  StringList l(items);
  ASSERT_EQ(l.size(), 4u);
  EXPECT_EQ(l[0], "mark_step (xla_model.py:1055)");
  EXPECT_EQ(l[1], "");
  EXPECT_EQ(l[3], std::string_view("\0\0\0", 3));
  EXPECT_EQ(l.front(), items.front());
  EXPECT_EQ(l.back(), items.back());
  EXPECT_EQ(l.ToVector(), items);
  EXPECT_EQ(l.end() - l.begin(), 4);
  std::vector<std::string_view> views(items.begin(), items.end());
  EXPECT_TRUE(l.Holds(views.data(), views.size()));
  views[2] = "<module> (train.py:16)";
  EXPECT_FALSE(l.Holds(views.data(), views.size()));
  EXPECT_FALSE(l.Holds(views.data(), 3));
}

TEST(StringList, CopiesShareOneBlockAndCompareByContent) {
  StringList a{"f (a.py:1)", "g (b.py:2)"};
  const size_t alone = a.heap_bytes();
  EXPECT_GT(alone, 0u);
  StringList b = a;
  EXPECT_EQ(a[0].data(), b[0].data());  // shared, not copied
  // Each holder counts its share, rounded up: together the block, once.
  EXPECT_EQ(a.heap_bytes(), (alone + 1) / 2);
  EXPECT_EQ(b.heap_bytes(), a.heap_bytes());
  StringList c{"f (a.py:1)", "g (b.py:2)"};
  EXPECT_EQ(a, c);
  EXPECT_NE(a[0].data(), c[0].data());
  c = {"f (a.py:1)"};
  EXPECT_NE(a, c);
  EXPECT_THAT(b, ElementsAre("f (a.py:1)", "g (b.py:2)"));
  StringList d = std::move(b);
  EXPECT_TRUE(b.empty());  // NOLINT: moved-from is empty, by design
  EXPECT_EQ(d, a);
  a = StringList();  // the block lives on in d
  EXPECT_THAT(d, ElementsAre("f (a.py:1)", "g (b.py:2)"));
  d = d;  // NOLINT: self-assignment keeps the list
  EXPECT_EQ(d.size(), 2u);
}

TEST(StringList, ThreadsCopyAndDropOneBlock) {
  StringList shared{"one", "two", "three"};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&shared] {
      for (int i = 0; i < 10000; ++i) {
        StringList copy = shared;
        if (copy.size() != 3 || copy[2] != "three") std::abort();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  const StringList alone{"one", "two", "three"};
  EXPECT_EQ(shared.heap_bytes(), alone.heap_bytes());  // every copy let go
}

}  // namespace
}  // namespace graphdiff
