// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The hash tables of 8-byte slots that the string pool and the FX names table
// use: `tag << 32 | payload`, 0 for an empty slot, linear probing from the
// tag's home slot (tag & mask). The tag also picks the home, so a table grows
// without reading its keys.
#ifndef GRAPHDIFF_SRC_UTIL_TAG_SLOTS_H_
#define GRAPHDIFF_SRC_UTIL_TAG_SLOTS_H_

#include <cstddef>
#include <cstdint>

namespace graphdiff {

// Moves every slot of `slots` into a fresh table of `capacity` slots (a power
// of two, more than the slots held).
template <typename Slots>
void RehashTagSlots(Slots& slots, size_t capacity) {
  Slots old(capacity, 0);
  old.swap(slots);
  const size_t mask = capacity - 1;
  for (uint64_t slot : old) {
    if (slot == 0) continue;
    size_t at = (slot >> 32) & mask;
    while (slots[at] != 0) at = (at + 1) & mask;
    slots[at] = slot;
  }
}

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_UTIL_TAG_SLOTS_H_
