// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/strings.h"

#include <algorithm>
#include <cstring>

#include "util/tag_slots.h"

namespace graphdiff {
namespace {
// Chunks start small and double up to kChunkSize: a dump of 10^4 small HLO
// computations is 10^4 pools, and a first chunk of 64 KB each was most of
// its memory.
constexpr size_t kFirstChunkSize = 512;
constexpr size_t kChunkSize = 64 * 1024;

// Linear probing stays short below three quarters full.
bool Overfull(size_t entries, size_t capacity) { return entries * 4 >= capacity * 3; }

uint32_t TagOf(std::string_view s) {
  return static_cast<uint32_t>(static_cast<uint64_t>(StringViewHash()(s)) >> 32);
}
}  // namespace

StringPool::StringPool() {
  static const char kEmpty[1] = {0};
  bases_.push_back(kEmpty);  // chunk 0, owned by no one: chunks_[i - 1] is chunk i
  views_.push_back(0);
}

StringPool::StringPool(const StringPool& other)
    : StringPool() {
  // Id for id, so that strings stored by Add() keep theirs too; the table
  // holds ids and tags only, so it copies as is.
  views_.reserve(other.views_.size());
  for (size_t i = 1; i < other.views_.size(); ++i) {
    views_.push_back(Store(other.Decode(other.views_[i])) | (other.views_[i] & kInterned));
  }
  slots_ = other.slots_;
  entries_ = other.entries_;
}

StringPool& StringPool::operator=(const StringPool& other) {
  if (this != &other) {
    StringPool copy(other);
    *this = std::move(copy);
  }
  return *this;
}

std::string_view StringPool::DecodeLong(const char* base) {
  uint64_t length;
  std::memcpy(&length, base, sizeof(length));
  return std::string_view(base + sizeof(length), length);
}

uint64_t StringPool::NewChunk(size_t size) {
  chunks_.push_back(std::make_unique<char[]>(size));
  bases_.push_back(chunks_.back().get());
  chunk_bytes_ += size;
  return bases_.size() - 1;
}

uint64_t StringPool::Store(std::string_view s) {
  bytes_ += s.size();
  if (s.size() >= kChunkSize / 4) {
    // Long strings get a chunk of their own so a huge attribute does not
    // waste the tail of the current chunk; the cursor stays where it was.
    const bool huge = s.size() >= kLongLength;
    const size_t prefix = huge ? sizeof(uint64_t) : 0;
    const uint64_t chunk = NewChunk(prefix + s.size());
    char* at = chunks_.back().get();
    if (huge) {
      const uint64_t length = s.size();
      std::memcpy(at, &length, sizeof(length));
    }
    std::memcpy(at + prefix, s.data(), s.size());
    return chunk << (kLengthBits + kOffsetBits) | (huge ? kLongLength : s.size());
  }
  if (s.size() > remaining_) {
    next_chunk_ = next_chunk_ == 0 ? kFirstChunkSize : std::min(kChunkSize, next_chunk_ * 2);
    size_t size = std::max(next_chunk_, s.size());
    cursor_chunk_index_ = NewChunk(size);
    cursor_ = cursor_chunk_ = chunks_.back().get();
    remaining_ = size;
  }
  const auto offset = static_cast<uint64_t>(cursor_ - cursor_chunk_);
  std::memcpy(cursor_, s.data(), s.size());
  cursor_ += s.size();
  remaining_ -= s.size();
  return cursor_chunk_index_ << (kLengthBits + kOffsetBits) | offset << kLengthBits | s.size();
}

size_t StringViewHash::operator()(std::string_view s) const noexcept {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ s.size();
  const char* p = s.data();
  size_t n = s.size();
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 31;
    p += 8;
    n -= 8;
  }
  if (n > 0) {
    // The tail byte by byte, little-endian as a memcpy into `w` would put
    // it: a memcpy of variable length is a library call.
    uint64_t w = 0;
    for (size_t i = 0; i < n; ++i) w |= uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    h = (h ^ w) * 0x94d049bb133111ebULL;
    h ^= h >> 29;
  }
  h ^= h >> 32;
  h *= 0xd6e8feb86659fd93ULL;
  h ^= h >> 32;
  return static_cast<size_t>(h);
}

StrId StringPool::Add(std::string_view s) {
  if (s.empty()) return StrId{};
  uint32_t id = static_cast<uint32_t>(views_.size());
  views_.push_back(Store(s));
  return StrId{id};
}

