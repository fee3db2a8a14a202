// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/fx_type.h"

#include <charconv>

namespace graphdiff {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool ParseInt(std::string_view s, int64_t* v) {
  s = Trim(s);
  if (s.empty()) return false;
  const char* end = s.data() + s.size();
  auto r = std::from_chars(s.data(), end, *v);
  return r.ec == std::errc() && r.ptr == end;
}

// Splits the inside of `[...]` at depth-0 commas, calling `fn` per element.
template <typename Fn>
bool ForEachElement(std::string_view inner, Fn fn) {
  if (Trim(inner).empty()) return true;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    if (i == inner.size() || (inner[i] == ',' && depth == 0)) {
      if (!fn(Trim(inner.substr(start, i - start)))) return false;
      start = i + 1;
    } else if (inner[i] == '(' || inner[i] == '[') {
      ++depth;
    } else if (inner[i] == ')' || inner[i] == ']') {
      --depth;
    }
  }
  return true;
}

// The bracketed group starting at `s[pos] == '['`; its inside goes to
// `*inner` and `*pos` moves past it.
bool TakeBrackets(std::string_view s, size_t* pos, std::string_view* inner) {
  if (*pos >= s.size() || s[*pos] != '[') return false;
  int depth = 0;
  for (size_t i = *pos; i < s.size(); ++i) {
    if (s[i] == '[') ++depth;
    if (s[i] == ']' && --depth == 0) {
      *inner = s.substr(*pos + 1, i - *pos - 1);
      *pos = i + 1;
      return true;
    }
  }
  return false;
}

bool IsRelation(std::string_view e) {
  static constexpr std::string_view kRel[] = {"Eq(", "Ne(", "Lt(", "Le(", "Gt(",
                                              "Ge(", "True", "False", "And(", "Or(",
                                              "Not("};
  for (std::string_view r : kRel) {
    if (e.substr(0, r.size()) == r) return true;
  }
  return false;
}

}  // namespace

bool ParseFxTypeAnnotation(std::string_view text, Graph* graph, TensorType* out,
                           StrId* symbol) {
  text = Trim(text);
  *out = TensorType{};
  if (text.substr(0, 4) == "Sym(" && text.back() == ')') {
    std::string_view e = Trim(text.substr(4, text.size() - 5));
    out->dtype = IsRelation(e) ? DType::kBool : DType::kS64;
    out->rank_known = true;
    if (symbol != nullptr) *symbol = graph->intern(e);
    return true;
  }
  if (text == "int" || text == "float" || text == "bool" || text == "complex") {
    out->dtype = text == "int"     ? DType::kS64
                 : text == "float" ? DType::kF64
                 : text == "bool"  ? DType::kBool
                                   : DType::kC128;
    out->rank_known = true;
    return true;
  }
  size_t lb = text.find('[');
  if (lb == std::string_view::npos || lb == 0) return false;
  DType dtype = ParseDType(text.substr(0, lb));
  if (dtype == DType::kUnknown) return false;
  size_t pos = lb;
  std::string_view dims;
  if (!TakeBrackets(text, &pos, &dims)) return false;
  TensorType t;
  t.dtype = dtype;
  t.rank_known = true;
  bool ok = ForEachElement(dims, [&](std::string_view d) {
    if (d.empty()) return false;
    int64_t size = 0;
    if (ParseInt(d, &size)) {
      t.dims.push_back(Dim::Static(size));
    } else if (d == "?") {
      t.dims.push_back(Dim::Unknown());
    } else {
      t.dims.push_back(Dim::Symbolic(graph->intern(d)));
    }
    return true;
  });
  if (!ok) return false;
  std::string_view strides;
  if (pos < text.size() && text[pos] == '[' && TakeBrackets(text, &pos, &strides)) {
    // Symbolic strides (`[s0, 1]`) carry no integer: keep none rather than
    // a misleading partial list. Gathered in place: the node's list is the
    // one allocation.
    InlineVec<int64_t, 8> values;
    bool all_int = ForEachElement(strides, [&](std::string_view s) {
      int64_t v;
      if (!ParseInt(s, &v)) return false;
      values.push_back(v);
      return true;
    });
    if (all_int && values.size() == t.dims.size()) {
      t.strides = CompactVec<int64_t>(values.data(), values.data() + values.size());
    }
  }
  std::string_view device = Trim(text.substr(pos));
  if (!device.empty()) t.device = graph->intern(device);
  *out = std::move(t);
  return true;
}

}  // namespace graphdiff
