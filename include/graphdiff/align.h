// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Align: decide which node of one graph is which node of the other, whatever
// the numbering, order and format, and say exactly what differs.
//
// The aligner is an ordered pipeline of small matchers over one shared
// mapping (normalise, exact anchors, propagation, bounded similarity, relaxed
// ops). Every pair records the matcher that made it, so a surprising match
// can always be explained.
#ifndef GRAPHDIFF_ALIGN_H_
#define GRAPHDIFF_ALIGN_H_

#include "graphdiff/export.h"
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphdiff/equivalence.h"
#include "graphdiff/graph.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// Why a matched pair is not identical. A bit set; 0 means unchanged.
enum ChangeReason : uint32_t {
  kChangedType = 1u << 0,        // result dtype or dims differ
  kChangedAttributes = 1u << 1,  // attributes or non-tensor arguments differ
  kChangedOperands = 1u << 2,    // an operand is not the matched counterpart
  kChangedOp = 1u << 3,          // different ops (a substitution)
};
// "type", "attributes", "operands", "op".
std::vector<std::string> ChangeReasonNames(uint32_t reasons);

// The matcher that made a pair, in pipeline order.
enum class Matcher : uint8_t {
  kNone = 0,
  kAnchor,
  kRefine,
  kSymmetry,
  kPropagate,
  kSimilarity,
  kTwins,
  kRelaxed,
  kPosition,
  kIdentical,  // the graphs are equal node for node: node i with node i
};
// "none", "anchor", "refine", "symmetry", "propagate", "similarity", "twins",
// "relaxed", "position", "identical".
std::string_view MatcherName(Matcher matcher);
// Inverse of MatcherName; false when `name` is not one.
bool ParseMatcher(std::string_view name, Matcher* out);

// One matched pair of nodes (indices into left.nodes / right.nodes).
struct NodePair {
  uint32_t left = 0;
  uint32_t right = 0;
  Matcher matcher = Matcher::kNone;
  uint32_t reasons = 0;  // ChangeReason bits
  std::string detail;    // human-readable: "stride=(1, 1) -> (2, 2)"
  bool changed() const { return reasons != 0; }
};

// The result. Pairs are sorted by (left, right). A left node paired with
// several right nodes is a one-to-many decomposition (matcher "relaxed").
// Output lists hold positions in Graph::outputs.
struct Alignment {
  std::vector<NodePair> pairs;
  std::vector<uint32_t> left_only;   // node indices, ascending
  std::vector<uint32_t> right_only;  // node indices, ascending
  std::vector<std::pair<uint32_t, uint32_t>> matched_outputs;  // (left pos, right pos)
  std::vector<uint32_t> left_only_outputs;
  std::vector<uint32_t> right_only_outputs;

  // True when the graphs are the same up to numbering and order.
  bool identical() const;
};

// Alignment tuning. Defaults suit graphs from one node to millions.
struct AlignOptions {
  // Op classes; null means OpEquivalence::BuiltIn().
  const OpEquivalence* equivalence = nullptr;
  // Candidates the similarity matcher scores per unmatched node.
  uint32_t similarity_candidates = 32;
  // Minimum score (0..1) for a similarity match.
  double similarity_threshold = 0.5;
  // Run the relaxed matcher that pairs different ops with matched neighbours.
  bool relaxed = true;
  // Check the result with VerifyAlignment before returning it; a violation
  // becomes an Internal error naming the nodes (`graphdiff diff --verify`).
  bool verify = false;
  // Threads for the work each side needs on its own (normalising,
  // fingerprints), used on big graphs only: 1 = the calling thread only,
  // 0 = one per core (at most two are used). DiffDumps sets 1 when it
  // aligns several pairs at once.
  unsigned threads = 0;
};

// Aligns two graphs. Deterministic; swapping the arguments swaps the result.
absl::StatusOr<Alignment> Align(const Graph& left, const Graph& right,
                                const AlignOptions& options = {});

// Checks that `alignment` is consistent with the two graphs it claims to
// align, whoever made it: indices in range; every node either paired or
// listed as one-sided, never both; a node in several pairs only where a
// one-to-many matcher (Matcher::kRelaxed) made them; every unchanged pair has the
// same op and its operands paired with each other at the same positions
// (through pure aliases, as the aligner compares them); every output
// position matched or listed once, and matched outputs agree with their
// nodes' pairs. Returns the first violation, naming the nodes.
absl::Status VerifyAlignment(const Graph& left, const Graph& right, const Alignment& alignment,
                             const AlignOptions& options = {});

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_ALIGN_H_
