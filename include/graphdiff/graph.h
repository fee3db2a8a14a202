// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The one graph model every dump format is parsed into.
//
// Lazy-tensor IR, FX code and HLO all become a Graph: nodes in topological
// order, each with a canonical op, operands as (node, output) references,
// result types with normalised dtypes, attributes and source locations. One
// model means aligning an FX graph with an IR graph is the same code as
// aligning two IR graphs.
#ifndef GRAPHDIFF_GRAPH_H_
#define GRAPHDIFF_GRAPH_H_

#include "graphdiff/export.h"
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/types/span.h"
#include "graphdiff/compact_vec.h"
#include "graphdiff/inline_vec.h"
#include "graphdiff/string_list.h"
#include "graphdiff/strings.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// Element type, normalised across formats: `f32`, `Float`, `float32` and
// `torch.float32` are all kF32; `s64`, `i64`, `Long` and `int64` are kS64.
enum class DType : uint8_t {
  kUnknown = 0,
  kBool,
  kS8,
  kS16,
  kS32,
  kS64,
  kU8,
  kU16,
  kU32,
  kU64,
  kF16,
  kBF16,
  kF32,
  kF64,
  kF8E4M3,
  kF8E5M2,
  kC64,
  kC128,
  kToken,  // the last: ComputeStats keeps a count per value up to it
};

// Parses any spelling of a dtype; kUnknown when it is not one.
DType ParseDType(std::string_view text);
// Short canonical spelling: "f32", "s64", "bf16", "pred" for bool, "?" unknown.
std::string_view DTypeName(DType dtype);
// Size of one element in bytes; 0 when unknown or not a storage type.
int DTypeBytes(DType dtype);

// One dimension of a shape. `<=N` (bounded dynamic) keeps N as its bound,
// `s0` (symbolic) keeps the symbol, `?` is unknown. Eight bytes: a rank-4
// type keeps its dims in place in 40 bytes, and a 10^6-node graph holds
// about as many types as nodes.
class Dim {
 public:
  enum class Kind : uint8_t { kStatic, kBounded, kSymbolic, kUnknown };
  // Sizes and bounds beyond +-2^61 (none a real tensor has) are clamped.
  static constexpr int64_t kMaxValue = (int64_t{1} << 61) - 1;

  constexpr Dim() = default;
  static constexpr Dim Static(int64_t size) { return Dim(Kind::kStatic, size); }
  static constexpr Dim Bounded(int64_t bound) { return Dim(Kind::kBounded, bound); }
  static constexpr Dim Symbolic(StrId symbol) {
    return Dim(Kind::kSymbolic, static_cast<int64_t>(symbol.id));
  }
  static constexpr Dim Unknown() { return Dim(Kind::kUnknown, 0); }

  constexpr Kind kind() const { return static_cast<Kind>(bits() & 3); }
  // The size (kStatic) or the bound (kBounded); 0 otherwise.
  constexpr int64_t value() const {
    return kind() == Kind::kStatic || kind() == Kind::kBounded
               ? static_cast<int64_t>(bits()) >> 2
               : 0;
  }
  // kSymbolic only, in the owning graph's pool; empty otherwise.
  constexpr StrId symbol() const {
    return StrId{kind() == Kind::kSymbolic ? static_cast<uint32_t>(bits() >> 2) : 0u};
  }

  friend constexpr bool operator==(Dim a, Dim b) { return a.bits() == b.bits(); }
  friend constexpr bool operator!=(Dim a, Dim b) { return a.bits() != b.bits(); }

 private:
  constexpr Dim(Kind kind, int64_t value)
      : Dim((static_cast<uint64_t>(value < -kMaxValue  ? -kMaxValue
                                     : value > kMaxValue ? kMaxValue
                                                         : value)
               << 2) |
              static_cast<uint64_t>(kind)) {}
  constexpr explicit Dim(uint64_t bits)
      : lo_(static_cast<uint32_t>(bits)), hi_(static_cast<uint32_t>(bits >> 32)) {}
  // The kind in the low two bits; above, the value or the symbol.
  constexpr uint64_t bits() const { return uint64_t{hi_} << 32 | lo_; }

  // Two halves, not one uint64_t: a 4-byte-aligned Dim lets a shape, and so
  // a node record, pack without padding (see Layout below).
  uint32_t lo_ = 0;
  uint32_t hi_ = 0;
};

// The lists a node holds, sized so that a typical node needs no heap block
// (see inline_vec.h).
using DimList = InlineVec<Dim, 4>;

