// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Conventions this builder establishes (other components rely on them):
// - def parameters (except `self`), or the names unpacked from
//   `fx_pytree.tree_flatten_spec`, are kInput nodes `fx::placeholder`.
// - `x = self.a.b` is a kGetAttr `fx::get_attr` with attr "target" = "a.b".
// - `self.L__self___conv1(x)` and friends are kModuleCall `module::<path>`
//   with attr "target" = the decoded dotted path.
// - `x.mean(...)` is a kMethodCall `aten::mean`; the receiver is operand 0
//   and the arguments are numbered from 1 (the receiver is argument 0, as in
//   FX's call_method).
// - Operators and functions get canonical ops from fx_ops.h.
// - `b[k]` / `b.indices` with a literal k on a call result is a projection:
//   no node, the name binds to ValueRef{b, k}. Other subscripts are
//   `aten::getitem` nodes (arg1 = the index); other attribute reads of values
//   (`x.shape`) are `builtins::getattr` nodes with arg1 = `"shape"`, exactly
//   like `getattr(x, "shape")`.
// - Other expressions on the right-hand side: literals become kConstant
//   `prim::Constant` (attr "value"), containers holding values become
//   `prim::TupleConstruct` / `prim::ListConstruct` / `prim::DictConstruct`.
// - `x += y` is `aten::add_` (in-place); the alias that FX prints after it
//   (`iadd = x`) names the node.
#include "parse/fx_code.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "fmt/format.h"
#include "parse/error.h"
#include "parse/fx_expr.h"
#include "parse/fx_ops.h"
#include "parse/fx_type.h"
#include "parse/intern_names.h"
#include "parse/name_table.h"

namespace graphdiff {
namespace {

constexpr uint32_t kNoNode = 0xffffffffu;

// Hashes callee texts with the value names' hash (name_table.h).
struct NameHash {
  size_t operator()(std::string_view s) const { return static_cast<size_t>(HashName(s)); }
};

// The text of a string literal without prefix and quotes.
std::string_view StringContents(std::string_view lit) {
  size_t q = 0;
  while (q < lit.size() && lit[q] != '\'' && lit[q] != '"') ++q;
  size_t quote_len = (lit.size() >= q + 6 && lit[q + 1] == lit[q] && lit[q + 2] == lit[q]) ? 3 : 1;
  if (lit.size() < q + 2 * quote_len) return {};
  return lit.substr(q + quote_len, lit.size() - q - 2 * quote_len);
}

struct FxParam {
  std::string_view name;
  uint32_t line = 0;
  bool typed = false;
  TensorType type;
  StrId symbol;
};
struct FxPendingType {
  std::string_view name;
  TensorType type;
  StrId symbol;
};

class FxBuilder {
 public:
  FxBuilder(FxLines& lines, const FxParseContext& ctx)
      : lines_(lines), ctx_(ctx), lexer_(lines) {}

  // Whether this builder reads `lines` for `ctx`.
  bool Reads(const FxLines& lines, const FxParseContext& ctx) const {
    return &lines_ == &lines && &ctx_ == &ctx;
  }

  // Parses the definition at `def_index` into `g`. A builder parses the
  // definitions of a dump one after another: what it holds besides the
  // graph is cleared for each, its room kept.
  absl::Status Run(size_t def_index, Graph* g, size_t* next_line);

 private:
  void Reset(Graph* g);
  absl::Status Parse(size_t def_index, size_t* next_line);
  absl::Status ParseDef(size_t def_index);
  absl::Status Statement(size_t begin);
  bool OnlyFreesNames(size_t begin) const;
  absl::Status Assign(size_t target_expr, uint32_t annotation, uint32_t value);
  absl::Status AugAssign(uint32_t target, std::string_view symbol, uint32_t value);
  absl::Status Return(size_t pos);
  size_t CountOutputs(uint32_t e) const;
  absl::Status AddOutputs(uint32_t e);
  absl::Status Flatten(uint32_t targets, uint32_t call);
  // Evaluates `e` into a node named `name`, or into a binding (alias,
  // projection). `*out` receives the value.
  absl::Status Evaluate(std::string_view name, uint32_t e, ValueRef* out,
                        bool* is_node);
  absl::Status EvaluateCall(std::string_view name, uint32_t e, ValueRef* out);
  // Adds expression `e` as an argument of the node under construction.
  absl::Status AddArg(uint32_t node, uint32_t e, StrId key);
  absl::Status CollectRefs(uint32_t e, uint32_t node);
  // The value `e` denotes without creating a node (a bound name, or a
  // projection of one); false when it is not such a reference.
  bool ResolveRef(uint32_t e, ValueRef* out);
  bool ModulePath(uint32_t e, std::string* path);
  bool DottedParts(uint32_t e, std::string_view* parts, size_t* n) const;
  // The first argument of `pytree.tree_unflatten(outputs, spec)`, whose
  // elements a return lists; kFxNone when `e` is no such call.
  uint32_t UnflattenedOutputs(uint32_t e) const;
  bool IsCallNode(uint32_t node) const;
  void MaterializeParams();
  void Annotate(uint32_t ann, TensorType* type, StrId* symbol, bool* typed);
  void Render(uint32_t first, uint32_t last, std::string* out);
  std::string_view SourceSpan(uint32_t first, uint32_t last);
  uint32_t NewNode(std::string_view name, NodeKind kind, std::string_view op,
                   std::string_view raw_op, std::string_view overload, uint32_t line);
  // The same with op, raw op and overload already interned.
  uint32_t NewNode(std::string_view name, NodeKind kind, const std::array<StrId, 3>& op,
                   uint32_t line);
  uint32_t NewPlaceholder(std::string_view name, uint32_t line);
  StrId ArgKey(size_t n);
  StrId NodeName(std::string_view name);
  void PrefetchNextTarget() const;
  // A module call's strings: "module::" + path, the callee as written
  // (the target's id when it is the path) and the path.
  struct ModuleCallIds {
    StrId op, raw_op, target;
  };
  ModuleCallIds InternModuleCall(std::string_view op_text, std::string_view raw,
                                 bool raw_is_path);
  // Interns the strings of the module call EvaluateCall left pending, if
  // any (see pending_call_).
  void FlushModuleCall();
  // Makes room in the pool for the strings of `left` more lines, at the
  // rate the `done` lines parsed since the marks stored and interned them.
  void ReserveStrings(size_t left, size_t done, size_t views_mark, size_t interned_mark);
  // Gives node `n`, untyped so far, its one result type.
  void SetType(Node& n, TensorType&& type);
  void SetProjection(ValueRef ref, const TensorType* type);
  absl::Status ErrorAt(size_t token, std::string_view message);
  absl::Status ExprError(const FxExprParser& p);
  void Warn(size_t token, std::string_view message);
  // After an elision, a name may belong to a line the dump left out: the
  // reference is dropped (and counted) instead of failing the file.
  bool DropElidedRef() {
    if (elisions_ == 0) return false;
    ++dropped_refs_;
    return true;
  }

