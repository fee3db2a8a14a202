// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "testing/shared_pool.h"

#include "gtest/gtest.h"

namespace graphdiff::testing {

void ExpectWriteStaysInOneGraph(Graph& writer, const Graph& other, StrId kept,
                                std::string_view kept_text) {
  constexpr std::string_view kAlone = "a string of graph 0 alone";
  const size_t before = other.strings.size();
  const StrId added = writer.intern(kAlone);
  EXPECT_EQ(writer.str(added), kAlone);
  EXPECT_EQ(writer.str(kept), kept_text);
  EXPECT_EQ(other.strings.size(), before);
  EXPECT_TRUE(other.strings.Find(kAlone).empty());
  EXPECT_FALSE(writer.strings.shared());
}

}  // namespace graphdiff::testing
