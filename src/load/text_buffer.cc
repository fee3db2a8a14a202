// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "load/text_buffer.h"

#include <cstdlib>
#include <utility>

namespace graphdiff {

TextBuffer::~TextBuffer() { std::free(data_); }

TextBuffer::TextBuffer(TextBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

TextBuffer& TextBuffer::operator=(TextBuffer&& other) noexcept {
  if (this != &other) {
    std::free(data_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

char* TextBuffer::Reserve(size_t n) {
  if (capacity_ - size_ < n) {
    // Doubling keeps the number of reallocs logarithmic; the pages of the
    // unused half are never touched, so they cost address space, not memory.
    size_t want = std::max(size_ + n, capacity_ * 2);
    void* grown = std::realloc(data_, want);
    if (grown == nullptr) return nullptr;
    data_ = static_cast<char*>(grown);
    capacity_ = want;
  }
  return data_ + size_;
}

void TextBuffer::Shrink() {
  if (size_ == 0 || size_ == capacity_) return;
  if (void* shrunk = std::realloc(data_, size_)) {
    data_ = static_cast<char*>(shrunk);
    capacity_ = size_;
  }
}

void TextBuffer::Clear() {
  std::free(data_);
  data_ = nullptr;
  size_ = capacity_ = 0;
}

}  // namespace graphdiff
