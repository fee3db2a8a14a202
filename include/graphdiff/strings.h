// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// StringPool: the interned strings a Graph refers to by StrId.
//
// Dumps repeat the same few hundred op names, dtypes and attribute keys millions
// of times; storing each once and referring to it by a 4-byte id keeps a
// million-node graph small and makes equality an integer compare.
#ifndef GRAPHDIFF_STRINGS_H_
#define GRAPHDIFF_STRINGS_H_

#include "graphdiff/export.h"
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "graphdiff/huge_page_allocator.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// A handle to a string in one StringPool. Id 0 is always the empty string, so
// a default-constructed StrId means "absent".
struct StrId {
  uint32_t id = 0;
  bool empty() const { return id == 0; }
  friend bool operator==(StrId a, StrId b) { return a.id == b.id; }
  friend bool operator!=(StrId a, StrId b) { return a.id != b.id; }
  template <typename H>
  friend H AbslHashValue(H h, StrId s) {
    return H::combine(std::move(h), s.id);
  }
};

// The pool's string hash: eight bytes a step with a strong final mix. The
// default hasher of Debian's Abseil falls back to std::hash, whose
// byte-wise murmur was a tenth of parsing a 10^6-node dump.
struct StringViewHash {
  size_t operator()(std::string_view s) const noexcept;
};

// An append-only set of strings. Views returned by Get() stay valid for the
// pool's lifetime, including across moves (storage lives in stable chunks),
// until ShrinkToFit(), which parsers call once a graph is complete.
// Copying re-interns every string into fresh storage.
class StringPool {
 public:
  StringPool();
  StringPool(const StringPool& other);
  StringPool& operator=(const StringPool& other);
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;

  StrId Intern(std::string_view s);
  // Stores `s` as a new string without looking for an equal one, for
  // strings the caller knows to be unique (IR node names, which the parser
  // checks): a million of them cost a million hash-table cache misses
  // otherwise. Intern() of an equal string later gives another id.
  StrId Add(std::string_view s);
  // Returns the id of `s` if it was interned, or an empty StrId.
  StrId Find(std::string_view s) const;
  std::string_view Get(StrId id) const { return Decode(views_[id.id]); }
  // Starts fetching what Get(id) reads, for callers that walk many ids in
  // an order memory does not follow (the other side of an alignment):
  // issued a few ids ahead, the cache misses overlap instead of queueing.
  void Prefetch(StrId id) const {
#if defined(__GNUC__)
    __builtin_prefetch(views_.data() + id.id);
#else
    (void)id;
#endif
  }
  size_t size() const { return views_.size(); }
  // Bytes held by string storage, for memory accounting.
  size_t bytes() const { return bytes_; }
  // Heap bytes of the whole pool: storage chunks, views and the index.
  size_t MemoryBytes() const;
  // Makes room for `n` strings in all, so that a parser which knows its
  // node count does not regrow the views.
  void Reserve(size_t n) { views_.reserve(n); }
  // Makes room in the lookup table for `n` distinct interned strings, so
  // that a parser that knows a lower bound skips the table's first
  // regrowths (each rehashes every string). A bound, not an estimate: room
  // beyond what the pool ends up holding is memory for nothing.
  void ReserveLookups(size_t n);
  // Gives back what growth left unused: the views' spare room and the
  // unused tail of the current storage chunk; and drops the lookup table,
  // which the next Intern() builds again (Find() scans meanwhile). Parsers
  // call it when a graph is complete; a dump of 10^5 small graphs is 10^5 pools,
  // and their spare room was a third of the graphs' memory. The current
  // chunk's strings move, so views of them from Get() before the call are
  // invalid after it: call it before handing views out (parsers do, last).
  void ShrinkToFit();

 private:
  // A stored string is 8 bytes, not a 16-byte string_view: whether it was
  // interned (1 bit), its chunk (23 bits), its offset in the chunk (16
  // bits: regular chunks are at most 64 KB, long strings start a chunk of
  // their own) and its length (24 bits). A string of 16 MB or more keeps
  // its length in the 8 bytes before it. (2^23 chunks are half a terabyte
  // of text, beyond any graph's.)
  // Strings are most of what a graph holds besides its nodes, and an HLO
  // computation has nearly five per instruction.
  static constexpr uint64_t kLengthBits = 24, kOffsetBits = 16, kChunkBits = 23;
  static constexpr uint64_t kLongLength = (uint64_t{1} << kLengthBits) - 1;
  static constexpr uint64_t kInterned = uint64_t{1} << 63;
  std::string_view Decode(uint64_t packed) const {
    const char* base = bases_[(packed >> (kLengthBits + kOffsetBits)) &
                              ((uint64_t{1} << kChunkBits) - 1)] +
                       ((packed >> kLengthBits) & ((uint64_t{1} << kOffsetBits) - 1));
    const uint64_t length = packed & kLongLength;
    return length != kLongLength ? std::string_view(base, length) : DecodeLong(base);
  }
  static std::string_view DecodeLong(const char* base);
  uint64_t Store(std::string_view s);
  uint64_t NewChunk(size_t size);

  std::vector<std::unique_ptr<char[]>> chunks_;
  // Where each chunk starts; entry 0 is a static empty string, so id 0
  // (the empty string, packed as 0) decodes without a branch.
  std::vector<const char*> bases_;
  char* cursor_ = nullptr;
  char* cursor_chunk_ = nullptr;  // start of the chunk `cursor_` points into
  uint64_t cursor_chunk_index_ = 0;
  size_t remaining_ = 0;
  size_t bytes_ = 0;
  size_t chunk_bytes_ = 0;
  size_t next_chunk_ = 0;  // size of the last regular chunk
  // The lookup table for Intern() and Find(): open addressing with linear
  // probing, one 8-byte slot per entry, `tag << 32 | id` (the tag is the
  // hash's high half, which also picks the home slot, so growing never
  // reads a string); 0 is an empty slot, as id 0 is never entered. A map
  // from string_view to id costs 24 bytes a slot; strings are most of what
  // a graph holds besides its nodes.
  uint32_t FindSlot(std::string_view s, uint32_t tag) const;
  void Grow(size_t capacity);
  // ShrinkToFit drops the table (nearly all pools are done with lookups
  // then, and it was a sixth of an HLO dump's model); the next Intern()
  // builds it again from the strings marked interned.
  void EnsureTable();

  // Both are read by id or hash in no order memory follows: huge pages.
  std::vector<uint64_t, HugePageAllocator<uint64_t>> views_;
  std::vector<uint64_t, HugePageAllocator<uint64_t>> slots_;
  size_t entries_ = 0;
};

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_STRINGS_H_
