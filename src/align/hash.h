// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Stable 64-bit hashing for fingerprints. absl::Hash is seeded per process,
// and fingerprints order tie-breaks, so results would change from run to run.
#ifndef GRAPHDIFF_SRC_ALIGN_HASH_H_
#define GRAPHDIFF_SRC_ALIGN_HASH_H_

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

inline uint64_t HashString(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, then mixed
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ULL;
  return Mix(h ^ s.size());
}

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_HASH_H_
