// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/verdict.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "fmt/format.h"

namespace graphdiff::align {
namespace {

using KV = std::pair<std::string_view, std::string_view>;

std::vector<KV> Significant(const Graph& g, const Node& n) {
  std::vector<KV> out;
  for (const Attr& a : n.attrs) {
    if (!IsPresentationKey(g.str(a.key))) out.emplace_back(g.str(a.key), g.str(a.value));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const KV& a, const KV& b) { return a.first < b.first; });
  return out;
}

// The common case without allocating: the same significant attributes in
// the same order. Anything else goes through the sorted comparison.
bool SameAttributesInOrder(const Graph& lg, const Node& a, const Graph& rg, const Node& b) {
  size_t i = 0, j = 0;
  for (;;) {
    while (i < a.attrs.size() && IsPresentationKey(lg.str(a.attrs[i].key))) ++i;
    while (j < b.attrs.size() && IsPresentationKey(rg.str(b.attrs[j].key))) ++j;
    if (i == a.attrs.size() || j == b.attrs.size()) {
      return i == a.attrs.size() && j == b.attrs.size();
    }
    if (lg.str(a.attrs[i].key) != rg.str(b.attrs[j].key) ||
        lg.str(a.attrs[i].value) != rg.str(b.attrs[j].value)) {
      return false;
    }
    ++i;
    ++j;
  }
}

bool SameTypes(const Graph& ag, const Node& a, const Graph& bg, const Node& b) {
  if (a.num_results() != b.num_results()) return false;
  for (uint32_t i = 0; i < a.num_results(); ++i) {
    const TensorType& x = ag.result(a, i);
    const TensorType& y = bg.result(b, i);
    if (x.dtype != y.dtype || x.rank_known != y.rank_known) return false;
    if (x.dims.size() != y.dims.size()) return false;
    for (size_t d = 0; d < x.dims.size(); ++d) {
      const Dim& p = x.dims[d];
      const Dim& q = y.dims[d];
      if (p.kind() != q.kind() || p.value() != q.value()) return false;
    }
  }
  return true;
}

void Append(std::string* detail, const std::string& text) {
  if (!detail->empty()) *detail += "; ";
  *detail += text;
}

std::string AttrDiff(const std::vector<KV>& a, const std::vector<KV>& b) {
  std::string out;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j >= b.size() || (i < a.size() && a[i].first < b[j].first)) {
      Append(&out, fmt::format("-{}={}", a[i].first, a[i].second));
      ++i;
    } else if (i >= a.size() || b[j].first < a[i].first) {
      Append(&out, fmt::format("+{}={}", b[j].first, b[j].second));
      ++j;
    } else {
      if (a[i].second != b[j].second) {
        Append(&out, fmt::format("{}={} -> {}", a[i].first, a[i].second, b[j].second));
      }
      ++i;
      ++j;
    }
  }
  return out;
}

std::string NodeLabel(const Graph& g, uint32_t v) {
  return fmt::format("{} {}", g.str(g.nodes[v].name), g.str(g.nodes[v].op));
}

}  // namespace

