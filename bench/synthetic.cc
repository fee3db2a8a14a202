// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "synthetic.h"

#include <algorithm>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "fmt/format.h"

namespace graphdiff::bench {
namespace {

// Builds nodes with IR-like names, types and attributes.
class Emitter {
 public:
  explicit Emitter(Graph* g) : g_(g) {}

  uint32_t Param(const std::vector<int64_t>& dims) {
    uint32_t v = Emit("xla::device_data", NodeKind::kInput, {}, {Type(dims)},
                      {{"device", "TPU:0"}});
    g_->inputs.push_back(v);
    return v;
  }
  uint32_t Const(const std::string& value) {
    return Emit("prim::Constant", NodeKind::kConstant, {}, {Type({})}, {{"value", value}});
  }
  uint32_t Op(const char* op, std::vector<ValueRef> operands, const std::vector<int64_t>& dims,
              std::vector<std::pair<std::string, std::string>> attrs = {}) {
    return Emit(op, NodeKind::kOp, std::move(operands), {Type(dims)}, std::move(attrs));
  }
  uint32_t Multi(const char* op, std::vector<ValueRef> operands,
                 const std::vector<std::vector<int64_t>>& dims,
                 std::vector<std::pair<std::string, std::string>> attrs = {}) {
    std::vector<TensorType> types;
    for (const auto& d : dims) types.push_back(Type(d));
    attrs.emplace_back("num_outputs", std::to_string(dims.size()));
    return Emit(op, NodeKind::kOp, std::move(operands), std::move(types), std::move(attrs));
  }
  size_t size() const { return g_->nodes.size(); }

