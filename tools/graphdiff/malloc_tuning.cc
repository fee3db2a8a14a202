// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "malloc_tuning.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif

namespace graphdiff::cli {

namespace {
constexpr std::string_view kTunable = "glibc.malloc.hugetlb";
}  // namespace

std::optional<std::string> HugePageTunables(const char* tunables, const char* opt_out,
                                            std::string_view thp_enabled) {
  if (opt_out != nullptr && std::string_view(opt_out) == "0") return std::nullopt;
  const std::string_view old = tunables == nullptr ? "" : tunables;
  if (old.find(kTunable) != std::string_view::npos) return std::nullopt;
  if (thp_enabled.find("[madvise]") == std::string_view::npos) return std::nullopt;
  std::string updated(old);
  if (!updated.empty()) updated += ':';
  updated += kTunable;
  updated += "=1";
  return updated;
}

#if defined(__linux__) && defined(__GLIBC__)
namespace {

void ReexecWithHugePages(char** argv) {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  const std::string thp((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const std::optional<std::string> updated =
      HugePageTunables(tunables, std::getenv("GRAPHDIFF_TUNE_MALLOC"), thp);
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
