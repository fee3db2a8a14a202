// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// ParseHloText: each HloModule becomes a Graph built from its ENTRY
// computation. Other computations (fusions, reducers, loop bodies) are not
// expanded; callers keep the reference as an attribute plus the callee's
// instruction count and opcode histogram (`callee_ops`, through nested
// calls), which is what a diff needs to say what a fusion fuses and to see a
// collective inside a while body. The ROOT instruction carries `ROOT`;
// inputs are ordered by parameter number.
#include <algorithm>
#include <array>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <queue>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "fmt/format.h"
#include "graphdiff/parse.h"
#include "parse/error.h"
#include "parse/hlo_module.h"
#include "parse/hlo_shape.h"
#include "parse/intern_names.h"
#include "parse/parse_parallel.h"
#include "util/checked.h"

namespace graphdiff {
namespace {

// Instruction counts by opcode, sorted by opcode, one entry each.
using OpCounts = std::vector<std::pair<std::string_view, int64_t>>;

// At most this many opcodes in one callee_ops summary, the most frequent
// kept (ties by name). XLA has about 130 opcodes, so no real module comes
// near it and real summaries are exact. Without it a crafted module, a
// chain of computations each running an opcode of its own, gives every
// computation a summary as long as the chain below it: quadratic time and
// memory, and callers' attributes as long. The attribute ("2 add, 1 dot")
// has no room to say it was cut, and its readers parse every item as a
// count and an opcode, so a warning says it instead.
constexpr size_t kMaxCalleeOps = 256;

// StringViewHash: the default hasher of Debian's Abseil is std::hash's
// byte-wise murmur, a tenth of the parse time here.
using NameIndex = absl::flat_hash_map<std::string_view, uint32_t, StringViewHash>;

// Strings most nodes add (attribute keys, `true`), interned once per pool
// (the graphs of one text share it) instead of hashed at every node. On
// first use, so that ids come out as interning every use would give them.
class FixedStrings {
 public:
  enum Name { kValue, kOpType, kOpName, kRoot, kTrue, kCalleeInstructions, kCalleeOps, kCount };
  StrId Get(Graph* g, Name name) {
    if (ids_[name].empty()) ids_[name] = g->intern(kText[name]);
    return ids_[name];
  }

 private:
  static constexpr std::string_view kText[kCount] = {
      "value", "op_type", "op_name", "ROOT", "true", "callee_instructions", "callee_ops"};
  std::array<StrId, kCount> ids_{};
};

bool IsParameter(std::string_view opcode) { return opcode == "parameter"; }
bool IsConstant(std::string_view opcode) { return opcode == "constant"; }

class GraphBuilder {
 public:
  GraphBuilder(std::string_view text, std::string_view source,
               const ParseOptions& options, std::vector<Diagnostic>* warnings)
      : text_(text), source_(source), options_(options), warnings_(warnings) {}

  // Lets go of the pool the graphs built share, so that a pool shared by
  // one graph alone counts as not shared.
  void ReleasePool() { pool_ = StringPool(); }

  absl::StatusOr<Graph> Build(const HloModuleText& module) {
    comps_.clear();
    callee_ops_.clear();
    callee_state_.clear();
    warned_capped_ = false;
    computations_ = &module.computations;
    const HloComputationText* entry = nullptr;
    for (uint32_t i = 0; i < module.computations.size(); ++i) {
      const HloComputationText& c = module.computations[i];
      if (!comps_.try_emplace(c.name, i).second) {
        return ParseError(source_, text_, c.offset,
                          fmt::format("duplicate computation '{}'", c.name));
      }
      if (c.entry) {
        if (entry != nullptr) {
          return ParseError(source_, text_, c.offset,
                            "a second ENTRY computation in one module");
        }
        entry = &c;
      }
    }
    if (module.computations.empty()) {
      return ParseError(source_, text_, module.offset,
                        fmt::format("module '{}' has no computations", module.name));
    }
    if (entry == nullptr) {
      // XLA prints the entry last; without the keyword that is the best guess.
      entry = &module.computations.back();
      AddWarning(warnings_, options_.max_warnings, source_, entry->line, 1,
                 "no ENTRY computation; using the last one");
    }
    for (const HloComputationText& c : module.computations) {
      if (&c == entry) continue;
      names_.clear();
      absl::Status st = IndexNames(c, &names_);
      for (size_t i = 0; st.ok() && i < c.instructions.size(); ++i) {
        st = ResolveOperands(c.instructions[i], names_, &operands_);
      }
      if (!st.ok()) return st;
    }
    return BuildEntry(module, *entry);
  }

