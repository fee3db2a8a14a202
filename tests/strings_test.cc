// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The string pool: interning dedups, Add() does not, and a copy keeps every
// id, so a copied graph's nodes still name the same strings.
#include "graphdiff/strings.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"

namespace graphdiff {
namespace {

// StringViewHash reads a string's tail in fixed-size loads (TailBytes); its
// value is the one a byte-by-byte tail gives, at every offset and length.
TEST(StringViewHash, TailLoadsGiveTheByteTailsValue) {
  auto reference = [](std::string_view s) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ s.size();
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      uint64_t w = 0;
      for (size_t k = 0; k < 8; ++k) w |= uint64_t{static_cast<unsigned char>(s[i + k])} << (8 * k);
      h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
      h ^= h >> 31;
    }
    if (i < s.size()) {
      uint64_t w = 0;
      for (size_t k = 0; i + k < s.size(); ++k) {
        w |= uint64_t{static_cast<unsigned char>(s[i + k])} << (8 * k);
      }
      h = (h ^ w) * 0x94d049bb133111ebULL;
      h ^= h >> 29;
    }
    h ^= h >> 32;
    h *= 0xd6e8feb86659fd93ULL;
    h ^= h >> 32;
    return static_cast<size_t>(h);
  };
  const std::string text = "aten::convolution_backward.default\xff\x80 f32[8, 4][4, 1]cpu";
  for (size_t from = 0; from < 8; ++from) {
    for (size_t n = 0; from + n <= text.size(); ++n) {
      const std::string_view s = std::string_view(text).substr(from, n);
      EXPECT_EQ(StringViewHash()(s), reference(s)) << "'" << s << "'";
    }
  }
}

TEST(StringPool, InternDedupsAndAddDoesNot) {
  StringPool pool;
  StrId a = pool.Intern("aten::relu");
  EXPECT_EQ(pool.Intern("aten::relu"), a);
  StrId n1 = pool.Add("%1");
  StrId n2 = pool.Add("%2");
  EXPECT_NE(n1, n2);
  EXPECT_EQ(pool.Get(n1), "%1");
  EXPECT_EQ(pool.Get(n2), "%2");
  EXPECT_EQ(pool.Find("%1"), StrId{});  // added, not indexed
  EXPECT_EQ(pool.Find("aten::relu"), a);
  EXPECT_EQ(pool.Add(""), StrId{});
}

TEST(StringPool, CopyKeepsEveryId) {
  StringPool pool;
  StrId added = pool.Add("x");
  StrId interned = pool.Intern("x");  // an equal string, another id
  StrId other = pool.Intern("y");
  ASSERT_NE(added, interned);
  StringPool copy(pool);
  EXPECT_EQ(copy.size(), pool.size());
  EXPECT_EQ(copy.Get(added), "x");
  EXPECT_EQ(copy.Get(interned), "x");
  EXPECT_EQ(copy.Get(other), "y");
  EXPECT_EQ(copy.Intern("x"), interned);
  EXPECT_EQ(copy.Find("y"), other);
}

// The lookup table grows many times over, from empty and from a reserve;
// every string stays findable under its one id, and a copy keeps the table.
TEST(StringPool, ManyStringsThroughGrowthAndReserve) {
  for (bool reserve : {false, true}) {
    StringPool pool;
    if (reserve) pool.ReserveLookups(30000);
    std::vector<StrId> ids;
    for (int i = 0; i < 100000; ++i) ids.push_back(pool.Intern("name_" + std::to_string(i)));
    for (int i = 0; i < 100000; i += 7) {
      ASSERT_EQ(pool.Intern("name_" + std::to_string(i)), ids[i]) << i;
      ASSERT_EQ(pool.Find("name_" + std::to_string(i)), ids[i]) << i;
      ASSERT_EQ(pool.Get(ids[i]), "name_" + std::to_string(i));
    }
    EXPECT_EQ(pool.size(), 100001u);
    EXPECT_EQ(pool.Find("name_100000"), StrId{});
    EXPECT_EQ(pool.Find(""), StrId{});
    StringPool copy(pool);
    EXPECT_EQ(copy.Find("name_99999"), ids[99999]);
    EXPECT_EQ(copy.Intern("fresh"), StrId{100001});
  }
}

