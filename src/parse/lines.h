// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// LineReader: walks a text line by line without copying, tolerating CRLF and
// a missing final newline, and knows each line's number and offset so
// parsers can report positions.
#ifndef GRAPHDIFF_SRC_PARSE_LINES_H_
#define GRAPHDIFF_SRC_PARSE_LINES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "util/prefetch.h"

namespace graphdiff {

class LineReader {
 public:
  static constexpr size_t kReadAhead = 4096;

  explicit LineReader(std::string_view text, uint32_t first_line = 1)
      : text_(text), next_line_(first_line) {}

  // Reads the next line (without "\n" or "\r\n"); false at the end.
  bool Next(std::string_view* line) {
    if (pos_ >= text_.size()) return false;
    const char* begin = text_.data() + pos_;
    // A page ahead: the hardware's own prefetch stops at page ends, and a
    // text read for the first time (a file mapped from the page cache)
    // stalled on a TLB walk and a memory read at each new 4 KiB page.
    if (text_.size() - pos_ > kReadAhead) PrefetchForRead(begin + kReadAhead);
    const void* nl = std::memchr(begin, '\n', text_.size() - pos_);
    size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text_.data())
                    : text_.size();
    offset_ = pos_;
    *line = text_.substr(pos_, end - pos_);
    if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
    pos_ = nl ? end + 1 : end;
    line_ = next_line_++;
    return true;
  }

  // Line number (1-based) and byte offset of the line last returned.
  uint32_t line_number() const { return line_; }
  size_t line_offset() const { return offset_; }
  // Byte offset where the next line starts, and its number: once the text
  // is read, one past its last line (the next piece's first, when the text
  // is a piece cut after a line break).
  size_t position() const { return pos_; }
  uint32_t next_line() const { return next_line_; }
  bool done() const { return pos_ >= text_.size(); }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  size_t offset_ = 0;
  uint32_t line_ = 0;
  uint32_t next_line_;
};

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_LINES_H_
