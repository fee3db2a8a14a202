// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/error.h"

#include <algorithm>

#include "absl/strings/numbers.h"
#include "fmt/format.h"
#include "util/absl_sv.h"

namespace graphdiff {
namespace {
constexpr size_t kMaxShownLine = 160;
}  // namespace

TextPos LocateOffset(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  TextPos pos;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      line_start = i + 1;
    }
  }
  pos.column = static_cast<uint32_t>(offset - line_start + 1);
  return pos;
}

std::string_view LineAt(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  size_t start = offset;
  while (start > 0 && text[start - 1] != '\n') --start;
  size_t end = text.find('\n', offset);
  if (end == std::string_view::npos) end = text.size();
  std::string_view line = text.substr(start, end - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

std::string FormatParseMessage(std::string_view source, uint32_t line,
                               uint32_t column, std::string_view message,
                               std::string_view line_text) {
  if (!line_text.empty() && line_text.back() == '\r') line_text.remove_suffix(1);
  size_t col = column == 0 ? 0 : column - 1;
  size_t begin = 0;
  std::string prefix, suffix;
  if (line_text.size() > kMaxShownLine) {
    begin = col > kMaxShownLine / 2 ? col - kMaxShownLine / 2 : 0;
    begin = std::min(begin, line_text.size());
    if (begin > 0) prefix = "...";
    if (line_text.size() - begin > kMaxShownLine) suffix = "...";
  }
  std::string shown(prefix);
  for (char c : line_text.substr(begin, kMaxShownLine)) {
    unsigned char u = static_cast<unsigned char>(c);
    shown += (u < 0x20 && c != '\t') || u == 0x7f ? '?' : c;
  }
  shown += suffix;
  size_t caret = prefix.size() + (col >= begin ? col - begin : 0);
  caret = std::min(caret, shown.size());
  std::string pad;
  for (size_t i = 0; i < caret; ++i) pad += shown[i] == '\t' ? '\t' : ' ';
  return fmt::format("{}:{}:{}: {}\n{}\n{}^", source, line, column, message,
                     shown, pad);
}

absl::Status ParseErrorAt(std::string_view source, uint32_t line,
                          uint32_t column, std::string_view line_text,
                          std::string_view message) {
  return absl::InvalidArgumentError(
      FormatParseMessage(source, line, column, message, line_text));
}

absl::Status ParseError(std::string_view source, std::string_view text,
                        size_t offset, std::string_view message) {
  TextPos pos = LocateOffset(text, offset);
  return ParseErrorAt(source, pos.line, pos.column, LineAt(text, offset),
                      message);
}

namespace {
constexpr std::string_view kMore = "further warnings not listed";

// Past the limit: the last slot becomes the tally of everything beyond.
void CountBeyond(std::vector<Diagnostic>* warnings, std::string_view source, uint32_t n) {
  Diagnostic& last = warnings->back();
  if (last.message != kMore) {
    last = Diagnostic{std::string(source), 0, 0, std::string(kMore), last.count};
  }
  last.count += n;
}
}  // namespace

void AddWarning(std::vector<Diagnostic>* warnings, size_t max_warnings,
                std::string_view source, uint32_t line, uint32_t column,
                std::string_view message) {
  if (warnings == nullptr || max_warnings == 0) return;
  if (warnings->size() >= max_warnings) return CountBeyond(warnings, source, 1);
  warnings->push_back(
      Diagnostic{std::string(source), line, column, std::string(message), 1});
}

void AddParseErrorAsWarning(std::vector<Diagnostic>* warnings, size_t max_warnings,
                            std::string_view source, std::string_view what,
                            std::string_view error) {
  uint32_t line = 1, column = 1;
  std::string_view rest = error;
  if (rest.size() > source.size() && rest.substr(0, source.size()) == source &&
      rest[source.size()] == ':') {
    std::string_view at = rest.substr(source.size() + 1);
    const size_t colon = at.find(':');
    const size_t second = colon == std::string_view::npos ? colon : at.find(':', colon + 1);
    uint32_t l = 0, c = 0;
    if (second != std::string_view::npos &&
        absl::SimpleAtoi(AbslSv(at.substr(0, colon)), &l) &&
        absl::SimpleAtoi(AbslSv(at.substr(colon + 1, second - colon - 1)), &c)) {
      line = l;
      column = c;
      rest = at.substr(second + 1);
      if (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
    }
  }
  AddWarning(warnings, max_warnings, source, line, column, fmt::format("{}: {}", what, rest));
}

bool NoWarningSince(const std::vector<Diagnostic>* warnings, size_t max_warnings,
                    size_t mark) {
  return warnings == nullptr || (warnings->size() == mark && mark < max_warnings);
}

bool MergeWarning(std::vector<Diagnostic>* warnings, size_t max_warnings, Diagnostic d) {
  if (warnings == nullptr || max_warnings == 0) return true;
  bool tally = d.line == 0 && d.message == kMore;
  if (warnings->size() < max_warnings) {
    if (tally) return false;
    warnings->push_back(std::move(d));
    return true;
  }
  CountBeyond(warnings, d.source, d.count);
  return true;
}

std::string Diagnostic::ToString() const {
  std::string times = count > 1 ? fmt::format(" (x{})", count) : std::string();
  if (line == 0) return fmt::format("{}: warning: {}{}", source, message, times);
  return fmt::format("{}:{}:{}: warning: {}{}", source, line, column, message, times);
}

}  // namespace graphdiff