void ComputeVerdict(const State& st, const std::vector<uint32_t>& group_left,
                    const std::vector<uint32_t>& group_right, NodePair& pair) {
  const Graph& lg = *st.side[0].graph;
  const Graph& rg = *st.side[1].graph;
  const Node& ln = lg.nodes[pair.left];
  const Node& rn = rg.nodes[pair.right];
  std::string detail;
  uint32_t reasons = 0;
  if (group_left.size() > 1 || group_right.size() > 1) {
    // A decomposition: the group as a whole is the change.
    auto ops = [](const Graph& g, const std::vector<uint32_t>& group) {
      std::string s;
      for (uint32_t v : group) {
        if (!s.empty()) s += " + ";
        s += std::string(g.str(g.nodes[v].op));
      }
      return s;
    };
    pair.reasons = kChangedOp;
    pair.detail = fmt::format("op {} -> {} (decomposition, {} to {})",
                              ops(lg, group_left), ops(rg, group_right),
                              group_left.size(), group_right.size());
    return;
  }
  // Equal hashes settle the common case, as for attributes below: a
  // million pairs must not chase a million strings and type vectors.
  const bool same_op = st.side[0].op_hash[pair.left] == st.side[1].op_hash[pair.right];
  if (!same_op && lg.str(ln.op) != rg.str(rn.op)) {
    std::string_view lop = lg.str(ln.op), rop = rg.str(rn.op);
    reasons |= kChangedOp;
    const char* why = "substitution";
    if (st.side[0].cls[pair.left] == st.side[1].cls[pair.right]) {
      why = (st.side[0].module[pair.left] || st.side[1].module[pair.right])
                ? "module name evidence"
                : "known equivalent";
    }
    Append(&detail, fmt::format("op {} -> {} ({})", lop, rop, why));
  }
  if (ln.num_results() != 0 && rn.num_results() != 0 &&
      st.side[0].type_hash[pair.left] != st.side[1].type_hash[pair.right] &&
      !SameTypes(lg, ln, rg, rn)) {
    reasons |= kChangedType;
    Append(&detail, fmt::format("type {} -> {}", FormatResults(lg, ln),
                                FormatResults(rg, rn)));
  }
  // Attribute spellings differ between formats; only compare within one.
  // Equal hashes of the significant attributes settle the common case
  // without touching the strings.
  if (st.same_kind && st.side[0].attr_hash[pair.left] != st.side[1].attr_hash[pair.right] &&
      !SameAttributesInOrder(lg, ln, rg, rn)) {
    std::string diff = AttrDiff(Significant(lg, ln), Significant(rg, rn));
    if (!diff.empty()) {
      reasons |= kChangedAttributes;
      Append(&detail, "attributes " + diff);
    }
  }
  auto lo = st.side[0].operands(pair.left);
  auto ro = st.side[1].operands(pair.right);
  std::string rewired;
  for (size_t i = 0; i < std::max(lo.size(), ro.size()); ++i) {
    if (i >= lo.size() || i >= ro.size()) {
      // An extra parameter operand (module call vs its aten op) is not a
      // rewiring; an extra computed operand is.
      int s = i < lo.size() ? 0 : 1;
      const ValueRef& x = s == 0 ? lo[i] : ro[i];
      if (st.side[s].leaf[x.node] && st.free(s, x.node)) continue;
      const Graph& g = s == 0 ? lg : rg;
      Append(&rewired, fmt::format("operand {} {} {}", i, s == 0 ? "removed:" : "added:",
                                   NodeLabel(g, x.node)));
      continue;
    }
    uint32_t m = st.map[0][lo[i].node];
    if (m == ro[i].node && lo[i].output == ro[i].output) continue;
    // Operands are compared through pure aliases, but when one side's alias
    // became a real op (or the reverse) the reader still reads its
    // counterpart's operand as written; that change belongs to the alias
    // pair (an op change), not to this reader.
    const ValueRef& lr = ln.operands[i];
    const ValueRef& rr = rn.operands[i];
    if (st.map[0][lr.node] == rr.node && st.map[0][lr.node] != kNone &&
        lr.output == rr.output) {
      continue;
    }
    std::string expected = m == kNone ? std::string("a left-only node")
                                      : std::string(rg.str(rg.nodes[m].name));
    Append(&rewired, fmt::format("operand {}: {} -> {} (counterpart of {} is {})", i,
                                 NodeLabel(lg, lo[i].node), NodeLabel(rg, ro[i].node),
                                 lg.str(lg.nodes[lo[i].node].name), expected));
  }
  if (!rewired.empty()) {
    reasons |= kChangedOperands;
    Append(&detail, rewired);
  }
  pair.reasons = reasons;
  pair.detail = std::move(detail);
}

}  // namespace graphdiff::align