// A pool shrunk at the end of a parse keeps every string and id, takes
// new strings after, and holds less than before.
TEST(StringPool, ShrinkToFitKeepsEveryString) {
  StringPool pool;
  std::vector<StrId> ids;
  for (int i = 0; i < 40; ++i) ids.push_back(pool.Intern("node_" + std::to_string(i)));
  StrId added = pool.Add("%7");
  StrId twin = pool.Add("node_5");  // stored again, not interned
  StrId big = pool.Intern(std::string(40000, 'x'));  // a chunk of its own
  size_t before = pool.MemoryBytes();
  pool.ShrinkToFit();
  EXPECT_LT(pool.MemoryBytes(), before);
  // The lookup table is gone until the next Intern(); Find() still finds
  // interned strings only, in a copy too.
  EXPECT_EQ(pool.Find("node_5"), ids[5]);
  EXPECT_NE(twin, ids[5]);
  EXPECT_TRUE(pool.Find("%7").empty());
  EXPECT_TRUE(pool.Find("absent").empty());
  EXPECT_EQ(StringPool(pool).Find("node_39"), ids[39]);
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(pool.Get(ids[i]), "node_" + std::to_string(i));
    EXPECT_EQ(pool.Intern("node_" + std::to_string(i)), ids[i]);
  }
  EXPECT_EQ(pool.Get(added), "%7");
  EXPECT_EQ(pool.Get(big), std::string(40000, 'x'));
  StrId later = pool.Intern("later");
  EXPECT_EQ(pool.Get(later), "later");
  EXPECT_EQ(pool.Find("node_3"), ids[3]);
  pool.ShrinkToFit();  // twice, and on an empty pool
  EXPECT_EQ(pool.Get(later), "later");
  StringPool empty;
  empty.ShrinkToFit();
  EXPECT_EQ(empty.Intern("a"), StrId{1});
}

// Stored strings are packed as chunk, offset and length; every size class
// must come back whole: short ones at the end of a full 64 KB chunk, long
// ones in chunks of their own, and one past the 24-bit length field. After
// a copy, a move and a shrink too.
TEST(StringPool, StringsOfEverySizeComeBackWhole) {
  std::vector<std::string> texts;
  for (int i = 0; i < 20000; ++i) texts.push_back("value_" + std::to_string(i));
  texts.push_back(std::string(16 * 1024 - 1, 'a'));  // the longest in a shared chunk
  texts.push_back(std::string(16 * 1024, 'b'));      // the shortest in a chunk of its own
  texts.push_back(std::string(70000, 'c'));          // longer than a regular chunk
  std::string huge((size_t{1} << 24) + 3, 'd');      // past the length field
  huge[0] = 'D';
  huge.back() = 'E';
  texts.push_back(huge);
  for (int i = 20000; i < 30000; ++i) texts.push_back("value_" + std::to_string(i));
  StringPool pool;
  std::vector<StrId> ids;
  for (size_t i = 0; i < texts.size(); ++i) {
    ids.push_back(i % 2 ? pool.Add(texts[i]) : pool.Intern(texts[i]));
  }
  auto check = [&](const StringPool& p, const char* what) {
    for (size_t i = 0; i < texts.size(); ++i) {
      ASSERT_EQ(p.Get(ids[i]), texts[i]) << what << " " << i;
    }
    EXPECT_EQ(p.Get(StrId{}), "") << what;
  };
  check(pool, "stored");
  StringPool copy(pool);
  check(copy, "copied");
  StringPool moved(std::move(copy));
  check(moved, "moved");
  moved.ShrinkToFit();
  check(moved, "shrunk");
  EXPECT_EQ(moved.Find(texts[0]), ids[0]);
  EXPECT_EQ(moved.Get(moved.Intern("after")), "after");
}

