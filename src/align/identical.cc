// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/identical.h"

#include <cstdint>

namespace graphdiff::align {
namespace {

// Compares strings of two graphs by id when they share a pool.
class Strings {
 public:
  Strings(const Graph& a, const Graph& b)
      : a_(a), b_(b), shared_(a.strings.identity() == b.strings.identity()) {}
  bool Equal(StrId x, StrId y) const { return shared_ ? x == y : a_.str(x) == b_.str(y); }

 private:
  const Graph& a_;
  const Graph& b_;
  const bool shared_;
};

bool EqualType(const Strings& s, const TensorType& x, const TensorType& y) {
  if (x.dtype != y.dtype || x.rank_known != y.rank_known || x.dims.size() != y.dims.size() ||
      !(x.strides == y.strides) || !s.Equal(x.layout, y.layout) ||
      !s.Equal(x.device, y.device)) {
    return false;
  }
  for (size_t i = 0; i < x.dims.size(); ++i) {
    const Dim dx = x.dims[i], dy = y.dims[i];
    if (dx.kind() != dy.kind()) return false;
    if (dx.kind() == Dim::Kind::kSymbolic ? !s.Equal(dx.symbol(), dy.symbol())
                                          : dx.value() != dy.value()) {
      return false;
    }
  }
  return true;
}

bool EqualNode(const Strings& s, const Graph& a, const Node& x, const Graph& b,
               const Node& y) {
  if (x.kind != y.kind || x.output_count != y.output_count || x.type_count != y.type_count ||
      x.operands.size() != y.operands.size() || x.attrs.size() != y.attrs.size() ||
      !s.Equal(x.op, y.op) || !s.Equal(x.name, y.name) || !s.Equal(x.raw_op, y.raw_op) ||
      !s.Equal(x.overload, y.overload) || !s.Equal(x.frame, y.frame)) {
    return false;
  }
  for (size_t i = 0; i < x.operands.size(); ++i) {
    if (x.operands[i] != y.operands[i]) return false;
  }
  for (size_t i = 0; i < x.attrs.size(); ++i) {
    if (!s.Equal(x.attrs[i].key, y.attrs[i].key) ||
        !s.Equal(x.attrs[i].value, y.attrs[i].value)) {
      return false;
    }
  }
  for (uint32_t i = 0; i < x.type_count; ++i) {
    if (!EqualType(s, a.types[x.first_type + i], b.types[y.first_type + i])) return false;
  }
  return true;
}

}  // namespace

bool EqualNodeForNode(const Graph& a, const Graph& b) {
  if (&a == &b) return true;
  if (a.kind != b.kind || a.partial != b.partial || a.nodes.size() != b.nodes.size() ||
      a.inputs != b.inputs || a.outputs != b.outputs) {
    return false;
  }
  const Strings s(a, b);
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    if (!EqualNode(s, a, a.nodes[i], b, b.nodes[i])) return false;
  }
  return true;
}

Alignment NodeForNode(const Graph& g) {
  Alignment out;
  const uint32_t n = static_cast<uint32_t>(g.nodes.size());
  out.pairs.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    out.pairs[i].left = out.pairs[i].right = i;
    out.pairs[i].matcher = Matcher::kIdentical;
  }
  const uint32_t outputs = static_cast<uint32_t>(g.outputs.size());
  out.matched_outputs.reserve(outputs);
  for (uint32_t i = 0; i < outputs; ++i) out.matched_outputs.emplace_back(i, i);
  return out;
}

}  // namespace graphdiff::align
