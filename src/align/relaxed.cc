// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Relaxed ops: pairs whose op classes differ but whose surroundings match.
// A lone free node facing a small free region bounded by the same matched
// nodes is a decomposition (module `fc` ~ `t` + `addmm`); two lone nodes are
// a substitution. Rounds alternate with propagation, since each relaxed pair
// can unlock its neighbours.
#include <algorithm>
#include <numeric>
#include <vector>

#include "align/candidates.h"
#include "align/matchers.h"
#include "align/neighbours.h"

namespace graphdiff::align {
namespace {

// Regions larger than this are not one op's decomposition.
constexpr uint32_t kMaxRegion = 16;
constexpr int kRounds = 4;

uint32_t Find(std::vector<uint32_t>& parent, uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// Connected regions of free non-leaf nodes of one side.
struct Regions {
  std::vector<uint32_t> id;       // region of each node, kNone if not free
  std::vector<uint32_t> begin;    // CSR over members
  std::vector<uint32_t> members;  // ascending within a region
};

// `id` is the caller's scratch, kNone for every node (or empty) between
// uses; ReleaseRegions hands it back so. Everything else costs in
// proportion to the free nodes: after symmetry a 10^6-node pair with a few
// changes has a few hundred, and three arrays the graph's size, made again
// each round, were 40 MB of fresh memory a round.
Regions BuildRegions(const State& st, int s, std::vector<uint32_t> id) {
  const SideView& v = st.side[s];
  if (id.size() != v.size) id.assign(v.size, kNone);
  std::vector<uint32_t> free_nodes;  // ascending; id holds each one's place first
  for (uint32_t x = 0; x < v.size; ++x) {
    if (!st.free(s, x) || v.leaf[x]) continue;
    id[x] = static_cast<uint32_t>(free_nodes.size());
    free_nodes.push_back(x);
  }
  const auto n = static_cast<uint32_t>(free_nodes.size());
  std::vector<uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (uint32_t i = 0; i < n; ++i) {
    for (const ValueRef& r : v.operands(free_nodes[i])) {
      const uint32_t j = id[r.node];
      if (j == kNone) continue;
      uint32_t a = Find(parent, i), b = Find(parent, j);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  // Regions numbered by their lowest node, members ascending.
  std::vector<uint32_t> root_id(n, kNone), region(n), count;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t root = Find(parent, i);
    if (root_id[root] == kNone) {
      root_id[root] = static_cast<uint32_t>(count.size());
      count.push_back(0);
    }
    region[i] = root_id[root];
    ++count[region[i]];
  }
  Regions out;
  out.begin.assign(count.size() + 1, 0);
  for (size_t i = 0; i < count.size(); ++i) out.begin[i + 1] = out.begin[i] + count[i];
  out.members.resize(n);
  std::vector<uint32_t> fill(out.begin.begin(), out.begin.end() - 1);
  for (uint32_t i = 0; i < n; ++i) {
    out.members[fill[region[i]]++] = free_nodes[i];
    id[free_nodes[i]] = region[i];
  }
  out.id = std::move(id);
  return out;
}

// The scratch BuildRegions took, all kNone again.
std::vector<uint32_t> ReleaseRegions(Regions& reg) {
  for (uint32_t x : reg.members) reg.id[x] = kNone;
  return std::move(reg.id);
}

// The matched boundary of a region, named by left indices so both sides'
// boundaries compare directly; one marker element for "is an output".
std::vector<uint64_t> Boundary(const State& st, int s, const Regions& reg,
                               uint32_t region, const std::vector<uint8_t>& is_output) {
  const SideView& v = st.side[s];
  std::vector<uint64_t> out;
  auto name = [&](uint32_t x) -> uint64_t { return s == 0 ? x : st.map[1][x]; };
  for (uint32_t i = reg.begin[region]; i < reg.begin[region + 1]; ++i) {
    uint32_t x = reg.members[i];
    for (const ValueRef& r : v.operands(x)) {
      if (st.map[s][r.node] != kNone) out.push_back(name(r.node) * 2);
    }
    for (const Use& u : v.users(x)) {
      if (st.map[s][u.user] != kNone) out.push_back(name(u.user) * 2 + 1);
    }
    if (is_output[x]) out.push_back(~uint64_t{0});
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

struct RegionEdge {
  double score;
  uint64_t sym;
  uint32_t left_region;
  uint32_t right_region;
};

// The member whose value leaves the region: the primary counterpart.
uint32_t RegionRoot(const State& st, int s, const Regions& reg, uint32_t region,
                    const std::vector<uint8_t>& is_output) {
  const SideView& v = st.side[s];
  uint32_t root = reg.members[reg.begin[region + 1] - 1];
  for (uint32_t i = reg.begin[region + 1]; i-- > reg.begin[region];) {
    uint32_t x = reg.members[i];
    bool leaves = is_output[x] != 0;
    for (const Use& u : v.users(x)) leaves |= reg.id[u.user] != region;
    if (leaves) return x;
  }
  return root;
}

// One left node against a region of right nodes, or the mirror.
bool Decompose(State& st, const std::vector<uint8_t> (&is_output)[2], Regions (&reg)[2]) {
  const uint32_t nreg[2] = {static_cast<uint32_t>(reg[0].begin.size() - 1),
                            static_cast<uint32_t>(reg[1].begin.size() - 1)};
  auto size = [&](int s, uint32_t r) { return reg[s].begin[r + 1] - reg[s].begin[r]; };
  std::vector<std::vector<uint64_t>> bound[2];
  for (int s = 0; s < 2; ++s) {
    bound[s].resize(nreg[s]);
    for (uint32_t r = 0; r < nreg[s]; ++r) {
      if (size(s, r) <= kMaxRegion) bound[s][r] = Boundary(st, s, reg[s], r, is_output[s]);
    }
  }
  std::vector<RegionEdge> edges;
  std::vector<uint32_t> touching;
  for (uint32_t a = 0; a < nreg[0]; ++a) {
    if (size(0, a) > kMaxRegion || bound[0][a].empty()) continue;
    // Right regions next to the counterparts of a's boundary.
    touching.clear();
    for (uint32_t i = reg[0].begin[a]; i < reg[0].begin[a + 1]; ++i) {
      uint32_t x = reg[0].members[i];
      for (const ValueRef& r : st.side[0].operands(x)) {
        uint32_t m = st.map[0][r.node];
        if (m == kNone) continue;
        for (const Use& u : st.side[1].users(m)) {
          if (reg[1].id[u.user] != kNone) touching.push_back(reg[1].id[u.user]);
        }
      }
      for (const Use& u : st.side[0].users(x)) {
        uint32_t m = st.map[0][u.user];
        if (m == kNone) continue;
        for (const ValueRef& r : st.side[1].operands(m)) {
          if (reg[1].id[r.node] != kNone) touching.push_back(reg[1].id[r.node]);
        }
      }
    }
    std::sort(touching.begin(), touching.end());
    touching.erase(std::unique(touching.begin(), touching.end()), touching.end());
    for (uint32_t b : touching) {
      if (size(1, b) > kMaxRegion) continue;
      if (size(0, a) > 1 && size(1, b) > 1) continue;  // many-to-many: not ours
      if (size(0, a) == 1 && size(1, b) == 1) continue;  // the substitution pass
      const std::vector<uint64_t>& x = bound[0][a];
      const std::vector<uint64_t>& y = bound[1][b];
      std::vector<uint64_t> common;
      std::set_intersection(x.begin(), x.end(), y.begin(), y.end(),
                            std::back_inserter(common));
      size_t uni = x.size() + y.size() - common.size();
      bool real = false;  // the output marker alone is no evidence
      for (uint64_t c : common) real |= c != ~uint64_t{0};
      if (!real) continue;
      double score = static_cast<double>(common.size()) / uni;
      if (score < st.options->similarity_threshold) continue;
      edges.push_back({score,
                       SymKey(reg[0].members[reg[0].begin[a]], reg[1].members[reg[1].begin[b]]),
                       a, b});
    }
  }
  std::sort(edges.begin(), edges.end(), [](const RegionEdge& p, const RegionEdge& q) {
    if (p.score != q.score) return p.score > q.score;
    if (p.sym != q.sym) return p.sym < q.sym;
    return p.left_region < q.left_region;
  });
  std::vector<uint8_t> used[2] = {std::vector<uint8_t>(nreg[0], 0),
                                  std::vector<uint8_t>(nreg[1], 0)};
  bool changed = false;
  for (const RegionEdge& e : edges) {
    if (used[0][e.left_region] || used[1][e.right_region]) continue;
    used[0][e.left_region] = used[1][e.right_region] = 1;
    // The single node is side `one`; the region is on the other side.
    int one = size(0, e.left_region) == 1 ? 0 : 1;
    int many = 1 - one;
    uint32_t single = reg[one].members[reg[one].begin[one == 0 ? e.left_region : e.right_region]];
    uint32_t region = many == 0 ? e.left_region : e.right_region;
    // A region holding the single node's own op once is that op with
    // nodes inserted around it (`convert_element_type` before a `bmm`), not
    // its decomposition: the op pairs, the inserted nodes stay one-sided.
    uint32_t same = kNone;
    int same_count = 0;
    for (uint32_t i = reg[many].begin[region]; i < reg[many].begin[region + 1]; ++i) {
      const uint32_t x = reg[many].members[i];
      if (st.side[many].cls[x] == st.side[one].cls[single]) {
        same = x;
        ++same_count;
      }
    }
    if (same_count == 1) {
      st.MatchSided(one, single, same, MatcherId::kRelaxed);
      changed = true;
      continue;
    }
    uint32_t root = RegionRoot(st, many, reg[many], region, is_output[many]);
    st.MatchSided(one, single, root, MatcherId::kRelaxed);
    for (uint32_t i = reg[many].begin[region]; i < reg[many].begin[region + 1]; ++i) {
      uint32_t x = reg[many].members[i];
      if (x == root) continue;
      st.Cover(many, x);
      if (one == 0) {
        st.extra.emplace_back(single, x);
      } else {
        st.extra.emplace_back(x, single);
      }
    }
    changed = true;
  }
  return changed;
}

// Lone free nodes with agreeing matched neighbours, whatever their ops.
bool Substitute(State& st, bool certain_only) {
  const uint32_t limit = std::max<uint32_t>(1, st.options->similarity_candidates);
  std::vector<Candidate> edges;
  std::vector<uint32_t> cands;
  for (int s = 0; s < 2; ++s) {
    for (uint32_t v = 0; v < st.side[s].size; ++v) {
      // Aliases follow their readers (see SimilarityMatcher).
      if (!st.free(s, v) || st.side[s].alias[v]) continue;
      NearbyCandidates(st, s, v, /*same_class=*/false, limit, &cands);
      for (uint32_t c : cands) {
        uint32_t l = s == 0 ? v : c, r = s == 0 ? c : v;
        Agreement a = CompareNeighbours(st, l, r, /*by_position=*/false);
        double score = a.Fraction();
        // Different ops need structural support, not a majority: every
        // matched neighbour agrees. One shared operand and one foreign one
        // is what a node inserted next to a look-alike (`bmm` against the
        // `convert_element_type` now feeding it) looks like.
        if (a.agree > 0 && a.disagree == 0 && score >= st.options->similarity_threshold) {
          edges.push_back({score, l, r});
        }
      }
    }
  }
  RankCandidates(st, edges);
  return PairRanked(st, edges, certain_only, MatcherId::kRelaxed);
}

}  // namespace

void RelaxedMatcher::Run(State& st) {
  std::vector<uint8_t> is_output[2];
  for (int s = 0; s < 2; ++s) {
    is_output[s].assign(st.side[s].size, 0);
    for (const ValueRef& r : st.side[s].graph->outputs) is_output[s][r.node] = 1;
  }
  PropagationMatcher propagate;
  std::vector<uint32_t> ids[2];
  for (int round = 0; round < kRounds; ++round) {
    // Decomposition first: a substitution would grab one node of a chain.
    Regions reg[2] = {BuildRegions(st, 0, std::move(ids[0])),
                      BuildRegions(st, 1, std::move(ids[1]))};
    bool changed = Decompose(st, is_output, reg);
    for (int s = 0; s < 2; ++s) ids[s] = ReleaseRegions(reg[s]);
    if (!changed) changed = Substitute(st, /*certain_only=*/false);
    if (!changed) break;
    propagate.Run(st);
  }
}

void RelaxedMatcher::RunCertainSubstitutions(State& st) {
  PropagationMatcher propagate;
  for (int round = 0; round < kRounds; ++round) {
    if (!Substitute(st, /*certain_only=*/true)) break;
    propagate.Run(st);
  }
}

}  // namespace graphdiff::align
