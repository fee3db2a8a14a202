// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/strings.h"

#include <algorithm>
#include <cstring>

#include "util/prefetch.h"
#include "util/tag_slots.h"
#include "util/tail_bytes.h"

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

StringPool::Rep::Rep() {
  static const char kEmpty[1] = {0};
  bases.push_back(kEmpty);  // chunk 0, owned by no one: chunks[i - 1] is chunk i
  views.push_back(0);
}

StringPool::StringPool() {
  // What default-constructed and moved-from pools hold: sealed and held by
  // no count (use_count() 0), so the first write takes a Rep of its own, an
  // empty pool allocates nothing, and making, moving or dropping one is no
  // atomic write. Every graph is made, moved and dropped through such
  // pools; with a count on one shared block, two threads parsing small
  // records took the count's cache line from each other at every move.
  static Rep* const empty = [] {
    Rep* rep = new Rep();  // never freed: pools hold it until exit
    rep->sealed = true;
    return rep;
  }();
  rep_ = std::shared_ptr<Rep>(std::shared_ptr<Rep>(), empty);
}

StringPool::~StringPool() = default;

StringPool::StringPool(StringPool&& other) noexcept : StringPool() { rep_.swap(other.rep_); }

StringPool& StringPool::operator=(StringPool&& other) noexcept {
  if (this != &other) {
    rep_ = std::move(other.rep_);
    other.rep_ = StringPool().rep_;
  }
  return *this;
}

std::shared_ptr<StringPool::Rep> StringPool::CopyOf(const Rep& rep) {
  auto copy = std::make_shared<Rep>();
  // Id for id, so that strings stored by Add() keep theirs too; the table
  // holds ids and tags only, so it copies as is.
  copy->views.reserve(rep.views.size());
  for (size_t i = 1; i < rep.views.size(); ++i) {
    copy->views.push_back(copy->Store(rep.Decode(rep.views[i])) | (rep.views[i] & kInterned));
  }
  copy->slots = rep.slots;
  copy->entries = rep.entries;
  return copy;
}

StringPool::StringPool(const StringPool& other) : rep_(other.rep_) {
  // A pool being built is still written through the other handle: copy it.
  if (!rep_->sealed) rep_ = CopyOf(*rep_);
}

StringPool& StringPool::operator=(const StringPool& other) {
  if (this != &other) *this = StringPool(other);
  return *this;
}

StringPool StringPool::Share() {
  Writable().sealed = false;
  StringPool pool;
  pool.rep_ = rep_;
  return pool;
}

StringPool::Rep& StringPool::Writable() {
  // A count of one cannot be stale: a new sharer is only ever made from a
  // pool that holds the Rep (a copy, Share()), so when this pool is the one
  // holder, only this pool could make another.
  if (rep_->sealed && rep_.use_count() != 1) rep_ = CopyOf(*rep_);
  return *rep_;
}

std::string_view StringPool::DecodeLong(const char* base) {
  uint64_t length;
  std::memcpy(&length, base, sizeof(length));
  return std::string_view(base + sizeof(length), length);
}

uint64_t StringPool::Rep::NewChunk(size_t size) {
  // Not value-initialised: every byte handed out is written first, and
  // zeroing a chunk only to overwrite it was a second pass over the text.
  chunks.push_back(std::unique_ptr<char[]>(new char[size]));
  bases.push_back(chunks.back().get());
  chunk_bytes += size;
  return bases.size() - 1;
}

