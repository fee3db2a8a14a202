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
//
// The graphs of one dump can share one pool (Share()): a dump of 10^5 small
// HLO modules repeats the same op names, layouts and keys in every module,
// and a pool per graph held each again, nearly five strings per instruction.
// Once sealed (ShrinkToFit), a shared pool is copied on write: a pool that
// changes while others share its strings first takes a copy of its own, so
// a graph's strings change only through it. Copying a sealed pool shares
// it; copying one being built copies every string, id for id.
class StringPool {
 public:
  StringPool();
  StringPool(const StringPool& other);
  StringPool& operator=(const StringPool& other);
  // A moved-from pool is empty and usable.
  StringPool(StringPool&& other) noexcept;
  StringPool& operator=(StringPool&& other) noexcept;
  ~StringPool();

  // Another handle on this pool's strings, for a parser that builds many
  // graphs from one text: what either interns, both see, and ids stay
  // valid, until ShrinkToFit() seals the pool. Writes through handles of
  // an unsealed pool are for one thread at a time. A sealed pool shared
  // with others is copied first, so their strings never change.
  StringPool Share();

  StrId Intern(std::string_view s);
  // Stores `s` as a new string without looking for an equal one, for
  // strings the caller knows to be unique (IR node names, which the parser
  // checks): a million of them cost a million hash-table cache misses
  // otherwise. Intern() of an equal string later gives another id.
  StrId Add(std::string_view s);
  // Stores the end of string `of`, from byte `pos` on, as a new string, as
  // Add() does, but sharing `of`'s bytes instead of copying them: an FX
  // module call's target (`layer1.0.conv1`) is the end of its op
  // (`module::layer1.0.conv1`), and a deep model has a million of them.
  // The empty string when `pos` is at or past the end.
  StrId AddSuffix(StrId of, size_t pos);
  // Returns the id of `s` if it was interned, or an empty StrId.
  StrId Find(std::string_view s) const;
  std::string_view Get(StrId id) const { return rep_->Decode(rep_->views[id.id]); }
  // Starts fetching what Get(id) reads, for callers that walk many ids in
  // an order memory does not follow (the other side of an alignment):
  // issued a few ids ahead, the cache misses overlap instead of queueing.
  void Prefetch(StrId id) const {
#if defined(__GNUC__)
    __builtin_prefetch(rep_->views.data() + id.id);
#else
    (void)id;
#endif
  }
  // Starts fetching the lookup-table slot Intern(s) reads first, for a
  // caller about to intern several strings no earlier call brought into
  // cache (the op, raw op and target of a module call): their misses then
  // overlap instead of queueing.
  void PrefetchIntern(std::string_view s) const;
  // Distinct strings Intern() has stored, counting every graph that shares
  // the pool.
  size_t interned() const { return rep_->entries; }
  // Strings held, counting those of every graph that shares the pool: ids
  // are below it. An array indexed by id, made for each graph, should not
  // be sized by it alone: for 10^5 graphs sharing one pool, that is
  // quadratic.
  size_t size() const { return rep_->views.size(); }
  // Bytes held by string storage, for memory accounting; a shared pool's
  // are split evenly among the pools that share it.
  size_t bytes() const;
  // Heap bytes of the whole pool: storage chunks, views and the index,
  // split as bytes() is.
  size_t MemoryBytes() const;
  // Whether other pools share these strings.
  bool shared() const { return rep_.use_count() > 1; }
  // The same for pools that share their strings (copies of a sealed pool,
  // Share()): ids of two such pools name the same strings. For keys only.
  const void* identity() const { return rep_.get(); }
  // Makes room for `n` strings in all, so that a parser which knows its
  // node count does not regrow the views.
  void Reserve(size_t n);
  // Makes room in the lookup table for `n` distinct interned strings, so
  // that a parser that knows a lower bound skips the table's first
  // regrowths (each rehashes every string). Room beyond what the pool ends
  // up holding is memory for nothing until ShrinkToFit() drops the table.
  void ReserveLookups(size_t n);
  // Seals the pool and gives back what growth left unused: the views'
  // spare room (when over an eighth of them: a parser that reserved
  // for its estimate leaves a little, in pages never touched, and fitting
  // them copied every view into fresh pages) and the unused tail of the
  // current storage chunk. An unshared
  // pool also drops its lookup table, which the next Intern() builds again
  // (Find() scans meanwhile); a shared one keeps it, as a scan would read
  // every graph's strings. Parsers call it when a graph (or the graphs
  // sharing a pool) is complete; a dump of 10^5 small graphs was 10^5
  // pools, and their spare room was a third of the graphs' memory. The
  // current chunk's strings move, so views of them from Get() before the
  // call are invalid after it: call it before handing views out (parsers
  // do, last).
  void ShrinkToFit();

