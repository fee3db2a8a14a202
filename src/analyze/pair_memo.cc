// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "analyze/pair_memo.h"

#include <utility>
#include <vector>

#include "align/hash.h"

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

bool SameType(const TensorType& a, const TensorType& b) {
  return a.dtype == b.dtype && a.rank_known == b.rank_known && a.dims == b.dims &&
         a.strides == b.strides && a.layout == b.layout && a.device == b.device;
}

bool SameAttrs(const AttrList& a, const AttrList& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].key != b[i].key || a[i].value != b[i].value) return false;
  }
  return true;
}

bool SameNode(const Graph& ga, const Node& a, const Graph& gb, const Node& b) {
  if (a.kind != b.kind || a.op != b.op || a.raw_op != b.raw_op || a.overload != b.overload ||
      a.name != b.name || a.frame != b.frame || a.output_count != b.output_count ||
      a.type_count != b.type_count || !(a.operands == b.operands) ||
      !SameAttrs(a.attrs, b.attrs)) {
    return false;
  }
  // Types by value: equal types may sit at other places of the two lists.
  for (uint32_t i = 0; i < a.type_count; ++i) {
    if (!SameType(ga.types[a.first_type + i], gb.types[b.first_type + i])) return false;
  }
  return true;
}

}  // namespace

// A node's words, folded by a multiply-add chain of its own: nodes start
// from their index, so each node's chain is independent of the others' and
// the processor runs several at once. One chain through the whole graph
// (Combine, two multiplies a word) took a tenth of diffing a dump
// directory whose pairs repeat. A key only: Find compares in full.
inline uint64_t Fold(uint64_t acc, uint64_t w) { return (acc ^ w) * 0x9fb21c651e98df25ULL; }

uint64_t GraphContentHash(const Graph& g) {
  // Types by value, each entry of the list once: nodes share ranges.
  std::vector<uint64_t> type_hash(g.types.size());
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
  if (&a == &b) return true;
  if (a.strings.identity() != b.strings.identity() || a.kind != b.kind ||
      a.partial != b.partial || a.nodes.size() != b.nodes.size() || a.inputs != b.inputs ||
      a.outputs != b.outputs) {
    return false;
  }
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    if (!SameNode(a, a.nodes[i], b, b.nodes[i])) return false;
  }
  return true;
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
