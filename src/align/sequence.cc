// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/sequence.h"

#include <algorithm>
#include <cstddef>

namespace graphdiff::align {
namespace {

// Middle sections longer than this (product of lengths) are not aligned
// element by element; callers fall back to weaker evidence for them.
constexpr size_t kMaxLcsCells = size_t{1} << 22;

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> AlignSequences(const std::vector<uint64_t>& a,
                                                          const std::vector<uint64_t>& b) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) {
    out.emplace_back(pre, pre);
    ++pre;
  }
  size_t ea = a.size(), eb = b.size();
  std::vector<std::pair<uint32_t, uint32_t>> suffix;
  while (ea > pre && eb > pre && a[ea - 1] == b[eb - 1]) {
    --ea;
    --eb;
    suffix.emplace_back(ea, eb);
  }
  const size_t n = ea - pre, m = eb - pre;
  if (n > 0 && m > 0 && (n + 1) * (m + 1) <= kMaxLcsCells) {
    // lcs[i][j]: LCS length of a[pre+i..ea) and b[pre+j..eb).
    std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](size_t i, size_t j) -> uint32_t& { return lcs[i * (m + 1) + j]; };
    for (size_t i = n; i-- > 0;) {
      for (size_t j = m; j-- > 0;) {
        at(i, j) = a[pre + i] == b[pre + j] ? at(i + 1, j + 1) + 1
                                            : std::max(at(i + 1, j), at(i, j + 1));
      }
    }
    size_t i = 0, j = 0;
    while (i < n && j < m) {
      if (a[pre + i] == b[pre + j] && at(i, j) == at(i + 1, j + 1) + 1) {
        out.emplace_back(pre + i, pre + j);
        ++i;
        ++j;
      } else if (at(i + 1, j) >= at(i, j + 1)) {
        ++i;
      } else {
        ++j;
      }
    }
  }
  out.insert(out.end(), suffix.rbegin(), suffix.rend());
  return out;
}

}  // namespace graphdiff::align
