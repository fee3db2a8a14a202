// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "testing/symmetric.h"

#include <string>
#include <utility>

namespace graphdiff::testing {
namespace {

// Copies node `n` of `from` into `to`, re-interning its strings.
Node CopyNode(const Graph& from, const Node& n, Graph& to) {
  auto re = [&](StrId id) { return id.empty() ? StrId() : to.intern(from.str(id)); };
  Node out;
  out.name = re(n.name);
  out.op = re(n.op);
  out.raw_op = re(n.raw_op);
  out.overload = re(n.overload);
  out.kind = n.kind;
  out.line = n.line;
  out.frame = re(n.frame);
  std::vector<TensorType> types(from.results(n).begin(), from.results(n).end());
  for (TensorType& t : types) {
    t.layout = re(t.layout);
    t.device = re(t.device);
    for (Dim& d : t.dims) {
      if (d.kind() == Dim::Kind::kSymbolic) d = Dim::Symbolic(re(d.symbol()));
    }
  }
  to.SetResults(out, types);
  for (const Attr& a : n.attrs) out.attrs.push_back({re(a.key), re(a.value)});
  return out;
}

// Appends a copy of g to out; `redirect[v]`, when set, replaces node v.
std::vector<ValueRef> AppendCopy(const Graph& g, uint32_t copy,
                                 const std::vector<std::pair<bool, ValueRef>>& redirect,
                                 Graph& out) {
  std::vector<ValueRef> map(g.nodes.size());
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    if (v < redirect.size() && redirect[v].first) {
      map[v] = redirect[v].second;
      continue;
    }
    Node n = CopyNode(g, g.nodes[v], out);
    n.name = out.intern(std::string(g.str(g.nodes[v].name)) + "_r" + std::to_string(copy));
    for (const ValueRef& r : g.nodes[v].operands) {
      n.operands.push_back({map[r.node].node, map[r.node].output + r.output});
    }
    map[v] = {static_cast<uint32_t>(out.nodes.size()), 0};
    out.nodes.push_back(std::move(n));
  }
  return map;
}

Graph Empty(const Graph& like) {
  Graph out;
  out.kind = like.kind;
  out.name = like.name;
  out.source = like.source;
  return out;
}

}  // namespace

Graph Replicate(const Graph& g, uint32_t n, std::vector<uint32_t>* offsets) {
  Graph out = Empty(g);
  if (offsets) offsets->clear();
  for (uint32_t k = 0; k < n; ++k) {
    if (offsets) offsets->push_back(static_cast<uint32_t>(out.nodes.size()));
    std::vector<ValueRef> map = AppendCopy(g, k, {}, out);
    for (uint32_t v : g.inputs) out.inputs.push_back(map[v].node);
    for (const ValueRef& r : g.outputs) out.outputs.push_back({map[r.node].node, r.output});
  }
  return out;
}

Graph ShareInputs(const Graph& block, uint32_t n, std::vector<std::vector<ValueRef>>* maps) {
  Graph out = Empty(block);
  if (maps) maps->clear();
  std::vector<std::pair<bool, ValueRef>> redirect;
  for (uint32_t k = 0; k < n; ++k) {
    std::vector<ValueRef> map = AppendCopy(block, k, redirect, out);
    if (k == 0) {
      for (uint32_t v : block.inputs) out.inputs.push_back(map[v].node);
      redirect.assign(block.nodes.size(), {false, {}});
      for (uint32_t v = 0; v < block.nodes.size(); ++v) {
        if (block.nodes[v].kind == NodeKind::kInput) redirect[v] = {true, map[v]};
      }
    }
    for (const ValueRef& r : block.outputs) {
      out.outputs.push_back({map[r.node].node, map[r.node].output + r.output});
    }
    if (maps) maps->push_back(std::move(map));
  }
  return out;
}

Graph Chain(const Graph& block, uint32_t n) {
  Graph out = Empty(block);
  std::vector<ValueRef> prev;
  for (uint32_t k = 0; k < n; ++k) {
    std::vector<std::pair<bool, ValueRef>> redirect;
    if (k > 0 && !block.inputs.empty() && !block.outputs.empty()) {
      redirect.assign(block.nodes.size(), {false, {}});
      const ValueRef o = block.outputs[0];
      redirect[block.inputs[0]] = {true, {prev[o.node].node, prev[o.node].output + o.output}};
    }
    std::vector<ValueRef> map = AppendCopy(block, k, redirect, out);
    for (uint32_t v : block.inputs) {
      if (k == 0 || v != block.inputs[0]) out.inputs.push_back(map[v].node);
    }
    prev = std::move(map);
  }
  if (n > 0) {
    for (const ValueRef& r : block.outputs) {
      out.outputs.push_back({prev[r.node].node, prev[r.node].output + r.output});
    }
  }
  return out;
}

Graph OptimizerStep(const Graph& model) {
  Graph out;
  out.kind = model.kind;
  out.name = "optimizer_step";
  out.source.file = model.source.file;
  auto add = [&](NodeKind kind, const char* op, std::vector<ValueRef> operands,
                 TensorType type) {
    Node n;
    n.kind = kind;
    n.op = n.raw_op = out.intern(op);
    n.name = out.intern((model.kind == GraphKind::kFx ? "v" : "%") +
                        std::to_string(out.nodes.size()));
    n.operands = std::move(operands);
    out.SetResults(n, absl::MakeConstSpan(&type, 1));
    out.nodes.push_back(std::move(n));
    return static_cast<uint32_t>(out.nodes.size() - 1);
  };
  TensorType scalar;
  scalar.dtype = DType::kF32;
  scalar.rank_known = true;
  const uint32_t lr = add(NodeKind::kConstant, "prim::Constant", {}, scalar);
  out.nodes[lr].attrs.push_back({out.intern("value"), out.intern("0.01")});
  const uint32_t mom = add(NodeKind::kConstant, "prim::Constant", {}, scalar);
  out.nodes[mom].attrs.push_back({out.intern("value"), out.intern("0.9")});
  for (uint32_t v : model.inputs) {
    if (model.nodes[v].type_count == 0) continue;
    TensorType t = model.result(model.nodes[v], 0);
    t.layout = t.device = StrId();
    for (Dim& d : t.dims) {
      if (d.kind() == Dim::Kind::kSymbolic) d = Dim::Symbolic(out.intern(model.str(d.symbol())));
    }
    const uint32_t param = add(NodeKind::kInput, "xla::device_data", {}, t);
    const uint32_t grad = add(NodeKind::kInput, "xla::device_data", {}, t);
    const uint32_t buf = add(NodeKind::kInput, "xla::device_data", {}, t);
    out.inputs.insert(out.inputs.end(), {param, grad, buf});
    const uint32_t decayed = add(NodeKind::kOp, "aten::mul", {{buf, 0}, {mom, 0}}, t);
    const uint32_t new_buf = add(NodeKind::kOp, "aten::add", {{decayed, 0}, {grad, 0}}, t);
    const uint32_t step = add(NodeKind::kOp, "aten::mul", {{new_buf, 0}, {lr, 0}}, t);
    const uint32_t new_param = add(NodeKind::kOp, "aten::sub", {{param, 0}, {step, 0}}, t);
    out.outputs.push_back({new_param, 0});
    out.outputs.push_back({new_buf, 0});
  }
  return out;
}

Graph ReturnInputs(const Graph& g) {
  Graph out = g;
  for (uint32_t v : g.inputs) out.outputs.push_back({v, 0});
  return out;
}

}  // namespace graphdiff::testing