uint64_t StringPool::Rep::Store(std::string_view s) {
  bytes += s.size();
  if (s.size() >= kChunkSize / 4) {
    // Long strings get a chunk of their own so a huge attribute does not
    // waste the tail of the current chunk; the cursor stays where it was.
    const bool huge = s.size() >= kLongLength;
    const size_t prefix = huge ? sizeof(uint64_t) : 0;
    const uint64_t chunk = NewChunk(prefix + s.size());
    char* at = chunks.back().get();
    if (huge) {
      const uint64_t length = s.size();
      std::memcpy(at, &length, sizeof(length));
    }
    std::memcpy(at + prefix, s.data(), s.size());
    return chunk << (kLengthBits + kOffsetBits) | (huge ? kLongLength : s.size());
  }
  if (s.size() > remaining) {
    next_chunk = next_chunk == 0 ? kFirstChunkSize : std::min(kChunkSize, next_chunk * 2);
    size_t size = std::max(next_chunk, s.size());
    cursor_chunk_index = NewChunk(size);
    cursor = cursor_chunk = chunks.back().get();
    remaining = size;
  }
  const auto offset = static_cast<uint64_t>(cursor - cursor_chunk);
  std::memcpy(cursor, s.data(), s.size());
  cursor += s.size();
  remaining -= s.size();
  return cursor_chunk_index << (kLengthBits + kOffsetBits) | offset << kLengthBits | s.size();
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
    const uint64_t w = TailBytes(s.data(), s.size(), n);
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
  Rep& r = Writable();
  uint32_t id = static_cast<uint32_t>(r.views.size());
  r.views.push_back(r.Store(s));
  return StrId{id};
}

StrId StringPool::AddSuffix(StrId of, size_t pos) {
  Rep& r = Writable();
  const std::string_view text = Get(of);
  if (pos >= text.size()) return StrId{};
  const uint64_t packed = r.views[of.id];
  const uint64_t length = packed & kLongLength;
  const uint64_t offset = (packed >> kLengthBits) & ((uint64_t{1} << kOffsetBits) - 1);
  // A string of 16 MB or more keeps its length before its bytes, and an
  // offset past 16 bits does not fit the packing: those are copied.
  if (length == kLongLength || offset + pos >= (uint64_t{1} << kOffsetBits)) {
    return Add(text.substr(pos));
  }
  const uint64_t chunk = packed >> (kLengthBits + kOffsetBits) & ((uint64_t{1} << kChunkBits) - 1);
  const auto id = static_cast<uint32_t>(r.views.size());
  r.views.push_back(chunk << (kLengthBits + kOffsetBits) | (offset + pos) << kLengthBits |
                    (length - pos));
  return StrId{id};
}

void StringPool::Rep::EnsureTable() {
  if (!slots.empty()) return;
  size_t capacity = 16;
  while (Overfull(entries + 1, capacity)) capacity *= 2;
  // The interned strings' slots in a list, which Grow() places by their
  // tags alone: interned strings are distinct, so no probe compares text.
  for (size_t id = 1; id < views.size(); ++id) {
    if (views[id] & kInterned) slots.push_back(uint64_t{TagOf(Decode(views[id]))} << 32 | id);
  }
  Grow(capacity);
}

void StringPool::PrefetchIntern(std::string_view s) const {
  const Rep& r = *rep_;
  if (s.empty() || r.slots.empty()) return;
  PrefetchForRead(r.slots.data() + (TagOf(s) & (r.slots.size() - 1)));
}

StrId StringPool::Intern(std::string_view s) {
  if (s.empty()) return StrId{};
  Rep& r = Writable();
  r.EnsureTable();
  uint32_t tag = TagOf(s);
  uint32_t at = r.FindSlot(s, tag);
  if (r.slots[at] != 0) return StrId{static_cast<uint32_t>(r.slots[at])};
  if (Overfull(r.entries + 1, r.slots.size())) {
    r.Grow(r.slots.size() * 2);
    at = r.FindSlot(s, tag);
  }
  uint32_t id = static_cast<uint32_t>(r.views.size());
  r.views.push_back(r.Store(s) | kInterned);
  r.slots[at] = uint64_t{tag} << 32 | id;
  ++r.entries;
  return StrId{id};
}

