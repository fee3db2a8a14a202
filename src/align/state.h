// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The shared state every matcher reads and extends: a normalised view of each
// graph (op classes, resolved operands, users, hashes) and the node mapping.
#ifndef GRAPHDIFF_SRC_ALIGN_STATE_H_
#define GRAPHDIFF_SRC_ALIGN_STATE_H_

#include <cstdint>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "graphdiff/align.h"
#include "graphdiff/equivalence.h"
#include "graphdiff/graph.h"

namespace graphdiff::align {

inline constexpr uint32_t kNone = 0xffffffffu;

// Attribute keys that describe how a dump prints a node, not what it
// computes. The output flag (`ROOT=k`) is one: a node that becomes an extra
// output is still the same node.
inline bool IsPresentationKey(std::string_view key) {
  return key == "NodeType" || key == "xla_shape" || key == "location" ||
         key == "scope" || key == "num_outputs" || key == "ROOT" ||
         key == "frame" || key == "stack_trace" || key == "name";
}

// Which matcher made a pair; names in MatcherName().
enum class MatcherId : uint8_t {
  kNone = 0,
  kAnchor,
  kRefine,
  kSymmetry,
  kPropagate,
  kSimilarity,
  kTwins,
  kRelaxed,
  kPosition,
  kIdentical,
};
const char* MatcherName(MatcherId id);

// One use of a node's value: `user` reads output `output` as operand `pos`.
struct Use {
  uint32_t user;
  uint32_t pos;
  uint32_t output;
};

// One graph as the matchers see it. Operands are resolved through pure
// aliases (`alias`, `detach`, unfolded `getitem`), so the users lists and
// fingerprints see the computation, not its spelling.
struct SideView {
  const Graph* graph = nullptr;
  uint32_t size = 0;
  std::vector<uint64_t> cls;        // op class hash
  std::vector<uint64_t> op_hash;    // the exact op spelling's hash
  std::vector<uint8_t> leaf;        // input, constant or get_attr
  std::vector<uint8_t> module;      // FX module call (class from its name)
  std::vector<uint8_t> alias;       // pure alias or projection, folded away
  std::vector<uint8_t> lifted;      // input standing for a module's parameter
  std::vector<uint64_t> type_hash;  // dtypes and dims of every result
  std::vector<uint64_t> attr_hash;  // attributes that matter
  std::vector<uint32_t> height;     // longest operand chain below the node
  std::vector<uint32_t> out_pos;    // first position in Graph::outputs, or kNone
  std::vector<uint32_t> op_begin;   // CSR into ops, size + 1
  std::vector<ValueRef> ops;        // resolved operands
  std::vector<uint32_t> use_begin;  // CSR into uses, size + 1
  std::vector<Use> uses;
  bool typed = false;  // most nodes carry result types

