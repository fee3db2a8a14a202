// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "testing/graph_mutate.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <utility>

namespace graphdiff::testing {
namespace {

std::vector<uint32_t> Iota(size_t n) {
  std::vector<uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// Rebuilds `g` with nodes in `order` (a topological order of old indices).
Graph Permute(const Graph& g, const std::vector<uint32_t>& order,
              std::vector<uint32_t>* old_to_new) {
  old_to_new->assign(g.nodes.size(), kAbsent);
  for (uint32_t i = 0; i < order.size(); ++i) (*old_to_new)[order[i]] = i;
  Graph out;
  out.kind = g.kind;
  out.name = g.name;
  out.source = g.source;
  out.strings = g.strings;  // ids are preserved by re-interning in order
  out.types = g.types;      // and the nodes' ranges of types with them
  out.nodes.reserve(g.nodes.size());
  for (uint32_t old : order) {
    Node n = g.nodes[old];
    for (ValueRef& r : n.operands) r.node = (*old_to_new)[r.node];
    out.nodes.push_back(std::move(n));
  }
  for (uint32_t v : g.inputs) out.inputs.push_back((*old_to_new)[v]);
  for (ValueRef r : g.outputs) out.outputs.push_back({(*old_to_new)[r.node], r.output});
  return out;
}

// Appends a node reading `source` that nobody uses, recorded as added.
void AppendDeadNode(uint32_t source, const std::string& name, Mutated& m) {
  Node n;
  n.op = n.raw_op = m.graph.intern("aten::dead_clone");
  n.name = m.graph.intern(name);
  n.operands.push_back({source, 0});
  const Node& src = m.graph.nodes[source];
  if (src.type_count != 0) m.graph.SetResults(n, m.graph.results(src).subspan(0, 1));
  m.added.push_back(static_cast<uint32_t>(m.graph.nodes.size()));
  m.graph.nodes.push_back(std::move(n));
}

}  // namespace

Mutated Identity(const Graph& g) {
  Mutated m;
  m.graph = g;
  m.truth = Iota(g.nodes.size());
  return m;
}

Mutated Renumber(const Graph& g, uint64_t seed) {
  Mutated m = Identity(g);
  std::vector<uint32_t> perm = Iota(g.nodes.size());
  std::mt19937_64 rng(seed);
  std::shuffle(perm.begin(), perm.end(), rng);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    std::string name = g.kind == GraphKind::kFx ? "v" + std::to_string(perm[i] + 1000)
                                                : "%" + std::to_string(perm[i] + 1000);
    m.graph.nodes[i].name = m.graph.intern(name);
  }
  return m;
}

Mutated Reorder(const Graph& g, uint64_t seed) {
  const size_t n = g.nodes.size();
  std::vector<uint32_t> pending(n, 0);
  std::vector<std::vector<uint32_t>> users(n);
  for (uint32_t v = 0; v < n; ++v) {
    for (const ValueRef& r : g.nodes[v].operands) {
      ++pending[v];
      users[r.node].push_back(v);
    }
  }
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> ready, order;
  for (uint32_t v = 0; v < n; ++v) {
    if (pending[v] == 0) ready.push_back(v);
  }
  while (!ready.empty()) {
    size_t pick = std::uniform_int_distribution<size_t>(0, ready.size() - 1)(rng);
    std::swap(ready[pick], ready.back());
    uint32_t v = ready.back();
    ready.pop_back();
    order.push_back(v);
    for (uint32_t u : users[v]) {
      if (--pending[u] == 0) ready.push_back(u);
    }
  }
  Mutated m;
  m.graph = Permute(g, order, &m.truth);
  return m;
}

Mutated InsertDeadNodes(const Graph& g, uint32_t count, uint64_t seed) {
  Mutated m = Identity(g);
  if (g.nodes.empty()) return m;
  std::mt19937_64 rng(seed);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t src = std::uniform_int_distribution<uint32_t>(
        0, static_cast<uint32_t>(g.nodes.size() - 1))(rng);
    AppendDeadNode(src, "%dead" + std::to_string(i), m);
  }
  return m;
}

Mutated AddExtraOutputs(const Graph& g, uint32_t count, uint64_t seed) {
  Mutated m = Identity(g);
  if (g.nodes.empty()) return m;
  std::mt19937_64 rng(seed);
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t v = std::uniform_int_distribution<uint32_t>(
        0, static_cast<uint32_t>(g.nodes.size() - 1))(rng);
    m.added_outputs.push_back(static_cast<uint32_t>(m.graph.outputs.size()));
    m.graph.outputs.push_back({v, 0});
  }
  return m;
}