 private:
  static TensorType Type(const std::vector<int64_t>& dims) {
    TensorType t;
    t.dtype = DType::kF32;
    t.rank_known = true;
    for (int64_t d : dims) t.dims.push_back(Dim::Static(d));
    return t;
  }
  uint32_t Emit(const char* op, NodeKind kind, std::vector<ValueRef> operands,
                std::vector<TensorType> types,
                std::vector<std::pair<std::string, std::string>> attrs) {
    uint32_t index = static_cast<uint32_t>(g_->nodes.size());
    Node n;
    n.name = g_->intern("%" + std::to_string(index));
    n.op = n.raw_op = g_->intern(op);
    n.kind = kind;
    n.line = index + 2;
    n.operands = std::move(operands);
    g_->SetResults(n, types);
    for (auto& [k, v] : attrs) n.attrs.push_back({g_->intern(k), g_->intern(v)});
    g_->nodes.push_back(std::move(n));
    return index;
  }
  Graph* g_;
};

ValueRef R(uint32_t v, uint32_t out = 0) { return ValueRef{v, out}; }

// Pre-norm transformer block on x[B*S, D]; about 40 nodes.
uint32_t TransformerBlock(Emitter& e, uint32_t x, int64_t d, uint32_t shared_scale) {
  const int64_t tokens = 512;
  auto linear = [&](uint32_t in, int64_t out_dim) {
    uint32_t w = e.Param({out_dim, d});
    uint32_t b = e.Param({out_dim});
    uint32_t t = e.Op("aten::permute", {R(w)}, {d, out_dim}, {{"dims", "(1, 0)"}});
    return e.Op("aten::addmm", {R(b), R(in), R(t)}, {tokens, out_dim},
                {{"beta", "1"}, {"alpha", "1"}});
  };
  uint32_t g1 = e.Param({d}), b1 = e.Param({d});
  uint32_t ln1 = e.Multi("aten::native_layer_norm", {R(x), R(g1), R(b1)},
                         {{tokens, d}, {tokens, 1}, {tokens, 1}},
                         {{"normalized_shape", std::to_string(d)}, {"eps", "1e-05"}});
  uint32_t q = linear(ln1, d), k = linear(ln1, d), v = linear(ln1, d);
  uint32_t kt = e.Op("aten::permute", {R(k)}, {d, tokens}, {{"dims", "(1, 0)"}});
  uint32_t s = e.Op("aten::mm", {R(q), R(kt)}, {tokens, tokens});
  uint32_t scaled = e.Op("aten::mul", {R(s), R(shared_scale)}, {tokens, tokens});
  uint32_t p = e.Op("aten::softmax", {R(scaled)}, {tokens, tokens}, {{"dim", "-1"}});
  uint32_t ctx = e.Op("aten::mm", {R(p), R(v)}, {tokens, d});
  uint32_t o = linear(ctx, d);
  uint32_t c1 = e.Const("1");
  uint32_t one = e.Op("aten::expand", {R(c1)}, {tokens, d},
                      {{"size", "(" + std::to_string(tokens) + ", " + std::to_string(d) + ")"}});
  uint32_t res = e.Op("aten::mul", {R(o), R(one)}, {tokens, d});
  uint32_t h = e.Op("aten::add", {R(x), R(res)}, {tokens, d});
  uint32_t g2 = e.Param({d}), b2 = e.Param({d});
  uint32_t ln2 = e.Multi("aten::native_layer_norm", {R(h), R(g2), R(b2)},
                         {{tokens, d}, {tokens, 1}, {tokens, 1}},
                         {{"normalized_shape", std::to_string(d)}, {"eps", "1e-05"}});
  uint32_t up = linear(ln2, 4 * d);
  uint32_t act = e.Op("aten::gelu", {R(up)}, {tokens, 4 * d}, {{"approximate", "none"}});
  // The down projection reads 4d and writes d.
  uint32_t w = e.Param({d, 4 * d});
  uint32_t b = e.Param({d});
  uint32_t t = e.Op("aten::permute", {R(w)}, {4 * d, d}, {{"dims", "(1, 0)"}});
  uint32_t down = e.Op("aten::addmm", {R(b), R(act), R(t)}, {tokens, d});
  return e.Op("aten::add", {R(h), R(down)}, {tokens, d});
}

// ResNet basic block on x[4, c, hw, hw]; about 30 nodes.
uint32_t ConvBlock(Emitter& e, uint32_t x, int64_t c, int64_t hw) {
  std::vector<int64_t> shape = {4, c, hw, hw};
  auto conv_bn = [&](uint32_t in) {
    uint32_t w = e.Param({c, c, 3, 3});
    uint32_t conv = e.Op("aten::convolution_overrideable", {R(in), R(w)}, shape,
                         {{"stride", "(1, 1)"}, {"padding", "(1, 1)"}, {"dilation", "(1, 1)"},
                          {"transpose", "0"}, {"output_padding", "(0, 0)"}, {"groups", "1"}});
    std::vector<ValueRef> ops = {R(conv)};
    for (int i = 0; i < 4; ++i) ops.push_back(R(e.Param({c})));
    return e.Multi("aten::native_batch_norm", ops, {shape, {c}, {c}, {c}},
                   {{"training", "0"}, {"eps", "1e-05"}});
  };
  uint32_t bn1 = conv_bn(x);
  uint32_t r1 = e.Op("aten::relu", {R(bn1, 0)}, shape);
  uint32_t bn2 = conv_bn(r1);
  uint32_t c1 = e.Const("1");
  std::string size = "(4, " + std::to_string(c) + ", " + std::to_string(hw) + ", " +
                     std::to_string(hw) + ")";
  uint32_t one = e.Op("aten::expand", {R(c1)}, shape, {{"size", size}});
  uint32_t skip = e.Op("aten::mul", {R(x), R(one)}, shape);
  uint32_t add = e.Op("aten::add", {R(bn2, 0), R(skip)}, shape);
  return e.Op("aten::relu", {R(add)}, shape);
}

}  // namespace

Graph SyntheticModel(uint32_t target_nodes, uint64_t seed) {
  Graph g;
  g.kind = GraphKind::kIr;
  g.name = "synthetic";
  g.source.file = "synthetic";
  g.nodes.reserve(target_nodes + 64);
  Emitter e(&g);
  std::mt19937_64 rng(seed);
  const int64_t d = 256;
  uint32_t scale = e.Param({});  // shared by every attention block
  uint32_t tokens = e.Param({512, d});
  uint32_t image = e.Param({4, 64, 56, 56});
  uint32_t x = tokens, y = image;
  int blocks = 0;
  while (e.size() < target_nodes) {
    // Mostly transformer blocks, some conv blocks, in a seeded pattern.
    if (rng() % 3 == 0) {
      y = ConvBlock(e, y, 64, 56);
    } else {
      x = TransformerBlock(e, x, d, scale);
    }
    // Every few blocks expose an intermediate, as AOT graphs do.
    if (++blocks % 4 == 0) g.outputs.push_back(R(blocks % 8 == 0 ? x : y));
  }
  g.outputs.push_back(R(x));
  g.outputs.push_back(R(y));
  return g;
}

Graph ShuffledCopy(const Graph& g, uint64_t seed, uint32_t perturb_per_million,
                   CopyStats* stats) {
  const uint32_t n = static_cast<uint32_t>(g.nodes.size());
  std::mt19937_64 rng(seed);
  // Random topological order (Kahn with a random ready pick).
  std::vector<uint32_t> pending(n, 0), begin(n + 1, 0), users;
  for (uint32_t v = 0; v < n; ++v) {
    for (const ValueRef& r : g.nodes[v].operands) {
      ++pending[v];
      ++begin[r.node + 1];
    }
  }
  for (uint32_t v = 0; v < n; ++v) begin[v + 1] += begin[v];
  users.resize(begin[n]);
  std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
  for (uint32_t v = 0; v < n; ++v) {
    for (const ValueRef& r : g.nodes[v].operands) users[fill[r.node]++] = v;
  }
  std::vector<uint32_t> ready, order, where(n);
  order.reserve(n);
  for (uint32_t v = 0; v < n; ++v) {
    if (pending[v] == 0) ready.push_back(v);
  }
  while (!ready.empty()) {
    size_t pick = rng() % ready.size();
    std::swap(ready[pick], ready.back());
    uint32_t v = ready.back();
    ready.pop_back();
    order.push_back(v);
    for (uint32_t i = begin[v]; i < begin[v + 1]; ++i) {
      if (--pending[users[i]] == 0) ready.push_back(users[i]);
    }
  }
  Graph out;
  out.kind = g.kind;
  out.name = g.name + "-copy";
  out.source = g.source;
  out.strings = g.strings;
  out.types = g.types;  // copied nodes keep their ranges
  out.nodes.reserve(n + 16);
  CopyStats local;
  const uint64_t bound = 1000000;
  for (uint32_t i = 0; i < n; ++i) {
    // Operands come earlier in `order`, so their new index is known.
    where[order[i]] = static_cast<uint32_t>(out.nodes.size());
    Node node = g.nodes[order[i]];
    for (ValueRef& r : node.operands) r.node = where[r.node];
    node.name = out.intern("%" + std::to_string(i));
    if (node.kind == NodeKind::kOp && rng() % bound < perturb_per_million) {
      switch (rng() % 3) {
        case 0:
          node.attrs.push_back({out.intern("planted"), out.intern("1")});
          ++local.attribute_changes;
          break;
        case 1:
          node.op = out.intern("aten::planted_op");
          ++local.op_substitutions;
          break;
        default: {
          out.nodes.push_back(std::move(node));
          Node dead;
          dead.name = out.intern("%dead" + std::to_string(i));
          dead.op = dead.raw_op = out.intern("aten::clone");
          dead.operands.push_back({static_cast<uint32_t>(out.nodes.size() - 1), 0});
          out.nodes.push_back(std::move(dead));
          ++local.dead_nodes;
          continue;
        }
      }
    }
    out.nodes.push_back(std::move(node));
  }
  for (uint32_t v : g.inputs) out.inputs.push_back(where[v]);
  for (ValueRef r : g.outputs) out.outputs.push_back({where[r.node], r.output});
  if (stats) *stats = local;
  return out;
}

namespace {

// Synthetic graphs are all f32 (see Emitter::Type).
void AppendType(const TensorType& t, std::string* out) {
  *out += "f32[";
  for (size_t i = 0; i < t.dims.size(); ++i) {
    fmt::format_to(std::back_inserter(*out), "{}{}", i ? "," : "", t.dims[i].value());
  }
  *out += "]{";
  // Row-major layout, minor-to-major: rank-1 ... 0.
  for (size_t i = t.dims.size(); i-- > 0;) {
    fmt::format_to(std::back_inserter(*out), "{}{}", i + 1 < t.dims.size() ? "," : "", i);
  }
  *out += '}';
}

}  // namespace

std::string RenderIrText(const Graph& g) {
  std::vector<uint32_t> root(g.nodes.size(), 0xffffffffu);
  for (uint32_t i = 0; i < g.outputs.size(); ++i) {
    uint32_t v = g.outputs[i].node;
    if (root[v] == 0xffffffffu) root[v] = i;
  }
  std::string out = "IR {\n";
  out.reserve(g.nodes.size() * 160);
  std::string type;
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    const Node& n = g.nodes[v];
    type.clear();
    const absl::Span<const TensorType> results = g.results(n);
    if (results.size() > 1) type += '(';
    for (size_t i = 0; i < results.size(); ++i) {
      if (i) type += ", ";
      AppendType(results[i], &type);
    }
    if (results.size() > 1) type += ')';
    if (results.empty()) type = "f32[]{}";  // an untyped planted node
    fmt::format_to(std::back_inserter(out), "  %{} = {} {}(", v, type, g.str(n.op));
    for (size_t i = 0; i < n.operands.size(); ++i) {
      const ValueRef& r = n.operands[i];
      fmt::format_to(std::back_inserter(out), "{}%{}", i ? ", " : "", r.node);
      if (g.nodes[r.node].type_count > 1) fmt::format_to(std::back_inserter(out), ".{}", r.output);
    }
    fmt::format_to(std::back_inserter(out), "), xla_shape={}", type);
    for (const Attr& a : n.attrs) {
      fmt::format_to(std::back_inserter(out), ", {}={}", g.str(a.key), g.str(a.value));
    }
    if (root[v] != 0xffffffffu) fmt::format_to(std::back_inserter(out), ", ROOT={}", root[v]);
    out += '\n';
  }
  out += "}\n";
  return out;
}

}  // namespace graphdiff::bench
