// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "malloc_tuning.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#endif

namespace graphdiff::cli {

namespace {
constexpr std::string_view kTunable = "glibc.malloc.hugetlb";

std::string ReadSmallFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
}  // namespace

std::optional<std::string> HugePageTunables(const char* tunables, const char* opt_out,
                                            std::string_view thp_enabled, bool huge_pages_pay) {
  if (opt_out != nullptr && std::string_view(opt_out) == "0") return std::nullopt;
  const std::string_view old = tunables == nullptr ? "" : tunables;
  if (old.find(kTunable) != std::string_view::npos) return std::nullopt;
  if (thp_enabled.find("[madvise]") == std::string_view::npos) return std::nullopt;
  if (!huge_pages_pay) return std::nullopt;
  std::string updated(old);
  if (!updated.empty()) updated += ':';
  updated += kTunable;
  updated += "=1";
  return updated;
}

bool HostReclaimsFreeMemory(const std::string& devices) {
  // The virtio ids: a memory balloon is device 5; its feature bit 5 is
  // VIRTIO_BALLOON_F_REPORTING, and sysfs writes the negotiated features as
  // one '0' or '1' per bit, bit 0 first.
  constexpr std::string_view kBalloon = "0x0005";
  constexpr size_t kReportingBit = 5;
  // increment(error), not a range-for: the tool's start must not throw.
  std::error_code error;
  for (std::filesystem::directory_iterator it(devices, error), end; !error && it != end;
       it.increment(error)) {
    const std::string device = ReadSmallFile(it->path() / "device");
    if (std::string_view(device).substr(0, kBalloon.size()) != kBalloon) continue;
    const std::string features = ReadSmallFile(it->path() / "features");
    if (features.size() > kReportingBit && features[kReportingBit] == '1') return true;
  }
  return false;
}

bool HugePagesPay(bool host_reclaims, const std::optional<FreshMemoryCost>& cost) {
  if (!host_reclaims) return true;
  return cost.has_value() && cost->huge_page_ms_per_mib < cost->small_pages_ms_per_mib;
}

#if defined(__linux__) && defined(__GLIBC__)
namespace {

constexpr size_t kPage = 4096;
constexpr size_t kHuge = size_t{2} << 20;

double NowMs() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

// Writes a byte to every 4 KiB page of [p, p + bytes); the milliseconds taken.
double TouchMs(char* p, size_t bytes) {
  const double start = NowMs();
  for (size_t i = 0; i < bytes; i += kPage) static_cast<volatile char*>(p)[i] = 1;
  return NowMs() - start;
}

void ReexecWithHugePages(char** argv) {
  const std::string thp = ReadSmallFile("/sys/kernel/mm/transparent_hugepage/enabled");
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const char* opt_out = std::getenv("GRAPHDIFF_TUNE_MALLOC");
  const bool report = opt_out != nullptr && std::string_view(opt_out) == "report";
  // The probe runs only where it decides something: not when the user has
  // chosen, the kernel does not wait to be asked, or this is the re-run.
  const std::optional<std::string> updated =
      HugePageTunables(tunables, opt_out, thp, /*huge_pages_pay=*/true);
  if (!updated) {
    if (report) {
      std::fprintf(stderr,
                   "graphdiff: malloc: as GLIBC_TUNABLES (%s) and the kernel's THP mode (%s) say\n",
                   tunables == nullptr ? "unset" : tunables,
                   std::string(thp.substr(0, thp.find('\n'))).c_str());
    }
    return;
  }
  const bool host_reclaims = HostReclaimsFreeMemory();
  std::optional<FreshMemoryCost> cost;
  if (host_reclaims) cost = MeasureFreshMemoryCost();
  const bool pay = HugePagesPay(host_reclaims, cost);
  if (report) {
    std::fprintf(stderr, "graphdiff: malloc: %s", pay ? "huge pages" : "4 KiB pages");
    if (cost) {
      std::fprintf(stderr,
                   " (the host takes free memory back; fresh memory: %.2f ms a MiB in 4 KiB "
                   "pages, %.2f in a huge page)",
                   cost->small_pages_ms_per_mib, cost->huge_page_ms_per_mib);
    }
    std::fprintf(stderr, "\n");
  }
  if (!pay) return;
  const std::string old = tunables == nullptr ? "" : tunables;
  // The path, not /proc/self/exe itself: under valgrind the latter is the
  // tool's own binary, while readlink is answered for the program.
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) return;
  self[n] = '\0';
  if (setenv("GLIBC_TUNABLES", updated->c_str(), 1) != 0) return;
  // The re-run would report again, that it was left to GLIBC_TUNABLES.
  if (report) setenv("GRAPHDIFF_TUNE_MALLOC", "1", 1);
  execv(self, argv);
  // The exec failed (the binary was replaced while running, say): go on as
  // we are.
  if (tunables == nullptr) {
    unsetenv("GLIBC_TUNABLES");
  } else {
    setenv("GLIBC_TUNABLES", old.c_str(), 1);
  }
  if (report) setenv("GRAPHDIFF_TUNE_MALLOC", "report", 1);
}

}  // namespace
#endif

std::optional<FreshMemoryCost> MeasureFreshMemoryCost() {
#if defined(__linux__) && defined(__GLIBC__)
  // One mapping: a MiB of 4 KiB pages, then up to kMostHuge 2 MiB blocks on
  // 2 MiB boundaries (mapped a block more than needed so they lie inside).
  constexpr size_t kSmall = size_t{1} << 20;
  constexpr size_t kMostHuge = 16;
  const size_t length = kSmall + (kMostHuge + 1) * kHuge;
  void* base = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return std::nullopt;
  char* small = static_cast<char*>(base);
  const auto after_small = reinterpret_cast<uintptr_t>(small + kSmall);
  char* huge = reinterpret_cast<char*>((after_small + kHuge - 1) & ~(uintptr_t{kHuge} - 1));
  madvise(small, kSmall, MADV_NOHUGEPAGE);
  madvise(huge, kMostHuge * kHuge, MADV_HUGEPAGE);
  FreshMemoryCost cost;
  cost.small_pages_ms_per_mib = TouchMs(small, kSmall);
  // The first huge pages handed out are the blocks freed last, which the
  // host still backs (a run just ended): on the VM that prompted the probe
  // the first 5 to 12 took 0.07 ms a MiB and the rest 1.6 to 2.0. A run of
  // a million nodes needs hundreds, so the probe goes on to the first block
  // four times dearer than the cheapest (or to the 16th), and keeps the
  // dearest.
  double cheapest = 0;
  for (size_t i = 0; i < kMostHuge; ++i) {
    const double ms = TouchMs(huge + i * kHuge, kHuge) / 2;
    cost.huge_page_ms_per_mib = std::max(cost.huge_page_ms_per_mib, ms);
    if (i == 0 || ms < cheapest) cheapest = ms;
    if (ms > 4 * cheapest) break;
  }
  munmap(base, length);
  return cost;
#else
  return std::nullopt;
#endif
}

void TuneMallocForBigGraphs(char** argv) {
#if defined(__linux__) && defined(__GLIBC__)
  const char* opt_out = std::getenv("GRAPHDIFF_TUNE_MALLOC");
  if (opt_out != nullptr && std::string_view(opt_out) == "0") return;
  ReexecWithHugePages(argv);
  // 32 MiB is the most glibc takes for the mmap threshold; setting the trim
  // threshold would otherwise also freeze the mmap threshold at 128 KiB.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TOP_PAD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#else
  (void)argv;
#endif
}

}  // namespace graphdiff::cli
