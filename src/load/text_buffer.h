// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The buffer an archive entry is decompressed into and then parsed from.
// Its size is unknown until the stream ends, so it grows; it grows with
// realloc, which for large blocks remaps pages instead of copying them
// (glibc), so a 1 GB entry never exists twice in memory, as it would while
// a std::string doubles.
#ifndef GRAPHDIFF_SRC_LOAD_TEXT_BUFFER_H_
#define GRAPHDIFF_SRC_LOAD_TEXT_BUFFER_H_

#include <cstddef>
#include <string_view>

namespace graphdiff {

class TextBuffer {
 public:
  TextBuffer() = default;
  ~TextBuffer();
  TextBuffer(TextBuffer&& other) noexcept;
  TextBuffer& operator=(TextBuffer&& other) noexcept;
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;

  // Room for at least `n` more bytes past the end; nullptr when memory ran
  // out. Write into it, then Commit what was written.
  char* Reserve(size_t n);
  void Commit(size_t n) { size_ += n; }
  // Gives back the room past the end.
  void Shrink();
  void Clear();

  std::string_view view() const { return std::string_view(data_, size_); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_LOAD_TEXT_BUFFER_H_
