// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// A vector that keeps its first N elements inside itself.
//
// A graph of 10^6 nodes has about 10^6 operand lists, result lists, shapes
// and attribute lists, almost all of them short. As std::vector each is a
// separate heap block: four or five allocations per node, a cache miss on
// every read, and far more memory than the elements. InlineVec holds short
// lists in place and spills to the heap only past N, so parsing allocates
// nothing for a typical node and a node's data sits in one cache-friendly
// record. The interface is the part of std::vector the project uses.
#ifndef GRAPHDIFF_INLINE_VEC_H_
#define GRAPHDIFF_INLINE_VEC_H_

#include "graphdiff/export.h"
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

template <typename T, uint32_t N>
class InlineVec {
  template <typename It>
  using RequireIterator = std::enable_if_t<std::is_convertible_v<
      typename std::iterator_traits<It>::iterator_category, std::input_iterator_tag>>;

 public:
  using value_type = T;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  InlineVec() noexcept {}
  InlineVec(std::initializer_list<T> init) { assign(init.begin(), init.end()); }
  template <typename It, typename = RequireIterator<It>>
  InlineVec(It first, It last) {
    assign(first, last);
  }
  explicit InlineVec(size_t n) { resize(n); }
  InlineVec(size_t n, const T& value) { assign(n, value); }
  // Lets code that builds a std::vector hand it over as is.
  InlineVec(const std::vector<T>& v) { assign(v.begin(), v.end()); }  // NOLINT
  InlineVec(const InlineVec& other) { assign(other.begin(), other.end()); }
  InlineVec(InlineVec&& other) noexcept { TakeFrom(other); }
  ~InlineVec() { Release(); }