// Handles from Share() write to one set of strings until it is sealed;
// after that, a handle that writes takes a copy of its own first, so the
// others never change. Copies of a sealed pool share it the same way.
TEST(StringPool, SharedPoolsCopyOnWriteOnceSealed) {
  StringPool builder;
  StringPool a = builder.Share();
  StringPool b = builder.Share();
  const StrId relu = a.Intern("aten::relu");
  EXPECT_EQ(b.Intern("aten::relu"), relu);
  const StrId name = b.Add("%1");
  EXPECT_EQ(a.Get(name), "%1");
  EXPECT_EQ(a.size(), 3u);
  EXPECT_TRUE(a.shared());
  // Bytes are split among the handles: together they count the pool once.
  EXPECT_EQ(a.bytes(), b.bytes());
  EXPECT_LE(a.bytes() + b.bytes() + builder.bytes(), std::string("aten::relu%1").size());
  builder = StringPool();
  a.ShrinkToFit();
  // Sealed and shared, the table is kept: Find() looks up, never scans.
  EXPECT_EQ(b.Find("aten::relu"), relu);
  StringPool c(b);  // a copy of a sealed pool shares it
  EXPECT_TRUE(c.shared());
  const StrId gelu = a.Intern("aten::gelu");
  EXPECT_FALSE(a.shared());
  EXPECT_EQ(a.Get(gelu), "aten::gelu");
  EXPECT_EQ(a.Get(relu), "aten::relu");
  EXPECT_EQ(a.Get(name), "%1");
  EXPECT_EQ(b.size(), 3u);
  EXPECT_TRUE(b.Find("aten::gelu").empty());
  EXPECT_TRUE(c.Find("aten::gelu").empty());
  // Sharing a sealed, shared pool anew copies it first: c is untouched.
  StringPool d = b.Share();
  const StrId tanh = d.Intern("aten::tanh");
  EXPECT_EQ(b.Find("aten::tanh"), tanh);
  EXPECT_TRUE(c.Find("aten::tanh").empty());
  EXPECT_EQ(c.Get(relu), "aten::relu");
  // A moved-from pool is empty and takes strings again.
  StringPool moved(std::move(c));
  EXPECT_EQ(moved.Get(name), "%1");
  EXPECT_EQ(c.size(), 1u);
  EXPECT_EQ(c.Intern("q"), StrId{1});
  EXPECT_EQ(moved.Find("q"), StrId{});
  // A copy of a pool being built copies its strings, id for id.
  StringPool building;
  StringPool shared = building.Share();
  const StrId x = shared.Intern("x");
  StringPool copy(building);
  EXPECT_FALSE(copy.shared());
  shared.Intern("y");
  EXPECT_EQ(copy.Get(x), "x");
  EXPECT_TRUE(copy.Find("y").empty());
}

// Every empty pool holds one block that no pool counts: it is no pool's
// memory, and the first write to any of them takes a block of its own.
TEST(StringPool, EmptyPoolsShareNothingTheyWrite) {
  StringPool a, b;
  EXPECT_EQ(a.MemoryBytes(), 0u);
  EXPECT_EQ(a.bytes(), 0u);
  EXPECT_FALSE(a.shared());
  EXPECT_EQ(a.size(), 1u);  // the empty string, id 0
  a.ShrinkToFit();          // sealing the empty block changes nothing
  StringPool copy(a);
  EXPECT_EQ(a.Intern("aten::relu"), StrId{1});
  EXPECT_GT(a.MemoryBytes(), 0u);
  EXPECT_EQ(b.size(), 1u);
  EXPECT_EQ(copy.size(), 1u);
  EXPECT_TRUE(b.Find("aten::relu").empty());
  StringPool shared = b.Share();
  EXPECT_EQ(shared.Intern("aten::neg"), StrId{1});
  EXPECT_EQ(b.Get(StrId{1}), "aten::neg");
  EXPECT_EQ(StringPool().size(), 1u);
  EXPECT_TRUE(StringPool().Find("aten::neg").empty());
  b.Reserve(100);
  b.ReserveLookups(100);
  EXPECT_EQ(StringPool().MemoryBytes(), 0u);
}