 private:
  enum CalleeState : uint8_t { kNotSeen, kInProgress, kDone };
  // CalleeOps's stack: a computation and its range of walk_calls_, the
  // computations it calls, `next` the first not yet entered.
  struct CalleeFrame {
    uint32_t comp = 0;
    size_t begin = 0, next = 0, end = 0;
  };

  absl::Status IndexNames(const HloComputationText& c, NameIndex* names) {
    names->reserve(c.instructions.size());
    for (uint32_t i = 0; i < c.instructions.size(); ++i) {
      const HloInstructionText& ins = c.instructions[i];
      if (!names->try_emplace(ins.name, i).second) {
        return ParseError(source_, text_,
                          static_cast<size_t>(ins.name.data() - text_.data()),
                          fmt::format("duplicate instruction name '{}'", ins.name));
      }
    }
    return absl::OkStatus();
  }

  absl::Status ResolveOperands(const HloInstructionText& ins, const NameIndex& names,
                               std::vector<uint32_t>* out) {
    out->clear();
    if (IsParameter(ins.opcode) || IsConstant(ins.opcode)) return absl::OkStatus();
    SplitTopLevel(ins.args, &pieces_);
    for (std::string_view piece : pieces_) {
      size_t piece_offset = static_cast<size_t>(piece.data() - text_.data());
      size_t name_offset = 0;
      std::string_view name = HloOperandName(piece, &name_offset);
      if (name.empty()) {
        size_t at = piece_offset;
        while (at < text_.size() && (text_[at] == ' ' || text_[at] == '\n')) ++at;
        return ParseError(source_, text_, at, "expected an operand name");
      }
      auto it = names.find(name);
      if (it == names.end() && elided_) {
        // The instruction was left out of the text (`...`, cut short).
        ++dropped_refs_;
        continue;
      }
      if (it == names.end()) {
        return ParseError(source_, text_, piece_offset + name_offset,
                          fmt::format("undefined operand '{}'", name));
      }
      out->push_back(it->second);
    }
    return absl::OkStatus();
  }

  absl::StatusOr<Graph> BuildEntry(const HloModuleText& module,
                                   const HloComputationText& entry) {
    if (entry.instructions.size() > options_.max_nodes_per_graph) {
      return ParseError(source_, text_, entry.offset,
                        fmt::format("computation has more than {} instructions",
                                    options_.max_nodes_per_graph));
    }
    Graph g;
    g.kind = GraphKind::kHlo;
    g.partial = module.partial;
    elided_ = module.partial;
    dropped_refs_ = 0;
    g.name = std::string(module.name.empty() ? entry.name : module.name);
    g.source.file = std::string(source_);
    g.source.first_line = module.first_line;
    g.source.last_line = module.last_line;
    g.source.graph_name = g.name;
    // The modules of one text share a pool (StringPool::Share): they repeat
    // one another's opcodes, layouts and keys, nearly five strings an
    // instruction; so do the ids cached here.
    g.strings = pool_.Share();

    names_.clear();
    shapes_.clear();  // ranges of the previous graph's types
    absl::Status st = IndexNames(entry, &names_);
    if (!st.ok()) return st;
    size_t n = entry.instructions.size();
    g.nodes.resize(n);
    intern_names_ = n <= kInternNamesUpTo;
    std::vector<std::pair<int64_t, uint32_t>> params;
    bool forward_refs = false;
    int64_t root = -1;
    for (uint32_t i = 0; i < n; ++i) {
      const HloInstructionText& ins = entry.instructions[i];
      Node& node = g.nodes[i];
      st = ResolveOperands(ins, names_, &operands_);
      if (!st.ok()) return st;
      node.operands.reserve(operands_.size());
      for (uint32_t o : operands_) {
        forward_refs |= o >= i;
        node.operands.push_back(ValueRef{o, 0});
      }
      st = FillNode(ins, &g, &node);
      if (!st.ok()) return st;
      if (node.kind == NodeKind::kInput) {
        int64_t k = 0;
        std::string_view arg = TrimHlo(ins.args);
        auto [ptr, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), k);
        if (arg.empty() || ec != std::errc() || ptr != arg.data() + arg.size() || k < 0) {
          return ParseError(source_, text_, ins.args_offset,
                            "parameter number must be a non-negative integer");
        }
        params.emplace_back(k, i);
      }
      if (ins.root) {
        if (root >= 0) {
          return ParseError(source_, text_, ins.offset,
                            "a second ROOT instruction in one computation");
        }
        root = i;
      }
    }
    if (n == 0) {
      return ParseError(source_, text_, entry.offset,
                        fmt::format("ENTRY computation '{}' is empty", entry.name));
    }
    if (root < 0) root = static_cast<int64_t>(n) - 1;  // XLA's convention