  FxLines& lines_;
  const FxParseContext& ctx_;
  Graph* g_ = nullptr;
  FxLexer lexer_;
  std::vector<FxToken> toks_, comments_;
  std::vector<FxExpr> arena_;
  NameTable names_;
  // Whether node names are interned (NodeName; see intern_names.h).
  bool intern_names_ = true;
  // Interned op, raw op and overload of a function callee, by its text.
  absl::flat_hash_map<std::string_view, std::array<StrId, 3>, NameHash> callee_ops_;
  static constexpr size_t kMaxCalleeOps = 65536;
  static constexpr size_t kDropLinesEvery = 4096;
  // A graph of at least kProjectFrom lines reserves its strings after a
  // sixteenth of them (ReserveStrings).
  static constexpr size_t kProjectFrom = 65536;
  // A placeholder's op, raw op and overload, once interned (op id not 0).
  std::array<StrId, 3> placeholder_op_{};
  // Ids of texts interned again and again (literal arguments such as `1`,
  // `False`, `[1, 1]`; keyword names; frames), by their hash: one slot
  // each, checked against the pool's text. They stay from graph to graph
  // of one dump, as callee_ops_ do (see FxScratch). An Intern a literal was
  // a twentieth of parsing a dump of FX graphs.
  std::array<StrId, 512> recent_ids_{};
  StrId InternRecent(std::string_view text);
  // A node annotation as written (`f32[8, 64]`, `"f32[8, 64]"`) -> the
  // range of one type that nodes annotated so share; the set holds those
  // ranges' starts, which must be copied before they change.
  absl::flat_hash_map<std::string_view, uint32_t, NameHash> typed_ranges_;
  absl::flat_hash_set<uint32_t> shared_ranges_;
  static constexpr size_t kMaxTypedRanges = 65536;
  // A quoted annotation's text -> what it parsed to, for every graph of the
  // dump (not cleared by Reset; see FxScratch): a log of many graphs spells
  // the same types graph after graph, and parsing them was an eighth of it.
  struct ParsedAnnotation {
    TensorType type;
    StrId symbol;
    bool typed = false;
  };
  absl::flat_hash_map<std::string_view, ParsedAnnotation, NameHash> annotations_;
  // The same for an unquoted annotation on one line (`mul: f32[2, 4] =`),
  // keyed by its span of the dump: its parse is that of its tokens
  // rendered, which was a tenth of reading a file of small typed graphs.
  absl::flat_hash_map<std::string_view, ParsedAnnotation, NameHash> span_annotations_;
  static constexpr size_t kMaxAnnotations = 65536;
  std::vector<FxParam> params_;
  std::vector<FxPendingType> pending_types_;
  bool params_done_ = false;
  bool returned_ = false;
  // None outputs of the return statement being read, and the first one's
  // token (AddOutputs, Return).
  uint32_t none_outputs_ = 0;
  size_t first_none_ = 0;
  uint32_t elisions_ = 0, first_elision_ = 0, dropped_refs_ = 0;
  StrId frame_;
  uint32_t unnamed_aug_ = kNoNode;
  uint32_t def_indent_ = 0;
  uint32_t last_line_ = 0;
  std::vector<StrId> arg_keys_;
  std::string_view parts_[16];  // EvaluateCall's dotted callee
  StrId target_key_;
  // Positions of value references inside the argument being rendered.
  std::vector<std::pair<uint32_t, uint32_t>> refs_;  // token index, operand
  std::string scratch_, text_, path_;
  // A module call of a big graph whose strings are interned at the next
  // statement, not at once. Its path is new to the pool nearly always (one
  // module, one call), so the lookup misses the caches; a prefetch right
  // before it hid nothing, and lexing the next line gives the slot time to
  // arrive. Ops keep their order in the pool (the next op is interned after
  // this one); only strings of the call's own line (its name, literal
  // arguments) come before its op.
  struct PendingModuleCall {
    uint32_t node = kNoNode;
    uint32_t target_attr = 0;
    bool raw_is_path = false;
    std::string op;        // "module::" + path
    std::string_view raw;  // the callee's text, a view into the dump
  } pending_call_;
};

absl::Status FxBuilder::ErrorAt(size_t token, std::string_view message) {
  const FxToken& t = toks_[token];
  const FxLine& line = lines_[t.line];
  return ParseErrorAt(ctx_.source, line.number, line.prefix_len + t.col + 1, line.full(),
                      message);
}

absl::Status FxBuilder::ExprError(const FxExprParser& p) {
  return ErrorAt(p.error_token(), p.error());
}

void FxBuilder::Warn(size_t token, std::string_view message) {
  const FxToken& t = toks_[token];
  const FxLine& line = lines_[t.line];
  AddWarning(ctx_.warnings, ctx_.options->max_warnings, ctx_.source, line.number,
             line.prefix_len + t.col + 1, message);
}

StrId FxBuilder::ArgKey(size_t n) {
  while (arg_keys_.size() <= n) {
    arg_keys_.push_back(g_->intern("arg" + std::to_string(arg_keys_.size())));
  }
  return arg_keys_[n];
}

// A statement's first look-up is its target's name, whose slot in a big
// table is a cache miss nothing else touched: asked for one statement ahead,
// while this one is parsed, it is there sooner (a fifth off the parse of one
// FX graph of 10^6 nodes; see README's Performance section, session 20).
void FxBuilder::PrefetchNextTarget() const {
  if (!names_.Large()) return;
  // Has splits the lines it is asked for: past the lines a graph's count
  // kept, the lexer splits one line at a time, and the next one is not yet
  // split when this asks for it.
  const size_t end = lexer_.line_index() + 4;
  for (size_t i = lexer_.line_index(); i < end && lines_.Has(i); ++i) {
    const FxLine& line = lines_[i];
    if (line.blank) continue;
    std::string_view t = line.text.substr(line.indent);
    if (t.empty() || t[0] == '#') continue;
    if (std::string_view name = FxLeadingName(t); !name.empty()) names_.Prefetch(name);
    return;
  }
}

// In a big graph, a name no value was bound to yet is stored without a
// lookup (StringPool::Add): in a graph of 10^6 nodes that lookup is a cache
// miss a node, and the lookup table's slot for every name was a third of the
// pool. A small graph interns its names: the graphs of a dump share a pool,
// and theirs repeat (`primals_1`, `convolution_3`), as HLO modules' do.
StrId FxBuilder::NodeName(std::string_view name) {
  if (intern_names_ || names_.Find(name) != nullptr) return g_->intern(name);
  return g_->strings.Add(name);
}

uint32_t FxBuilder::NewNode(std::string_view name, NodeKind kind, std::string_view op,
                            std::string_view raw_op, std::string_view overload,
                            uint32_t line) {
  Node& n = g_->nodes.emplace_back();
  n.name = NodeName(name);
  n.kind = kind;
  n.op = g_->intern(op);
  n.raw_op = g_->intern(raw_op);
  n.overload = g_->intern(overload);
  n.line = line;
  n.frame = frame_;
  return static_cast<uint32_t>(g_->nodes.size() - 1);
}

uint32_t FxBuilder::NewNode(std::string_view name, NodeKind kind,
                            const std::array<StrId, 3>& op, uint32_t line) {
  Node& n = g_->nodes.emplace_back();
  n.name = NodeName(name);
  n.kind = kind;
  n.op = op[0];
  n.raw_op = op[1];
  n.overload = op[2];
  n.line = line;
  n.frame = frame_;
  return static_cast<uint32_t>(g_->nodes.size() - 1);
}

uint32_t FxBuilder::NewPlaceholder(std::string_view name, uint32_t line) {
  if (placeholder_op_[0].id != 0) return NewNode(name, NodeKind::kInput, placeholder_op_, line);
  const uint32_t n = NewNode(name, NodeKind::kInput, "fx::placeholder", "placeholder", {}, line);
  const Node& node = g_->nodes[n];
  placeholder_op_ = {node.op, node.raw_op, node.overload};
  return n;
}

// The pool's views and lookup table grow by doubling: on a graph of 10^6
// module calls, each with a path of its own, that was the table rehashed
// 17 times and a list of three million views copied at each doubling into
// fresh pages, then once more to fit (a sixth of the CPU of a diff of two
// such graphs). The first sixteenth of a big graph tells the rate; room for
// a thirty-second more is kept without fitting (StringPool::ShrinkToFit),
// in pages never touched.
void FxBuilder::ReserveStrings(size_t left, size_t done, size_t views_mark,
                               size_t interned_mark) {
  StringPool& pool = g_->strings;
  // At most eight strings a line are reserved for: a first sixteenth of
  // long argument lists does not ask for room the rest may never use.
  auto projected = [&](size_t now, size_t mark) {
    const size_t more = std::min((now - mark) * left / done, 8 * left);
    return now + more + more / 32;
  };
  pool.Reserve(projected(pool.size(), views_mark));
  if (pool.interned() - interned_mark > done / 16) {
    pool.ReserveLookups(projected(pool.interned(), interned_mark));
  }
}

StrId FxBuilder::InternRecent(std::string_view text) {
  StrId& slot = recent_ids_[(HashName(text) >> 32) & (recent_ids_.size() - 1)];
  // The id is checked against the pool's size too: a scratch used with a
  // pool it did not fill reads no text out of range, it only misses.
  if (slot.id != 0 && slot.id < g_->strings.size() && g_->str(slot) == text) return slot;
  slot = g_->intern(text);
  return slot;
}

// The source text of tokens [first, last) when they sit on one line (the
// common case: no copy); otherwise a normalised rendering in text_.
std::string_view FxBuilder::SourceSpan(uint32_t first, uint32_t last) {
  const FxToken& a = toks_[first];
  const FxToken& b = toks_[last - 1];
  if (a.line == b.line) {
    std::string_view line = lines_[a.line].text;
    return line.substr(a.col, b.col + b.text.size() - a.col);
  }
  text_.clear();
  Render(first, last, &text_);
  return text_;
}

// Canonical text of tokens [first, last): one space after commas, none
// inside brackets or before commas, otherwise one space where the source had
// any; value references listed in refs_ print as `$k`.
void FxBuilder::Render(uint32_t first, uint32_t last, std::string* out) {
  size_t r = 0;
  while (r < refs_.size() && refs_[r].first < first) ++r;
  for (uint32_t i = first; i < last; ++i) {
    const FxToken& t = toks_[i];
    if (i > first) {
      const FxToken& prev = toks_[i - 1];
      const bool opens = prev.kind == FxTok::kOp &&
                         (prev.text == "(" || prev.text == "[" || prev.text == "{");
      const bool closes = t.kind == FxTok::kOp &&
                          (t.text == ")" || t.text == "]" || t.text == "}" ||
                           t.text == "," || t.text == ":");
      if (!opens && !closes && (t.space_before || IsOpTok(prev, ","))) out->push_back(' ');
    }
    if (r < refs_.size() && refs_[r].first == i) {
      out->push_back('$');
      out->append(std::to_string(refs_[r].second));
      ++r;
    } else {
      out->append(t.text);
    }
  }
}

bool FxBuilder::IsCallNode(uint32_t node) const {
  const Node& n = g_->nodes[node];
  if (n.kind == NodeKind::kMethodCall || n.kind == NodeKind::kModuleCall) return true;
  if (n.kind != NodeKind::kOp) return false;
  std::string_view op = g_->str(n.op);
  return op != "builtins::getattr" && op != "aten::getitem" &&
         op.substr(0, 6) != "prim::";
}

// Moved in, not copied (strides are a heap block). The graph's first type
// reserves room for a type a node, up to a point: a typed graph types every
// node, and grew its list from empty.
void FxBuilder::SetType(Node& n, TensorType&& type) {
  if (g_->types.capacity() == 0) {
    g_->types.reserve(std::min<size_t>(g_->nodes.capacity(), 1024));
  }
  n.first_type = static_cast<uint32_t>(g_->types.size());
  n.type_count = 1;
  g_->types.push_back(std::move(type));
}

void FxBuilder::SetProjection(ValueRef ref, const TensorType* type) {
  Node& p = g_->nodes[ref.node];
  // An untyped projection only says the output exists: counted, not held
  // as an unknown type.
  if (type == nullptr) {
    p.output_count = std::max(p.output_count, ref.output + 1);
    return;
  }
  // A shared range is copied before it changes.
  if (p.type_count != 0 && shared_ranges_.contains(p.first_type)) {
    g_->MutableResults(p, p.type_count);
  }
  if (ref.output >= p.type_count) {
    if (p.first_type + p.type_count == g_->types.size()) {
      // The node's range is the last, and its own: it grows in place, so
      // typing outputs 0 to k one by one copies nothing.
      g_->types.resize(p.first_type + ref.output + 1);
      p.type_count = ref.output + 1;
    } else {
      g_->MutableResults(p, ref.output + 1);
    }
  }
  g_->types[p.first_type + ref.output] = *type;
}

bool FxBuilder::ResolveRef(uint32_t e, ValueRef* out) {
  const FxExpr& x = arena_[e];
  if (x.kind == FxExprKind::kName) {
    const ValueRef* it = names_.Find(x.text);
    if (it == nullptr) return false;
    *out = *it;
    return true;
  }
  ValueRef base;
  if (x.kind == FxExprKind::kSubscript && arena_[x.b].kind == FxExprKind::kNumber &&
      ResolveRef(x.a, &base) && base.output == 0 && IsCallNode(base.node)) {
    const std::string_view digits = arena_[x.b].text;
    uint32_t k = 0;
    for (char c : digits) {
      if (c < '0' || c > '9' || k > 100000) return false;
      k = k * 10 + static_cast<uint32_t>(c - '0');
    }
    *out = ValueRef{base.node, k};
    return true;
  }
  if (x.kind == FxExprKind::kAttribute && ResolveRef(x.a, &base) && base.output == 0 &&
      IsCallNode(base.node)) {
    int k = FxProjectionField(x.text);
    if (k < 0) return false;
    *out = ValueRef{base.node, static_cast<uint32_t>(k)};
    return true;
  }
  return false;
}

bool FxBuilder::ModulePath(uint32_t e, std::string* path) {
  const FxExpr& x = arena_[e];
  switch (x.kind) {
    case FxExprKind::kName:
      return x.text == "self";
    case FxExprKind::kAttribute:
      if (!ModulePath(x.a, path)) return false;
      AppendModulePath(x.text, path);
      return true;
    case FxExprKind::kCall: {
      // getattr(self.layer1, "0")
      const FxExpr& callee = arena_[x.a];
      if (callee.kind != FxExprKind::kName || callee.text != "getattr") return false;
      uint32_t base = x.b;
      if (base == kFxNone) return false;
      uint32_t attr = arena_[base].next;
      if (attr == kFxNone || arena_[attr].kind != FxExprKind::kString ||
          arena_[attr].next != kFxNone) {
        return false;
      }
      if (!ModulePath(base, path)) return false;
      if (!path->empty()) path->push_back('.');
      path->append(StringContents(arena_[attr].text));
      return true;
    }
    case FxExprKind::kModulePath:
      // The parser took the tokens for the shape above: its names and
      // strings, left to right, are the path's parts in order.
      for (uint32_t i = x.first; i < x.last; ++i) {
        const FxToken& t = toks_[i];
        if (t.kind == FxTok::kString) {
          if (!path->empty()) path->push_back('.');
          path->append(StringContents(t.text));
        } else if (IsOpTok(t, ".")) {
          AppendModulePath(toks_[++i].text, path);
        }
      }
      return true;
    default:
      return false;
  }
}

bool FxBuilder::DottedParts(uint32_t e, std::string_view* parts, size_t* n) const {
  constexpr size_t kMaxParts = 16;
  // Counted first, then filled from the back: no reversed copy.
  size_t count = 1;
  uint32_t cur = e;
  while (arena_[cur].kind == FxExprKind::kAttribute) {
    if (count == kMaxParts) return false;
    ++count;
    cur = arena_[cur].a;
  }
  if (arena_[cur].kind != FxExprKind::kName) return false;
  size_t k = count;
  for (cur = e; arena_[cur].kind == FxExprKind::kAttribute; cur = arena_[cur].a) {
    parts[--k] = arena_[cur].text;
  }
  parts[0] = arena_[cur].text;
  *n = count;
  return true;
}

absl::Status FxBuilder::CollectRefs(uint32_t e, uint32_t node) {
  const FxExpr& x = arena_[e];
  switch (x.kind) {
    case FxExprKind::kName: {
      const ValueRef* it = names_.Find(x.text);
      if (it == nullptr) {
        if (DropElidedRef()) return absl::OkStatus();
        return ErrorAt(x.first, "undefined name '" + std::string(x.text) + "'");
      }
      refs_.emplace_back(x.first, static_cast<uint32_t>(g_->nodes[node].operands.size()));
      g_->nodes[node].operands.push_back(*it);
      return absl::OkStatus();
    }
    case FxExprKind::kNumber:
    case FxExprKind::kString:
    case FxExprKind::kConst:
    case FxExprKind::kModulePath:  // a module refers to no value
      return absl::OkStatus();
    case FxExprKind::kAttribute: {
      // A dotted constant (`torch.float32`) refers to no value; a field of
      // a value (`x.shape`) refers to its root.
      uint32_t root = x.a;
      while (arena_[root].kind == FxExprKind::kAttribute) root = arena_[root].a;
      if (arena_[root].kind == FxExprKind::kName &&
          names_.Find(arena_[root].text) == nullptr) {
        return absl::OkStatus();
      }
      return CollectRefs(x.a, node);
    }
    case FxExprKind::kCall: {
      // The callee names a function (`device`, `slice`, `torch.Size`), not a
      // value, unless it is a method of a value.
      const FxExpr& callee = arena_[x.a];
      if (callee.kind == FxExprKind::kAttribute) {
        absl::Status s = CollectRefs(x.a, node);
        if (!s.ok()) return s;
      } else if (callee.kind != FxExprKind::kName) {
        absl::Status s = CollectRefs(x.a, node);
        if (!s.ok()) return s;
      }
      for (uint32_t a = x.b; a != kFxNone; a = arena_[a].next) {
        absl::Status s = CollectRefs(a, node);
        if (!s.ok()) return s;
      }
      return absl::OkStatus();
    }
    case FxExprKind::kKeyword:
    case FxExprKind::kStarred:
    case FxExprKind::kUnary:
      return CollectRefs(x.a, node);
    case FxExprKind::kSubscript:
    case FxExprKind::kBinary: {
      absl::Status s = CollectRefs(x.a, node);
      if (!s.ok()) return s;
      return CollectRefs(x.b, node);
    }
    case FxExprKind::kSlice:
      for (uint32_t part : {x.a, x.b, x.c}) {
        if (part == kFxNone) continue;
        absl::Status s = CollectRefs(part, node);
        if (!s.ok()) return s;
      }
      return absl::OkStatus();
    case FxExprKind::kTuple:
    case FxExprKind::kList:
    case FxExprKind::kSet:
    case FxExprKind::kDict:
      for (uint32_t a = x.a; a != kFxNone; a = arena_[a].next) {
        absl::Status s = CollectRefs(a, node);
        if (!s.ok()) return s;
      }
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

absl::Status FxBuilder::AddArg(uint32_t node, uint32_t e, StrId key) {
  const FxExpr& x = arena_[e];
  if (x.kind == FxExprKind::kName) {
    const ValueRef* it = names_.Find(x.text);
    if (it == nullptr) {
      if (DropElidedRef()) return absl::OkStatus();
      return ErrorAt(x.first, "undefined name '" + std::string(x.text) + "'");
    }
    g_->nodes[node].operands.push_back(*it);
    return absl::OkStatus();
  }
  if (x.last == x.first + 1) {  // one literal token: no rendering needed
    g_->nodes[node].attrs.push_back(Attr{key, InternRecent(toks_[x.first].text)});
    return absl::OkStatus();
  }
  refs_.clear();
  absl::Status s = CollectRefs(e, node);
  if (!s.ok()) return s;
  scratch_.clear();
  Render(x.first, x.last, &scratch_);
  g_->nodes[node].attrs.push_back(Attr{key, InternRecent(scratch_)});
  return absl::OkStatus();
}

// An annotation's text is a view into the dump, and its ids are good in
// every graph parsed after it (one pool): parsed once for the whole dump. A
// quoted one is its contents; an unquoted one on one line is its span,
// parsed as its tokens render (Render, without references), and the same
// tokens render the same text.
void FxBuilder::Annotate(uint32_t ann, TensorType* type, StrId* symbol, bool* typed) {
  const FxExpr& a = arena_[ann];
  const bool quoted = a.kind == FxExprKind::kString;
  auto parse = [&](TensorType* t, StrId* sym) {
    if (quoted) return ParseFxTypeAnnotation(StringContents(toks_[a.first].text), g_, t, sym);
    refs_.clear();
    scratch_.clear();
    Render(a.first, a.last, &scratch_);
    return ParseFxTypeAnnotation(scratch_, g_, t, sym);
  };
  if (!quoted && (a.last <= a.first || toks_[a.first].line != toks_[a.last - 1].line)) {
    *typed = parse(type, symbol);
    return;
  }
  auto& cache = quoted ? annotations_ : span_annotations_;
  const std::string_view key =
      quoted ? StringContents(toks_[a.first].text) : SourceSpan(a.first, a.last);
  auto it = cache.find(key);
  if (it == cache.end()) {
    if (cache.size() >= kMaxAnnotations) {
      *typed = parse(type, symbol);
      return;
    }
    ParsedAnnotation parsed;
    parsed.typed = parse(&parsed.type, &parsed.symbol);
    it = cache.emplace(key, std::move(parsed)).first;
  }
  *type = it->second.type;
  *symbol = it->second.symbol;
  *typed = it->second.typed;
}

void FxBuilder::MaterializeParams() {
  if (params_done_) return;
  params_done_ = true;
  const StrId frame = frame_;
  frame_ = StrId{};  // inputs have no model frame
  g_->inputs.reserve(g_->inputs.size() + params_.size());
  for (FxParam& p : params_) {
    uint32_t n = NewPlaceholder(p.name, p.line);
    if (p.typed) SetType(g_->nodes[n], std::move(p.type));
    if (!p.symbol.empty()) g_->nodes[n].attrs.push_back(Attr{g_->intern("sym"), p.symbol});
    g_->inputs.push_back(n);
    names_.Set(p.name, ValueRef{n, 0});
  }
  frame_ = frame;
}

absl::Status FxBuilder::ParseDef(size_t def_index) {
  lexer_.set_line_index(def_index);
  FxLexError lex;
  if (!lexer_.NextLogicalLine(&toks_, &comments_, &lex)) {
    const FxLine& l = lines_[lex.line];
    return ParseErrorAt(ctx_.source, l.number, l.prefix_len + lex.col + 1, l.full(),
                        lex.message);
  }
  // def NAME ( params ) [-> ann] :
  size_t i = 0;
  if (toks_.size() < 4 || toks_[1].kind != FxTok::kName || !IsOpTok(toks_[2], "(")) {
    return ErrorAt(std::min<size_t>(1, toks_.size() - 1), "expected 'def NAME('");
  }
  i = 3;
  const uint32_t line = lines_[def_index].number;
  arena_.clear();
  while (!IsOpTok(toks_[i], ")")) {
    if (toks_[i].kind == FxTok::kNewline) return ErrorAt(i, "expected ')'");
    while (IsOpTok(toks_[i], "*") || IsOpTok(toks_[i], "**") || IsOpTok(toks_[i], "/")) {
      ++i;
      if (IsOpTok(toks_[i], ",")) ++i;
    }
    if (IsOpTok(toks_[i], ")")) break;
    if (toks_[i].kind != FxTok::kName) return ErrorAt(i, "expected a parameter name");
    FxParam p;
    p.name = toks_[i].text;
    p.line = line;
    ++i;
    FxExprParser parser(toks_, &arena_);
    if (IsOpTok(toks_[i], ":")) {
      ++i;
      uint32_t ann = parser.ParseAnnotation(&i);
      if (ann == kFxNone) return ExprError(parser);
      Annotate(ann, &p.type, &p.symbol, &p.typed);
    }
    if (IsOpTok(toks_[i], "=")) {
      ++i;
      if (parser.ParseExpr(&i) == kFxNone) return ExprError(parser);
    }
    if (p.name != "self") params_.push_back(std::move(p));
    if (IsOpTok(toks_[i], ",")) {
      ++i;
    } else if (!IsOpTok(toks_[i], ")")) {
      return ErrorAt(i, "expected ',' or ')'");
    }
  }
  ++i;
  if (IsOpTok(toks_[i], "->")) {
    ++i;
    FxExprParser parser(toks_, &arena_);
    if (parser.ParseExpr(&i) == kFxNone) return ExprError(parser);
  }
  if (!IsOpTok(toks_[i], ":")) return ErrorAt(i, "expected ':' after the signature");
  return absl::OkStatus();
}

// What belongs to the last graph (names, type ranges) goes. Ids of the
// pool every graph of the dump shares (argument keys, callees' ops; see
// FxScratch) stay: a log of 10^5 small graphs calls the same few functions
// in each, and interning their ops again for every graph was a tenth of
// its parse.
void FxBuilder::Reset(Graph* g) {
  g_ = g;
  toks_.clear();
  comments_.clear();
  arena_.clear();
  names_.Clear();
  intern_names_ = true;
  if (callee_ops_.size() > kMaxCalleeOps) callee_ops_ = {};
  typed_ranges_.clear();
  shared_ranges_.clear();
  params_.clear();
  pending_types_.clear();
  params_done_ = false;
  returned_ = false;
  elisions_ = first_elision_ = dropped_refs_ = 0;
  frame_ = StrId{};
  unnamed_aug_ = kNoNode;
  def_indent_ = 0;
  last_line_ = 0;
  refs_.clear();
}

absl::Status FxBuilder::Run(size_t def_index, Graph* g, size_t* next_line) {
  Reset(g);
  return Parse(def_index, next_line);
}

absl::Status FxBuilder::Parse(size_t def_index, size_t* next_line) {
  def_indent_ = lines_[def_index].indent;
  pending_call_.node = kNoNode;  // of a graph an error ended
  absl::Status s = ParseDef(def_index);
  if (!s.ok()) return s;
  g_->source.first_line = lines_[def_index].number;
  // One node per body line is the common case: reserve once instead of
  // moving every Node through repeated vector growth. Blank and comment
  // lines make none, and reserving for them was a sixth of the nodes' memory.
  // Projections make none either (an AOT graph has three for each batch norm),
  // nor do aliases and the return: giving that room back moved every node
  // once more into fresh pages, on every graph of a log of small ones.
  size_t body_lines = 0;
  size_t projections = 0;
  lines_.ForEachFrom(def_index + 1, [&](const FxLine& l) {
    if (l.blank) return true;
    if (l.indent <= def_indent_) return false;
    const std::string_view code = l.text.substr(l.indent);
    if (code[0] == '#') return true;
    ++body_lines;
    projections += FxMakesNoNode(code);
    return true;
  });
  g_->nodes.reserve(std::min(body_lines - projections + params_.size(),
                            ctx_.options->max_nodes_per_graph));
  intern_names_ = body_lines <= kInternNamesUpTo;
  // Every node binds a name: growing the table rehashes all of them.
  names_.Reserve(std::min(body_lines + params_.size(), ctx_.options->max_nodes_per_graph));
  last_line_ = lines_[def_index].number;
  if (target_key_.id == 0) target_key_ = g_->intern("target");
  FxLexError lex;
  size_t parsed = 0;
  const size_t views_mark = g_->strings.size();
  const size_t interned_mark = g_->strings.interned();
  while (!lexer_.done()) {
    // The lines behind the parse go, a batch at a time: nothing asks for
    // them again (tokens and errors are of the statement at hand), and a
    // graph of 10^6 nodes held 1.8 million of them.
    if (lexer_.line_index() - lines_.begin() >= kDropLinesEvery) {
      lines_.DropBefore(lexer_.line_index());
    }
    const FxLine& line = lines_[lexer_.line_index()];
    if (line.blank) {
      lexer_.set_line_index(lexer_.line_index() + 1);
      continue;
    }
    if (line.indent <= def_indent_) break;
    // `...` (or `... 120 more lines`): whoever pasted the code left lines out.
    if (std::string_view t = line.text.substr(line.indent); t.substr(0, 3) == "...") {
      if (elisions_++ == 0) first_elision_ = line.number;
      g_->partial = true;
      last_line_ = line.number;
      lexer_.set_line_index(lexer_.line_index() + 1);
      continue;
    }
    if (!lexer_.NextLogicalLine(&toks_, &comments_, &lex)) {
      const FxLine& l = lines_[lex.line];
      return ParseErrorAt(ctx_.source, l.number, l.prefix_len + lex.col + 1, l.full(),
                          lex.message);
    }
    last_line_ = lines_[lexer_.line_index() - 1].number;
    PrefetchNextTarget();
    // The line before's module call, its slot fetched while this line was
    // lexed.
    FlushModuleCall();
    if (toks_.size() == 1) {  // a comment line
      for (const FxToken& c : comments_) {
        std::string_view t = c.text;
        if (t.substr(0, 8) == "# File: ") {
          t.remove_prefix(8);
          while (!t.empty() && (t.back() == ' ' || t.back() == '\t')) t.remove_suffix(1);
          frame_ = InternRecent(t);
        } else if (t.substr(0, 21) == "# No stacktrace found") {
          frame_ = StrId{};
        }
      }
      continue;
    }
    // Simple statements separated by ';' outside brackets.
    const std::vector<uint32_t>& semicolons = lexer_.semicolons();
    size_t begin = 0;
    for (size_t k = 0; begin + 1 < toks_.size(); ++k) {
      arena_.clear();
      s = Statement(begin);
      if (!s.ok()) return s;
      begin = (k < semicolons.size() ? semicolons[k] : toks_.size() - 1) + 1;
    }
    if (++parsed == body_lines / 16 && body_lines >= kProjectFrom) {
      ReserveStrings(body_lines - parsed, parsed, views_mark, interned_mark);
    }
    if (g_->nodes.size() > ctx_.options->max_nodes_per_graph) {
      return ErrorAt(0, "graph exceeds the limit of " +
                            std::to_string(ctx_.options->max_nodes_per_graph) + " nodes");
    }
  }
  FlushModuleCall();
  MaterializeParams();
  // Lines that bind a projection (`getitem = bn[0]`) reserved a node they
  // did not make: past an eighth of the graph, give the room back.
  if (g_->nodes.capacity() - g_->nodes.size() > g_->nodes.size() / 8) g_->nodes.shrink_to_fit();
  g_->ShrinkTypes();
  g_->source.last_line = last_line_;
  if (elisions_ > 0) {
    AddWarning(ctx_.warnings, ctx_.options->max_warnings, ctx_.source, first_elision_, 1,
               fmt::format("{} elision line{} ('...'): lines were left out of this FX graph{}; "
                           "the graph is marked partial",
                           elisions_, elisions_ == 1 ? "" : "s",
                           dropped_refs_ == 0
                               ? std::string()
                               : fmt::format(" ({} reference{} to them dropped)", dropped_refs_,
                                             dropped_refs_ == 1 ? "" : "s")));
  }
  if (!returned_) {
    // FX always prints a return: without one the code was cut short.
    g_->partial = true;
    AddWarning(ctx_.warnings, ctx_.options->max_warnings, ctx_.source,
               g_->source.first_line, 1,
               fmt::format("FX graph has no return statement (truncated dump?); its {} nodes "
                           "are kept and the graph is marked partial",
                           g_->nodes.size()));
  }
  *next_line = lexer_.line_index();
  return absl::OkStatus();
}

// `a = b = None`, which FX prints after nearly every node to free names:
// it changes nothing, and the statement parser would answer it without a
// warning (no keyword, nothing the expression parser refuses).
bool FxBuilder::OnlyFreesNames(size_t begin) const {
  auto plain = [](const FxToken& t) {
    return t.kind == FxTok::kName && t.text != "lambda" && t.text != "not" &&
           t.text != "yield" && t.text != "await" && t.text != "Ellipsis";
  };
  const FxToken& first = toks_[begin];
  if (!plain(first) || first.text == "return" || FxIsStatementKeyword(first.text)) return false;
  size_t i = begin;
  while (plain(toks_[i]) && IsOpTok(toks_[i + 1], "=")) i += 2;
  if (i == begin || toks_[i].kind != FxTok::kName || toks_[i].text != "None") return false;
  const FxToken& end = toks_[i + 1];
  return end.kind == FxTok::kNewline || IsOpTok(end, ";");
}

absl::Status FxBuilder::Statement(size_t begin) {
  if (OnlyFreesNames(begin)) return absl::OkStatus();
  const FxToken& first = toks_[begin];
  if (first.kind == FxTok::kName) {
    if (first.text == "return") return Return(begin + 1);
    if (FxIsStatementKeyword(first.text)) {
      Warn(begin, "skipped '" + std::string(first.text) + "' statement (not FX code)");
      return absl::OkStatus();
    }
  }
  FxExprParser parser(toks_, &arena_);
  // Call arguments go to AddArg, which renders lists of literals from their
  // tokens (Return reads its call's arguments, and keeps them parsed).
  parser.TakeNumberListsWhole();
  size_t pos = begin;
  uint32_t lhs = parser.ParseExprList(&pos);
  if (lhs == kFxNone) {
    if (parser.unsupported()) {
      Warn(parser.error_token(), "skipped statement: " + parser.error());
      return absl::OkStatus();
    }
    return ExprError(parser);
  }
  const FxToken& t = toks_[pos];
  auto at_end = [&](size_t p) {
    return toks_[p].kind == FxTok::kNewline || IsOpTok(toks_[p], ";");
  };
  auto parse_value = [&](uint32_t* out) -> absl::Status {
    *out = parser.ParseExprList(&pos);
    if (*out == kFxNone) {
      if (parser.unsupported()) return absl::CancelledError();
      return ExprError(parser);
    }
    if (!at_end(pos)) return ErrorAt(pos, "expected end of statement");
    return absl::OkStatus();
  };
  auto skip_unsupported = [&](absl::Status s) {
    if (absl::IsCancelled(s)) {
      Warn(parser.error_token(), "skipped statement: " + parser.error());
      return absl::OkStatus();
    }
    return s;
  };
  if (at_end(pos)) {
    // An expression statement: a call whose result nobody names.
    if (arena_[lhs].kind != FxExprKind::kCall) {
      Warn(begin, "skipped expression statement (not FX code)");
      return absl::OkStatus();
    }
    MaterializeParams();
    std::string_view parts[16];
    size_t n = 0;
    std::string_view name = "call";
    if (DottedParts(arena_[lhs].a, parts, &n)) name = parts[n - 1];
    ValueRef ref;
    return EvaluateCall(name, lhs, &ref);
  }
  if (IsOpTok(t, "=")) {
    // Targets of a chain `a = b = value`; `a = b = None` only frees names.
    uint32_t targets[8];
    size_t ntargets = 0;
    targets[ntargets++] = lhs;
    uint32_t value = kFxNone;
    while (IsOpTok(toks_[pos], "=")) {
      ++pos;
      value = parser.ParseExprList(&pos);
      if (value == kFxNone) {
        if (parser.unsupported()) return skip_unsupported(absl::CancelledError());
        return ExprError(parser);
      }
      if (IsOpTok(toks_[pos], "=") && ntargets < 8) targets[ntargets++] = value;
    }
    if (!at_end(pos)) return ErrorAt(pos, "expected end of statement");
    if (arena_[value].kind == FxExprKind::kConst && arena_[value].text == "None") {
      return absl::OkStatus();  // `a = b = None` only frees names
    }
    absl::Status s = Assign(targets[0], kFxNone, value);
    if (!s.ok()) return s;
    for (size_t k = 1; k < ntargets; ++k) {
      if (arena_[targets[k]].kind != FxExprKind::kName) continue;
      const ValueRef* it = names_.Find(arena_[targets[0]].text);
      if (it == nullptr) continue;
      const ValueRef ref = *it;  // Set may move the entries
      names_.Set(arena_[targets[k]].text, ref);
    }
    return absl::OkStatus();
  }
  if (IsOpTok(t, ":")) {
    ++pos;
    uint32_t ann = parser.ParseAnnotation(&pos);
    if (ann == kFxNone) {
      if (parser.unsupported()) return skip_unsupported(absl::CancelledError());
      return ExprError(parser);
    }
    if (arena_[lhs].kind != FxExprKind::kName) {
      Warn(begin, "skipped annotated assignment to a non-name");
      return absl::OkStatus();
    }
    if (at_end(pos)) {
      // `primals_1: "f32[4]"` declares the type of a name unpacked later.
      FxPendingType p;
      p.name = arena_[lhs].text;
      bool typed = false;
      Annotate(ann, &p.type, &p.symbol, &typed);
      if (typed) pending_types_.push_back(std::move(p));
      return absl::OkStatus();
    }
    if (!IsOpTok(toks_[pos], "=")) return ErrorAt(pos, "expected '='");
    ++pos;
    uint32_t value;
    absl::Status s = parse_value(&value);
    if (!s.ok()) return skip_unsupported(s);
    return Assign(lhs, ann, value);
  }
  if (t.kind == FxTok::kOp && !FxAugmentedOp(t.text).empty()) {
    std::string_view symbol = t.text;
    ++pos;
    uint32_t value;
    absl::Status s = parse_value(&value);
    if (!s.ok()) return skip_unsupported(s);
    return AugAssign(lhs, symbol, value);
  }
  return ErrorAt(pos, "expected '=' or the end of the statement");
}

absl::Status FxBuilder::Flatten(uint32_t targets, uint32_t call) {
  params_done_ = true;  // the def parameters were only pytree containers
  const uint32_t line = lines_[toks_[arena_[call].first].line].number;
  const FxExpr& t = arena_[targets];
  uint32_t first = t.kind == FxExprKind::kTuple || t.kind == FxExprKind::kList ? t.a : targets;
  size_t count = 0;
  for (uint32_t e = first; e != kFxNone; e = arena_[e].next) ++count;
  g_->inputs.reserve(g_->inputs.size() + count);
  for (uint32_t e = first; e != kFxNone; e = arena_[e].next) {
    if (arena_[e].kind != FxExprKind::kName) {
      return ErrorAt(arena_[e].first, "expected a name to unpack into");
    }
    std::string_view name = arena_[e].text;
    uint32_t n = NewPlaceholder(name, line);
    g_->nodes[n].frame = StrId{};
    for (const FxPendingType& p : pending_types_) {
      if (p.name != name) continue;
      g_->SetResults(g_->nodes[n], absl::MakeConstSpan(&p.type, 1));
      if (!p.symbol.empty()) g_->nodes[n].attrs.push_back(Attr{g_->intern("sym"), p.symbol});
      break;
    }
    g_->inputs.push_back(n);
    names_.Set(name, ValueRef{n, 0});
  }
  return absl::OkStatus();
}

absl::Status FxBuilder::Assign(size_t target, uint32_t annotation, uint32_t value) {
  const FxExpr& tgt = arena_[target];
  const FxExpr& val = arena_[value];
  // The callee's last name is its outermost node's: asked first, so that a
  // call of anything else costs no walk.
  if (val.kind == FxExprKind::kCall &&
      (tgt.kind == FxExprKind::kTuple || tgt.kind == FxExprKind::kName) &&
      arena_[val.a].text == "tree_flatten_spec") {
    std::string_view parts[16];
    size_t n = 0;
    if (DottedParts(val.a, parts, &n) && parts[n - 1] == "tree_flatten_spec" &&
        names_.Find(parts[0]) == nullptr) {
      return Flatten(static_cast<uint32_t>(target), value);
    }
  }
  MaterializeParams();
  if (tgt.kind == FxExprKind::kName) {
    names_.Prefetch(tgt.text);  // bound after the value is built
    ValueRef ref;
    bool is_node = false;
    absl::Status s = Evaluate(tgt.text, value, &ref, &is_node);
    if (!s.ok()) return s;
    // A node typed as another was (`relu: "f32[8, 64]" = ...`) shares its
    // range of the graph's types.
    std::string_view spelling;
    if (annotation != kFxNone && is_node && g_->nodes[ref.node].type_count == 0 &&
        toks_[arena_[annotation].first].line == toks_[arena_[annotation].last - 1].line) {
      // A view into the dump: the annotation is on one line.
      spelling = SourceSpan(arena_[annotation].first, arena_[annotation].last);
      auto shared = typed_ranges_.find(spelling);
      if (shared != typed_ranges_.end()) {
        g_->nodes[ref.node].first_type = shared->second;
        g_->nodes[ref.node].type_count = 1;
        annotation = kFxNone;
      }
    }
    if (annotation != kFxNone) {
      TensorType type;
      StrId symbol;
      bool typed = false;
      Annotate(annotation, &type, &symbol, &typed);
      if (typed) {
        if (is_node) {
          Node& node = g_->nodes[ref.node];
          if (node.type_count == 0) {
            SetType(node, std::move(type));
            // A symbol's type goes with an attribute the range cannot carry.
            if (!spelling.empty() && symbol.empty() && typed_ranges_.size() < kMaxTypedRanges) {
              typed_ranges_.emplace(spelling, node.first_type);
              shared_ranges_.insert(node.first_type);
            }
          } else {
            g_->MutableResults(node, node.type_count)[0] = type;
          }
          if (!symbol.empty()) node.attrs.push_back(Attr{g_->intern("sym"), symbol});
        } else if (arena_[value].kind != FxExprKind::kName) {
          SetProjection(ref, &type);  // `getitem: "f32[8]" = op[0]`
        }
      }
    }
    names_.Set(tgt.text, ref);
    return absl::OkStatus();
  }
  if (tgt.kind == FxExprKind::kTuple || tgt.kind == FxExprKind::kList) {
    // `a, b = f(x)`: one node, one binding per output.
    uint32_t first = tgt.a;
    if (first == kFxNone || arena_[first].kind != FxExprKind::kName) {
      Warn(tgt.first, "skipped assignment to an unsupported target");
      return absl::OkStatus();
    }
    ValueRef ref;
    bool is_node = false;
    absl::Status s = Evaluate(arena_[first].text, value, &ref, &is_node);
    if (!s.ok()) return s;
    uint32_t k = 0;
    for (uint32_t e = first; e != kFxNone; e = arena_[e].next, ++k) {
      if (arena_[e].kind != FxExprKind::kName) continue;
      ValueRef out{ref.node, ref.output + k};
      SetProjection(out, nullptr);
      names_.Set(arena_[e].text, out);
    }
    return absl::OkStatus();
  }
  Warn(tgt.first, "skipped assignment to an unsupported target");
  return absl::OkStatus();
}

absl::Status FxBuilder::AugAssign(uint32_t target, std::string_view symbol,
                                  uint32_t value) {
  MaterializeParams();
  const FxExpr& tgt = arena_[target];
  if (tgt.kind != FxExprKind::kName) {
    Warn(tgt.first, "skipped augmented assignment to a non-name");
    return absl::OkStatus();
  }
  const uint32_t line = lines_[toks_[tgt.first].line].number;
  // Named after the target until the alias FX prints next (`iadd = x`).
  uint32_t n = NewNode(tgt.text, NodeKind::kOp, FxAugmentedOp(symbol), symbol, {}, line);
  absl::Status s = AddArg(n, target, ArgKey(0));
  if (!s.ok()) return s;
  s = AddArg(n, value, ArgKey(1));
  if (!s.ok()) return s;
  names_.Set(tgt.text, ValueRef{n, 0});
  unnamed_aug_ = n;
  return absl::OkStatus();
}

absl::Status FxBuilder::Evaluate(std::string_view name, uint32_t e, ValueRef* out,
                                 bool* is_node) {
  *is_node = false;
  const FxExpr x = arena_[e];
  const uint32_t line = lines_[toks_[x.first].line].number;
  switch (x.kind) {
    case FxExprKind::kName: {
      const ValueRef* it = names_.Find(x.text);
      if (it == nullptr) {
        return ErrorAt(x.first, "undefined name '" + std::string(x.text) + "'");
      }
      *out = *it;
      if (out->node == unnamed_aug_ && out->output == 0) {
        g_->nodes[unnamed_aug_].name = g_->intern(name);
        unnamed_aug_ = kNoNode;
      }
      return absl::OkStatus();
    }
    case FxExprKind::kCall:
      *is_node = true;
      return EvaluateCall(name, e, out);
    case FxExprKind::kAttribute: {
      path_.clear();
      if (ModulePath(e, &path_)) {
        uint32_t n = NewNode(name, NodeKind::kGetAttr, "fx::get_attr",
                             SourceSpan(x.first, x.last), {}, line);
        g_->nodes[n].attrs.push_back(Attr{target_key_, g_->intern(path_)});
        *out = ValueRef{n, 0};
        *is_node = true;
        return absl::OkStatus();
      }
      if (ResolveRef(e, out)) {
        SetProjection(*out, nullptr);
        return absl::OkStatus();
      }
      uint32_t root = x.a;
      while (arena_[root].kind == FxExprKind::kAttribute) root = arena_[root].a;
      if (arena_[root].kind == FxExprKind::kName &&
          names_.Find(arena_[root].text) == nullptr) {
        break;  // a dotted constant such as torch.float32
      }
      uint32_t n = NewNode(name, NodeKind::kOp, "builtins::getattr",
                           SourceSpan(x.first, x.last), {}, line);
      absl::Status s = AddArg(n, x.a, ArgKey(0));
      if (!s.ok()) return s;
      scratch_.assign("\"").append(x.text).append("\"");
      g_->nodes[n].attrs.push_back(Attr{ArgKey(1), g_->intern(scratch_)});
      *out = ValueRef{n, 0};
      *is_node = true;
      return absl::OkStatus();
    }
    case FxExprKind::kSubscript: {
      if (ResolveRef(e, out)) {
        SetProjection(*out, nullptr);
        return absl::OkStatus();
      }
      uint32_t n = NewNode(name, NodeKind::kOp, "aten::getitem", "[]", {}, line);
      absl::Status s = AddArg(n, x.a, ArgKey(0));
      if (!s.ok()) return s;
      s = AddArg(n, x.b, ArgKey(1));
      if (!s.ok()) return s;
      *out = ValueRef{n, 0};
      *is_node = true;
      return absl::OkStatus();
    }
    case FxExprKind::kBinary:
    case FxExprKind::kUnary: {
      const bool unary = x.kind == FxExprKind::kUnary;
      if (unary && x.text == "-" && arena_[x.a].kind == FxExprKind::kNumber) break;
      std::string_view op = FxOperatorOp(x.text, unary);
      uint32_t n = NewNode(name, NodeKind::kOp, op, x.text, {}, line);
      absl::Status s = AddArg(n, x.a, ArgKey(0));
      if (!s.ok()) return s;
      if (!unary) {
        s = AddArg(n, x.b, ArgKey(1));
        if (!s.ok()) return s;
      }
      *out = ValueRef{n, 0};
      *is_node = true;
      return absl::OkStatus();
    }
    case FxExprKind::kTuple:
    case FxExprKind::kList:
    case FxExprKind::kDict:
    case FxExprKind::kSet: {
      refs_.clear();
      uint32_t n = NewNode(name, NodeKind::kOp,
                           x.kind == FxExprKind::kTuple  ? "prim::TupleConstruct"
                           : x.kind == FxExprKind::kList ? "prim::ListConstruct"
                           : x.kind == FxExprKind::kDict ? "prim::DictConstruct"
                                                         : "prim::SetConstruct",
                           {}, {}, line);
      absl::Status s = AddArg(n, e, ArgKey(0));
      if (!s.ok()) return s;
      if (g_->nodes[n].operands.empty()) {
        g_->nodes[n].kind = NodeKind::kConstant;
        g_->nodes[n].op = g_->intern("prim::Constant");
        g_->nodes[n].attrs[0].key = g_->intern("value");
      }
      *out = ValueRef{n, 0};
      *is_node = true;
      return absl::OkStatus();
    }
    default:
      break;
  }
  // A literal or constant expression.
  uint32_t n = NewNode(name, NodeKind::kConstant, "prim::Constant", {}, {}, line);
  refs_.clear();
  absl::Status s = AddArg(n, e, g_->intern("value"));
  if (!s.ok()) return s;
  *out = ValueRef{n, 0};
  *is_node = true;
  return absl::OkStatus();
}

FxBuilder::ModuleCallIds FxBuilder::InternModuleCall(std::string_view op_text,
                                                     std::string_view raw, bool raw_is_path) {
  // The target is the op's end and shares its bytes. It is stored right
  // after the op the first time the op is seen, so a module called again
  // finds it there (checked: the op's text may have come first from
  // elsewhere) and keeps one id, as an interned target would.
  constexpr size_t kPrefix = 8;  // "module::"
  const size_t before = g_->strings.size();
  ModuleCallIds ids;
  ids.op = g_->intern(op_text);
  if (ids.op.id >= before) {
    ids.target = g_->strings.AddSuffix(ids.op, kPrefix);
  } else {
    const std::string_view text = g_->str(ids.op);
    const StrId next{ids.op.id + 1};
    const std::string_view next_text =
        next.id < g_->strings.size() ? g_->str(next) : std::string_view();
    ids.target = next_text.data() == text.data() + kPrefix &&
                         next_text.size() == text.size() - kPrefix
                     ? next
                     : g_->intern(op_text.substr(kPrefix));
  }
  ids.raw_op = raw_is_path ? ids.target : g_->intern(raw);
  return ids;
}

void FxBuilder::FlushModuleCall() {
  if (pending_call_.node == kNoNode) return;
  const ModuleCallIds ids =
      InternModuleCall(pending_call_.op, pending_call_.raw, pending_call_.raw_is_path);
  Node& node = g_->nodes[pending_call_.node];
  node.op = ids.op;
  node.raw_op = ids.raw_op;
  node.attrs[pending_call_.target_attr].value = ids.target;
  pending_call_.node = kNoNode;
}

absl::Status FxBuilder::EvaluateCall(std::string_view name, uint32_t e, ValueRef* out) {
  const FxExpr call = arena_[e];
  const FxExpr callee = arena_[call.a];
  const uint32_t line = lines_[toks_[call.first].line].number;
  uint32_t n = kNoNode;
  size_t arg_index = 0;
  path_.clear();
  std::string_view* parts = parts_;  // a member: a local array is zeroed per call
  size_t nparts = 0;
  // Only a path rooted at `self` (or a getattr call) names a module: a
  // function such as torch.ops.aten.mm is told apart without ModulePath.
  uint32_t root = call.a;
  while (arena_[root].kind == FxExprKind::kAttribute) root = arena_[root].a;
  const bool maybe_module = arena_[root].kind != FxExprKind::kName || arena_[root].text == "self";
  if (!(callee.kind == FxExprKind::kName && callee.text == "self") && maybe_module &&
      ModulePath(call.a, &path_)) {
    scratch_.assign("module::").append(path_);
    // The raw op is the callee less `self.`: most often the module path
    // itself, which then shares the target's bytes (a graph of module calls
    // holds a path per node, and a second copy was a fifth of its memory).
    // A callee spelled with getattr is its path too: `getattr(getattr(
    // self.features, "3"), "0")` is how FX's code writes `features.3.0`
    // (a part that is not a name), and that text, twice the path's length
    // and new to the pool at every call of a Sequential's layers, was a
    // quarter of a symbolic_trace graph's memory.
    std::string_view raw = SourceSpan(callee.first, callee.last);
    if (raw.substr(0, 5) == "self.") raw.remove_prefix(5);
    const bool raw_is_path = raw == path_ || raw.substr(0, 8) == "getattr(";
    // A deep model's modules are each called once: strings new to the pool,
    // lookups that miss the caches. Asked for together.
    g_->strings.PrefetchIntern(scratch_);
    if (!raw_is_path) g_->strings.PrefetchIntern(raw);
    // A callee on one line is a view into the dump, which outlives the
    // parse: a big graph's call is interned at the next statement
    // (pending_call_).
    if (!intern_names_ && toks_[callee.first].line == toks_[callee.last - 1].line) {
      FlushModuleCall();  // of a statement before this one on the line
      n = NewNode(name, NodeKind::kModuleCall, {StrId{}, StrId{}, StrId{}}, line);
      Node& node = g_->nodes[n];
      pending_call_.node = n;
      pending_call_.target_attr = static_cast<uint32_t>(node.attrs.size());
      pending_call_.raw_is_path = raw_is_path;
      pending_call_.op.assign(scratch_);
      pending_call_.raw = raw;
      node.attrs.push_back(Attr{target_key_, StrId{}});
    } else {
      const ModuleCallIds ids = InternModuleCall(scratch_, raw, raw_is_path);
      n = NewNode(name, NodeKind::kModuleCall, {ids.op, ids.raw_op, StrId{}}, line);
      g_->nodes[n].attrs.push_back(Attr{target_key_, ids.target});
    }
  } else if (DottedParts(call.a, parts, &nparts) &&
             (nparts == 1 || names_.Find(parts[0]) == nullptr)) {
    // A graph calls few distinct functions many times: their op, raw op
    // and overload are interned once, keyed by the callee's text (a view
    // into the dump, so only for a callee on one line).
    const bool one_line = toks_[callee.first].line == toks_[callee.last - 1].line;
    std::string_view text = one_line ? SourceSpan(callee.first, callee.last) : std::string_view();
    auto cached = one_line ? callee_ops_.find(text) : callee_ops_.end();
    if (cached != callee_ops_.end()) {
      n = NewNode(name, NodeKind::kOp, cached->second, line);
    } else {
      std::string_view overload;
      FxFunctionOp(parts, nparts, &scratch_, &overload);
      n = NewNode(name, NodeKind::kOp, scratch_, SourceSpan(callee.first, callee.last),
                  overload, line);
      const Node& node = g_->nodes[n];
      if (one_line) callee_ops_.emplace(text, std::array<StrId, 3>{node.op, node.raw_op,
                                                                   node.overload});
    }
  } else if (callee.kind == FxExprKind::kAttribute) {
    // A method of a value: `relu.mean([2, 3])`.
    scratch_.assign("aten::").append(callee.text);
    text_.assign(".").append(callee.text);
    n = NewNode(name, NodeKind::kMethodCall, scratch_, text_, {}, line);
    absl::Status s = AddArg(n, callee.a, ArgKey(0));
    if (!s.ok()) return s;
    arg_index = 1;
  } else {
    // A call of a computed callee (never printed by FX, but valid Python):
    // keep it as an opaque call whose callee is argument 0.
    n = NewNode(name, NodeKind::kOp, "builtins::call", SourceSpan(callee.first, callee.last),
                {}, line);
    absl::Status s = AddArg(n, call.a, ArgKey(0));
    if (!s.ok()) return s;
    arg_index = 1;
  }
  for (uint32_t a = call.b; a != kFxNone; a = arena_[a].next) {
    const FxExpr& arg = arena_[a];
    absl::Status s = arg.kind == FxExprKind::kKeyword
                         ? AddArg(n, arg.a, InternRecent(arg.text))
                         : AddArg(n, a, ArgKey(arg_index++));
    if (!s.ok()) return s;
  }
  if (g_->str(g_->nodes[n].op).substr(0, 14) == "higher_order::") {
    // The subgraphs a higher-order op runs are get_attr operands; name them
    // so a reader can find the nested graph of the same name.
    scratch_.clear();
    for (const ValueRef& r : g_->nodes[n].operands) {
      const Node& op = g_->nodes[r.node];
      if (op.kind != NodeKind::kGetAttr) continue;
      std::optional<std::string_view> target = g_->attr(op, "target");
      if (!target) continue;
      if (!scratch_.empty()) scratch_.append(", ");
      scratch_.append(*target);
    }
    if (!scratch_.empty()) {
      g_->nodes[n].attrs.push_back(Attr{g_->intern("subgraph"), g_->intern(scratch_)});
    }
  }
  *out = ValueRef{n, 0};
  return absl::OkStatus();
}

uint32_t FxBuilder::UnflattenedOutputs(uint32_t e) const {
  const FxExpr& x = arena_[e];
  if (x.kind != FxExprKind::kCall || x.b == kFxNone) return kFxNone;
  std::string_view parts[16];
  size_t n = 0;
  return DottedParts(x.a, parts, &n) && parts[n - 1] == "tree_unflatten" ? x.b : kFxNone;
}

// How many outputs AddOutputs(e) may add, to reserve them.
size_t FxBuilder::CountOutputs(uint32_t e) const {
  const FxExpr& x = arena_[e];
  if (x.kind == FxExprKind::kTuple || x.kind == FxExprKind::kList) {
    size_t n = 0;
    for (uint32_t c = x.a; c != kFxNone; c = arena_[c].next) n += CountOutputs(c);
    return n;
  }
  const uint32_t listed = UnflattenedOutputs(e);
  return listed != kFxNone ? CountOutputs(listed) : 1;
}

absl::Status FxBuilder::AddOutputs(uint32_t e) {
  const FxExpr& x = arena_[e];
  if (x.kind == FxExprKind::kTuple || x.kind == FxExprKind::kList) {
    for (uint32_t c = x.a; c != kFxNone; c = arena_[c].next) {
      absl::Status s = AddOutputs(c);
      if (!s.ok()) return s;
    }
    return absl::OkStatus();
  }
  if (const uint32_t listed = UnflattenedOutputs(e); listed != kFxNone) {
    return AddOutputs(listed);
  }
  ValueRef ref;
  if (ResolveRef(e, &ref)) {
    if (ref.output > 0) SetProjection(ref, nullptr);
    g_->outputs.push_back(ref);
    return absl::OkStatus();
  }
  if (x.kind == FxExprKind::kName) {
    if (DropElidedRef()) return absl::OkStatus();
    return ErrorAt(x.first, "undefined name '" + std::string(x.text) + "'");
  }
  if (x.kind == FxExprKind::kConst && x.text == "None") {
    if (none_outputs_++ == 0) first_none_ = x.first;
    return absl::OkStatus();
  }
  Warn(x.first, "skipped a graph output that is not a value");
  return absl::OkStatus();
}

absl::Status FxBuilder::Return(size_t pos) {
  MaterializeParams();
  if (returned_) {
    Warn(pos - 1, "skipped a second return statement");
    return absl::OkStatus();
  }
  returned_ = true;
  if (toks_[pos].kind == FxTok::kNewline || IsOpTok(toks_[pos], ";")) {
    return absl::OkStatus();
  }
  FxExprParser parser(toks_, &arena_);
  uint32_t e = parser.ParseExprList(&pos);
  if (e == kFxNone) return ExprError(parser);
  if (toks_[pos].kind != FxTok::kNewline && !IsOpTok(toks_[pos], ";")) {
    return ErrorAt(pos, "expected end of statement");
  }
  g_->outputs.reserve(g_->outputs.size() + CountOutputs(e));
  // AOTAutograd's backward graphs return None for every input that takes
  // no gradient (a ResNet-50's: 160 of them). One warning says so, at the
  // first: a warning each buried the report's reading warnings, and a
  // definition saying more than the kept few is parsed twice and never
  // copied when repeated (fx_unwrap.cc), which held such graphs, one after
  // another, to 114 to 131 MB/s.
  none_outputs_ = 0;
  absl::Status s = AddOutputs(e);
  if (s.ok() && none_outputs_ > 0) {
    Warn(first_none_, none_outputs_ == 1
                          ? std::string("skipped a None graph output")
                          : fmt::format("skipped {} None graph outputs", none_outputs_));
  }
  return s;
}

}  // namespace

// What FxScratch keeps: the builder, with its room.
struct FxScratch::Rep {
  std::optional<FxBuilder> builder;
};

FxScratch::FxScratch() : rep_(std::make_unique<Rep>()) {}
FxScratch::~FxScratch() = default;

absl::Status ParseFxDefinition(FxLines& lines, size_t def_index,
                               const FxParseContext& context, Graph* graph,
                               size_t* next_line, FxScratch* scratch) {
  graph->kind = GraphKind::kFx;
  std::optional<FxBuilder>& builder = scratch->rep().builder;
  if (!builder || !builder->Reads(lines, context)) builder.emplace(lines, context);
  return builder->Run(def_index, graph, next_line);
}

}  // namespace graphdiff
