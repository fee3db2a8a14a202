// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/string_list.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <new>

namespace graphdiff {

namespace {

// A block held this often gets no more holders: a copy then takes a block
// of its own, and the count cannot wrap.
constexpr uint32_t kMaxHolders = uint32_t{1} << 31;

}  // namespace

StringList::StringList(const std::string_view* items, size_t count) {
  // Offsets are 32 bits: strings past 4 GB of characters (no frame list
  // comes near) are left out rather than wrapped.
  size_t kept = 0, chars = 0;
  while (kept < count && kept < std::numeric_limits<uint32_t>::max() &&
         items[kept].size() <= std::numeric_limits<uint32_t>::max() - chars) {
    chars += items[kept].size();
    ++kept;
  }
  if (kept == 0) return;
  const size_t bytes = sizeof(Header) + kept * sizeof(uint32_t) + chars;
  void* raw = ::operator new(bytes);
  block_ = new (raw) Header{static_cast<uint32_t>(kept), {1}, bytes};
  uint32_t* ends = reinterpret_cast<uint32_t*>(block_ + 1);
  char* out = reinterpret_cast<char*>(ends + kept);
  uint32_t end = 0;
  for (size_t i = 0; i < kept; ++i) {
    if (!items[i].empty()) std::memcpy(out + end, items[i].data(), items[i].size());
    end += static_cast<uint32_t>(items[i].size());
    ends[i] = end;
  }
}

StringList::StringList(const std::vector<std::string>& items) {
  std::vector<std::string_view> views(items.begin(), items.end());
  *this = StringList(views.data(), views.size());
}

StringList& StringList::operator=(const StringList& other) {
  if (this != &other) {
    Header* shared = Share(other.block_);
    Release(block_);
    block_ = shared;
  }
  return *this;
}

StringList& StringList::operator=(StringList&& other) noexcept {
  if (this != &other) {
    Release(block_);
    block_ = other.block_;
    other.block_ = nullptr;
  }
  return *this;
}

bool StringList::Holds(const std::string_view* items, size_t count) const {
  if (count != size()) return false;
  for (size_t i = 0; i < count; ++i) {
    if ((*this)[i] != items[i]) return false;
  }
  return true;
}

size_t StringList::heap_bytes() const {
  if (block_ == nullptr) return 0;
  const size_t holders = block_->holders.load(std::memory_order_relaxed);
  return (block_->bytes + holders - 1) / holders;
}

bool operator==(const StringList& a, const StringList& b) {
  if (a.block_ == b.block_) return true;
  if (a.size() != b.size()) return false;
  return std::equal(a.begin(), a.end(), b.begin());
}

StringList::Header* StringList::Share(Header* b) {
  if (b == nullptr) return nullptr;
  // Relaxed: the holder sharing it already sees the strings, and a new
  // holder only needs the count to reach Release's decrement first.
  if (b->holders.fetch_add(1, std::memory_order_relaxed) < kMaxHolders) return b;
  b->holders.fetch_sub(1, std::memory_order_relaxed);
  void* raw = ::operator new(b->bytes);
  std::memcpy(raw, static_cast<const void*>(b), b->bytes);
  return new (raw) Header{b->count, {1}, b->bytes};
}

void StringList::Release(Header* b) noexcept {
  if (b != nullptr && b->holders.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    b->~Header();
    ::operator delete(b);
  }
}

}  // namespace graphdiff
