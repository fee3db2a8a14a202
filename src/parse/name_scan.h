// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// NameEnd: where a run of name bytes (ASCII letters, digits, `_`) ends. FX
// code is mostly long names (`torch.ops.aten.convolution.default`,
// `max_pool2d_with_indices_1`), and the byte-at-a-time loop that found their
// ends was the hottest loop of the FX parser, paying a mispredicted branch at
// the end of every name. Sixteen bytes are classified at once where the text
// has them.
#ifndef GRAPHDIFF_SRC_PARSE_NAME_SCAN_H_
#define GRAPHDIFF_SRC_PARSE_NAME_SCAN_H_

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace graphdiff {

// Byte classes by table lookup: tokenizers ask for every byte of a dump,
// and chains of range compares were a measurable share of parsing (four
// range tests a byte for a name's last bytes, before they shared this).
enum : uint8_t { kNameStartByte = 1, kDigitByte = 2 };
struct NameByteClasses {
  uint8_t of[256] = {};
  constexpr NameByteClasses() {
    for (int c = 'a'; c <= 'z'; ++c) of[c] = kNameStartByte;
    for (int c = 'A'; c <= 'Z'; ++c) of[c] = kNameStartByte;
    of[static_cast<unsigned char>('_')] = kNameStartByte;
    for (int c = '0'; c <= '9'; ++c) of[c] = kDigitByte;
  }
};
inline constexpr NameByteClasses kNameBytes;

// Letters and `_`; digits; either (a byte a name goes on with).
inline bool IsNameStartByte(unsigned char c) { return kNameBytes.of[c] & kNameStartByte; }
inline bool IsDigitByte(unsigned char c) { return kNameBytes.of[c] & kDigitByte; }
inline bool IsAsciiNameByte(unsigned char c) { return kNameBytes.of[c] != 0; }

// The first index in [i, n) of p whose byte is not a name byte, or n. Reads
// no byte at or past p + n.
inline size_t NameEnd(const char* p, size_t i, size_t n) {
#if defined(__SSE2__)
  // c | 0x20 folds the cases; a range test a <= x < a + k is one signed
  // compare after shifting a to -128 (bytes wrap, so no other byte lands
  // in the shifted range).
  const __m128i fold = _mm_set1_epi8(0x20);
  const __m128i to_a = _mm_set1_epi8(static_cast<char>(128 - 'a'));
  const __m128i letters = _mm_set1_epi8(static_cast<char>(-128 + 26));
  const __m128i to_0 = _mm_set1_epi8(static_cast<char>(128 - '0'));
  const __m128i digits = _mm_set1_epi8(static_cast<char>(-128 + 10));
  const __m128i underscore = _mm_set1_epi8('_');
  while (i + 16 <= n) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i letter =
        _mm_cmplt_epi8(_mm_add_epi8(_mm_or_si128(v, fold), to_a), letters);
    const __m128i digit = _mm_cmplt_epi8(_mm_add_epi8(v, to_0), digits);
    const __m128i name =
        _mm_or_si128(_mm_or_si128(letter, digit), _mm_cmpeq_epi8(v, underscore));
    const uint32_t stops = ~static_cast<uint32_t>(_mm_movemask_epi8(name)) & 0xffffu;
    if (stops != 0) return i + static_cast<size_t>(__builtin_ctz(stops));
    i += 16;
  }
#endif
  while (i < n && IsAsciiNameByte(static_cast<unsigned char>(p[i]))) ++i;
  return i;
}

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_NAME_SCAN_H_
