// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The matchers, in the order align.cc runs them. Each is one small class with
// one method over the shared State; adding a matcher is one file here and one
// line in the pipeline.
#ifndef GRAPHDIFF_SRC_ALIGN_MATCHERS_H_
#define GRAPHDIFF_SRC_ALIGN_MATCHERS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "align/state.h"
#include "graphdiff/graph.h"

namespace graphdiff::align {

// Builds both SideViews: op classes (equivalence table, module names),
// operands resolved through pure aliases, users, type and attribute hashes.
// Fails on a graph that is not topologically ordered.
class Normalizer {
 public:
  absl::Status Run(const Graph& left, const Graph& right, const AlignOptions& options,
                   State& state);
};

// What aligning requires of a graph: operands that come before their user
// (topological order) and outputs that name nodes of the graph. Every way
// through Align checks it, the shortcut for graphs equal node for node too.
absl::Status CheckAlignable(const Graph& g);
// CheckAlignable, and when the graph passes, how many operands its nodes
// hold.
absl::StatusOr<size_t> CountOperandsIfAlignable(const Graph& g);

// Unique-to-unique pairs of equal fingerprints at one level, tallest first,
// each verified against already matched operands.
class AnchorMatcher {
 public:
  explicit AnchorMatcher(Level level) : level_(level) {}
  void Run(State& state);

 private:
  Level level_;
};

// Leaves that several nodes read, paired by the overlap of their readers'
// contexts when it is mutual, unambiguous and more than half of both: a
// shared weight that one changed copy set apart from its counterpart
// (hubs.cc). Pairs are "similarity".
class HubMatcher {
 public:
  void Run(State& state);
};

// From matched pairs, operands by position and users by role (op class and
// operand position), to a fixpoint. Pairs whose types and attributes agree go
// first; with `exact_only` the others are not made at all, so a guess next to
// a change cannot take a node that later exact evidence would pair better.
class PropagationMatcher {
 public:
  explicit PropagationMatcher(bool exact_only = false) : exact_only_(exact_only) {}
  void Run(State& state);

 private:
  bool exact_only_;
};

// Look-alikes told apart by colour refinement of both graphs together, then
// chosen among by output order, meaningful input order, stable names, node
// order last: all at once where a check shows the choices consistent
// (symmetry_guess.h), else one pair at a time, refining again after each.
// Pairs from refinement alone, or determined by a choice, are "refine";
// the chosen ones are "symmetry".
class SymmetryMatcher {
 public:
  void Run(State& state);
};

// Free graph outputs (and FX/HLO inputs) at corresponding places of the two
// output lists, aligned by relative order around what is already paired:
// the seeds from which propagation pairs a changed component with its
// counterpart. Pairs are "position".
class PositionMatcher {
 public:
  void Run(State& state);
  // Before look-alikes are resolved: the FX/HLO inputs alone, and only when
  // both sides have as many free ones (FX: with the same names, in order).
  // An input every copy of a block reads (weights shared by unrolled steps)
  // takes its colour from all its readers, so one changed copy sets it apart
  // from its counterpart, and through it each side's readers from the
  // other's: structure alone then pairs none of the copies.
  static void RunSignature(State& state);
  // Runs of outputs between aligned neighbours, as long on both sides:
  // ops changed in place. A guess, so only once the certain pairs are made.
  static void RunGaps(State& state);
};

// Same-class candidates near matched nodes, scored by matched-neighbour
// overlap, type and attributes; bounded candidates per node. Equal scores
// are ranked by how far out the surroundings agree (candidates.h). Aliases
// are left to propagation, which pairs them through their readers.
class SimilarityMatcher {
 public:
  // `certain_only`: see PairRanked.
  explicit SimilarityMatcher(bool certain_only = false) : certain_only_(certain_only) {}
  void Run(State& state);

 private:
  bool certain_only_;
};

// Free nodes that every full-level fingerprint finds alike (twenty unused
// `empty` allocations) pair in node order: any pairing among them is equally
// right, and leaving them unmatched would report phantom changes.
//
// Aliases (`detach_copy`, projections) wait for a second run: they have no
// users of their own in the resolved view, so two of them under one changed
// node look alike even when the node reads them at different positions;
// once that node pairs, its operands pair by position and the aliases
// follow their sources.
class TwinMatcher {
 public:
  explicit TwinMatcher(bool aliases) : aliases_(aliases) {}
  void Run(State& state);

 private:
  bool aliases_;
};

// Different ops whose neighbourhoods are matched: substitutions, and one node
// that corresponds to a chain of unmatched nodes (a decomposition).
class RelaxedMatcher {
 public:
  void Run(State& state);
  // Substitutions only, and only those without a rival (PairRanked), with
  // propagation after each round: run before guesses among look-alikes, so
  // a changed op pairs by its surroundings and its copy follows from it.
  static void RunCertainSubstitutions(State& state);
};

// Module-level FX against aten-level FX (only when exactly one side calls
// modules): dataflow chains from paired nodes, each module call taking a run
// of consecutive aten nodes (its decomposition, possibly none), by a small
// dynamic programme per chain; module names only weigh in. Pairs are
// "relaxed", as one-to-many decompositions are.
class ModuleChainMatcher {
 public:
  void Run(State& state);
};

// Against a module-level graph, marks the other side's graph inputs that are
// lifted parameters and buffers (AOTAutograd's `primals_*`): read only as
// weights, or in surplus before the user's inputs. Nothing pairs them by
// input position.
void MarkLiftedInputs(State& state);

// The fingerprints of one side at `level` (bottom-up Merkle plus a two-round
// top-down context refinement).
Fingerprints ComputeFingerprints(const State& state, int side, Level level);
// The same into *fp, for what the anchors read once pairs exist: bottom-up
// keys for every node, context and top-down keys for free nodes (0 for
// others). With few nodes free, the context is worked out around them only
// instead of for every node of the graph again.
void RefreshFingerprints(const State& state, int side, Level level, Fingerprints* fp);
// The bottom-up keys alone, for matchers that read no context.
std::vector<uint64_t> BottomUpFingerprints(const State& state, int side, Level level);

// What node v of one side is on its own: op class, leaf / module / lifted
// flags, and its attributes and types where they are compared. Nodes of
// either side with different keys are never look-alikes.
uint64_t LocalKey(const State& state, int side, uint32_t v);

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_MATCHERS_H_
