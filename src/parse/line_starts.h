// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Finding the few lines that matter in a big text without splitting it into
// lines: nearly every line of a dump is indented (FX code, IR and HLO
// instructions), and what a scan looks for (a log prefix, where a graph or
// record starts) is at column 0. Sixteen bytes a step instead of a memchr
// call and a test a line: the search for a cut in one big FX graph, which
// has none, split every line after the first cut's place, a tenth of the
// CPU time of a diff of two such graphs.
#ifndef GRAPHDIFF_SRC_PARSE_LINE_STARTS_H_
#define GRAPHDIFF_SRC_PARSE_LINE_STARTS_H_

#include <cstddef>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace graphdiff {

// Calls f(offset) for the start of every line of `text` whose first byte is
// not a space, tab or line break, in order, until f returns false. Offset 0
// counts as a line start.
template <typename F>
void ForEachUnindentedLine(std::string_view text, F f) {
  const char* const d = text.data();
  const size_t n = text.size();
  auto unindented = [&](size_t p) {
    return p < n && d[p] != ' ' && d[p] != '\t' && d[p] != '\n';
  };
  if (unindented(0) && !f(size_t{0})) return;
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i newline = _mm_set1_epi8('\n');
  for (; i + 16 <= n; i += 16) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(d + i));
    unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(block, newline)));
    while (mask != 0) {
      const size_t start = i + static_cast<size_t>(__builtin_ctz(mask)) + 1;
      mask &= mask - 1;
      if (unindented(start) && !f(start)) return;
    }
  }
#endif
  for (; i < n; ++i) {
    if (d[i] == '\n' && unindented(i + 1) && !f(i + 1)) return;
  }
}

// The start of the first line at or after `pos` (a line start) whose first
// byte is not a space, tab or line break; text.size() when there is none.
inline size_t NextUnindentedLine(std::string_view text, size_t pos) {
  if (pos >= text.size()) return text.size();
  size_t found = text.size();
  ForEachUnindentedLine(text.substr(pos), [&](size_t start) {
    found = pos + start;
    return false;
  });
  return found;
}

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_LINE_STARTS_H_
