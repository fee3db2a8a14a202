// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "malloc_tuning.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace graphdiff::cli {
namespace {

constexpr char kMadvise[] = "always [madvise] never\n";

TEST(HugePageTunables, AddsTheTunableOnlyWhenTheKernelWaitsToBeAsked) {
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, kMadvise, false), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, "[always] madvise never\n", false), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, "always madvise [never]\n", false), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, "", false), std::nullopt);  // no sysfs
}

TEST(HugePageTunables, KeepsTheUsersTunablesAndTheirOwnHugetlbSetting) {
  EXPECT_EQ(HugePageTunables("glibc.malloc.arena_max=2", nullptr, kMadvise, false),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  EXPECT_EQ(HugePageTunables("", nullptr, kMadvise, false), "glibc.malloc.hugetlb=1");
  // Set by the user, or by the first run before it re-executed: never again.
  EXPECT_EQ(HugePageTunables("glibc.malloc.hugetlb=0", nullptr, kMadvise, false), std::nullopt);
  EXPECT_EQ(
      HugePageTunables("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1", nullptr, kMadvise, false),
      std::nullopt);
}

TEST(HugePageTunables, GraphdiffTuneMallocZeroOptsOut) {
  EXPECT_EQ(HugePageTunables(nullptr, "0", kMadvise, false), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, "1", kMadvise, false), "glibc.malloc.hugetlb=1");
}

TEST(HugePageTunables, NotWhereTheHostTakesFreeMemoryBack) {
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, kMadvise, true), std::nullopt);
  EXPECT_EQ(HugePageTunables("glibc.malloc.arena_max=2", nullptr, kMadvise, true), std::nullopt);
}

// A virtio device folder as sysfs writes it: the device id and the
// negotiated feature bits, bit 0 first.
void WriteDevice(const std::filesystem::path& root, const std::string& name,
                 const std::string& device, const std::string& features) {
  std::filesystem::create_directories(root / name);
  std::ofstream(root / name / "device") << device << "\n";
  std::ofstream(root / name / "features") << features << "\n";
}

TEST(HostReclaimsFreeMemory, ReadsTheBalloonsReportingFeature) {
  const std::filesystem::path root =
      std::filesystem::path(::testing::TempDir()) / "graphdiff_virtio_devices";
  std::filesystem::remove_all(root);
  EXPECT_FALSE(HostReclaimsFreeMemory(root.string()));  // no such folder
  // A disk with bit 5 set, and a balloon that only inflates: no reporting.
  WriteDevice(root, "virtio0", "0x0002", "0010010000000000");
  WriteDevice(root, "virtio1", "0x0005", "1110000000000000");
  EXPECT_FALSE(HostReclaimsFreeMemory(root.string()));
  WriteDevice(root, "virtio2", "0x0005", "0110010100000000");
  EXPECT_TRUE(HostReclaimsFreeMemory(root.string()));
  std::filesystem::remove_all(root);
}

}  // namespace
}  // namespace graphdiff::cli
