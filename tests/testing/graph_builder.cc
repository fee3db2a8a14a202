// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "testing/graph_builder.h"

#include <string>

#include "absl/strings/numbers.h"
#include "util/absl_sv.h"

namespace graphdiff::testing {

std::vector<TensorType> ParseTypes(std::string_view text) {
  std::vector<TensorType> out;
  if (text.empty() || text == "?") return out;
  if (text.front() == '(' && text.back() == ')') text = text.substr(1, text.size() - 2);
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',')) ++i;
    if (i >= text.size()) break;
    size_t open = text.find('[', i);
    size_t close = text.find(']', open);
    if (open == std::string_view::npos || close == std::string_view::npos) break;
    TensorType t;
    t.dtype = ParseDType(text.substr(i, open - i));
    t.rank_known = true;
    std::string_view dims = text.substr(open + 1, close - open - 1);
    size_t j = 0;
    while (j < dims.size()) {
      size_t k = dims.find(',', j);
      if (k == std::string_view::npos) k = dims.size();
      int64_t v = 0;
      if (!absl::SimpleAtoi(AbslSv(dims.substr(j, k - j)), &v)) v = 0;
      t.dims.push_back(Dim::Static(v));
      j = k + 1;
    }
    out.push_back(std::move(t));
    i = close + 1;
  }
  return out;
}

GraphBuilder::GraphBuilder(GraphKind kind, std::string name) {
  g_.kind = kind;
  g_.name = name;
  g_.source.file = std::move(name);
}

uint32_t GraphBuilder::Add(Node n) {
  uint32_t index = static_cast<uint32_t>(g_.nodes.size());
  if (n.name.empty()) n.name = g_.intern("%" + std::to_string(index));
  n.line = index + 1;
  g_.nodes.push_back(std::move(n));
  return index;
}

uint32_t GraphBuilder::Input(std::string_view type, std::string_view op) {
  Node n;
  n.kind = NodeKind::kInput;
  if (op.empty()) op = g_.kind == GraphKind::kFx ? "fx::placeholder" : "xla::device_data";
  n.op = n.raw_op = g_.intern(op);
  g_.SetResults(n, ParseTypes(type));
  uint32_t v = Add(std::move(n));
  g_.inputs.push_back(v);
  return v;
}

uint32_t GraphBuilder::Constant(std::string_view value, std::string_view type,
                                std::string_view op) {
  Node n;
  n.kind = NodeKind::kConstant;
  n.op = n.raw_op = g_.intern(op);
  g_.SetResults(n, ParseTypes(type));
  n.attrs.push_back({g_.intern("value"), g_.intern(value)});
  return Add(std::move(n));
}

uint32_t GraphBuilder::Op(std::string_view op, const std::vector<uint32_t>& operands,
                          std::string_view type,
                          const std::vector<std::pair<std::string, std::string>>& attrs,
                          NodeKind kind) {
  std::vector<ValueRef> refs;
  for (uint32_t o : operands) refs.push_back({o, 0});
  return OpRefs(op, refs, type, attrs, kind);
}

uint32_t GraphBuilder::OpRefs(std::string_view op, const std::vector<ValueRef>& operands,
                              std::string_view type,
                              const std::vector<std::pair<std::string, std::string>>& attrs,
                              NodeKind kind) {
  Node n;
  n.kind = kind;
  n.op = n.raw_op = g_.intern(op);
  n.operands = operands;
  g_.SetResults(n, ParseTypes(type));
  for (const auto& [k, v] : attrs) n.attrs.push_back({g_.intern(k), g_.intern(v)});
  return Add(std::move(n));
}

uint32_t GraphBuilder::Module(std::string_view path, const std::vector<uint32_t>& operands) {
  std::string op = "module::" + std::string(path);
  return Op(op, operands, "", {{"target", std::string(path)}}, NodeKind::kModuleCall);
}

void GraphBuilder::Output(uint32_t node, uint32_t output) {
  g_.outputs.push_back({node, output});
}

void GraphBuilder::Name(uint32_t node, std::string_view name) {
  g_.nodes[node].name = g_.intern(name);
}

}  // namespace graphdiff::testing