  absl::Span<const ValueRef> operands(uint32_t v) const {
    return {ops.data() + op_begin[v], op_begin[v + 1] - op_begin[v]};
  }
  absl::Span<const Use> users(uint32_t v) const {
    return {uses.data() + use_begin[v], use_begin[v + 1] - use_begin[v]};
  }
};

// How much of a node a fingerprint sees. Coarser levels let cross-format and
// cross-level graphs (FX without types, module calls without parameters)
// anchor on their data-flow skeleton.
enum class Level : uint8_t {
  kFull,       // class, attributes, types, operands
  kStructure,  // class, operands
  kSkeleton,   // class, non-leaf operands
};

// Fingerprints of one side at one level.
struct Fingerprints {
  std::vector<uint64_t> bottom_up;  // Merkle over operands
  std::vector<uint64_t> context;    // bottom_up refined by users, twice
  std::vector<uint64_t> top_down;   // op class and the users' context only
};

struct State {
  SideView side[2];
  std::vector<uint32_t> map[2];    // primary counterpart or kNone
  std::vector<MatcherId> how[2];   // matcher of the primary pair
  std::vector<uint8_t> covered[2]; // part of a one-to-many pair (set by Cover)
  // Decomposition pairs besides the primary map: (left, right).
  std::vector<std::pair<uint32_t, uint32_t>> extra;
  Fingerprints fp[2];       // of the latest anchor level
  Fingerprints full_fp[2];  // of the full level, before anything matched: context only
  bool same_kind = false;
  bool use_types = false;
  bool parallel = false;  // ForBothSides may use a second thread
  const AlignOptions* options = nullptr;
  const OpEquivalence* equivalence = nullptr;
  // Left nodes in the order they were paired. Pairs are never undone, so
  // propagation looks for seeds only among the pairs made since its last
  // run and those that had a free neighbour on both sides then (`fringe`),
  // not among every pair of a million-node graph each time.
  std::vector<uint32_t> paired;
  std::vector<uint32_t> fringe;
  size_t fringe_paired = 0;  // paired.size() when fringe was taken
  // Pairs whose last visit by propagation did nothing, by left node: how
  // many of their users were free then, and the fingerprints it sorted
  // them by. Free nodes only ever stop being free, so an equal count later
  // means the same users, and the visit would do nothing again: a pair of
  // hubs among look-alike users sorted a thousand users each run, to no
  // effect, until symmetry told the users apart.
  struct Quiet {
    uint32_t free_users;
    uint32_t fp_generation;
  };
  absl::flat_hash_map<uint32_t, Quiet> quiet;
  // Scratch, by node: a pass over a few nodes numbers them here and sets
  // them back to kNone when done (or leaves it empty: sized on first use).
  std::vector<uint32_t> node_index[2];
  uint32_t fp_generation = 0;  // bumped whenever fp is recomputed

  // Nodes no longer free, a bit each: set by Match and Cover, never
  // cleared. free() is asked of every neighbour of every pair propagation
  // visits, and a hub's users lie all over a big graph; map and covered
  // take five bytes a node, out of cache, where the bits of a million
  // nodes stay in it.
  std::vector<uint64_t> taken[2];

  bool free(int s, uint32_t v) const { return !((taken[s][v >> 6] >> (v & 63)) & 1); }
  // Marks side s's node v part of a one-to-many pair.
  void Cover(int s, uint32_t v) {
    covered[s][v] = 1;
    Take(s, v);
  }
  // Whether side s has a node left to pair: a sequential scan, far cheaper
  // than a matcher's pass over every pair's neighbourhood.
  bool AnyFree(int s) const {
    for (uint32_t v = 0; v < side[s].size; ++v) {
      if (free(s, v)) return true;
    }
    return false;
  }
  void Match(uint32_t l, uint32_t r, MatcherId id) {
    map[0][l] = r;
    map[1][r] = l;
    Take(0, l);
    Take(1, r);
    paired.push_back(l);
    how[0][l] = id;
    how[1][r] = id;
  }
  void Take(int s, uint32_t v) { taken[s][v >> 6] |= uint64_t{1} << (v & 63); }
  // Match with sides given by `s`: node `a` on side s, `b` on the other.
  void MatchSided(int s, uint32_t a, uint32_t b, MatcherId id) {
    if (s == 0) {
      Match(a, b, id);
    } else {
      Match(b, a, id);
    }
  }
};

// Runs fn(0) and fn(1), the second on its own thread when `parallel`. Much
// of alignment is per side and independent (normalising, fingerprints),
// and on big graphs each side costs as much as the other.
template <typename Fn>
void ForBothSides(bool parallel, Fn fn) {
  if (!parallel) {
    fn(0);
    fn(1);
    return;
  }
  std::thread other([&fn] { fn(1); });
  fn(0);
  other.join();
}

// Whether a graph's input order means something: FX placeholders and HLO
// parameters are a signature; IR device_data nodes are listed in the order
// the file happens to print them.
inline bool OrderedInputs(const Graph& g) {
  return g.kind == GraphKind::kFx || g.kind == GraphKind::kHlo;
}

// A tie-break key that is the same for (l, r) and for the swapped problem's
// (r, l), so greedy passes give mirror results when the sides are swapped.
inline uint64_t SymKey(uint32_t a, uint32_t b) {
  // Node counts stay below 2^31 (ParseOptions caps them far lower).
  uint64_t sum = static_cast<uint64_t>(a) + b;
  return (sum << 32) | (a > b ? a : b);
}

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_STATE_H_