  InlineVec& operator=(const InlineVec& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  InlineVec& operator=(InlineVec&& other) noexcept {
    if (this != &other) {
      Release();
      TakeFrom(other);
    }
    return *this;
  }
  InlineVec& operator=(std::initializer_list<T> init) {
    assign(init.begin(), init.end());
    return *this;
  }
  InlineVec& operator=(const std::vector<T>& v) {
    assign(v.begin(), v.end());
    return *this;
  }

  size_t size() const { return bits_ & kSizeMask; }
  bool empty() const { return size() == 0; }
  size_t capacity() const { return on_heap() ? HeapCapacity() : N; }
  size_t max_size() const { return kSizeMask; }
  // Elements held on the heap (0 while they fit in place), for memory counts.
  size_t heap_capacity() const { return on_heap() ? HeapCapacity() : 0; }

  T* data() { return on_heap() ? HeapData() : InPlace(); }
  const T* data() const { return on_heap() ? HeapData() : InPlace(); }
  iterator begin() { return data(); }
  iterator end() { return data() + size(); }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size(); }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  reverse_iterator rbegin() { return reverse_iterator(end()); }
  reverse_iterator rend() { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const { return const_reverse_iterator(begin()); }

  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  // As std::vector::at: throws std::out_of_range past the end. Library code
  // indexes after checking; tests use at() to fail cleanly.
  T& at(size_t i) {
    if (i >= size()) throw std::out_of_range("InlineVec::at");
    return data()[i];
  }
  const T& at(size_t i) const {
    if (i >= size()) throw std::out_of_range("InlineVec::at");
    return data()[i];
  }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size() - 1]; }
  const T& back() const { return data()[size() - 1]; }

  void reserve(size_t n) {
    if (n > capacity()) MoveTo(n);
  }
  void shrink_to_fit() {}

  template <typename... Args>
  T& emplace_back(Args&&... args) {
    const size_t n = size();
    if (n == capacity()) {
      // Build the new element first: `args` may refer into this vector.
      T value(std::forward<Args>(args)...);
      MoveTo(Grown(n + 1));
      T* made = ::new (static_cast<void*>(data() + n)) T(std::move(value));
      ++bits_;
      return *made;
    }
    T* made = ::new (static_cast<void*>(data() + n)) T(std::forward<Args>(args)...);
    ++bits_;
    return *made;
  }
  void push_back(const T& value) { emplace_back(value); }
  void push_back(T&& value) { emplace_back(std::move(value)); }
  void pop_back() {
    --bits_;
    data()[size()].~T();
  }

  void clear() {
    std::destroy(begin(), end());
    SetSize(0);
  }
  void resize(size_t n) {
    if (n < size()) {
      std::destroy(begin() + n, end());
    } else if (n > size()) {
      reserve(n);
      std::uninitialized_value_construct(end(), data() + n);
    }
    SetSize(n);
  }
  void resize(size_t n, const T& value) {
    if (n <= size()) {
      resize(n);
      return;
    }
    T copy(value);
    reserve(n);
    std::uninitialized_fill(end(), data() + n, copy);
    SetSize(n);
  }
  void assign(size_t n, const T& value) {
    T copy(value);
    clear();
    resize(n, copy);
  }
  template <typename It, typename = RequireIterator<It>>
  void assign(It first, It last) {
    clear();
    if constexpr (std::is_base_of_v<std::forward_iterator_tag,
                                    typename std::iterator_traits<It>::iterator_category>) {
      reserve(static_cast<size_t>(std::distance(first, last)));
      T* out = data();
      for (; first != last; ++first, ++out) ::new (static_cast<void*>(out)) T(*first);
      SetSize(static_cast<size_t>(out - data()));
    } else {
      for (; first != last; ++first) emplace_back(*first);
    }
  }
  void assign(std::initializer_list<T> init) { assign(init.begin(), init.end()); }

  iterator insert(const_iterator pos, const T& value) {
    size_t at = static_cast<size_t>(pos - begin());
    emplace_back(value);
    std::rotate(begin() + at, end() - 1, end());
    return begin() + at;
  }
  iterator insert(const_iterator pos, T&& value) {
    size_t at = static_cast<size_t>(pos - begin());
    emplace_back(std::move(value));
    std::rotate(begin() + at, end() - 1, end());
    return begin() + at;
  }
  template <typename It, typename = RequireIterator<It>>
  iterator insert(const_iterator pos, It first, It last) {
    size_t at = static_cast<size_t>(pos - begin());
    size_t old = size();
    for (; first != last; ++first) emplace_back(*first);
    std::rotate(begin() + at, begin() + old, end());
    return begin() + at;
  }
  iterator erase(const_iterator first, const_iterator last) {
    T* f = begin() + (first - begin());
    T* l = begin() + (last - begin());
    T* new_end = std::move(l, end(), f);
    std::destroy(new_end, end());
    SetSize(static_cast<size_t>(new_end - begin()));
    return f;
  }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }

  void swap(InlineVec& other) noexcept {
    InlineVec tmp(std::move(other));
    other = std::move(*this);
    *this = std::move(tmp);
  }

  std::vector<T> ToVector() const { return std::vector<T>(begin(), end()); }

  friend bool operator==(const InlineVec& a, const InlineVec& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const InlineVec& a, const InlineVec& b) { return !(a == b); }
  friend bool operator<(const InlineVec& a, const InlineVec& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  // The record is the elements' bytes (or, once they spill, a pointer to a
  // heap block) and one 32-bit word: the size, with the top bit set while the
  // elements are on the heap. The heap block starts with its capacity. The
  // pointer is copied in and out of the byte buffer, so the record needs only
  // the elements' alignment: three operands (4-byte aligned) take 28 bytes,
  // not the 32 a pointer member and two counts would take. The pointer is at
  // offset 0, and elements on the heap start 8 bytes into their block: an
  // InlineVec placed at an 8-byte offset (graph.h places its lists so) keeps
  // its pointer where leak checkers look for pointers.
  static constexpr uint32_t kOnHeap = uint32_t{1} << 31;
  static constexpr uint32_t kSizeMask = kOnHeap - 1;
  static_assert(alignof(T) <= alignof(std::max_align_t), "heap blocks are max_align_t aligned");
  // The capacity word, padded to the elements' alignment and at least to a
  // pointer's, so that pointers inside spilled elements stay aligned.
  static constexpr size_t kHead = alignof(T) > sizeof(void*) ? alignof(T) : sizeof(void*);
  static constexpr size_t kBufBytes =
      N * sizeof(T) > sizeof(void*) ? N * sizeof(T) : sizeof(void*);

  bool on_heap() const { return (bits_ & kOnHeap) != 0; }
  void SetSize(size_t n) { bits_ = (bits_ & kOnHeap) | static_cast<uint32_t>(n); }
  unsigned char* Block() const {
    unsigned char* block;
    std::memcpy(&block, buf_, sizeof(block));
    return block;
  }
  uint32_t HeapCapacity() const {
    uint32_t cap;
    std::memcpy(&cap, Block(), sizeof(cap));
    return cap;
  }
  T* HeapData() const { return std::launder(reinterpret_cast<T*>(Block() + kHead)); }
  T* InPlace() { return std::launder(reinterpret_cast<T*>(buf_)); }
  const T* InPlace() const { return std::launder(reinterpret_cast<const T*>(buf_)); }
  size_t Grown(size_t need) const {
    return std::max<size_t>({need, capacity() * 2, size_t{4}});
  }
  // Moves the elements into a heap block of `cap` elements.
  void MoveTo(size_t cap) {
    if (cap > kSizeMask) throw std::length_error("InlineVec");
    auto* block = static_cast<unsigned char*>(::operator new(kHead + cap * sizeof(T)));
    const auto cap32 = static_cast<uint32_t>(cap);
    std::memcpy(block, &cap32, sizeof(cap32));
    T* fresh = reinterpret_cast<T*>(block + kHead);
    T* old = data();
    const size_t n = size();
    std::uninitialized_move(old, old + n, fresh);
    std::destroy(old, old + n);
    if (on_heap()) ::operator delete(Block());
    std::memcpy(buf_, &block, sizeof(block));
    bits_ = kOnHeap | static_cast<uint32_t>(n);
  }
  void Release() {
    std::destroy(begin(), end());
    if (on_heap()) ::operator delete(Block());
    bits_ = 0;
  }
  // Leaves `other` empty and in place.
  void TakeFrom(InlineVec& other) noexcept {
    if (other.on_heap()) {
      std::memcpy(buf_, other.buf_, sizeof(void*));
      bits_ = other.bits_;
    } else {
      std::uninitialized_move(other.begin(), other.end(), InPlace());
      std::destroy(other.begin(), other.end());
      bits_ = other.bits_;
    }
    other.bits_ = 0;
  }

  alignas(T) unsigned char buf_[kBufBytes];  // first: see the layout note above
  uint32_t bits_ = 0;
};

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_INLINE_VEC_H_
