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
// equal keys. `bits` is rounded up to a multiple of 16.
template <typename T, typename Key>
void RadixSort(std::vector<T>& items, Key key, int bits) {
  std::vector<T> tmp(items.size());
  std::vector<uint32_t> count(1u << 16);
  for (int shift = 0; shift < bits; shift += 16) {
    std::fill(count.begin(), count.end(), 0);
    for (const T& e : items) ++count[(key(e) >> shift) & 0xffff];
    uint32_t sum = 0;
    for (uint32_t& c : count) {
      uint32_t here = c;
      c = sum;
      sum += here;
    }
    for (const T& e : items) tmp[count[(key(e) >> shift) & 0xffff]++] = e;
    items.swap(tmp);
  }
}

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_RADIX_SORT_H_
