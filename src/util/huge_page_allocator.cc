// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/huge_page_allocator.h"

#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace graphdiff::internal {

void* AllocateLarge(size_t bytes) {
  // aligned_alloc wants a multiple of the alignment; the rounding is address
  // space, and the kernel backs only the pages that are touched.
  const size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* p = std::aligned_alloc(kHugePageBytes, rounded);
  if (p == nullptr) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: where THP is off, the block is ordinary pages.
  madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

void DeallocateLarge(void* p, size_t /*bytes*/) noexcept { std::free(p); }

}  // namespace graphdiff::internal
