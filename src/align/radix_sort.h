// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// A stable LSD radix sort on integer keys. Alignment sorts every node of
// both graphs more than once (anchors, the initial colouring of symmetry
// refinement); on graphs of a million nodes comparison sorting dominated
// those passes.
#ifndef GRAPHDIFF_SRC_ALIGN_RADIX_SORT_H_
#define GRAPHDIFF_SRC_ALIGN_RADIX_SORT_H_

#include <algorithm>
#include <cstdint>
#include <vector>

namespace graphdiff::align {

// Below this many items std::sort is faster.
constexpr size_t kRadixMin = 4096;

// Sorts `items` by the low `bits` bits of key(item), keeping the order of
// equal keys. `bits` is rounded up to a multiple of 16. `scratch` is grown
// to items.size() and kept by the caller for the next sort: a list of a
// million nodes is past malloc's mmap threshold, so each sort's own buffer
// was fresh pages, zeroed by the kernel and then by the vector.
template <typename T, typename Key>
void RadixSort(std::vector<T>& items, Key key, int bits, std::vector<T>& scratch) {
  const size_t n = items.size();
  if (scratch.size() < n) scratch.resize(n);
  T* from = items.data();
  T* to = scratch.data();
  std::vector<uint32_t> count(1u << 16);
  for (int shift = 0; shift < bits; shift += 16) {
    std::fill(count.begin(), count.end(), 0);
    for (size_t i = 0; i < n; ++i) ++count[(key(from[i]) >> shift) & 0xffff];
    uint32_t sum = 0;
    for (uint32_t& c : count) {
      uint32_t here = c;
      c = sum;
      sum += here;
    }
    for (size_t i = 0; i < n; ++i) to[count[(key(from[i]) >> shift) & 0xffff]++] = from[i];
    std::swap(from, to);
  }
  if (from != items.data()) std::copy(from, from + n, items.data());
}

template <typename T, typename Key>
void RadixSort(std::vector<T>& items, Key key, int bits) {
  std::vector<T> scratch;
  RadixSort(items, key, bits, scratch);
}

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_RADIX_SORT_H_