 private:
  // A stored string is 8 bytes, not a 16-byte string_view: whether it was
  // interned (1 bit), its chunk (23 bits), its offset in the chunk (16
  // bits: regular chunks are at most 64 KB, long strings start a chunk of
  // their own) and its length (24 bits). A string of 16 MB or more keeps
  // its length in the 8 bytes before it. (2^23 chunks are half a terabyte
  // of text, beyond any graph's.)
  static constexpr uint64_t kLengthBits = 24, kOffsetBits = 16, kChunkBits = 23;
  static constexpr uint64_t kLongLength = (uint64_t{1} << kLengthBits) - 1;
  static constexpr uint64_t kInterned = uint64_t{1} << 63;

  // The strings themselves, held by every pool that shares them.
  struct Rep {
    Rep();
    std::string_view Decode(uint64_t packed) const {
      const char* base = bases[(packed >> (kLengthBits + kOffsetBits)) &
                               ((uint64_t{1} << kChunkBits) - 1)] +
                         ((packed >> kLengthBits) & ((uint64_t{1} << kOffsetBits) - 1));
      const uint64_t length = packed & kLongLength;
      return length != kLongLength ? std::string_view(base, length) : DecodeLong(base);
    }
    uint64_t Store(std::string_view s);
    uint64_t NewChunk(size_t size);
    // The slot holding `s`, or the empty slot where it would go.
    uint32_t FindSlot(std::string_view s, uint32_t tag) const;
    void Grow(size_t capacity);
    // ShrinkToFit may drop the table (nearly all pools are done with
    // lookups then, and it was a sixth of an HLO dump's model); the next
    // Intern() builds it again from the strings marked interned.
    void EnsureTable();
    void Shrink(bool keep_table);
    size_t MemoryBytes() const;

    std::vector<std::unique_ptr<char[]>> chunks;
    // Where each chunk starts; entry 0 is a static empty string, so id 0
    // (the empty string, packed as 0) decodes without a branch.
    std::vector<const char*> bases;
    char* cursor = nullptr;
    char* cursor_chunk = nullptr;  // start of the chunk `cursor` points into
    uint64_t cursor_chunk_index = 0;
    size_t remaining = 0;
    size_t bytes = 0;
    size_t chunk_bytes = 0;
    size_t next_chunk = 0;  // size of the last regular chunk
    // Both are read by id or hash in no order memory follows: huge pages.
    std::vector<uint64_t, HugePageAllocator<uint64_t>> views;
    // The lookup table for Intern() and Find(): open addressing with
    // linear probing, one 8-byte slot per entry, `tag << 32 | id` (the tag
    // is the hash's high half, which also picks the home slot, so growing
    // never reads a string); 0 is an empty slot, as id 0 is never entered.
    // A map from string_view to id costs 24 bytes a slot.
    std::vector<uint64_t, HugePageAllocator<uint64_t>> slots;
    size_t entries = 0;
    // Set by ShrinkToFit: from then on, writes copy a shared Rep first.
    bool sealed = false;
  };
  static std::string_view DecodeLong(const char* base);
  // The Rep to write to: this pool's own, copied first if it is sealed and
  // shared.
  Rep& Writable();
  static std::shared_ptr<Rep> CopyOf(const Rep& rep);

  std::shared_ptr<Rep> rep_;
};

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_STRINGS_H_
