// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/hlo_instruction.h"

#include <algorithm>
#include <string>

#include "parse/hlo_shape.h"

namespace graphdiff {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

size_t SkipBlanks(std::string_view text, size_t i, size_t end) {
  for (;;) {
    while (i < end && IsBlank(text[i])) ++i;
    if (i + 1 < end && text[i] == '/' && text[i + 1] == '*') {
      size_t close = text.find("*/", i + 2);
      if (close == std::string_view::npos || close + 2 > end) return i;
      i = close + 2;
      continue;
    }
    return i;
  }
}

bool Fail(HloScanError* error, size_t offset, const char* message) {
  *error = {offset, message};
  return false;
}

bool IsOpcodeChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

}  // namespace

bool SplitHloInstruction(std::string_view text, size_t begin, size_t end,
                         HloInstructionText* out, HloScanError* error) {
  size_t i = SkipBlanks(text, begin, end);
  out->offset = i;
  if (text.substr(i, 5) == "ROOT " || text.substr(i, 5) == "ROOT\t") {
    out->root = true;
    i = SkipBlanks(text, i + 5, end);
  }
  if (i < end && text[i] == '%') ++i;
  size_t name_begin = i;
  while (i < end && IsHloNameChar(text[i])) ++i;
  if (i == name_begin) return Fail(error, name_begin, "expected an instruction name");
  out->name = text.substr(name_begin, i - name_begin);
  i = SkipBlanks(text, i, end);
  if (i >= end || text[i] != '=') return Fail(error, i, "expected '=' after the instruction name");
  i = SkipBlanks(text, i + 1, end);
  out->shape_offset = i;
  // Skip the shape syntactically here; ParseHloShape interprets it later.
  if (i < end && text[i] == '(') {
    size_t close = SkipBalanced(text.substr(0, end), i);
    if (close == std::string_view::npos) return Fail(error, i, "tuple shape is never closed");
    i = close;
  } else {
    size_t t = i;
    while (i < end && IsOpcodeChar(text[i])) ++i;
    if (i == t) return Fail(error, t, "expected a shape");
    if (i >= end || text[i] != '[') return Fail(error, i, "expected '[' after the element type");
    size_t close = text.find(']', i);
    if (close == std::string_view::npos || close >= end) return Fail(error, i, "'[' is never closed");
    i = close + 1;
    if (i < end && text[i] == '{') {
      size_t lay = SkipBalanced(text.substr(0, end), i);
      if (lay == std::string_view::npos) return Fail(error, i, "layout '{' is never closed");
      i = lay;
    }
  }
  if (i < end && !IsBlank(text[i])) return Fail(error, i, "expected a space after the shape");
  i = SkipBlanks(text, i, end);
  size_t op_begin = i;
  while (i < end && IsOpcodeChar(text[i])) ++i;
  if (i == op_begin) return Fail(error, op_begin, "expected an opcode");
  out->opcode = text.substr(op_begin, i - op_begin);
  if (i >= end || text[i] != '(') return Fail(error, i, "expected '(' after the opcode");
  size_t close = SkipBalanced(text.substr(0, end), i);
  if (close == std::string_view::npos) return Fail(error, i, "'(' is never closed");
  out->args_offset = i + 1;
  out->args = text.substr(i + 1, close - 1 - (i + 1));
  i = SkipBlanks(text, close, end);
  if (i >= end) {
    out->attrs = {};
    out->attrs_offset = end;
    return true;
  }
  if (text[i] != ',') return Fail(error, i, "expected ',' before an attribute");
  out->attrs_offset = i + 1;
  out->attrs = text.substr(i + 1, end - (i + 1));
  return true;
}

std::string_view HloOperandName(std::string_view piece, size_t* name_offset) {
  std::string_view t = TrimHlo(piece);
  if (t.empty()) return {};
  size_t base = static_cast<size_t>(t.data() - piece.data());
  size_t start = t.size();
  while (start > 0 && (IsHloNameChar(t[start - 1]) || t[start - 1] == '%')) --start;
  std::string_view token = t.substr(start);
  // A lone shape such as `f32[]` has no name token; `%` must lead the name.
  size_t pct = token.rfind('%');
  if (pct != std::string_view::npos && pct != 0) return {};
  if (start > 0 && !IsBlank(t[start - 1]) && t[start - 1] != '/') return {};
  std::string_view name = StripPercent(token);
  if (name.empty()) return {};
  *name_offset = base + start + (token.size() - name.size());
  return name;
}

namespace {

// Reads `key=value` pairs separated by blanks; values are quoted strings or
// bare tokens.
template <typename F>
void ForEachMetadataField(std::string_view s, F&& f, bool* escaped) {
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && IsBlank(s[i])) ++i;
    size_t key_begin = i;
    while (i < s.size() && s[i] != '=' && !IsBlank(s[i])) ++i;
    std::string_view key = s.substr(key_begin, i - key_begin);
    if (i >= s.size() || s[i] != '=') {
      ++i;
      continue;
    }
    ++i;
    std::string_view value;
    if (i < s.size() && s[i] == '"') {
      size_t v = ++i;
      while (i < s.size() && s[i] != '"') {
        if (s[i] == '\\') {
          *escaped = true;
          ++i;
        }
        ++i;
      }
      value = s.substr(v, std::min(i, s.size()) - v);
      ++i;
    } else {
      size_t v = i;
      int depth = 0;
      while (i < s.size() && (depth > 0 || !IsBlank(s[i]))) {
        if (s[i] == '{' || s[i] == '(' || s[i] == '[') ++depth;
        if (s[i] == '}' || s[i] == ')' || s[i] == ']') --depth;
        ++i;
      }
      value = s.substr(v, i - v);
    }
    f(key, value);
  }
}

}  // namespace

HloMetadata ParseHloMetadata(std::string_view braced) {
  HloMetadata m;
  std::string_view s = TrimHlo(braced);
  if (!s.empty() && s.front() == '{') s.remove_prefix(1);
  if (!s.empty() && s.back() == '}') s.remove_suffix(1);
  ForEachMetadataField(
      s,
      [&](std::string_view key, std::string_view value) {
        if (key == "op_type") m.op_type = value;
        else if (key == "op_name") m.op_name = value;
        else if (key == "source_file") m.source_file = value;
        else if (key == "source_line") m.source_line = value;
      },
      &m.escaped);
  return m;
}

std::string UnescapeHlo(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      char c = s[++i];
      out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace graphdiff
