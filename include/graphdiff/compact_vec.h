// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// A read-only list that costs one pointer when empty, and one heap block
// however often it is copied.
//
// Some lists a node's type may hold are almost always absent (a tensor's
// strides: only some FX dumps print them). Every type of a 10^6-node graph
// carries the field, so its empty size is what counts: a std::vector or an
// InlineVec is 16 to 24 bytes of nothing, CompactVec is 8. The length lives
// in the heap block, in front of the elements. Built whole (from a
// std::vector or an initializer list) and then read; not for growing.
//
// Copies share the block (a count of holders lives in it): a dump that
// prints strides spells the same few lists node after node, and a block a
// node (32 to 48 bytes with malloc's header) was a tenth of the memory of
// a log of small typed FX graphs.
#ifndef GRAPHDIFF_COMPACT_VEC_H_
#define GRAPHDIFF_COMPACT_VEC_H_

#include "graphdiff/export.h"
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <vector>

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

template <typename T>
class CompactVec {
  static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= alignof(uint64_t),
                "CompactVec holds plain values after an 8-byte header");

 public:
  using value_type = T;
  using const_iterator = const T*;
  using iterator = const T*;

  CompactVec() noexcept = default;
  CompactVec(const T* first, const T* last) { Assign(first, static_cast<size_t>(last - first)); }
  CompactVec(std::initializer_list<T> init) { Assign(init.begin(), init.size()); }
  CompactVec(const std::vector<T>& v) { Assign(v.data(), v.size()); }  // NOLINT: as a vector
  CompactVec(const CompactVec& other) { set_block(Share(other.block())); }
  CompactVec(CompactVec&& other) noexcept {
    set_block(other.block());
    other.set_block(nullptr);
  }
  ~CompactVec() { Release(block()); }

  CompactVec& operator=(const CompactVec& other) {
    if (this != &other) {
      Header* shared = Share(other.block());
      Release(block());
      set_block(shared);
    }
    return *this;
  }
  CompactVec& operator=(CompactVec&& other) noexcept {
    if (this != &other) {
      Release(block());
      set_block(other.block());
      other.set_block(nullptr);
    }
    return *this;
  }
  CompactVec& operator=(const std::vector<T>& v) {
    Assign(v.data(), v.size());
    return *this;
  }
  CompactVec& operator=(std::initializer_list<T> init) {
    Assign(init.begin(), init.size());
    return *this;
  }

  size_t size() const {
    const Header* b = block();
    return b ? b->length : 0;
  }
  bool empty() const { return size() == 0; }
  const T* data() const {
    const Header* b = block();
    return b ? reinterpret_cast<const T*>(b + 1) : nullptr;
  }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  const T& operator[](size_t i) const { return data()[i]; }
  // Elements held on the heap, for memory counts: this list's share of its
  // block, so that the holders of a block add up to it.
  size_t heap_capacity() const {
    const Header* b = block();
    if (b == nullptr) return 0;
    const size_t holders = b->holders.load(std::memory_order_relaxed);
    return (b->length + holders - 1) / holders;
  }
  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(const CompactVec& a, const CompactVec& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const CompactVec& a, const CompactVec& b) { return !(a == b); }

 private:
  // In front of the elements: the length and how many lists hold the block.
  struct Header {
    uint32_t length;
    std::atomic<uint32_t> holders;
  };
  static_assert(sizeof(Header) == sizeof(uint64_t), "elements start 8 bytes in");
  // A block held this often gets no more holders: a copy then takes a
  // block of its own, and the count cannot wrap.
  static constexpr uint32_t kMaxHolders = uint32_t{1} << 31;

  void Assign(const T* from, size_t n) {
    Header* fresh = n > 0 ? NewBlock(from, n) : nullptr;
    Release(block());
    set_block(fresh);
  }
  static Header* NewBlock(const T* from, size_t n) {
    // The length is 32 bits, as the model's other lists (InlineVec) are
    // 31: a longer list (no list of a tensor's dims is) is cut, not wrapped.
    const size_t kept = std::min<size_t>(n, UINT32_MAX);
    void* raw = ::operator new(sizeof(Header) + kept * sizeof(T));
    Header* b = new (raw) Header{static_cast<uint32_t>(kept), {1}};
    std::memcpy(static_cast<void*>(b + 1), from, kept * sizeof(T));
    return b;
  }
  static Header* Share(Header* b) {
    if (b == nullptr) return nullptr;
    // Relaxed: the holder sharing it already sees the elements, and a new
    // holder only needs the count to reach Release's decrement first.
    if (b->holders.fetch_add(1, std::memory_order_relaxed) < kMaxHolders) return b;
    b->holders.fetch_sub(1, std::memory_order_relaxed);
    return NewBlock(reinterpret_cast<const T*>(b + 1), b->length);
  }
  static void Release(Header* b) {
    if (b != nullptr && b->holders.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      b->~Header();
      ::operator delete(b);
    }
  }

  // The block: its header, then the elements; null when empty.
  Header* block() const {
    Header* b;
    std::memcpy(&b, block_, sizeof(b));
    return b;
  }
  void set_block(Header* b) { std::memcpy(block_, &b, sizeof(b)); }

  // The pointer is kept as bytes so the record needs only 4-byte alignment:
  // a tensor type (and a node record) then packs without padding.
  alignas(4) unsigned char block_[sizeof(uint64_t*)] = {};
};

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_COMPACT_VEC_H_
