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
#include "absl/types/span.h"
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
  uint32_t begin, end;  // its reader hashes in HubList::readers, sorted (a multiset)
};

struct HubList {
  std::vector<Hub> hubs;  // by key, then node
  std::vector<uint64_t> readers;
  absl::Span<const uint64_t> Readers(size_t i) const {
    return absl::MakeConstSpan(readers.data() + hubs[i].begin, hubs[i].end - hubs[i].begin);
  }
};

bool IsHub(const State& st, int s, uint32_t x) {
  const SideView& v = st.side[s];
  return v.leaf[x] && st.free(s, x) && v.users(x).size() >= 2;
}

// The hubs of side s, their keys in node order.
std::vector<std::pair<uint64_t, uint32_t>> HubKeys(const State& st, int s) {
  std::vector<std::pair<uint64_t, uint32_t>> out;
  for (uint32_t x = 0; x < st.side[s].size; ++x) {
    if (IsHub(st, s, x)) out.emplace_back(LocalKey(st, s, x), x);
  }
  return out;
}

// The hubs of side s (`mine`) whose key some hub of the other side has
// (`theirs`, sorted), with their readers: most graphs have none.
HubList Hubs(const State& st, int s, const std::vector<std::pair<uint64_t, uint32_t>>& mine,
             const std::vector<uint64_t>& theirs) {
  HubList out;
  const std::vector<uint64_t>& context = st.full_fp[s].context;
  for (const auto& [key, x] : mine) {
    if (!std::binary_search(theirs.begin(), theirs.end(), key)) continue;
    const size_t begin = out.readers.size();
    for (const Use& u : st.side[s].users(x)) {
      out.readers.push_back(Combine(Combine(context[u.user], u.pos), u.output));
    }
    std::sort(out.readers.begin() + begin, out.readers.end());
    out.hubs.push_back(
        Hub{key, x, static_cast<uint32_t>(begin), static_cast<uint32_t>(out.readers.size())});
  }
  std::sort(out.hubs.begin(), out.hubs.end(), [](const Hub& a, const Hub& b) {
    return std::tie(a.key, a.node) < std::tie(b.key, b.node);
  });
  return out;
}

size_t Overlap(absl::Span<const uint64_t> a, absl::Span<const uint64_t> b) {
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
std::vector<int> BestPartners(const HubList& from, size_t fb, size_t fe, const HubList& to,
                              size_t tb, size_t te) {
  absl::flat_hash_map<uint64_t, std::vector<uint32_t>> posting;
  for (size_t j = tb; j < te; ++j) {
    absl::Span<const uint64_t> r = to.Readers(j);
    for (size_t k = 0; k < r.size(); ++k) {
      if (k > 0 && r[k] == r[k - 1]) continue;
      std::vector<uint32_t>& list = posting[r[k]];
      if (list.size() <= kMaxPosting) list.push_back(static_cast<uint32_t>(j));
    }
  }
  std::vector<int> best(fe - fb, -1);
  std::vector<uint32_t> candidates;
  for (size_t i = fb; i < fe; ++i) {
    absl::Span<const uint64_t> r = from.Readers(i);
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
      const size_t n = Overlap(r, to.Readers(j));
      if (n > top) {
        second = top;
        top = n;
        at = static_cast<int>(j);
      } else if (n > second) {
        second = n;
      }
    }
    const size_t most = std::max(r.size(), at < 0 ? size_t{0} : to.Readers(at).size());
    if (at >= 0 && top > second && 2 * top > most) best[i - fb] = at;
  }
  return best;
}

}  // namespace

void HubMatcher::Run(State& st) {
  for (int s = 0; s < 2; ++s) {
    if (st.full_fp[s].context.size() != st.side[s].size) return;
  }
  const std::vector<std::pair<uint64_t, uint32_t>> keys[2] = {HubKeys(st, 0), HubKeys(st, 1)};
  std::vector<uint64_t> sorted[2];
  for (int s = 0; s < 2; ++s) {
    for (const auto& [key, x] : keys[s]) sorted[s].push_back(key);
    std::sort(sorted[s].begin(), sorted[s].end());
  }
  const HubList l = Hubs(st, 0, keys[0], sorted[1]), r = Hubs(st, 1, keys[1], sorted[0]);
  const std::vector<Hub>& left = l.hubs;
  const std::vector<Hub>& right = r.hubs;
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
    const std::vector<int> forward = BestPartners(l, i, ie, r, j, je);
    const std::vector<int> backward = BestPartners(r, j, je, l, i, ie);
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
