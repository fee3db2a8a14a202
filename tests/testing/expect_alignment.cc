// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "testing/expect_alignment.h"

#include <map>
#include <vector>

#include "gtest/gtest.h"

namespace graphdiff::testing {
namespace {

// Nodes no alignment can tell apart: same op, attributes, types, operands,
// readers and output positions. Pairing either with the other's counterpart
// is equally right.
bool Interchangeable(const Graph& g, const std::vector<std::vector<ValueRef>>& readers,
                     uint32_t a, uint32_t b) {
  if (a == b) return true;
  const Node& x = g.nodes[a];
  const Node& y = g.nodes[b];
  if (x.op != y.op || x.operands != y.operands || x.type_count != y.type_count ||
      x.attrs.size() != y.attrs.size() || readers[a] != readers[b]) {
    return false;
  }
  for (size_t i = 0; i < x.attrs.size(); ++i) {
    if (x.attrs[i].key != y.attrs[i].key || x.attrs[i].value != y.attrs[i].value) return false;
  }
  for (uint32_t i = 0; i < x.type_count; ++i) {
    if (FormatType(g, g.result(x, i)) != FormatType(g, g.result(y, i))) return false;
  }
  for (const ValueRef& r : g.outputs) {
    if (r.node == a || r.node == b) return false;
  }
  return true;
}

}  // namespace

// Precision and recall of the pairs against the truth, up to
// interchangeable nodes of the left graph `g`.
Score Compare(const Graph& g, const Alignment& a, const Mutated& m) {
  std::vector<std::vector<ValueRef>> readers(g.nodes.size());
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    for (uint32_t i = 0; i < g.nodes[v].operands.size(); ++i) {
      readers[g.nodes[v].operands[i].node].push_back({v, i});
    }
  }
  std::vector<uint32_t> inverse(m.graph.nodes.size(), kAbsent);
  size_t truth = 0;
  for (uint32_t i = 0; i < m.truth.size(); ++i) {
    if (m.truth[i] == kAbsent) continue;
    inverse[m.truth[i]] = i;
    ++truth;
  }
  size_t correct = 0;
  for (const NodePair& p : a.pairs) {
    uint32_t want = inverse[p.right];
    correct += want != kAbsent && Interchangeable(g, readers, p.left, want);
  }
  Score s;
  s.precision = a.pairs.empty() ? 1.0 : static_cast<double>(correct) / a.pairs.size();
  s.recall = truth == 0 ? 1.0 : static_cast<double>(correct) / truth;
  return s;
}

// Exactly the planted changes, nothing else.
void ExpectExactly(const Graph& g, const Alignment& a, const Mutated& m,
                   const std::string& what) {
  EXPECT_TRUE(VerifyAlignment(g, m.graph, a).ok()) << what << ": " << VerifyAlignment(g, m.graph, a);
  Score s = Compare(g, a, m);
  EXPECT_EQ(s.precision, 1.0) << what;
  EXPECT_EQ(s.recall, 1.0) << what;
  EXPECT_TRUE(a.left_only.empty()) << what;
  EXPECT_EQ(a.right_only, m.added) << what;
  std::map<uint32_t, uint32_t> planted;
  for (size_t i = 0; i < m.changed.size(); ++i) planted[m.changed[i]] |= m.reasons[i];
  for (const NodePair& p : a.pairs) {
    auto it = planted.find(p.left);
    uint32_t want = it == planted.end() ? 0 : it->second;
    EXPECT_EQ(p.reasons, want) << what << ": left node " << p.left << " " << p.detail;
  }
}

}  // namespace graphdiff::testing