// The type of one result: dtype, dims and, when the dump gives them, layout
// (`{3,2,1,0}` as written), strides and device.
// The members are ordered so that the two that may hold a heap pointer (dims
// when spilled, strides) sit at 8-byte offsets: see "Layout" below.
struct alignas(8) TensorType {
  DimList dims;                   // up to rank 4 without a heap block
  DType dtype = DType::kUnknown;
  bool rank_known = false;  // false: dims are unknown, not a scalar
  CompactVec<int64_t> strides;    // empty unless the dump lists them
  StrId layout;                  // e.g. "{3,2,1,0}" (XLA), without tiling changes
  StrId device;                  // e.g. "cpu", "TPU:0"

  // Element count when every dim is static; nullopt otherwise.
  std::optional<int64_t> NumElements() const;
};

// A node's result types as a parser collects them before they go into the
// graph (Graph::SetResults).
using TypeList = InlineVec<TensorType, 1>;

// A reference to output `output` of node `node` (an index into Graph::nodes).
// FX `getitem`/`x[0]`/`x.indices` and IR `%13.0` both become a ValueRef.
struct ValueRef {
  uint32_t node = 0;
  uint32_t output = 0;
  friend bool operator==(ValueRef a, ValueRef b) {
    return a.node == b.node && a.output == b.output;
  }
  friend bool operator!=(ValueRef a, ValueRef b) { return !(a == b); }
};

using OperandList = InlineVec<ValueRef, 3>;

// One attribute or non-tensor argument, value kept as the dump writes it
// (whitespace trimmed). FX positional non-tensor arguments use the key
// "argN" (N = argument position); value references inside such an argument
// are written `$k` (k = operand index) so renaming values changes nothing.
struct Attr {
  StrId key;
  StrId value;
};

using AttrList = InlineVec<Attr, 4>;

enum class NodeKind : uint8_t {
  kInput,       // graph input: FX placeholder, IR device_data, HLO parameter
  kConstant,    // literal: IR prim::Constant, HLO constant
  kOp,          // an operation (FX call_function, IR op, HLO instruction)
  kMethodCall,  // FX call_method: `x.mean(...)`; operand 0 is the receiver
  kModuleCall,  // FX call_module: `self.conv1(x)`; attr "target" = module path
  kGetAttr,     // FX get_attr: a parameter or buffer fetched from the module
};
std::string_view NodeKindName(NodeKind kind);

// One node. `op` is canonical (`aten::convolution`, `aten::add`,
// `xla::max_pool2d_forward`, `module::layer1.0.conv1`); `raw_op` is the text
// the dump used (`torch.ops.aten.convolution.default`, `+`; for a module call
// the callee less `self.`, `L__self___conv1`, or the module path when the
// callee is written with getattr: `layer1.0.conv1` for
// `getattr(self.layer1, "0").conv1`); `overload` keeps an FX
// overload such as `default` or `Tensor`. Result types live in the graph
// (Graph::results), not here: most FX nodes have none, and a slot for one in
// every record was 56 of its bytes.
// The members are interleaved so that each list starts at an 8-byte offset
// and the record packs without padding: see "Layout" below.
struct alignas(8) Node {
  OperandList operands;
  StrId name;  // as the dump writes it: "%17", "convolution_3", "add.5"
  AttrList attrs;
  StrId op;
  StrId raw_op;
  StrId overload;
  uint32_t line = 0;  // 1-based line in the dump file (Graph::source.file)
  StrId frame;        // the model frame: "fn@file.py:123", "# File:" text
  // Outputs known from their readers when no result types are (projections
  // of an untyped `native_batch_norm` read outputs 0 to 2): the types then
  // number fewer than that, often none, and the others are unknown.
  uint32_t output_count = 0;
  // The result types the dump gives, one per output as far as known:
  // Graph::types[first_type, first_type + type_count) of the node's own
  // graph: a node copied into another graph gets its types there with
  // SetResults. Read them with Graph::results or Graph::result.
  uint32_t first_type = 0;
  uint32_t type_count = 0;
  NodeKind kind = NodeKind::kOp;

  // Result entries the node stands for: its types, or `output_count` where
  // that is more. Read them with Graph::result(node, i).
  uint32_t num_results() const {
    return type_count > output_count ? type_count : output_count;
  }
  // Number of outputs this node is known to have (at least 1).
  uint32_t num_outputs() const {
    const uint32_t n = num_results();
    return n > 1 ? n : 1;
  }
};

