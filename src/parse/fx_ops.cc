// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/fx_ops.h"

namespace graphdiff {
namespace {

struct PyOperator {
  std::string_view symbol;  // as written in code; empty when only callable
  std::string_view name;    // the `operator` module function
  std::string_view op;      // canonical op
};

constexpr PyOperator kBinary[] = {
    {"+", "add", "aten::add"},
    {"-", "sub", "aten::sub"},
    {"*", "mul", "aten::mul"},
    {"/", "truediv", "aten::div"},
    {"//", "floordiv", "aten::floor_divide"},
    {"%", "mod", "aten::remainder"},
    {"**", "pow", "aten::pow"},
    {"@", "matmul", "aten::matmul"},
    {"==", "eq", "aten::eq"},
    {"!=", "ne", "aten::ne"},
    {"<", "lt", "aten::lt"},
    {"<=", "le", "aten::le"},
    {">", "gt", "aten::gt"},
    {">=", "ge", "aten::ge"},
    {"&", "and_", "aten::bitwise_and"},
    {"|", "or_", "aten::bitwise_or"},
    {"^", "xor", "aten::bitwise_xor"},
    {"<<", "lshift", "aten::bitwise_left_shift"},
    {">>", "rshift", "aten::bitwise_right_shift"},
    {"in", "contains", "operator::contains"},
    {"not in", "", "operator::not_contains"},
    {"is", "is_", "operator::is_"},
    {"is not", "is_not", "operator::is_not"},
    {"and", "", "builtins::and"},
    {"or", "", "builtins::or"},
    {"", "getitem", "aten::getitem"},
    {"", "truth", "operator::truth"},
};

constexpr PyOperator kUnary[] = {
    {"-", "neg", "aten::neg"},
    {"+", "pos", "aten::positive"},
    {"~", "invert", "aten::bitwise_not"},
    {"not", "not_", "operator::not_"},
};

constexpr PyOperator kAugmented[] = {
    {"+=", "iadd", "aten::add_"},
    {"-=", "isub", "aten::sub_"},
    {"*=", "imul", "aten::mul_"},
    {"/=", "itruediv", "aten::div_"},
    {"//=", "ifloordiv", "aten::floor_divide_"},
    {"%=", "imod", "aten::remainder_"},
    {"**=", "ipow", "aten::pow_"},
    {"@=", "imatmul", "aten::matmul_"},
    {"&=", "iand", "aten::bitwise_and_"},
    {"|=", "ior", "aten::bitwise_or_"},
    {"^=", "ixor", "aten::bitwise_xor_"},
    {"<<=", "ilshift", "aten::bitwise_left_shift_"},
    {">>=", "irshift", "aten::bitwise_right_shift_"},
};

bool StartsWith(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

}  // namespace

std::string_view FxOperatorOp(std::string_view symbol, bool unary) {
  if (unary) {
    for (const PyOperator& o : kUnary) {
      if (o.symbol == symbol) return o.op;
    }
    return {};
  }
  for (const PyOperator& o : kBinary) {
    if (!o.symbol.empty() && o.symbol == symbol) return o.op;
  }
  return {};
}

std::string_view FxAugmentedOp(std::string_view symbol) {
  for (const PyOperator& o : kAugmented) {
    if (o.symbol == symbol) return o.op;
  }
  return {};
}

void FxFunctionOp(const std::string_view* parts, size_t n, std::string* op,
                  std::string_view* overload) {
  op->clear();
  *overload = {};
  if (n == 0) return;
  const std::string_view last = parts[n - 1];
  if (n == 1) {
    op->append("builtins::").append(last);
    return;
  }
  if (parts[0] == "torch" && parts[1] == "ops" && n >= 4) {
    op->append(parts[2]).append("::").append(parts[3]);
    if (n >= 5) *overload = parts[4];
    return;
  }
  if (parts[0] == "torch") {
    op->append("aten::").append(last);
    return;
  }
  if (n == 2 && (parts[0] == "operator" || parts[0] == "_operator")) {
    for (const PyOperator& o : kBinary) {
      if (o.name == last) return void(op->append(o.op));
    }
    for (const PyOperator& o : kUnary) {
      if (o.name == last) return void(op->append(o.op));
    }
    for (const PyOperator& o : kAugmented) {
      if (o.name == last) return void(op->append(o.op));
    }
    op->append("operator::").append(last);
    return;
  }
  op->append(parts[0]).append("::").append(last);
}

void AppendModulePath(std::string_view segment, std::string* path) {
  if (!path->empty()) path->push_back('.');
  std::string_view s = segment;
  if (StartsWith(s, "getattr_")) s.remove_prefix(8);
  bool mangled = false;
  for (std::string_view prefix : {"L__self___", "l__self___", "L__mod___", "l__mod___"}) {
    if (StartsWith(s, prefix)) {
      s.remove_prefix(prefix.size());
      mangled = true;
      break;
    }
  }
  if (!mangled) {
    path->append(segment);
    return;
  }
  size_t pos = 0;
  while (true) {
    size_t sep = s.find("___", pos);
    if (sep == std::string_view::npos) {
      path->append(s.substr(pos));
      return;
    }
    path->append(s.substr(pos, sep - pos));
    path->push_back('.');
    pos = sep + 3;
  }
}

int FxProjectionField(std::string_view field) {
  struct Field {
    std::string_view name;
    int index;
  };
  // Fields of the named tuples aten ops return (torch.return_types).
  static constexpr Field kFields[] = {
      {"values", 0},       {"indices", 1},      {"U", 0},       {"S", 1},
      {"V", 2},            {"Vh", 2},           {"Q", 0},       {"R", 1},
      {"L", 0},            {"eigenvalues", 0},  {"eigenvectors", 1},
      {"sign", 0},         {"logabsdet", 1},    {"mantissa", 0}, {"exponent", 1},
      {"solution", 0},     {"residuals", 1},    {"rank", 2},    {"singular_values", 3},
      {"LU", 0},           {"pivots", 1},       {"info", 2},
  };
  for (const Field& f : kFields) {
    if (f.name == field) return f.index;
  }
  return -1;
}

}  // namespace graphdiff