StrId StringPool::Find(std::string_view s) const {
  const Rep& r = *rep_;
  if (s.empty() || r.entries == 0) return StrId{};
  if (r.slots.empty()) {
    // The table was dropped: a scan of the interned strings. The lookup or
    // two a graph gets after its parse cost less than keeping the table.
    // The packed length rules out nearly every string without reading its
    // bytes: the scan of a pool of 10^6 module paths reads only the views.
    const uint64_t length = s.size() >= kLongLength ? kLongLength : s.size();
    for (size_t id = 1; id < r.views.size(); ++id) {
      const uint64_t packed = r.views[id];
      if ((packed & kInterned) && (packed & kLongLength) == length && r.Decode(packed) == s) {
        return StrId{static_cast<uint32_t>(id)};
      }
    }
    return StrId{};
  }
  uint32_t at = r.FindSlot(s, TagOf(s));
  return StrId{static_cast<uint32_t>(r.slots[at])};
}

// The table is never full, so the walk ends.
uint32_t StringPool::Rep::FindSlot(std::string_view s, uint32_t tag) const {
  size_t mask = slots.size() - 1;
  for (size_t at = tag & mask;; at = (at + 1) & mask) {
    uint64_t slot = slots[at];
    if (slot == 0) return static_cast<uint32_t>(at);
    if (static_cast<uint32_t>(slot >> 32) == tag &&
        Decode(views[static_cast<uint32_t>(slot)]) == s) {
      return static_cast<uint32_t>(at);
    }
  }
}

void StringPool::Rep::Grow(size_t capacity) { RehashTagSlots(slots, capacity); }

void StringPool::Reserve(size_t n) { Writable().views.reserve(n); }

void StringPool::ReserveLookups(size_t n) {
  Rep& r = Writable();
  r.EnsureTable();
  size_t capacity = 16;
  while (Overfull(n, capacity)) capacity *= 2;
  if (capacity > r.slots.size()) r.Grow(capacity);
}

void StringPool::ShrinkToFit() {
  // A sealed pool is fitted already; fitting it again would copy a
  // shared one for nothing.
  if (rep_->sealed) return;
  rep_->Shrink(/*keep_table=*/shared());
  rep_->sealed = true;
}

void StringPool::Rep::Shrink(bool keep_table) {
  if (views.capacity() - views.size() > views.size() / 8) views.shrink_to_fit();
  if (keep_table) {
    slots.shrink_to_fit();
  } else {
    decltype(slots)().swap(slots);
  }
  // The current chunk's unused tail: move its strings into a block of
  // their size. Small pools are where this matters (a first chunk of 512
  // bytes for 200 of text), so copying them is cheap.
  if (cursor_chunk == nullptr || remaining == 0) return;
  // Stored strings name their chunk by index and offset, so the fitted
  // block takes the chunk's place and no view changes.
  const size_t used = static_cast<size_t>(cursor - cursor_chunk);
  auto fitted = std::make_unique<char[]>(std::max<size_t>(used, 1));
  std::memcpy(fitted.get(), cursor_chunk, used);
  bases[cursor_chunk_index] = fitted.get();
  chunks[cursor_chunk_index - 1] = std::move(fitted);
  chunk_bytes -= remaining;
  chunks.shrink_to_fit();
  bases.shrink_to_fit();
  cursor = cursor_chunk = nullptr;
  remaining = 0;
}

size_t StringPool::Rep::MemoryBytes() const {
  return chunk_bytes + chunks.capacity() * sizeof(chunks[0]) +
         bases.capacity() * sizeof(bases[0]) + views.capacity() * sizeof(views[0]) +
         slots.capacity() * sizeof(uint64_t);
}

size_t StringPool::bytes() const {
  const long holders = rep_.use_count();
  return holders > 0 ? rep_->bytes / static_cast<size_t>(holders) : 0;
}

size_t StringPool::MemoryBytes() const {
  // The empty pool (no holder count) is no graph's memory.
  const long holders = rep_.use_count();
  return holders > 0 ? (sizeof(Rep) + rep_->MemoryBytes()) / static_cast<size_t>(holders) : 0;
}

}  // namespace graphdiff