    std::vector<uint32_t> order;  // order[new] = old; empty when already sorted
    if (forward_refs) {
      st = TopologicalOrder(entry, g, &order);
      if (!st.ok()) return st;
      Reorder(order, &g);
    }
    auto remap = [&](uint32_t old) -> uint32_t {
      return order.empty() ? old : position_[old];
    };
    // By number, then by position: the order a stable sort by number
    // gives, without its buffer.
    std::sort(params.begin(), params.end());
    for (const auto& p : params) g.inputs.push_back(remap(p.second));
    uint32_t r = remap(static_cast<uint32_t>(root));
    // Marks the root as the IR parser does, so analyses know the ROOT tuple
    // is how the outputs leave, not an unused value.
    g.nodes[r].attrs.push_back(
        Attr{fixed_.Get(&g, FixedStrings::kRoot), fixed_.Get(&g, FixedStrings::kTrue)});
    if (entry.instructions[static_cast<size_t>(root)].opcode == "tuple") {
      g.outputs = g.nodes[r].operands.ToVector();
    } else {
      g.outputs.push_back(ValueRef{r, 0});
    }
    if (dropped_refs_ > 0) {
      AddWarning(warnings_, options_.max_warnings, source_, entry.line, 1,
                 fmt::format("{} operand{} of computation '{}' name{} instructions left out of "
                             "the text; dropped",
                             dropped_refs_, dropped_refs_ == 1 ? "" : "s", entry.name,
                             dropped_refs_ == 1 ? "s" : ""));
    }
    g.ShrinkTypes();
    return g;
  }

  absl::Status FillNode(const HloInstructionText& ins, Graph* g, Node* node) {
    // Unique within a module (checked when outlined) and never looked up
    // by text. The small modules of a dump repeat one another's names
    // (`add.5`, `fusion.12`), and one pool holds them all: interned. A big
    // module's names are stored without a lookup (StringPool::Add), as a
    // million of them cost a million hash-table cache misses.
    node->name = intern_names_ ? g->intern(ins.name) : g->strings.Add(ins.name);
    auto [it, inserted] = opcodes_.try_emplace(ins.opcode);
    if (inserted) {
      it->second.first = g->intern(std::string("hlo::").append(ins.opcode));
      it->second.second = g->intern(ins.opcode);
    }
    node->op = it->second.first;
    node->raw_op = it->second.second;
    node->line = ins.line;
    node->kind = IsParameter(ins.opcode)  ? NodeKind::kInput
                 : IsConstant(ins.opcode) ? NodeKind::kConstant
                                          : NodeKind::kOp;
    // Instructions of one shape spelling share one range of the graph's
    // types, parsed once: most of a module's shapes repeat. The spelling
    // runs to the opcode (SplitHloInstruction stepped over it), so a
    // spelling seen before parsed without error then.
    const std::string_view shape = text_.substr(
        ins.shape_offset, static_cast<size_t>(ins.opcode.data() - text_.data()) - ins.shape_offset);
    auto found = shapes_.find(shape);
    if (found != shapes_.end()) {
      node->first_type = found->second.first;
      node->type_count = found->second.second;
    } else {
      size_t pos = ins.shape_offset;
      HloScanError err;
      shape_scratch_.clear();
      if (!ParseHloShape(text_, &pos, g, &shape_scratch_, &err)) {
        return ParseError(source_, text_, err.offset, err.message);
      }
      g->SetResults(*node, absl::MakeConstSpan(shape_scratch_.data(), shape_scratch_.size()));
      if (shapes_.size() < kMaxSharedShapes) {
        shapes_.emplace(shape, std::make_pair(node->first_type, node->type_count));
      }
    }
    if (node->kind == NodeKind::kConstant) {
      node->attrs.push_back(
          Attr{fixed_.Get(g, FixedStrings::kValue), g->intern(TrimHlo(ins.args))});
    }
    return FillAttrs(ins, g, node);
  }

