// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/graph.h"

#include <cctype>

#include <algorithm>
#include <charconv>

#include "absl/strings/str_cat.h"

namespace graphdiff {
namespace {

struct DTypeSpelling {
  std::string_view text;
  DType dtype;
};

// Every spelling seen in XLA shapes, LTC ScalarType names, FX annotations
// and torch dtype reprs. Matching is case-sensitive on purpose: `F32` is not
// a spelling any of these tools write.
constexpr DTypeSpelling kSpellings[] = {
    {"pred", DType::kBool},       {"Bool", DType::kBool},
    {"bool", DType::kBool},       {"b8", DType::kBool},
    {"s8", DType::kS8},           {"i8", DType::kS8},
    {"Char", DType::kS8},         {"int8", DType::kS8},
    {"s16", DType::kS16},         {"i16", DType::kS16},
    {"Short", DType::kS16},       {"int16", DType::kS16},
    {"s32", DType::kS32},         {"i32", DType::kS32},
    {"Int", DType::kS32},         {"int32", DType::kS32},
    {"int", DType::kS32},         {"s64", DType::kS64},
    {"i64", DType::kS64},         {"Long", DType::kS64},
    {"int64", DType::kS64},       {"long", DType::kS64},
    {"u8", DType::kU8},           {"Byte", DType::kU8},
    {"uint8", DType::kU8},        {"u16", DType::kU16},
    {"uint16", DType::kU16},      {"UInt16", DType::kU16},
    {"u32", DType::kU32},         {"uint32", DType::kU32},
    {"UInt32", DType::kU32},      {"u64", DType::kU64},
    {"uint64", DType::kU64},      {"UInt64", DType::kU64},
    {"f16", DType::kF16},         {"Half", DType::kF16},
    {"float16", DType::kF16},     {"half", DType::kF16},
    {"bf16", DType::kBF16},       {"BFloat16", DType::kBF16},
    {"bfloat16", DType::kBF16},   {"f32", DType::kF32},
    {"Float", DType::kF32},       {"float32", DType::kF32},
    {"float", DType::kF32},       {"f64", DType::kF64},
    {"Double", DType::kF64},      {"float64", DType::kF64},
    {"double", DType::kF64},      {"f8e4m3fn", DType::kF8E4M3},
    {"f8e4m3", DType::kF8E4M3},   {"Float8_e4m3fn", DType::kF8E4M3},
    {"float8_e4m3fn", DType::kF8E4M3}, {"f8e5m2", DType::kF8E5M2},
    {"Float8_e5m2", DType::kF8E5M2},   {"float8_e5m2", DType::kF8E5M2},
    {"c64", DType::kC64},         {"ComplexFloat", DType::kC64},
    {"complex64", DType::kC64},   {"c128", DType::kC128},
    {"ComplexDouble", DType::kC128}, {"complex128", DType::kC128},
    {"token", DType::kToken},
};

}  // namespace

namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// The XLA spellings, nearly every dtype of a large HLO dump, by one switch
// on the bytes instead of the scan over every spelling.
DType XlaDType(std::string_view text) {
  if (text.size() < 2 || text.size() > 4) return DType::kUnknown;
  uint32_t key = 0;
  for (char c : text) key = key << 8 | static_cast<unsigned char>(c);
  constexpr auto k = [](const char (&s)[4]) {
    return static_cast<uint32_t>(s[0]) << 16 | static_cast<uint32_t>(s[1]) << 8 |
           static_cast<uint32_t>(s[2]);
  };
  switch (key) {
    case k("f32"): return DType::kF32;
    case k("s64"): return DType::kS64;
    case k("s32"): return DType::kS32;
    case k("f16"): return DType::kF16;
    case k("f64"): return DType::kF64;
    case k("u32"): return DType::kU32;
    case k("s16"): return DType::kS16;
    case k("u16"): return DType::kU16;
    case k("u64"): return DType::kU64;
    case k("c64"): return DType::kC64;
    case 0x7072'6564u: return DType::kBool;  // "pred"
    case 0x6266'3136u: return DType::kBF16;  // "bf16"
    case 0x7538u: return DType::kU8;          // "u8"
    case 0x7338u: return DType::kS8;          // "s8"
    default: return DType::kUnknown;
  }
}

}  // namespace

