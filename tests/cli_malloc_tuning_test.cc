// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "malloc_tuning.h"

#include "gtest/gtest.h"

namespace graphdiff::cli {
namespace {

constexpr char kMadvise[] = "always [madvise] never\n";

TEST(HugePageTunables, AddsTheTunableOnlyWhenTheKernelWaitsToBeAsked) {
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, kMadvise), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, "[always] madvise never\n"), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, "always madvise [never]\n"), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, ""), std::nullopt);  // no sysfs
}

TEST(HugePageTunables, KeepsTheUsersTunablesAndTheirOwnHugetlbSetting) {
  EXPECT_EQ(HugePageTunables("glibc.malloc.arena_max=2", nullptr, kMadvise),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  EXPECT_EQ(HugePageTunables("", nullptr, kMadvise), "glibc.malloc.hugetlb=1");
  // Set by the user, or by the first run before it re-executed: never again.
  EXPECT_EQ(HugePageTunables("glibc.malloc.hugetlb=0", nullptr, kMadvise), std::nullopt);
  EXPECT_EQ(HugePageTunables("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1", nullptr, kMadvise),
            std::nullopt);
}

TEST(HugePageTunables, GraphdiffTuneMallocZeroOptsOut) {
  EXPECT_EQ(HugePageTunables(nullptr, "0", kMadvise), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, "1", kMadvise), "glibc.malloc.hugetlb=1");
}

}  // namespace
}  // namespace graphdiff::cli
