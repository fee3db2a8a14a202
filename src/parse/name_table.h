// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The names an FX graph's code binds, each to the value it holds.
//
// One graph of 10^6 nodes binds as many names, and every operand of every
// line is looked up: the table is far bigger than the caches, so the parse
// waits on its misses. A general hash map keeps its control bytes and its
// 24-byte slots apart, two misses a lookup. Here a lookup touches one 8-byte
// slot (a hash tag and an entry index) and then the entry, and entries are
// kept in binding order: the names a line reads were mostly bound a few
// lines before, so their entries and key texts are still in cache.
#ifndef GRAPHDIFF_PARSE_NAME_TABLE_H_
#define GRAPHDIFF_PARSE_NAME_TABLE_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include "graphdiff/graph.h"
#include "util/tail_bytes.h"
#include "graphdiff/huge_page_allocator.h"
#include "util/prefetch.h"
#include "util/tag_slots.h"

namespace graphdiff {

// A fast hash for value names (short identifiers): std::hash's murmur was a
// measurable share of the parse time.
inline uint64_t HashName(std::string_view s) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ s.size();
  size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  const uint64_t tail = TailBytes(s.data(), s.size(), s.size() - i);
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 29);
}

class NameTable {
 public:
  // Room for `n` names without growing.
  void Reserve(size_t n) {
    entries_.reserve(n);
    if (n * 4 > slots_.size() * 3) Rehash(n);
  }

  // No names, for the next graph. A small table keeps its room; a big one
  // gives it back rather than be wiped for every small graph after it.
  void Clear() {
    entries_.clear();
    if (slots_.size() <= kKeptSlots) {
      std::fill(slots_.begin(), slots_.end(), 0);
    } else {
      decltype(slots_)().swap(slots_);
      std::vector<Entry>().swap(entries_);
      mask_ = 0;
    }
  }

  // The value bound to `name`, or nullptr. The pointer is good until the
  // next Set.
  const ValueRef* Find(std::string_view name) const {
    if (slots_.empty()) return nullptr;
    const uint64_t slot = slots_[SlotOf(name, Tag(name))];
    return slot == 0 ? nullptr : &entries_[static_cast<uint32_t>(slot) - 1].value;
  }

  // Asks for the slot `name` hashes to, ahead of a Set or Find of it with
  // other work in between: a slot of a big table is a cache and TLB miss.
  void Prefetch(std::string_view name) const {
    if (!slots_.empty()) PrefetchForRead(&slots_[Tag(name) & mask_]);
  }

  // Whether the table outgrew the caches (512 KiB of slots), so that a slot
  // is worth asking for ahead.
  bool Large() const { return slots_.size() > (size_t{1} << 16); }

  // Binds `name` to `value`, replacing what it held.
  void Set(std::string_view name, ValueRef value) {
    if ((entries_.size() + 1) * 4 > slots_.size() * 3) Rehash(entries_.size() + 1);
    const uint32_t tag = Tag(name);
    uint64_t& slot = slots_[SlotOf(name, tag)];
    if (slot != 0) {
      entries_[static_cast<uint32_t>(slot) - 1].value = value;
      return;
    }
    entries_.push_back(Entry{name, value});
    slot = uint64_t{tag} << 32 | entries_.size();  // the index plus one: 0 is empty
  }

 private:
  struct Entry {
    std::string_view name;
    ValueRef value;
  };

  // The hash's high half: kept in the slot, and it also picks the home slot,
  // so growing never reads a name (as StringPool's table does).
  static uint32_t Tag(std::string_view name) {
    return static_cast<uint32_t>(HashName(name) >> 32);
  }

  // The slot holding `name`, or the empty slot where it would go. The table
  // is never full, so the walk ends.
  size_t SlotOf(std::string_view name, uint32_t tag) const {
    for (size_t i = tag & mask_;; i = (i + 1) & mask_) {
      const uint64_t slot = slots_[i];
      if (slot == 0 || (static_cast<uint32_t>(slot >> 32) == tag &&
                        entries_[static_cast<uint32_t>(slot) - 1].name == name)) {
        return i;
      }
    }
  }

  // At least 4/3 of `n` slots (three quarters full at most), a power of two.
  void Rehash(size_t n) {
    size_t cap = 16;
    while (cap * 3 < n * 4) cap *= 2;
    cap = std::max(cap, slots_.size() * 2);
    RehashTagSlots(slots_, cap);
    mask_ = cap - 1;
  }

  static constexpr size_t kKeptSlots = 4096;

  // Huge pages: see huge_page_allocator.h, whose figure is this table's.
  std::vector<uint64_t, HugePageAllocator<uint64_t>> slots_;
  std::vector<Entry> entries_;
  size_t mask_ = 0;
};

}  // namespace graphdiff

#endif  // GRAPHDIFF_PARSE_NAME_TABLE_H_
