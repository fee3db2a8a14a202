// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/sequence.h"

#include <algorithm>
#include <cstddef>

namespace graphdiff::align {
namespace {

using Pairs = std::vector<std::pair<uint32_t, uint32_t>>;

// Middle sections larger than this (product of lengths) are not aligned by
// dynamic programming; they are aligned by position from whichever end
// agrees more.
constexpr size_t kMaxDpCells = size_t{1} << 22;

// Edit distance with substitutions, not just the longest common
// subsequence: when one entry of a run of look-alikes changed (the output of
// the one replica that differs), it is a substitution in place, and the
// entries after it keep their partners instead of shifting by one.
void AlignMiddle(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, size_t pa,
                 size_t n, size_t pb, size_t m, Pairs* out) {
  if (n == 0 || m == 0) return;
  if ((n + 1) * (m + 1) > kMaxDpCells) {
    const size_t k = std::min(n, m);
    size_t from_start = 0, from_end = 0;
    for (size_t i = 0; i < k; ++i) {
      from_start += a[pa + i] == b[pb + i];
      from_end += a[pa + n - 1 - i] == b[pb + m - 1 - i];
    }
    const size_t da = from_end > from_start ? n - k : 0, db = from_end > from_start ? m - k : 0;
    for (size_t i = 0; i < k; ++i) {
      if (a[pa + da + i] == b[pb + db + i]) out->emplace_back(pa + da + i, pb + db + i);
    }
    return;
  }
  // cost(i, j): edits to turn a[pa+i..pa+n) into b[pb+j..pb+m).
  std::vector<uint32_t> cost((n + 1) * (m + 1), 0);
  auto at = [&](size_t i, size_t j) -> uint32_t& { return cost[i * (m + 1) + j]; };
  for (size_t i = 0; i <= n; ++i) at(i, m) = static_cast<uint32_t>(n - i);
  for (size_t j = 0; j <= m; ++j) at(n, j) = static_cast<uint32_t>(m - j);
  for (size_t i = n; i-- > 0;) {
    for (size_t j = m; j-- > 0;) {
      const uint32_t diag = at(i + 1, j + 1) + (a[pa + i] == b[pb + j] ? 0 : 1);
      at(i, j) = std::min({diag, at(i + 1, j) + 1, at(i, j + 1) + 1});
    }
  }
  // On ties: a match, then dropping from a, then from b, then a substitution,
  // so that entries that agree pair whenever the cost allows.
  size_t i = 0, j = 0;
  while (i < n && j < m) {
    const uint32_t c = at(i, j);
    if (a[pa + i] == b[pb + j] && c == at(i + 1, j + 1)) {
      out->emplace_back(pa + i, pb + j);
      ++i;
      ++j;
    } else if (c == at(i + 1, j) + 1) {
      ++i;
    } else if (c == at(i, j + 1) + 1) {
      ++j;
    } else {
      ++i;
      ++j;
    }
  }
}

Pairs AlignOneWay(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  Pairs out;
  size_t pre = 0;
  while (pre < a.size() && pre < b.size() && a[pre] == b[pre]) {
    out.emplace_back(pre, pre);
    ++pre;
  }
  size_t ea = a.size(), eb = b.size();
  Pairs suffix;
  while (ea > pre && eb > pre && a[ea - 1] == b[eb - 1]) {
    --ea;
    --eb;
    suffix.emplace_back(ea, eb);
  }
  AlignMiddle(a, b, pre, ea - pre, pre, eb - pre, &out);
  out.insert(out.end(), suffix.rbegin(), suffix.rend());
  return out;
}

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> AlignSequences(const std::vector<uint64_t>& a,
                                                          const std::vector<uint64_t>& b) {
  // Only what both directions agree on: ties between equally good
  // alignments are broken in favour of one side, and swapping the sides
  // must swap the result, not change it.
  Pairs forward = AlignOneWay(a, b);
  Pairs backward = AlignOneWay(b, a);
  for (auto& [x, y] : backward) std::swap(x, y);
  std::sort(backward.begin(), backward.end());
  Pairs out;
  out.reserve(forward.size());
  for (const auto& p : forward) {
    if (std::binary_search(backward.begin(), backward.end(), p)) out.push_back(p);
  }
  return out;
}

}  // namespace graphdiff::align
