// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Hubs: leaves (inputs, constants, parameters) that several nodes read,
// paired by who reads them before look-alikes are resolved.
//
// A leaf's full-level context is a hash of all its readers. When every copy
// of a block reads the same leaves (the steps of an unrolled loop reading one
// set of weights) and one copy changed, each leaf that copy reads differs
// from its counterpart, so anchors miss it; colour refinement then tells
// every reader of it on one side from every reader on the other, and no copy
// pairs by structure at all. Yet most of the readers still agree: a leaf
// pairs with the one on the other side whose readers' contexts overlap its
// own the most, when that choice is mutual, unambiguous and covers more than
// half of each side's readers.
#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "align/hash.h"
#include "align/matchers.h"

namespace graphdiff::align {
namespace {

// A posting list longer than this marks readers too common to tell leaves
// apart (one reader shape shared by thousands of constants); skipping it
// keeps the candidate search linear.
constexpr size_t kMaxPosting = 64;

struct Hub {
  uint64_t key;
  uint32_t node;
  std::vector<uint64_t> readers;  // sorted reader hashes (a multiset)
};

std::vector<Hub> Hubs(const State& st, int s) {
  const SideView& v = st.side[s];
  const std::vector<uint64_t>& context = st.full_fp[s].context;
  std::vector<Hub> out;
  if (context.size() != v.size) return out;
  for (uint32_t x = 0; x < v.size; ++x) {
    if (!v.leaf[x] || !st.free(s, x) || v.users(x).size() < 2) continue;
    Hub h;
    h.key = Combine(v.cls[x], v.leaf[x] * 2 + v.module[x] + v.lifted[x] * 4);
    if (st.same_kind) h.key = Combine(h.key, v.attr_hash[x]);
    if (st.use_types) h.key = Combine(h.key, v.type_hash[x]);
    h.node = x;
    for (const Use& u : v.users(x)) {
      h.readers.push_back(Combine(Combine(context[u.user], u.pos), u.output));
    }
    std::sort(h.readers.begin(), h.readers.end());
    out.push_back(std::move(h));
  }
  std::sort(out.begin(), out.end(), [](const Hub& a, const Hub& b) {
    return std::tie(a.key, a.node) < std::tie(b.key, b.node);
  });
  return out;
}

size_t Overlap(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  size_t i = 0, j = 0, n = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] < b[j]) {
      ++i;
    } else if (b[j] < a[i]) {
      ++j;
    } else {
      ++n, ++i, ++j;
    }
  }
  return n;
}

// For each hub of `from` (a key group), the hub of `to` it overlaps most,
// or -1 when none covers more than half of both or two tie.
std::vector<int> BestPartners(const std::vector<Hub>& from, size_t fb, size_t fe,
                              const std::vector<Hub>& to, size_t tb, size_t te) {
  absl::flat_hash_map<uint64_t, std::vector<uint32_t>> posting;
  for (size_t j = tb; j < te; ++j) {
    const std::vector<uint64_t>& r = to[j].readers;
    for (size_t k = 0; k < r.size(); ++k) {
      if (k > 0 && r[k] == r[k - 1]) continue;
      std::vector<uint32_t>& list = posting[r[k]];
      if (list.size() <= kMaxPosting) list.push_back(static_cast<uint32_t>(j));
    }
  }
  std::vector<int> best(fe - fb, -1);
  std::vector<uint32_t> candidates;
  for (size_t i = fb; i < fe; ++i) {
    const std::vector<uint64_t>& r = from[i].readers;
    candidates.clear();
    for (size_t k = 0; k < r.size(); ++k) {
      if (k > 0 && r[k] == r[k - 1]) continue;
      auto it = posting.find(r[k]);
      if (it == posting.end() || it->second.size() > kMaxPosting) continue;
      candidates.insert(candidates.end(), it->second.begin(), it->second.end());
    }
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    size_t top = 0, second = 0;
    int at = -1;
    for (uint32_t j : candidates) {
      const size_t n = Overlap(r, to[j].readers);
      if (n > top) {
        second = top;
        top = n;
        at = static_cast<int>(j);
      } else if (n > second) {
        second = n;
      }
    }
    const size_t most = std::max(r.size(), at < 0 ? size_t{0} : to[at].readers.size());
    if (at >= 0 && top > second && 2 * top > most) best[i - fb] = at;
  }
  return best;
}

}  // namespace

void HubMatcher::Run(State& st) {
  const std::vector<Hub> left = Hubs(st, 0), right = Hubs(st, 1);
  size_t i = 0, j = 0;
  while (i < left.size() && j < right.size()) {
    if (left[i].key < right[j].key) {
      ++i;
      continue;
    }
    if (right[j].key < left[i].key) {
      ++j;
      continue;
    }
    size_t ie = i, je = j;
    while (ie < left.size() && left[ie].key == left[i].key) ++ie;
    while (je < right.size() && right[je].key == right[j].key) ++je;
    const std::vector<int> forward = BestPartners(left, i, ie, right, j, je);
    const std::vector<int> backward = BestPartners(right, j, je, left, i, ie);
    for (size_t a = i; a < ie; ++a) {
      const int b = forward[a - i];
      if (b < 0 || backward[static_cast<size_t>(b) - j] != static_cast<int>(a)) continue;
      st.Match(left[a].node, right[static_cast<size_t>(b)].node, MatcherId::kSimilarity);
    }
    i = ie;
    j = je;
  }
}

}  // namespace graphdiff::align
