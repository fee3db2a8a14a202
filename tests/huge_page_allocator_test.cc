// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/huge_page_allocator.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace graphdiff {
namespace {

TEST(HugePageAllocator, LargeBlocksAreAlignedAndHoldTheirValues) {
  std::vector<uint64_t, HugePageAllocator<uint64_t>> big(3 << 20);  // 24 MiB
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big.data()) % internal::kHugePageBytes, 0u);
  for (size_t i = 0; i < big.size(); ++i) big[i] = i * 2654435761u;
  big.resize(big.size() + 12345);  // regrows into another large block
  bool same = true;
  for (size_t i = 0; i < (size_t{3} << 20); ++i) same = same && big[i] == i * 2654435761u;
  EXPECT_TRUE(same);
  std::vector<uint32_t, HugePageAllocator<uint32_t>> small(100, 7);
  small.push_back(8);
  EXPECT_EQ(small.back(), 8u);
  EXPECT_EQ(small.front(), 7u);
}

}  // namespace
}  // namespace graphdiff
