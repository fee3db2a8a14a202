// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// TailBytes: the last bytes of a string as one little-endian word, for the
// string hashes (StringViewHash, HashName), which read a string eight bytes
// at a time and then its tail. A memcpy of variable length is a library
// call, and a byte loop a branch a byte, once a name is looked up.
#ifndef GRAPHDIFF_SRC_UTIL_TAIL_BYTES_H_
#define GRAPHDIFF_SRC_UTIL_TAIL_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace graphdiff {

// The last r (< 8) of the n bytes at p, little-endian in the low bits: the
// value a memcpy of them into a zeroed word gives. r is n % 8, the bytes a
// hash's eight-byte steps left (so r == n below eight bytes). Reads only [p, p + n),
// in fixed-size loads that may overlap the bytes before the tail. The tail
// must land in the low bits: a hash's multiply carries a byte only upwards.
inline uint64_t TailBytes(const char* p, size_t n, size_t r) {
  if (r == 0) return 0;
  if (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p + n - 8, 8);
    return w >> (8 * (8 - r));
  }
  if (r >= 4) {  // then n == r: the first four and the last four
    uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    return uint64_t{lo} | (uint64_t{hi} >> (8 * (8 - r))) << 32;
  }
  uint64_t w = 0;
  for (size_t k = 0; k < r; ++k) w |= uint64_t{static_cast<unsigned char>(p[n - r + k])} << (8 * k);
  return w;
}

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_UTIL_TAIL_BYTES_H_
