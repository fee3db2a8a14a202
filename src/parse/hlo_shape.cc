// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/hlo_shape.h"

#include <charconv>
#include <cstdint>

namespace graphdiff {
namespace {

bool IsLowerAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

void SkipSpacesAndComments(std::string_view text, size_t* pos) {
  for (;;) {
    while (*pos < text.size() && (text[*pos] == ' ' || text[*pos] == '\t' ||
                                  text[*pos] == '\n' || text[*pos] == '\r')) {
      ++*pos;
    }
    if (text.substr(*pos, 2) != "/*") return;
    size_t end = text.find("*/", *pos + 2);
    if (end == std::string_view::npos) return;
    *pos = end + 2;
  }
}

bool ParseInt(std::string_view s, int64_t* v) {
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && ptr == s.data() + s.size() && *v >= 0;
}

bool Fail(HloScanError* error, size_t offset, const char* message) {
  *error = {offset, message};
  return false;
}

// `dims` is the text between '[' and ']'.
bool ParseDims(std::string_view text, size_t begin, size_t end,
               DimList* dims, HloScanError* error) {
  size_t i = begin;
  // Commas are looked for before `end` only: the last dim of a module's
  // first shapes searched the rest of the file.
  const std::string_view dims_text = text.substr(0, end);
  while (i < end) {
    size_t comma = dims_text.find(',', i);
    if (comma == std::string_view::npos) comma = end;
    std::string_view d = text.substr(i, comma - i);
    while (!d.empty() && d.front() == ' ') d.remove_prefix(1);
    while (!d.empty() && d.back() == ' ') d.remove_suffix(1);
    int64_t value = 0;
    if (d == "?") {
      dims->push_back(Dim::Unknown());
    } else if (d.substr(0, 2) == "<=") {
      if (!ParseInt(d.substr(2), &value)) return Fail(error, i, "malformed dimension bound");
      dims->push_back(Dim::Bounded(value));
    } else if (ParseInt(d, &value)) {
      dims->push_back(Dim::Static(value));
    } else {
      return Fail(error, i, "malformed dimension");
    }
    i = comma + 1;
  }
  if (!dims->empty() && text[end - 1] == ',') return Fail(error, end - 1, "malformed dimension");
  return true;
}

bool ParseArray(std::string_view text, size_t* pos, Graph* graph, TensorType* t,
                HloScanError* error) {
  size_t start = *pos, i = *pos;
  while (i < text.size() && IsLowerAlnum(text[i])) ++i;
  if (i == start) return Fail(error, start, "expected a shape");
  if (i >= text.size() || text[i] != '[') return Fail(error, i, "expected '[' after the element type");
  t->dtype = ParseDType(text.substr(start, i - start));
  size_t close = text.find(']', i);
  if (close == std::string_view::npos) return Fail(error, i, "'[' is never closed");
  if (!ParseDims(text, i + 1, close, &t->dims, error)) return false;
  t->rank_known = true;
  i = close + 1;
  if (i < text.size() && text[i] == '{') {
    size_t end = SkipBalanced(text, i);
    if (end == std::string_view::npos) return Fail(error, i, "layout '{' is never closed");
    t->layout = graph->intern(text.substr(i, end - i));
    i = end;
  }
  *pos = i;
  return true;
}

}  // namespace

bool ParseHloShape(std::string_view text, size_t* pos, Graph* graph,
                   TypeList* out, HloScanError* error) {
  SkipSpacesAndComments(text, pos);
  if (*pos >= text.size()) return Fail(error, *pos, "expected a shape");
  if (text[*pos] != '(') {
    // Parsed into its place: moving a just-filled local stalls on store
    // forwarding.
    if (!ParseArray(text, pos, graph, &out->emplace_back(), error)) {
      out->pop_back();
      return false;
    }
    return true;
  }
  ++*pos;
  SkipSpacesAndComments(text, pos);
  if (*pos < text.size() && text[*pos] == ')') {
    ++*pos;
    return true;
  }
  for (;;) {
    SkipSpacesAndComments(text, pos);
    if (*pos < text.size() && text[*pos] == '(') {
      size_t end = SkipBalanced(text, *pos);
      if (end == std::string_view::npos) return Fail(error, *pos, "tuple '(' is never closed");
      out->push_back(TensorType{});  // a nested tuple: kept as one opaque result
      *pos = end;
    } else {
      if (!ParseArray(text, pos, graph, &out->emplace_back(), error)) {
        out->pop_back();
        return false;
      }
    }
    SkipSpacesAndComments(text, pos);
    if (*pos >= text.size()) return Fail(error, *pos, "tuple shape is not closed");
    if (text[*pos] == ')') {
      ++*pos;
      return true;
    }
    if (text[*pos] != ',') return Fail(error, *pos, "expected ',' or ')' in a tuple shape");
    ++*pos;
  }
}

}  // namespace graphdiff
