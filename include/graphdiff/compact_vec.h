// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// A read-mostly list that costs one pointer when empty.
//
// Some lists a node's type may hold are almost always absent (a tensor's
// strides: only some FX dumps print them). Every type of a 10^6-node graph
// carries the field, so its empty size is what counts: a std::vector or an
// InlineVec is 16 to 24 bytes of nothing, CompactVec is 8. The length lives
// in the heap block, in front of the elements. Built whole (from a
// std::vector or an initializer list) and then read; not for growing.
#ifndef GRAPHDIFF_COMPACT_VEC_H_
#define GRAPHDIFF_COMPACT_VEC_H_

#include "graphdiff/export.h"
#include <algorithm>
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
                "CompactVec holds plain values after an 8-byte length");

 public:
  using value_type = T;
  using const_iterator = const T*;
  using iterator = const T*;

  CompactVec() noexcept = default;
  CompactVec(const T* first, const T* last) { Assign(first, static_cast<size_t>(last - first)); }
  CompactVec(std::initializer_list<T> init) { Assign(init.begin(), init.size()); }
  CompactVec(const std::vector<T>& v) { Assign(v.data(), v.size()); }  // NOLINT: as a vector
  CompactVec(const CompactVec& other) { Assign(other.data(), other.size()); }
  CompactVec(CompactVec&& other) noexcept {
    set_block(other.block());
    other.set_block(nullptr);
  }
  ~CompactVec() { ::operator delete(block()); }

  CompactVec& operator=(const CompactVec& other) {
    if (this != &other) Assign(other.data(), other.size());
    return *this;
  }
  CompactVec& operator=(CompactVec&& other) noexcept {
    if (this != &other) {
      ::operator delete(block());
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
    const uint64_t* b = block();
    return b ? static_cast<size_t>(*b) : 0;
  }
  bool empty() const { return size() == 0; }
  const T* data() const {
    const uint64_t* b = block();
    return b ? reinterpret_cast<const T*>(b + 1) : nullptr;
  }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }
  const T& operator[](size_t i) const { return data()[i]; }
  // Elements held on the heap, for memory counts.
  size_t heap_capacity() const { return size(); }
  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(const CompactVec& a, const CompactVec& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const CompactVec& a, const CompactVec& b) { return !(a == b); }

 private:
  void Assign(const T* from, size_t n) {
    uint64_t* fresh = nullptr;
    if (n > 0) {
      fresh = static_cast<uint64_t*>(::operator new(sizeof(uint64_t) + n * sizeof(T)));
      *fresh = n;
      std::memcpy(fresh + 1, from, n * sizeof(T));
    }
    ::operator delete(block());
    set_block(fresh);
  }

  // The block: the length, then the elements; null when empty.
  uint64_t* block() const {
    uint64_t* b;
    std::memcpy(&b, block_, sizeof(b));
    return b;
  }
  void set_block(uint64_t* b) { std::memcpy(block_, &b, sizeof(b)); }

  // The pointer is kept as bytes so the record needs only 4-byte alignment:
  // a tensor type (and a node record) then packs without padding.
  alignas(4) unsigned char block_[sizeof(uint64_t*)] = {};
};

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_COMPACT_VEC_H_
