// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The sorted-merge walk several matchers share: two vectors sorted by `.key`,
// visited one key at a time, only for keys present on both sides.
#ifndef GRAPHDIFF_SRC_ALIGN_KEY_GROUPS_H_
#define GRAPHDIFF_SRC_ALIGN_KEY_GROUPS_H_

#include <cstddef>
#include <vector>

namespace graphdiff::align {

// Calls fn(i, ie, j, je) for every key that both `a` and `b` hold, where
// [i, ie) and [j, je) are the runs of that key. Both inputs must be sorted
// by key; the walk is linear.
template <typename A, typename B, typename Fn>
void ForEachCommonKey(const std::vector<A>& a, const std::vector<B>& b, Fn fn) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].key != b[j].key) {
      if (a[i].key < b[j].key) {
        ++i;
      } else {
        ++j;
      }
      continue;
    }
    size_t ie = i, je = j;
    while (ie < a.size() && a[ie].key == a[i].key) ++ie;
    while (je < b.size() && b[je].key == b[j].key) ++je;
    fn(i, ie, j, je);
    i = ie;
    j = je;
  }
}

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_KEY_GROUPS_H_