Mutated AddDeadNode(const Graph& g, uint32_t source) {
  Mutated m = Identity(g);
  AppendDeadNode(source, "%dead_of_" + std::to_string(source), m);
  return m;
}

Mutated AddOutput(const Graph& g, ValueRef value, uint32_t position) {
  Mutated m = Identity(g);
  if (position > g.outputs.size()) position = static_cast<uint32_t>(g.outputs.size());
  m.graph.outputs.insert(m.graph.outputs.begin() + position, value);
  m.added_outputs.push_back(position);
  return m;
}

Mutated SubstituteOp(const Graph& g, uint32_t node, std::string_view op) {
  Mutated m = Identity(g);
  m.graph.nodes[node].op = m.graph.nodes[node].raw_op = m.graph.intern(op);
  m.changed.push_back(node);
  m.reasons.push_back(1u << 3);  // kChangedOp
  return m;
}

Mutated ChangeAttribute(const Graph& g, uint32_t node, std::string_view key,
                        std::string_view value) {
  Mutated m = Identity(g);
  Node& n = m.graph.nodes[node];
  StrId k = m.graph.intern(key), v = m.graph.intern(value);
  bool found = false;
  for (Attr& a : n.attrs) {
    if (a.key == k) {
      a.value = v;
      found = true;
    }
  }
  if (!found) n.attrs.push_back({k, v});
  m.changed.push_back(node);
  m.reasons.push_back(1u << 1);  // kChangedAttributes
  return m;
}

Mutated RewireOperand(const Graph& g, uint32_t node, uint32_t pos, uint32_t source) {
  Mutated m = Identity(g);
  m.graph.nodes[node].operands[pos] = {source, 0};
  m.changed.push_back(node);
  m.reasons.push_back(1u << 2);  // kChangedOperands
  return m;
}

Mutated DuplicateNode(const Graph& g, uint32_t node, uint32_t user) {
  // The clone goes right after `node` so the order stays topological.
  std::vector<uint32_t> order;
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    order.push_back(v);
    if (v == node) order.push_back(static_cast<uint32_t>(g.nodes.size()));
  }
  Graph with = g;
  Node clone = g.nodes[node];
  clone.name = with.intern(std::string(g.str(clone.name)) + "_dup");
  with.nodes.push_back(std::move(clone));
  for (ValueRef& r : with.nodes[user].operands) {
    if (r.node == node) r.node = static_cast<uint32_t>(g.nodes.size());
  }
  // Put the clone where it belongs: Permute does not check operand order, so
  // fix it by building the permuted graph from the extended one.
  std::vector<uint32_t> old_to_new;
  Mutated m;
  m.graph = Permute(with, order, &old_to_new);
  m.truth.assign(old_to_new.begin(), old_to_new.end() - 1);
  m.added.push_back(old_to_new.back());
  m.changed.push_back(user);
  m.reasons.push_back(1u << 2);  // kChangedOperands
  return m;
}

Mutated Then(const Mutated& first, const Mutated& second) {
  Mutated m;
  m.graph = second.graph;
  m.truth.resize(first.truth.size());
  for (size_t i = 0; i < first.truth.size(); ++i) {
    uint32_t mid = first.truth[i];
    m.truth[i] = mid == kAbsent ? kAbsent : second.truth[mid];
  }
  for (uint32_t a : first.added) {
    if (second.truth[a] != kAbsent) m.added.push_back(second.truth[a]);
  }
  m.added.insert(m.added.end(), second.added.begin(), second.added.end());
  std::sort(m.added.begin(), m.added.end());
  m.changed = first.changed;
  m.reasons = first.reasons;
  // Changes planted by `second` are named by first.graph's nodes; map back.
  std::vector<uint32_t> back(first.graph.nodes.size(), kAbsent);
  for (size_t i = 0; i < first.truth.size(); ++i) {
    if (first.truth[i] != kAbsent) back[first.truth[i]] = static_cast<uint32_t>(i);
  }
  for (size_t i = 0; i < second.changed.size(); ++i) {
    if (back[second.changed[i]] == kAbsent) continue;
    m.changed.push_back(back[second.changed[i]]);
    m.reasons.push_back(second.reasons[i]);
  }
  // Output positions are kept by every mutation here, so new ones add up.
  m.added_outputs = first.added_outputs;
  m.added_outputs.insert(m.added_outputs.end(), second.added_outputs.begin(),
                         second.added_outputs.end());
  return m;
}

}  // namespace graphdiff::testing
