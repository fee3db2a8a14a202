// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/hlo_scan.h"

#include <cstdint>

#include "absl/container/inlined_vector.h"

namespace graphdiff {
namespace {

bool IsOpen(char c) { return c == '(' || c == '[' || c == '{'; }
bool IsClose(char c) { return c == ')' || c == ']' || c == '}'; }
char CloserOf(char c) { return c == '(' ? ')' : c == '[' ? ']' : '}'; }

// Offset just past the string starting at text[pos] == '"', or npos when it
// is not closed on its line.
size_t SkipString(std::string_view text, size_t pos) {
  for (size_t i = pos + 1; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\') {
      ++i;
    } else if (c == '"') {
      return i + 1;
    } else if (c == '\n') {
      return std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

// Offset just past the comment starting at text[pos..] == "/*", or npos.
size_t SkipComment(std::string_view text, size_t pos) {
  size_t end = text.find("*/", pos + 2);
  return end == std::string_view::npos ? end : end + 2;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Bytes a scan must stop at; everything else is skipped in a tight loop,
// which is where HLO parsing spends its time.
struct ByteClass {
  bool bracket_or_quote[256] = {};  // ( ) [ ] { } " / and newline
  bool with_comma[256] = {};        // the same plus ','
  constexpr ByteClass() {
    for (char c : {'(', ')', '[', ']', '{', '}', '"', '/', '\n'}) {
      bracket_or_quote[static_cast<unsigned char>(c)] = true;
      with_comma[static_cast<unsigned char>(c)] = true;
    }
    with_comma[static_cast<unsigned char>(',')] = true;
  }
};
constexpr ByteClass kBytes;

size_t SkipPlain(std::string_view text, size_t i, const bool* stop) {
  const char* p = text.data();
  size_t n = text.size();
  while (i < n && !stop[static_cast<unsigned char>(p[i])]) ++i;
  return i;
}

}  // namespace

bool ScanStatement(std::string_view text, size_t pos, size_t* end,
                   uint32_t* newlines, HloScanError* error) {
  // Brackets are matched by kind, so `{(}` is caught where it goes wrong.
  absl::InlinedVector<size_t, 32> open;
  uint32_t lines = 0;
  size_t i = pos;
  while ((i = SkipPlain(text, i, kBytes.bracket_or_quote)) < text.size()) {
    char c = text[i];
    if (c == '\n') {
      if (open.empty()) break;
      ++lines;
      ++i;
    } else if (c == '"') {
      size_t next = SkipString(text, i);
      if (next == std::string_view::npos) {
        *error = {i, "unterminated string"};
        return false;
      }
      i = next;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      size_t next = SkipComment(text, i);
      if (next == std::string_view::npos) {
        *error = {i, "unterminated comment"};
        return false;
      }
      for (size_t k = i; k < next; ++k) lines += text[k] == '\n';
      i = next;
    } else if (IsOpen(c)) {
      open.push_back(i);
      ++i;
    } else if (IsClose(c)) {
      if (open.empty() || CloserOf(text[open.back()]) != c) {
        *error = {i, open.empty() ? "unbalanced closing bracket"
                                  : "mismatched closing bracket"};
        return false;
      }
      open.pop_back();
      ++i;
    } else {
      ++i;
    }
  }
  if (!open.empty()) {
    *error = {open.front(), "bracket is never closed"};
    return false;
  }
  *end = i;
  *newlines = lines;
  return true;
}

size_t SkipBalanced(std::string_view text, size_t pos) {
  int depth = 0;
  size_t i = pos;
  while ((i = SkipPlain(text, i, kBytes.bracket_or_quote)) < text.size()) {
    char c = text[i];
    if (c == '"') {
      i = SkipString(text, i);
      if (i == std::string_view::npos) return i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i = SkipComment(text, i);
      if (i == std::string_view::npos) return i;
      continue;
    }
    if (IsOpen(c)) ++depth;
    if (IsClose(c) && --depth == 0) return i + 1;
    if (depth < 0) return std::string_view::npos;
    ++i;
  }
  return std::string_view::npos;
}

void SplitTopLevel(std::string_view text, std::vector<std::string_view>* out) {
  out->clear();
  if (TrimHlo(text).empty()) return;
  int depth = 0;
  size_t start = 0, i = 0;
  while ((i = SkipPlain(text, i, kBytes.with_comma)) < text.size()) {
    char c = text[i];
    if (c == '"') {
      size_t next = SkipString(text, i);
      i = next == std::string_view::npos ? text.size() : next;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      size_t next = SkipComment(text, i);
      i = next == std::string_view::npos ? text.size() : next;
      continue;
    }
    if (IsOpen(c)) {
      ++depth;
    } else if (IsClose(c)) {
      --depth;
    } else if (c == ',' && depth == 0) {
      out->push_back(text.substr(start, i - start));
      start = i + 1;
    }
    ++i;
  }
  out->push_back(text.substr(start));
}

std::string_view TrimHlo(std::string_view text) {
  for (;;) {
    while (!text.empty() && IsSpace(text.front())) text.remove_prefix(1);
    while (!text.empty() && IsSpace(text.back())) text.remove_suffix(1);
    if (text.size() >= 4 && text.substr(0, 2) == "/*") {
      size_t end = text.find("*/", 2);
      if (end == std::string_view::npos) return text;
      text.remove_prefix(end + 2);
      continue;
    }
    if (text.size() >= 4 && text.substr(text.size() - 2) == "*/") {
      size_t begin = text.rfind("/*", text.size() - 3);
      if (begin == std::string_view::npos) return text;
      text = text.substr(0, begin);
      continue;
    }
    return text;
  }
}

}  // namespace graphdiff