  absl::Status FillAttrs(const HloInstructionText& ins, Graph* g, Node* node) {
    SplitTopLevel(ins.attrs, &pieces_);
    std::vector<uint32_t>& callees = callees_;
    std::string& normalized = normalized_;
    callees.clear();
    for (std::string_view piece : pieces_) {
      std::string_view attr = TrimHlo(piece);
      if (attr.empty()) continue;
      size_t eq = attr.find('=');
      if (eq == std::string_view::npos || eq == 0) {
        AddWarning(warnings_, options_.max_warnings, source_, ins.line, 1,
                   fmt::format("attribute without a value in '{}': {}", ins.name,
                               attr.substr(0, 60)));
        node->attrs.push_back(Attr{g->intern(attr), StrId{}});
        continue;
      }
      std::string_view key = TrimHlo(attr.substr(0, eq));
      std::string_view value = TrimHlo(attr.substr(eq + 1));
      if (key == "metadata") {
        AddMetadata(value, g, node);
        continue;
      }
      if (CalleeValue(value, &callees, &normalized)) {
        node->attrs.push_back(Attr{g->intern(key), g->intern(normalized)});
        continue;
      }
      node->attrs.push_back(Attr{g->intern(key), g->intern(value)});
    }
    if (!callees.empty()) {
      std::sort(callees.begin(), callees.end());
      callees.erase(std::unique(callees.begin(), callees.end()), callees.end());
      size_t total = 0;
      for (uint32_t c : callees) total += (*computations_)[c].instructions.size();
      node->attrs.push_back(Attr{fixed_.Get(g, FixedStrings::kCalleeInstructions),
                                 g->intern(std::to_string(total))});
      OpCounts& ops = ops_;
      ops.clear();
      for (uint32_t c : callees) {
        const OpCounts& add = CalleeOps(c);
        ops.insert(ops.end(), add.begin(), add.end());
      }
      Tally(&ops);
      if (Cap(&ops) && !warned_capped_) {
        WarnCapped(fmt::format("the computations '{}' calls", ins.name), ins.line);
      }
      if (!ops.empty()) {
        node->attrs.push_back(
            Attr{fixed_.Get(g, FixedStrings::kCalleeOps), g->intern(FormatOps(ops))});
      }
    }
    return absl::OkStatus();
  }

