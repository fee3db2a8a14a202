// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "analyze/pair_memo.h"

#include <utility>

#include "align/hash.h"

namespace graphdiff::analyze {

namespace {

using align::Combine;

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

uint64_t GraphContentHash(const Graph& g) {
  uint64_t h = Combine(static_cast<uint64_t>(g.kind) << 1 | g.partial, g.nodes.size());
  for (const Node& n : g.nodes) {
    h = Combine(h, static_cast<uint64_t>(n.kind) << 32 | n.op.id);
    h = Combine(h, uint64_t{n.raw_op.id} << 32 | n.overload.id);
    h = Combine(h, uint64_t{n.name.id} << 32 | n.frame.id);
    h = Combine(h, uint64_t{n.output_count} << 32 | n.type_count);
    h = Combine(h, n.operands.size());
    for (ValueRef v : n.operands) h = Combine(h, uint64_t{v.node} << 32 | v.output);
    h = Combine(h, n.attrs.size());
    for (const Attr& a : n.attrs) h = Combine(h, uint64_t{a.key.id} << 32 | a.value.id);
    for (const TensorType& t : g.results(n)) h = HashType(h, t);
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
                   const GraphPairDiff* diff, bool findings) {
  std::lock_guard<std::mutex> lock(mu_);
  entries_.try_emplace(key, Entry{&left, &right, Known{diff, findings}});
}

}  // namespace graphdiff::analyze
