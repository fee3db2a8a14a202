// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The aligner's string hashes: fingerprints order tie-breaks, so a faster
// way to the same hash must give the very same values.
#include <string>
#include <string_view>

#include "align/hash.h"
#include "gtest/gtest.h"

namespace graphdiff::align {
namespace {

TEST(AlignHash, StringAndSuffixInOnePassAreTheHashesOfEach) {
  for (const std::string_view prefix : {"", "m", "module::", "a longer prefix than a word"}) {
    const uint64_t after = FnvBytes(kFnvBasis, prefix);
    for (const std::string_view s :
         {"", "x", "features.3.conv.0.0", "layer1.0.bn1", "\xff\x80 bytes past ASCII",
          "getattr(getattr(self.features, \"3\"), \"0\")"}) {
      uint64_t whole = 0, suffix = 0;
      HashStringAndSuffix(after, prefix.size(), s, &whole, &suffix);
      EXPECT_EQ(whole, HashString(std::string(prefix) + std::string(s))) << prefix << s;
      EXPECT_EQ(suffix, HashString(s)) << prefix << s;
    }
  }
  // The values themselves are part of the output's order: FNV-1a, mixed.
  EXPECT_EQ(HashString(""), Mix(kFnvBasis));
  EXPECT_EQ(HashString("a"), Mix(((kFnvBasis ^ 'a') * kFnvPrime) ^ 1));
}

}  // namespace
}  // namespace graphdiff::align
