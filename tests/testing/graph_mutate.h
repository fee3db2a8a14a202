// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Graph mutations for alignment tests: each returns the mutated graph plus
// the ground truth (which original node became which new node, and which
// changes were planted), so a test can score an alignment exactly.
#ifndef GRAPHDIFF_TESTS_TESTING_GRAPH_MUTATE_H_
#define GRAPHDIFF_TESTS_TESTING_GRAPH_MUTATE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graphdiff/graph.h"

namespace graphdiff::testing {

inline constexpr uint32_t kAbsent = 0xffffffffu;

struct Mutated {
  Graph graph;
  // truth[original node] = node in `graph` (kAbsent: removed).
  std::vector<uint32_t> truth;
  // Nodes of `graph` with no original counterpart, ascending.
  std::vector<uint32_t> added;
  // Original nodes whose pair must be reported changed, with the
  // ChangeReason bits expected (parallel vectors).
  std::vector<uint32_t> changed;
  std::vector<uint32_t> reasons;
  // Output positions of `graph` that are new.
  std::vector<uint32_t> added_outputs;
};

// The identity: a copy with truth[i] = i.
Mutated Identity(const Graph& g);
// New names for every node (IR `%k` style or FX-style identifiers).
Mutated Renumber(const Graph& g, uint64_t seed);
// A random valid topological order (inputs and outputs keep their order).
Mutated Reorder(const Graph& g, uint64_t seed);
// Nodes reading random existing values that nobody uses.
Mutated InsertDeadNodes(const Graph& g, uint32_t count, uint64_t seed);
// Extra outputs returning existing values.
Mutated AddExtraOutputs(const Graph& g, uint32_t count, uint64_t seed);
// One node reading `source` that nobody uses.
Mutated AddDeadNode(const Graph& g, uint32_t source);
// One more output returning `value`, at the end of the output list or,
// with `position`, inserted there (later outputs shift by one).
Mutated AddOutput(const Graph& g, ValueRef value, uint32_t position = kAbsent);
// Changes one node's op.
Mutated SubstituteOp(const Graph& g, uint32_t node, std::string_view op);
// Sets (or adds) one attribute of one node.
Mutated ChangeAttribute(const Graph& g, uint32_t node, std::string_view key,
                        std::string_view value);
// Makes operand `pos` of `node` read `source` (which must precede `node`).
Mutated RewireOperand(const Graph& g, uint32_t node, uint32_t pos, uint32_t source);
// Clones `node` (same operands) and makes `user` read the clone instead: a
// missed common subexpression.
Mutated DuplicateNode(const Graph& g, uint32_t node, uint32_t user);

// Applies `second` (a mutation of first.graph) after `first`: truths compose.
Mutated Then(const Mutated& first, const Mutated& second);

}  // namespace graphdiff::testing

#endif  // GRAPHDIFF_TESTS_TESTING_GRAPH_MUTATE_H_
