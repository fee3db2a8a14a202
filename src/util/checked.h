// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Arithmetic on sizes and counts that come from dumps: a shape or a counter
// can be anything up to the type's edge, so sums and products saturate
// instead of wrapping, and differences of two int64 values are taken in 128
// bits (the difference of two int64 values needs 65).
#ifndef GRAPHDIFF_SRC_UTIL_CHECKED_H_
#define GRAPHDIFF_SRC_UTIL_CHECKED_H_

#include <cstdint>
#include <limits>
#include <string>

namespace graphdiff {

inline uint64_t SaturatingMul(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<uint64_t>::max() : r;
}

// For counts, which are never negative: saturates at INT64_MAX.
inline int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}

inline uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<uint64_t>::max() : r;
}

inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r = 0;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

// An unsigned count as a signed value, saturating at INT64_MAX.
inline int64_t ClampToInt64(uint64_t v) {
  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  return static_cast<int64_t>(v > kMax ? kMax : v);
}

// `now - before`, exactly.
inline __int128 ExactDifference(int64_t before, int64_t now) {
  return static_cast<__int128>(now) - static_cast<__int128>(before);
}

// Decimal text of a 128-bit value ("-18446744073709551615").
inline std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  // Work on the magnitude as unsigned: |INT128_MIN| has no signed form.
  unsigned __int128 m = negative ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(v)
                                 : static_cast<unsigned __int128>(v);
  std::string digits;
  while (m > 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  }
  return negative ? "-" + digits : digits;
}

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_UTIL_CHECKED_H_
