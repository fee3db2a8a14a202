// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Bracket-, string- and comment-aware scanning for HLO text. HLO nests
// `{}` `()` `[]`, quotes JSON inside attributes and sprinkles `/*index=5*/`
// comments, so every split at "depth 0" goes through these helpers.
#ifndef GRAPHDIFF_SRC_PARSE_HLO_SCAN_H_
#define GRAPHDIFF_SRC_PARSE_HLO_SCAN_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace graphdiff {

// Where and why a scan failed; `offset` is into the scanned text.
struct HloScanError {
  size_t offset = 0;
  const char* message = nullptr;
};

// Finds the end of one statement starting at `pos`: the first '\n' at
// bracket depth 0 (or the end of text). `newlines` receives the number of
// line breaks inside the statement. On unbalanced brackets or an unterminated
// string returns false and fills `error`.
bool ScanStatement(std::string_view text, size_t pos, size_t* end,
                   uint32_t* newlines, HloScanError* error);

// Given text[pos] is an opening bracket, returns the offset just past its
// matching closer, or npos when unbalanced.
size_t SkipBalanced(std::string_view text, size_t pos);

// Splits `text` at depth-0 commas. Pieces are views into `text`, untrimmed;
// an empty text yields no pieces.
void SplitTopLevel(std::string_view text, std::vector<std::string_view>* out);

// Trims whitespace and leading/trailing `/* ... */` comments.
std::string_view TrimHlo(std::string_view text);

// True for characters HLO instruction and computation names use.
inline bool IsHloNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

// Strips one leading '%'.
inline std::string_view StripPercent(std::string_view name) {
  if (!name.empty() && name.front() == '%') name.remove_prefix(1);
  return name;
}

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_HLO_SCAN_H_
