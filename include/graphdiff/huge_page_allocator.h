// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// An allocator for the big tables that are read in no order memory follows:
// hash-table slots, the aligner's per-node arrays.
//
// A lookup in a table of many megabytes misses the TLB as well as the cache,
// and on a virtual machine a TLB miss walks two page tables: in the FX parse
// of a 10^6-node graph, the insert into the names table was a sixth of the
// time. Blocks of 2 MiB or more are placed on 2 MiB boundaries and marked for
// transparent huge pages (where the kernel offers them: on Linux with THP in
// `madvise` or `always` mode), so one TLB entry covers 512 times the table.
// Smaller blocks, and other systems, get plain operator new.
#ifndef GRAPHDIFF_HUGE_PAGE_ALLOCATOR_H_
#define GRAPHDIFF_HUGE_PAGE_ALLOCATOR_H_

#include "graphdiff/export.h"
#include <cstddef>
#include <new>

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

namespace internal {
// Blocks of at least kHugePageBytes come from here; the rest from operator new.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;
void* AllocateLarge(size_t bytes);
void DeallocateLarge(void* p, size_t bytes) noexcept;
}  // namespace internal

template <typename T>
struct HugePageAllocator {
  using value_type = T;

  HugePageAllocator() = default;
  template <typename U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}  // NOLINT

  T* allocate(size_t n) {
    if (n > static_cast<size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    const size_t bytes = n * sizeof(T);
    if (bytes < internal::kHugePageBytes) return static_cast<T*>(::operator new(bytes));
    return static_cast<T*>(internal::AllocateLarge(bytes));
  }
  void deallocate(T* p, size_t n) noexcept {
    const size_t bytes = n * sizeof(T);
    if (bytes < internal::kHugePageBytes) {
      ::operator delete(p);
    } else {
      internal::DeallocateLarge(p, bytes);
    }
  }

  friend bool operator==(HugePageAllocator, HugePageAllocator) { return true; }
  friend bool operator!=(HugePageAllocator, HugePageAllocator) { return false; }
};

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_HUGE_PAGE_ALLOCATOR_H_
