// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "malloc_tuning.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"
#include "testing/cli.h"

namespace graphdiff::cli {
namespace {

constexpr char kMadvise[] = "always [madvise] never\n";

TEST(HugePageTunables, AddsTheTunableOnlyWhenTheKernelWaitsToBeAsked) {
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, kMadvise, true), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, "[always] madvise never\n", true), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, "always madvise [never]\n", true), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, "", true), std::nullopt);  // no sysfs
}

TEST(HugePageTunables, KeepsTheUsersTunablesAndTheirOwnHugetlbSetting) {
  EXPECT_EQ(HugePageTunables("glibc.malloc.arena_max=2", nullptr, kMadvise, true),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  EXPECT_EQ(HugePageTunables("", nullptr, kMadvise, true), "glibc.malloc.hugetlb=1");
  // Set by the user, or by the first run before it re-executed: never again.
  EXPECT_EQ(HugePageTunables("glibc.malloc.hugetlb=0", nullptr, kMadvise, true), std::nullopt);
  EXPECT_EQ(
      HugePageTunables("glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1", nullptr, kMadvise, true),
      std::nullopt);
}

TEST(HugePageTunables, GraphdiffTuneMallocZeroOptsOut) {
  EXPECT_EQ(HugePageTunables(nullptr, "0", kMadvise, true), std::nullopt);
  EXPECT_EQ(HugePageTunables(nullptr, "1", kMadvise, true), "glibc.malloc.hugetlb=1");
  EXPECT_EQ(HugePageTunables(nullptr, "report", kMadvise, true), "glibc.malloc.hugetlb=1");
}

TEST(HugePageTunables, NotWhereTheyDoNotPay) {
  EXPECT_EQ(HugePageTunables(nullptr, nullptr, kMadvise, false), std::nullopt);
  EXPECT_EQ(HugePageTunables("glibc.malloc.arena_max=2", nullptr, kMadvise, false), std::nullopt);
}

TEST(HugePagesPay, AlwaysWhereTheHostKeepsFreedMemory) {
  EXPECT_TRUE(HugePagesPay(false, std::nullopt));
  EXPECT_TRUE(HugePagesPay(false, FreshMemoryCost{0.4, 1.6}));
}

TEST(HugePagesPay, WhereTheHostTakesItBackOnlyWhenAHugePageIsCheaper) {
  // The two VMs the probe was written for: 4 KiB faults cheap, and dear.
  EXPECT_FALSE(HugePagesPay(true, FreshMemoryCost{0.4, 1.6}));
  EXPECT_TRUE(HugePagesPay(true, FreshMemoryCost{2.5, 1.8}));
  EXPECT_FALSE(HugePagesPay(true, FreshMemoryCost{1.0, 1.0}));
  EXPECT_FALSE(HugePagesPay(true, std::nullopt));  // not measured
}

TEST(MeasureFreshMemoryCost, TimesBothKindsOfPage) {
  const std::optional<FreshMemoryCost> cost = MeasureFreshMemoryCost();
#if defined(__linux__) && defined(__GLIBC__)
  ASSERT_TRUE(cost.has_value());
  // Touching a MiB takes some time, and far less than a second on any
  // machine that can run the suite.
  EXPECT_GT(cost->small_pages_ms_per_mib, 0);
  EXPECT_LT(cost->small_pages_ms_per_mib, 1000);
  EXPECT_GT(cost->huge_page_ms_per_mib, 0);
  EXPECT_LT(cost->huge_page_ms_per_mib, 1000);
#else
  EXPECT_FALSE(cost.has_value());
#endif
}

TEST(TuneMallocForBigGraphs, ReportSaysOnceWhatItChoseAndChangesNothingElse) {
  using graphdiff::testing::RunCli;
  const graphdiff::testing::CliResult quiet = RunCli({"--version"});
  graphdiff::testing::CliOptions options;
  options.env = {"GRAPHDIFF_TUNE_MALLOC=report"};
  const graphdiff::testing::CliResult told = RunCli({"--version"}, options);
  EXPECT_EQ(told.exit_code, quiet.exit_code);
  EXPECT_EQ(told.out, quiet.out);
  EXPECT_EQ(quiet.err, "");
  // One line, from the first run: the re-executed one does not say it again.
  ASSERT_EQ(told.err.rfind("graphdiff: malloc: ", 0), 0u) << told.err;
  EXPECT_EQ(told.err.find('\n'), told.err.size() - 1) << told.err;
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