DType ParseDType(std::string_view text) {
  if (DType d = XlaDType(text); d != DType::kUnknown) return d;
  text = Trim(text);
  if (text.substr(0, 6) == "torch.") text.remove_prefix(6);
  for (const DTypeSpelling& s : kSpellings) {
    if (s.text == text) return s.dtype;
  }
  return DType::kUnknown;
}

std::string_view DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kUnknown: return "?";
    case DType::kBool: return "pred";
    case DType::kS8: return "s8";
    case DType::kS16: return "s16";
    case DType::kS32: return "s32";
    case DType::kS64: return "s64";
    case DType::kU8: return "u8";
    case DType::kU16: return "u16";
    case DType::kU32: return "u32";
    case DType::kU64: return "u64";
    case DType::kF16: return "f16";
    case DType::kBF16: return "bf16";
    case DType::kF32: return "f32";
    case DType::kF64: return "f64";
    case DType::kF8E4M3: return "f8e4m3fn";
    case DType::kF8E5M2: return "f8e5m2";
    case DType::kC64: return "c64";
    case DType::kC128: return "c128";
    case DType::kToken: return "token";
  }
  return "?";
}

int DTypeBytes(DType dtype) {
  switch (dtype) {
    case DType::kBool:
    case DType::kS8:
    case DType::kU8:
    case DType::kF8E4M3:
    case DType::kF8E5M2: return 1;
    case DType::kS16:
    case DType::kU16:
    case DType::kF16:
    case DType::kBF16: return 2;
    case DType::kS32:
    case DType::kU32:
    case DType::kF32: return 4;
    case DType::kS64:
    case DType::kU64:
    case DType::kF64:
    case DType::kC64: return 8;
    case DType::kC128: return 16;
    case DType::kUnknown:
    case DType::kToken: return 0;
  }
  return 0;
}

std::optional<int64_t> TensorType::NumElements() const {
  if (!rank_known) return std::nullopt;
  int64_t n = 1;
  for (const Dim& d : dims) {
    if (d.kind() != Dim::Kind::kStatic || d.value() < 0) return std::nullopt;
    if (d.value() != 0 && n > INT64_MAX / d.value()) return std::nullopt;
    n *= d.value();
  }
  return n;
}

std::string_view NodeKindName(NodeKind kind) {
  switch (kind) {
    case NodeKind::kInput: return "input";
    case NodeKind::kConstant: return "constant";
    case NodeKind::kOp: return "op";
    case NodeKind::kMethodCall: return "method_call";
    case NodeKind::kModuleCall: return "module_call";
    case NodeKind::kGetAttr: return "get_attr";
  }
  return "op";
}

std::string_view GraphKindName(GraphKind kind) {
  switch (kind) {
    case GraphKind::kIr: return "ir";
    case GraphKind::kFx: return "fx";
    case GraphKind::kHlo: return "hlo";
  }
  return "ir";
}

std::optional<std::string_view> Graph::attr(const Node& n,
                                            std::string_view key) const {
  for (const Attr& a : n.attrs) {
    if (str(a.key) == key) return str(a.value);
  }
  return std::nullopt;
}

namespace {

// Room for `extra` more types, grown geometrically. Reserving the exact
// size reallocated and copied the whole list on every call: a graph that
// types its nodes' outputs one projection at a time (a typed `getitem`
// after each multi-output call) took time quadratic in its types.
void ReserveMore(std::vector<TensorType>& types, size_t extra) {
  const size_t need = types.size() + extra;
  if (need > types.capacity()) types.reserve(std::max(need, 2 * types.capacity()));
}

// Appends a copy of types[from, from + count) and returns where it starts.
// By index, one at a time: the source lies in the vector that grows.
size_t AppendCopy(std::vector<TensorType>& types, size_t from, size_t count) {
  const size_t first = types.size();
  ReserveMore(types, count);
  for (size_t i = 0; i < count; ++i) types.push_back(types[from + i]);
  return first;
}

}  // namespace