// Layout. A list (InlineVec) keeps its heap pointer, once it spills, in the
// first 8 bytes of its record, and a record of 4-byte values is 4-byte
// aligned (three operands in 28 bytes). Leak checkers (LeakSanitizer) find
// pointers only at 8-byte-aligned addresses, so every list, and strides,
// starts at an 8-byte offset; otherwise graphs kept until exit would report
// their spilled lists as leaked. The node record is 104 bytes (176 with
// 8-byte-aligned lists and two counts each, 160 with a result type in place).
static_assert(sizeof(void*) != 8 || (offsetof(TensorType, dims) % 8 == 0 &&
                                     offsetof(TensorType, strides) % 8 == 0 &&
                                     sizeof(TensorType) % 8 == 0),
              "TensorType: pointer-holding members at 8-byte offsets");
static_assert(sizeof(void*) != 8 || (offsetof(Node, operands) % 8 == 0 &&
                                     offsetof(Node, attrs) % 8 == 0 && sizeof(Node) % 8 == 0),
              "Node: lists at 8-byte offsets");

enum class GraphKind : uint8_t { kIr, kFx, kHlo };
std::string_view GraphKindName(GraphKind kind);

// Where a graph came from. For save-file records, the Python frames, hashes
// and graph name of the record header.
struct GraphSource {
  std::string file;         // the dump's source name (path, or path inside an archive)
  uint32_t first_line = 0;  // 1-based, inclusive
  uint32_t last_line = 0;
  std::string graph_name;                 // "Graph Name:", FX class name, HLO module
  StringList frames;                      // Python stack frames, innermost first
  StringList hashes;                      // "Hashes:" / "Root Hashes:"
  std::string graph_hash;                 // "Graph Hash:"
  uint32_t record_index = 0;              // position among the file's graphs
  uint32_t repeat_count = 1;              // identical consecutive records folded in
};

// The op of a stand-in node: one a partial dump refers to but leaves out.
inline constexpr std::string_view kElidedOp = "graphdiff::elided";

// A parsed graph. Nodes are in topological order (every operand refers to an
// earlier node). Inputs list input nodes in their declared order; outputs are
// the returned values in order (FX `return`, IR `ROOT=k`).
struct Graph {
  GraphKind kind = GraphKind::kIr;
  std::string name;
  GraphSource source;
  StringPool strings;
  std::vector<Node> nodes;
  // Every node's result types, a range per node (Node::first_type and
  // type_count). Nodes of the same type may share one range (a parser gives
  // each spelling of a type one range), so change a node's types only
  // through SetResults or MutableResults, which give it a range of its own.
  std::vector<TensorType> types;
  std::vector<uint32_t> inputs;
  std::vector<ValueRef> outputs;
  // The dump does not hold the whole graph: lines were elided (`...`) or the
  // text ended inside it. Nodes it refers to but leaves out are stand-ins
  // with op `graphdiff::elided`. Diffs of a partial graph are lower bounds.
  bool partial = false;

  std::string_view str(StrId id) const { return strings.Get(id); }
  StrId intern(std::string_view s) { return strings.Intern(s); }
  // The result types the dump gives for `n`; fewer than n.num_results()
  // when only the readers tell how many outputs it has.
  absl::Span<const TensorType> results(const Node& n) const {
    return absl::MakeConstSpan(types.data() + n.first_type, n.type_count);
  }
  // Result i's type; an unknown type past the end of results(n).
  const TensorType& result(const Node& n, uint32_t i) const {
    static const TensorType kUnknown;
    return i < n.type_count ? types[n.first_type + i] : kUnknown;
  }
  // Gives `n` a range of its own holding `list`.
  void SetResults(Node& n, absl::Span<const TensorType> list);
  // Gives `n` a new range of `count` types, its current ones first (as many
  // as fit) and unknown types after, and returns it for writing. The old
  // range stays in `types`, unused unless shared.
  absl::Span<TensorType> MutableResults(Node& n, uint32_t count);
  // Gives back the spare room of `types` past an eighth of its size, which
  // growing it one node at a time leaves: a parser's last step.
  void ShrinkTypes();
  // The attribute `key` of node `n`, or nullopt.
  std::optional<std::string_view> attr(const Node& n, std::string_view key) const;
  // Approximate heap bytes used, for the memory target.
  size_t MemoryBytes() const;
};

// Number of users of each node (operand references, plus one per output use).
std::vector<uint32_t> CountUses(const Graph& g);

// Parses an integer list as dumps write them: "(1, 1)", "[2, 2]", "2 20",
// "{3,2,1,0}", "5". nullopt when any element is not an integer.
std::optional<std::vector<int64_t>> ParseIntList(std::string_view text);

// Formats a type the way a reader expects: "f32[4,64]" or
// "(f32[4,64], f32[64])" for multi-output nodes; "?" when unknown.
std::string FormatType(const Graph& g, const TensorType& t);
std::string FormatResults(const Graph& g, const Node& n);

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_GRAPH_H_
