// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// StringList: an immutable list of strings in one heap block, for the
// record facts a graph carries (Python frames, root tensor hashes).
//
// A save file of a training run repeats the same stack frames in every
// record, and its records can be a few nodes each (an `.item()` a step). As
// std::vector<std::string> a record's frames were a string object and a
// heap block a frame, more memory than the record's nodes; its hashes were
// four or five blocks more. A StringList is one pointer, and copies share
// the block (a count of holders lives in it), so records with the same
// frames hold one block between them.
#ifndef GRAPHDIFF_STRING_LIST_H_
#define GRAPHDIFF_STRING_LIST_H_

#include "graphdiff/export.h"
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

class StringList {
 public:
  // Reads the strings by index; what range-for and algorithms need.
  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = std::string_view;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = std::string_view;

    const_iterator() = default;
    std::string_view operator*() const { return (*list_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator old = *this;
      ++i_;
      return old;
    }
    const_iterator& operator--() {
      --i_;
      return *this;
    }
    const_iterator& operator+=(difference_type n) {
      i_ = static_cast<size_t>(static_cast<difference_type>(i_) + n);
      return *this;
    }
    const_iterator operator+(difference_type n) const { return const_iterator(*this) += n; }
    const_iterator operator-(difference_type n) const { return const_iterator(*this) += -n; }
    difference_type operator-(const_iterator other) const {
      return static_cast<difference_type>(i_) - static_cast<difference_type>(other.i_);
    }
    std::string_view operator[](difference_type n) const { return *(*this + n); }
    friend bool operator==(const_iterator a, const_iterator b) { return a.i_ == b.i_; }
    friend bool operator!=(const_iterator a, const_iterator b) { return a.i_ != b.i_; }
    friend bool operator<(const_iterator a, const_iterator b) { return a.i_ < b.i_; }

   private:
    friend class StringList;
    const_iterator(const StringList* list, size_t i) : list_(list), i_(i) {}
    const StringList* list_ = nullptr;
    size_t i_ = 0;
  };
  using iterator = const_iterator;
  using value_type = std::string_view;

  StringList() noexcept = default;
  StringList(std::initializer_list<std::string_view> items)
      : StringList(items.begin(), items.size()) {}
  explicit StringList(const std::vector<std::string_view>& items)
      : StringList(items.data(), items.size()) {}
  explicit StringList(const std::vector<std::string>& items);
  StringList(const std::string_view* items, size_t count);
  StringList(const StringList& other) : block_(Share(other.block_)) {}
  StringList(StringList&& other) noexcept : block_(other.block_) { other.block_ = nullptr; }
  ~StringList() { Release(block_); }
  StringList& operator=(const StringList& other);
  StringList& operator=(StringList&& other) noexcept;

  size_t size() const { return block_ ? block_->count : 0; }
  bool empty() const { return size() == 0; }
  std::string_view operator[](size_t i) const {
    const uint32_t* ends = Ends();
    const uint32_t begin = i == 0 ? 0 : ends[i - 1];
    return std::string_view(Chars() + begin, ends[i] - begin);
  }
  std::string_view front() const { return (*this)[0]; }
  std::string_view back() const { return (*this)[size() - 1]; }
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }
  std::vector<std::string> ToVector() const { return {begin(), end()}; }

  // Whether the list holds exactly `items`, in order: a parser keeps the
  // last record's list when the next one's strings are the same.
  bool Holds(const std::string_view* items, size_t count) const;
  // Heap bytes of the block, divided among its holders, so that the
  // holders of a block add up to it (for memory counts).
  size_t heap_bytes() const;

  friend bool operator==(const StringList& a, const StringList& b);
  friend bool operator!=(const StringList& a, const StringList& b) { return !(a == b); }

 private:
  // The block: this header, `count` end offsets into the characters, then
  // the characters.
  struct Header {
    uint32_t count;
    std::atomic<uint32_t> holders;
    size_t bytes;  // the block's size, for heap_bytes
  };

  const uint32_t* Ends() const { return reinterpret_cast<const uint32_t*>(block_ + 1); }
  const char* Chars() const { return reinterpret_cast<const char*>(Ends() + block_->count); }
  static Header* Share(Header* b);
  static void Release(Header* b) noexcept;

  Header* block_ = nullptr;
};

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_STRING_LIST_H_
