// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "analyze/pair_memo.h"

#include <utility>

#include "absl/container/inlined_vector.h"
#include "align/hash.h"
#include "align/identical.h"

namespace graphdiff::analyze {

namespace {

using align::Combine;
using align::Mix;

uint64_t HashType(uint64_t h, const TensorType& t) {
  h = Combine(h, static_cast<uint64_t>(t.dtype) << 1 | t.rank_known);
  h = Combine(h, t.dims.size());
  for (Dim d : t.dims) {
    h = Combine(h, static_cast<uint64_t>(d.value()) << 2 ^ static_cast<uint64_t>(d.kind()));
    h = Combine(h, d.symbol().id);
  }
  h = Combine(h, t.strides.size());
  for (int64_t s : t.strides) h = Combine(h, static_cast<uint64_t>(s));
  return Combine(h, uint64_t{t.layout.id} << 32 | t.device.id);
}

// A node's words, folded by a multiply-add chain of its own: nodes start
// from their index, so each node's chain is independent of the others' and
// the processor runs several at once. One chain through the whole graph
// (Combine, two multiplies a word) took a tenth of diffing a dump
// directory whose pairs repeat. A key only: Find compares in full.
uint64_t Fold(uint64_t acc, uint64_t w) { return (acc ^ w) * 0x9fb21c651e98df25ULL; }

}  // namespace

uint64_t GraphContentHash(const Graph& g) {
  // Types by value, each entry of the list once: nodes share ranges. In
  // place for the few types of a small graph, hashed by the 10^5.
  absl::InlinedVector<uint64_t, 16> type_hash(g.types.size());
  for (size_t i = 0; i < g.types.size(); ++i) type_hash[i] = HashType(0, g.types[i]);
  uint64_t h = Combine(static_cast<uint64_t>(g.kind) << 1 | g.partial, g.nodes.size());
  uint64_t index = 0;
  for (const Node& n : g.nodes) {
    uint64_t acc = Fold(++index, static_cast<uint64_t>(n.kind) << 32 | n.op.id);
    acc = Fold(acc, uint64_t{n.raw_op.id} << 32 | n.overload.id);
    acc = Fold(acc, uint64_t{n.name.id} << 32 | n.frame.id);
    acc = Fold(acc, uint64_t{n.output_count} << 32 | n.type_count);
    acc = Fold(acc, uint64_t{n.operands.size()} << 32 | n.attrs.size());
    for (ValueRef v : n.operands) acc = Fold(acc, uint64_t{v.node} << 32 | v.output);
    for (const Attr& a : n.attrs) acc = Fold(acc, uint64_t{a.key.id} << 32 | a.value.id);
    for (uint32_t t = 0; t < n.type_count; ++t) acc = Fold(acc, type_hash[n.first_type + t]);
    h += Mix(acc);
  }
  h = Combine(h, g.inputs.size());
  for (uint32_t i : g.inputs) h = Combine(h, i);
  h = Combine(h, g.outputs.size());
  for (ValueRef v : g.outputs) h = Combine(h, uint64_t{v.node} << 32 | v.output);
  return h;
}

bool SameGraphContent(const Graph& a, const Graph& b) {
  // Ids name the same strings only within one pool; there, graphs equal
  // node for node (what the aligner's shortcut checks) have the same content.
  return a.strings.identity() == b.strings.identity() && align::EqualNodeForNode(a, b);
}

PairMemo::Key PairMemo::KeyOf(const Graph& left, const Graph& right) {
  return Key{left.strings.identity(), right.strings.identity(), GraphContentHash(left),
             GraphContentHash(right)};
}

PairMemo::Known PairMemo::Find(const Key& key, const Graph& left, const Graph& right) const {
  Entry e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(key);
    if (it == entries_.end()) return {};
    e = it->second;
  }
  // A hash is no proof: the graphs are compared in full.
  if (!SameGraphContent(*e.left, left) || !SameGraphContent(*e.right, right)) return {};
  return e.known;
}

void PairMemo::Add(const Key& key, const Graph& left, const Graph& right,
                   const GraphPairDiff* diff, bool findings,
                   std::shared_ptr<const Alignment> own) {
  const Alignment* alignment = own != nullptr ? own.get() : &diff->alignment;
  std::lock_guard<std::mutex> lock(mu_);
  entries_.try_emplace(key, Entry{&left, &right, Known{diff, alignment, findings}, std::move(own)});
}

}  // namespace graphdiff::analyze
