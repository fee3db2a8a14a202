// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Stable 64-bit hashing for fingerprints. absl::Hash is seeded per process,
// and fingerprints order tie-breaks, so results would change from run to run.
#ifndef GRAPHDIFF_SRC_ALIGN_HASH_H_
#define GRAPHDIFF_SRC_ALIGN_HASH_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace graphdiff::align {

// splitmix64's finaliser: a bijection with good avalanche.
inline uint64_t Mix(uint64_t h) {
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  h ^= h >> 31;
  return h;
}

// Order-sensitive combination.
inline uint64_t Combine(uint64_t seed, uint64_t v) {
  return Mix(seed ^ (v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)));
}

// FNV-1a, then mixed.
inline constexpr uint64_t kFnvBasis = 0xcbf29ce484222325ULL;
inline constexpr uint64_t kFnvPrime = 0x100000001b3ULL;

inline constexpr uint64_t FnvBytes(uint64_t h, std::string_view s) {
  for (unsigned char c : s) h = (h ^ c) * kFnvPrime;
  return h;
}

inline uint64_t HashString(std::string_view s) { return Mix(FnvBytes(kFnvBasis, s) ^ s.size()); }

// HashString(prefix + s) and HashString(s), where `after_prefix` is
// FnvBytes(kFnvBasis, prefix) and `prefix_size` its length. The byte loop
// is a chain of multiplies, each waiting for the one before: two chains
// over the same bytes run side by side in the time of one. A module call's
// op ("module::" + path) and its target (the path) are both hashed.
inline void HashStringAndSuffix(uint64_t after_prefix, size_t prefix_size, std::string_view s,
                                uint64_t* whole, uint64_t* suffix) {
  uint64_t a = after_prefix, b = kFnvBasis;
  for (unsigned char c : s) {
    a = (a ^ c) * kFnvPrime;
    b = (b ^ c) * kFnvPrime;
  }
  *whole = Mix(a ^ (prefix_size + s.size()));
  *suffix = Mix(b ^ s.size());
}

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_HASH_H_