  // Sorts counts by opcode and adds up those of one opcode: the order and
  // sums a std::map gives, without a heap node per opcode.
  static void Tally(OpCounts* ops) {
    std::sort(ops->begin(), ops->end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    size_t out = 0;
    for (size_t i = 0; i < ops->size(); ++i) {
      if (out > 0 && (*ops)[out - 1].first == (*ops)[i].first) {
        (*ops)[out - 1].second = SaturatingAdd((*ops)[out - 1].second, (*ops)[i].second);
      } else {
        (*ops)[out++] = (*ops)[i];
      }
    }
    ops->resize(out);
  }

  // "2 broadcast, 1 add": largest first, then by name.
  static std::string FormatOps(const OpCounts& ops) {
    OpCounts v = ops;
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    std::string out;
    for (const auto& [op, n] : v) {
      if (!out.empty()) out += ", ";
      fmt::format_to(std::back_inserter(out), "{} {}", n, op);
    }
    return out;
  }

  // Adds tallied `add`, `times` over, to tallied `ops`: a merge, as a
  // computation of a chain adds a long summary to a few opcodes of its own.
  // Counts multiply through nested calls (a computation calling one that
  // calls one...: 2^depth), so they saturate (util/checked.h).
  void MergeTally(const OpCounts& add, int64_t times, OpCounts* ops) {
    OpCounts& out = merged_;
    out.clear();
    out.reserve(ops->size() + add.size());
    auto a = ops->begin();
    auto b = add.begin();
    while (a != ops->end() || b != add.end()) {
      if (b == add.end() || (a != ops->end() && a->first < b->first)) {
        out.push_back(*a++);
      } else if (a == ops->end() || b->first < a->first) {
        out.emplace_back(b->first, SaturatingMul(b->second, times));
        ++b;
      } else {
        out.emplace_back(a->first,
                         SaturatingAdd(a->second, SaturatingMul(b->second, times)));
        ++a;
        ++b;
      }
    }
    ops->swap(out);
  }

  // Keeps the kMaxCalleeOps most frequent of tallied `ops` (ties by name),
  // still sorted by opcode; true when some were dropped.
  bool Cap(OpCounts* ops) {
    if (ops->size() <= kMaxCalleeOps) return false;
    auto more_frequent = [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    };
    OpCounts& ranked = merged_;
    ranked.assign(ops->begin(), ops->end());
    std::nth_element(ranked.begin(), ranked.begin() + (kMaxCalleeOps - 1), ranked.end(),
                     more_frequent);
    // Opcodes are unique here, so exactly kMaxCalleeOps rank up to the last kept.
    const auto last_kept = ranked[kMaxCalleeOps - 1];
    ops->erase(std::remove_if(ops->begin(), ops->end(),
                              [&](const auto& e) { return more_frequent(last_kept, e); }),
               ops->end());
    return true;
  }

  // Once a module, at the first summary cut: its callers' are cut as well.
  void WarnCapped(std::string_view what, uint32_t line) {
    warned_capped_ = true;
    AddWarning(warnings_, options_.max_warnings, source_, line, 1,
               fmt::format("{} run more than {} distinct opcodes: callee_ops keeps the {} "
                           "most frequent",
                           what, kMaxCalleeOps, kMaxCalleeOps));
  }

  // The opcodes a called computation runs, through the computations it
  // calls in turn (a while body's fusions, a conditional's branches):
  // what a fusion fuses and where a collective inside a loop hides.
  // Parameters are not work and are left out. Depth first with a stack of
  // its own, as a chain of calls can be as deep as the text is long; each
  // computation is summarised once. A computation reached again while
  // being summarised (a cycle: not valid HLO) adds nothing there.
  const OpCounts& CalleeOps(uint32_t root) {
    if (callee_ops_.size() != computations_->size()) {
      callee_ops_.assign(computations_->size(), {});
      callee_state_.assign(computations_->size(), kNotSeen);
    }
    if (callee_state_[root] == kNotSeen) {
      EnterCallee(root);
      while (!walk_.empty()) {
        CalleeFrame& f = walk_.back();
        if (f.next < f.end) {
          uint32_t c = walk_calls_[f.next++];
          if (callee_state_[c] == kNotSeen) EnterCallee(c);  // `f` dangles from here
          continue;
        }
        FinishCallee(f);
        walk_calls_.resize(f.begin);
        walk_.pop_back();
      }
    }
    return callee_ops_[root];
  }

  // Pushes `comp` with the computations its instructions call, each once
  // an instruction, in text order.
  void EnterCallee(uint32_t comp) {
    callee_state_[comp] = kInProgress;
    CalleeFrame f;
    f.comp = comp;
    f.begin = f.next = walk_calls_.size();
    std::vector<uint32_t>& nested = walk_nested_;
    for (const HloInstructionText& ins : (*computations_)[comp].instructions) {
      SplitTopLevel(ins.attrs, &walk_pieces_);
      nested.clear();
      for (std::string_view piece : walk_pieces_) {
        std::string_view attr = TrimHlo(piece);
        size_t eq = attr.find('=');
        if (eq == std::string_view::npos || eq == 0) continue;
        std::string_view key = TrimHlo(attr.substr(0, eq));
        if (key == "metadata") continue;
        CalleeValue(TrimHlo(attr.substr(eq + 1)), &nested, &walk_normalized_);
      }
      std::sort(nested.begin(), nested.end());
      nested.erase(std::unique(nested.begin(), nested.end()), nested.end());
      for (uint32_t c : nested) {
        if (c != comp) walk_calls_.push_back(c);
      }
    }
    f.end = walk_calls_.size();
    walk_.push_back(f);
  }

  // Every callee of `f` is summarised by now, but for those still in
  // progress: the computations up the stack, which close a cycle.
  void FinishCallee(const CalleeFrame& f) {
    OpCounts& ops = walk_ops_;
    ops.clear();
    for (const HloInstructionText& ins : (*computations_)[f.comp].instructions) {
      if (!IsParameter(ins.opcode)) ops.emplace_back(ins.opcode, 1);
    }
    Tally(&ops);
    // A callee called from n instructions adds its summary n times: once,
    // multiplied, so that a computation of many calls to one big callee
    // costs that callee's summary once.
    std::sort(walk_calls_.begin() + static_cast<ptrdiff_t>(f.begin),
              walk_calls_.begin() + static_cast<ptrdiff_t>(f.end));
    size_t callees = 0;
    for (size_t k = f.begin; k < f.end; ++k) {
      callees += k == f.begin || walk_calls_[k] != walk_calls_[k - 1];
    }
    // Merging one callee after another costs the summary so far each time:
    // past a few callees, appending them all and sorting once is cheaper.
    constexpr size_t kMergeCallees = 4;
    const size_t own = ops.size();
    for (size_t k = f.begin; k < f.end;) {
      uint32_t c = walk_calls_[k];
      size_t run = k;
      while (run < f.end && walk_calls_[run] == c) ++run;
      const auto times = static_cast<int64_t>(run - k);
      k = run;
      if (callee_state_[c] != kDone) continue;
      if (callees <= kMergeCallees) {
        MergeTally(callee_ops_[c], times, &ops);
        continue;
      }
      for (const auto& [op, n] : callee_ops_[c]) {
        ops.emplace_back(op, SaturatingMul(n, times));
      }
    }
    if (callees > kMergeCallees && ops.size() > own) Tally(&ops);
    const HloComputationText& comp = (*computations_)[f.comp];
    if (Cap(&ops) && !warned_capped_) {
      WarnCapped(fmt::format("computation '{}' and those it calls", comp.name), comp.line);
    }
    callee_ops_[f.comp].assign(ops.begin(), ops.end());  // no spare capacity
    callee_state_[f.comp] = kDone;
  }

  // True when `value` names computations only (`%f`, `f`, `{%a, %b}`); the
  // names go to `callees` and `normalized` gets them without '%', so the
  // long and short printers agree.
  bool CalleeValue(std::string_view value, std::vector<uint32_t>* callees,
                   std::string* normalized) {
    if (value.empty()) return false;
    bool braced = value.front() == '{' && value.back() == '}';
    std::string_view inner = braced ? value.substr(1, value.size() - 2) : value;
    if (!braced && !(value.front() == '%' || IsHloNameChar(value.front()))) return false;
    std::vector<std::string_view>& names = callee_names_;
    SplitTopLevel(inner, &names);
    if (names.empty()) return false;
    size_t mark = callees->size();
    normalized->assign(braced ? "{" : "");
    for (size_t i = 0; i < names.size(); ++i) {
      std::string_view name = StripPercent(TrimHlo(names[i]));
      auto it = comps_.find(name);
      if (name.empty() || it == comps_.end()) {
        callees->resize(mark);
        return false;
      }
      callees->push_back(it->second);
      if (i > 0) normalized->append(", ");
      normalized->append(name);
    }
    if (braced) normalized->append("}");
    return true;
  }

  void AddMetadata(std::string_view value, Graph* g, Node* node) {
    HloMetadata m = ParseHloMetadata(value);
    auto text = [&](std::string_view s) {
      return m.escaped ? g->intern(UnescapeHlo(s)) : g->intern(s);
    };
    if (!m.op_type.empty()) {
      node->attrs.push_back(Attr{fixed_.Get(g, FixedStrings::kOpType), text(m.op_type)});
    }
    if (!m.op_name.empty()) {
      node->attrs.push_back(Attr{fixed_.Get(g, FixedStrings::kOpName), text(m.op_name)});
    }
    if (!m.source_file.empty()) {
      std::string& frame = frame_;
      if (m.escaped) {
        frame = UnescapeHlo(m.source_file);
      } else {
        frame.assign(m.source_file);
      }
      if (!m.source_line.empty()) frame.append(":").append(m.source_line);
      node->frame = g->intern(frame);
    }
  }

  // Kahn's algorithm, smallest text position first, so an already-ordered
  // prefix keeps its order and the result is deterministic.
  absl::Status TopologicalOrder(const HloComputationText& entry, const Graph& g,
                                std::vector<uint32_t>* order) {
    size_t n = g.nodes.size();
    std::vector<uint32_t> pending(n, 0), user_start(n + 1, 0);
    for (uint32_t i = 0; i < n; ++i) {
      pending[i] = static_cast<uint32_t>(g.nodes[i].operands.size());
      for (ValueRef v : g.nodes[i].operands) ++user_start[v.node + 1];
    }
    for (size_t i = 0; i < n; ++i) user_start[i + 1] += user_start[i];
    std::vector<uint32_t> users(user_start[n]), fill(user_start.begin(), user_start.end() - 1);
    for (uint32_t i = 0; i < n; ++i) {
      for (ValueRef v : g.nodes[i].operands) users[fill[v.node]++] = i;
    }
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> ready;
    for (uint32_t i = 0; i < n; ++i) {
      if (pending[i] == 0) ready.push(i);
    }
    order->reserve(n);
    while (!ready.empty()) {
      uint32_t i = ready.top();
      ready.pop();
      order->push_back(i);
      for (uint32_t k = user_start[i]; k < user_start[i + 1]; ++k) {
        if (--pending[users[k]] == 0) ready.push(users[k]);
      }
    }
    if (order->size() < n) {
      for (uint32_t i = 0; i < n; ++i) {
        if (pending[i] > 0) {
          const HloInstructionText& ins = entry.instructions[i];
          return ParseError(source_, text_,
                            static_cast<size_t>(ins.name.data() - text_.data()),
                            fmt::format("instruction '{}' is part of a dependency cycle",
                                        ins.name));
        }
      }
    }
    return absl::OkStatus();
  }

  void Reorder(const std::vector<uint32_t>& order, Graph* g) {
    position_.assign(order.size(), 0);
    for (uint32_t k = 0; k < order.size(); ++k) position_[order[k]] = k;
    std::vector<Node> sorted;
    sorted.reserve(order.size());
    for (uint32_t old : order) {
      Node node = std::move(g->nodes[old]);
      for (ValueRef& v : node.operands) v.node = position_[v.node];
      sorted.push_back(std::move(node));
    }
    g->nodes = std::move(sorted);
  }

  std::string_view text_;
  std::string_view source_;
  const ParseOptions& options_;
  std::vector<Diagnostic>* warnings_;
  NameIndex comps_;
  const std::vector<HloComputationText>* computations_ = nullptr;
  absl::flat_hash_map<std::string_view, std::pair<StrId, StrId>, StringViewHash> opcodes_;
  StringPool pool_;  // shared by the graphs built
  // Shape spelling -> its range of the graph being built's types.
  absl::flat_hash_map<std::string_view, std::pair<uint32_t, uint32_t>, StringViewHash> shapes_;
  // Beyond this many spellings a module's shapes are not shared, so a
  // text of unique shapes costs no more memory than its nodes.
  static constexpr size_t kMaxSharedShapes = 65536;
  TypeList shape_scratch_;
  // Whether instruction names are interned (FillNode; see intern_names.h).
  bool intern_names_ = true;
  FixedStrings fixed_;
  // Buffers reused from node to node, so that a node costs no allocation.
  NameIndex names_;
  std::vector<uint32_t> operands_, callees_;
  std::vector<std::string_view> pieces_, callee_names_;
  std::string normalized_, frame_;
  std::vector<uint32_t> position_;
  std::vector<OpCounts> callee_ops_;  // per computation
  OpCounts ops_;
  std::vector<CalleeState> callee_state_;  // per computation
  std::vector<CalleeFrame> walk_;
  std::vector<uint32_t> walk_calls_, walk_nested_;
  std::vector<std::string_view> walk_pieces_;
  std::string walk_normalized_;
  OpCounts walk_ops_, merged_;
  bool warned_capped_ = false;  // this module's summaries were cut
  bool elided_ = false;  // the module is partial: operands may name missing instructions
  uint32_t dropped_refs_ = 0;
};

}  // namespace

absl::StatusOr<std::vector<Graph>> ParseHloText(std::string_view text,
                                                std::string_view source,
                                                const ParseOptions& options,
                                                std::vector<Diagnostic>* warnings) {
  std::vector<Diagnostic> built;
  absl::StatusOr<std::vector<Graph>> graphs =
      ParseHloRange(text, 0, text.size(), 1, /*last=*/true, source, options, warnings,
                    warnings ? &built : nullptr);
  // Both lists were capped at max_warnings, so the build list's tally of
  // those beyond comes only once the joined list is full: no merge fails.
  for (Diagnostic& d : built) MergeWarning(warnings, options.max_warnings, std::move(d));
  return graphs;
}

absl::StatusOr<std::vector<Graph>> ParseHloRange(std::string_view text, size_t begin,
                                                 size_t end, uint32_t first_line, bool last,
                                                 std::string_view source,
                                                 const ParseOptions& options,
                                                 std::vector<Diagnostic>* outline_warnings,
                                                 std::vector<Diagnostic>* build_warnings) {
  std::vector<Graph> graphs;
  absl::Status build_error;
  GraphBuilder builder(text, source, options, build_warnings);
  std::vector<HloModuleText> modules;
  // Per module (one graph each, in order): built without a warning.
  std::vector<bool> clean;
  const HloRepeatable repeatable = [&](size_t module) {
    return build_error.ok() && module < clean.size() && clean[module];
  };
  absl::Status st = OutlineHloRange(
      text, begin, end, first_line, last, source, options, outline_warnings, &modules,
      [&](const HloModuleText& module) {
        // After a build error only the outline goes on: an outline error
        // later in the text is the one to report.
        if (!build_error.ok()) return;
        if (module.repeat_of != HloModuleText::kNotRepeat) {
          // The same text as an earlier module that built cleanly: its
          // graph, lines moved down, strings shared.
          Graph& original = graphs[module.repeat_of];
          Graph g = CopyParsedGraph(original, original.strings.Share(),
                                    module.first_line - original.source.first_line);
          g.name = original.name;
          g.source.file = original.source.file;
          g.source.graph_name = original.source.graph_name;
          g.source.record_index = static_cast<uint32_t>(graphs.size());
          graphs.push_back(std::move(g));
          clean.push_back(false);
          return;
        }
        const size_t mark = build_warnings ? build_warnings->size() : 0;
        absl::StatusOr<Graph> g = builder.Build(module);
        if (!g.ok()) {
          build_error = g.status();
          return;
        }
        g->source.record_index = static_cast<uint32_t>(graphs.size());
        graphs.push_back(*std::move(g));
        clean.push_back(NoWarningSince(build_warnings, options.max_warnings, mark));
      },
      &repeatable);
  if (!st.ok()) {
    // As when every module is outlined before any is built: an outline
    // error comes with the outline's warnings alone.
    if (build_warnings) build_warnings->clear();
    return st;
  }
  if (!build_error.ok()) return build_error;
  builder.ReleasePool();
  if (!graphs.empty()) graphs.front().strings.ShrinkToFit();
  return graphs;
}

}  // namespace graphdiff