void StringPool::EnsureTable() {
  if (!slots_.empty()) return;
  size_t capacity = 16;
  while (Overfull(entries_ + 1, capacity)) capacity *= 2;
  // The interned strings' slots in a list, which Grow() places by their
  // tags alone: interned strings are distinct, so no probe compares text.
  for (size_t id = 1; id < views_.size(); ++id) {
    if (views_[id] & kInterned) slots_.push_back(uint64_t{TagOf(Decode(views_[id]))} << 32 | id);
  }
  Grow(capacity);
}

StrId StringPool::Intern(std::string_view s) {
  if (s.empty()) return StrId{};
  EnsureTable();
  uint32_t tag = TagOf(s);
  uint32_t at = FindSlot(s, tag);
  if (slots_[at] != 0) return StrId{static_cast<uint32_t>(slots_[at])};
  if (Overfull(entries_ + 1, slots_.size())) {
    Grow(slots_.size() * 2);
    at = FindSlot(s, tag);
  }
  uint32_t id = static_cast<uint32_t>(views_.size());
  views_.push_back(Store(s) | kInterned);
  slots_[at] = uint64_t{tag} << 32 | id;
  ++entries_;
  return StrId{id};
}

StrId StringPool::Find(std::string_view s) const {
  if (s.empty() || entries_ == 0) return StrId{};
  if (slots_.empty()) {
    // The table was dropped: a scan of the interned strings. The lookup or
    // two a graph gets after its parse cost less than keeping the table.
    for (size_t id = 1; id < views_.size(); ++id) {
      if ((views_[id] & kInterned) && Decode(views_[id]) == s) {
        return StrId{static_cast<uint32_t>(id)};
      }
    }
    return StrId{};
  }
  uint32_t at = FindSlot(s, TagOf(s));
  return StrId{static_cast<uint32_t>(slots_[at])};
}

// The slot holding `s`, or the empty slot where it would go. The table is
// never full, so the walk ends.
uint32_t StringPool::FindSlot(std::string_view s, uint32_t tag) const {
  size_t mask = slots_.size() - 1;
  for (size_t at = tag & mask;; at = (at + 1) & mask) {
    uint64_t slot = slots_[at];
    if (slot == 0) return static_cast<uint32_t>(at);
    if (static_cast<uint32_t>(slot >> 32) == tag &&
        Decode(views_[static_cast<uint32_t>(slot)]) == s) {
      return static_cast<uint32_t>(at);
    }
  }
}

void StringPool::Grow(size_t capacity) { RehashTagSlots(slots_, capacity); }

void StringPool::ReserveLookups(size_t n) {
  EnsureTable();
  size_t capacity = 16;
  while (Overfull(n, capacity)) capacity *= 2;
  if (capacity > slots_.size()) Grow(capacity);
}

void StringPool::ShrinkToFit() {
  views_.shrink_to_fit();
  decltype(slots_)().swap(slots_);
  // The current chunk's unused tail: move its strings into a block of
  // their size. Small pools are where this matters (a first chunk of 512
  // bytes for 200 of text), so copying them is cheap.
  if (cursor_chunk_ == nullptr || remaining_ == 0) return;
  if (cursor_chunk_index_ == 0 || cursor_chunk_index_ > chunks_.size() ||
      chunks_[cursor_chunk_index_ - 1].get() != cursor_chunk_) {
    // A moved-from pool: its chunks went with the move.
    cursor_ = cursor_chunk_ = nullptr;
    remaining_ = 0;
    return;
  }
  // Stored strings name their chunk by index and offset, so the fitted
  // block takes the chunk's place and no view changes.
  const size_t used = static_cast<size_t>(cursor_ - cursor_chunk_);
  auto fitted = std::make_unique<char[]>(std::max<size_t>(used, 1));
  std::memcpy(fitted.get(), cursor_chunk_, used);
  bases_[cursor_chunk_index_] = fitted.get();
  chunks_[cursor_chunk_index_ - 1] = std::move(fitted);
  chunk_bytes_ -= remaining_;
  chunks_.shrink_to_fit();
  bases_.shrink_to_fit();
  cursor_ = cursor_chunk_ = nullptr;
  remaining_ = 0;
}

size_t StringPool::MemoryBytes() const {
  return chunk_bytes_ + chunks_.capacity() * sizeof(chunks_[0]) +
         bases_.capacity() * sizeof(bases_[0]) + views_.capacity() * sizeof(views_[0]) +
         slots_.capacity() * sizeof(uint64_t);
}

}  // namespace graphdiff