// A hint only: asked of a pool in every state, it changes nothing.
TEST(StringPool, PrefetchInternChangesNothing) {
  StringPool p;
  p.PrefetchIntern("module::layers.0.conv");  // no lookup table yet
  p.PrefetchIntern("");
  const StrId a = p.Intern("module::layers.0.conv");
  p.PrefetchIntern("module::layers.0.conv");
  p.PrefetchIntern("layers.1.conv");
  EXPECT_EQ(p.Intern("module::layers.0.conv"), a);
  const StrId b = p.Intern("layers.1.conv");
  EXPECT_NE(a, b);
  p.ShrinkToFit();  // drops the table
  p.PrefetchIntern("layers.1.conv");
  EXPECT_EQ(p.Intern("layers.1.conv"), b);
  EXPECT_EQ(p.size(), 3u);  // the empty string and two more
}

// A suffix shares its string's bytes, wherever the string is stored, and
// keeps them through sealing and copying.
TEST(StringPool, AddSuffixSharesTheBytes) {
  StringPool p;
  const StrId op = p.Intern("module::layer1.0.conv1");
  const size_t bytes = p.bytes();
  const StrId target = p.AddSuffix(op, 8);
  EXPECT_EQ(p.Get(target), "layer1.0.conv1");
  EXPECT_EQ(p.Get(target).data(), p.Get(op).data() + 8);
  EXPECT_EQ(p.bytes(), bytes);
  EXPECT_EQ(p.AddSuffix(op, 22), StrId{});  // at the end: empty
  EXPECT_EQ(p.AddSuffix(op, 40), StrId{});
  EXPECT_EQ(p.AddSuffix(StrId{}, 0), StrId{});
  // Not looked up: interning the same text makes another id.
  EXPECT_NE(p.Intern("layer1.0.conv1"), target);
  // A long string sits in a chunk of its own; a suffix past 64 KB of it is
  // copied rather than packed.
  std::string long_text(100000, 'a');
  long_text += "tail";
  const StrId long_id = p.Add(long_text);
  const StrId near = p.AddSuffix(long_id, 10);
  const StrId far = p.AddSuffix(long_id, long_text.size() - 4);
  EXPECT_EQ(p.Get(near), long_text.substr(10));
  EXPECT_EQ(p.Get(near).data(), p.Get(long_id).data() + 10);
  EXPECT_EQ(p.Get(far), "tail");
  p.ShrinkToFit();
  EXPECT_EQ(p.Get(target), "layer1.0.conv1");
  EXPECT_EQ(p.Get(near), long_text.substr(10));
  StringPool copy = p;
  copy.Add("more");  // copied on write: every string stored again
  EXPECT_EQ(copy.Get(target), "layer1.0.conv1");
  EXPECT_EQ(copy.Get(far), "tail");
  EXPECT_EQ(copy.Get(op), "module::layer1.0.conv1");
}

TEST(StringPool, HashSpreadsShortAndLongStrings) {
  StringViewHash h;
  EXPECT_NE(h("%1"), h("%2"));
  EXPECT_NE(h("abcdefgh1"), h("abcdefgh2"));
  EXPECT_NE(h(""), h(std::string_view("\0", 1)));
  EXPECT_EQ(h("aten::convolution"), h(std::string("aten::convolution")));
}

}  // namespace
}  // namespace graphdiff