void Graph::SetResults(Node& n, absl::Span<const TensorType> list) {
  if (!list.empty() && list.data() >= types.data() &&
      list.data() < types.data() + types.size()) {
    n.first_type = static_cast<uint32_t>(
        AppendCopy(types, static_cast<size_t>(list.data() - types.data()), list.size()));
  } else {
    n.first_type = static_cast<uint32_t>(types.size());
    types.insert(types.end(), list.begin(), list.end());
  }
  n.type_count = static_cast<uint32_t>(list.size());
}

absl::Span<TensorType> Graph::MutableResults(Node& n, uint32_t count) {
  ReserveMore(types, count);
  const size_t first = AppendCopy(types, n.first_type, std::min(count, n.type_count));
  types.resize(first + count);
  n.first_type = static_cast<uint32_t>(first);
  n.type_count = count;
  return absl::MakeSpan(types.data() + first, count);
}

void Graph::ShrinkTypes() {
  if (types.capacity() - types.size() > types.size() / 8) types.shrink_to_fit();
}

size_t Graph::MemoryBytes() const {
  size_t bytes = strings.MemoryBytes() +
                 nodes.capacity() * sizeof(Node) +
                 inputs.capacity() * sizeof(uint32_t) +
                 types.capacity() * sizeof(TensorType) +
                 outputs.capacity() * sizeof(ValueRef);
  // Lists held in place are part of sizeof(Node); only spills add heap.
  for (const Node& n : nodes) {
    bytes += n.operands.heap_capacity() * sizeof(ValueRef) +
             n.attrs.heap_capacity() * sizeof(Attr);
  }
  for (const TensorType& t : types) {
    bytes += t.dims.heap_capacity() * sizeof(Dim) +
             t.strides.heap_capacity() * sizeof(int64_t);
  }
  return bytes;
}

std::vector<uint32_t> CountUses(const Graph& g) {
  std::vector<uint32_t> uses(g.nodes.size(), 0);
  for (const Node& n : g.nodes) {
    for (const ValueRef& r : n.operands) {
      if (r.node < uses.size()) ++uses[r.node];
    }
  }
  for (const ValueRef& r : g.outputs) {
    if (r.node < uses.size()) ++uses[r.node];
  }
  return uses;
}

std::optional<std::vector<int64_t>> ParseIntList(std::string_view text) {
  text = Trim(text);
  if (!text.empty() && (text.front() == '(' || text.front() == '[' ||
                        text.front() == '{')) {
    char close = text.front() == '(' ? ')' : text.front() == '[' ? ']' : '}';
    if (text.back() != close) return std::nullopt;
    text = text.substr(1, text.size() - 2);
  }
  std::vector<int64_t> out;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',')) ++i;
    if (i >= text.size()) break;
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != ',') ++j;
    int64_t v = 0;
    const char* first = text.data() + i;
    const char* last = text.data() + j;
    if (*first == '+') ++first;
    auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last) return std::nullopt;
    out.push_back(v);
    i = j;
  }
  return out;
}

std::string FormatType(const Graph& g, const TensorType& t) {
  if (t.dtype == DType::kUnknown && !t.rank_known) return "?";
  std::string out(DTypeName(t.dtype));
  if (!t.rank_known) return out + "[?]";
  out += '[';
  for (size_t i = 0; i < t.dims.size(); ++i) {
    if (i) out += ',';
    const Dim& d = t.dims[i];
    switch (d.kind()) {
      case Dim::Kind::kStatic: absl::StrAppend(&out, d.value()); break;
      case Dim::Kind::kBounded: absl::StrAppend(&out, "<=", d.value()); break;
      case Dim::Kind::kSymbolic: out += g.str(d.symbol()); break;
      case Dim::Kind::kUnknown: out += '?'; break;
    }
  }
  out += ']';
  return out;
}

std::string FormatResults(const Graph& g, const Node& n) {
  if (n.num_results() == 0) return "?";
  if (n.num_results() == 1) return FormatType(g, g.result(n, 0));
  std::string out = "(";
  for (uint32_t i = 0; i < n.num_results(); ++i) {
    if (i) out += ", ";
    out += FormatType(g, g.result(n, i));
  }
  return out + ")";
}

}  // namespace graphdiff
