// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "malloc_tuning.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
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
                                            std::string_view thp_enabled, bool host_reclaims) {
  if (opt_out != nullptr && std::string_view(opt_out) == "0") return std::nullopt;
  const std::string_view old = tunables == nullptr ? "" : tunables;
  if (old.find(kTunable) != std::string_view::npos) return std::nullopt;
  if (thp_enabled.find("[madvise]") == std::string_view::npos) return std::nullopt;
  if (host_reclaims) return std::nullopt;
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

#if defined(__linux__) && defined(__GLIBC__)
namespace {

void ReexecWithHugePages(char** argv) {
  const std::string thp = ReadSmallFile("/sys/kernel/mm/transparent_hugepage/enabled");
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const std::optional<std::string> updated = HugePageTunables(
      tunables, std::getenv("GRAPHDIFF_TUNE_MALLOC"), thp, HostReclaimsFreeMemory());
  if (!updated) return;
  const std::string old = tunables == nullptr ? "" : tunables;
  // The path, not /proc/self/exe itself: under valgrind the latter is the
  // tool's own binary, while readlink is answered for the program.
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) return;
  self[n] = '\0';
  if (setenv("GLIBC_TUNABLES", updated->c_str(), 1) != 0) return;
  execv(self, argv);
  // The exec failed (the binary was replaced while running, say): go on as
  // we are.
  if (tunables == nullptr) {
    unsetenv("GLIBC_TUNABLES");
  } else {
    setenv("GLIBC_TUNABLES", old.c_str(), 1);
  }
}

}  // namespace
#endif

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
