// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "analyze/analyze.h"
#include "fmt/format.h"
#include "util/str_id_map.h"

namespace graphdiff::analyze {

std::string NodeName(const Graph& g, uint32_t node) {
  std::string_view name = g.str(g.nodes[node].name);
  return name.empty() ? fmt::format("#{}", node) : std::string(name);
}

std::string ValueName(const Graph& g, ValueRef v) {
  if (v.node >= g.nodes.size()) return fmt::format("#{}", v.node);
  std::string name = NodeName(g, v.node);
  if (g.nodes[v.node].num_outputs() > 1 || v.output > 0) {
    name += fmt::format(".{}", v.output);
  }
  return name;
}

Evidence NodeEvidence(const Graph& g, uint32_t node, std::optional<Side> side,
                      std::string note) {
  Evidence e;
  e.side = side;
  e.source = g.source.file;
  e.line = g.nodes[node].line;
  e.node = NodeName(g, node);
  e.op = std::string(g.str(g.nodes[node].op));
  e.note = std::move(note);
  return e;
}

bool PastEvidenceCap(const Finding& f, size_t max_evidence) {
  return max_evidence != 0 && f.evidence.size() >= max_evidence;
}

Evidence LinkOnlyEvidence(const Graph& g, uint32_t node, std::optional<Side> side) {
  Evidence e;
  e.side = side;
  e.source = g.source.file;
  e.line = g.nodes[node].line;
  e.node = NodeName(g, node);
  return e;
}

Evidence CappedEvidence(const Finding& f, size_t max_evidence, const Graph& g, uint32_t node,
                        std::optional<Side> side, std::string_view note) {
  return PastEvidenceCap(f, max_evidence) ? LinkOnlyEvidence(g, node, side)
                                          : NodeEvidence(g, node, side, std::string(note));
}

std::string OnTheSide(std::optional<Side> side) {
  return side ? fmt::format(" on the {}", SideName(*side)) : std::string();
}

std::string_view ShortOp(std::string_view op) {
  size_t p = op.rfind("::");
  return p == std::string_view::npos ? op : op.substr(p + 2);
}

bool IsExpandOp(std::string_view op) {
  std::string_view s = ShortOp(op);
  return s == "expand" || s == "expand_copy" || s == "broadcast" ||
         s == "broadcast_to" || s == "broadcast_in_dim";
}

bool IsCloneOp(std::string_view op) {
  std::string_view s = ShortOp(op);
  return s == "clone" || s == "copy" || s == "copy_" || s == "_to_copy" ||
         s == "_copy_from" || s == "lift_fresh_copy" || s == "clone_";
}

bool CallsModules(const Graph& g) {
  for (const Node& n : g.nodes) {
    if (n.kind == NodeKind::kModuleCall) return true;
  }
  return false;
}

bool ModuleLevelDiffers(const PairContext& c) {
  return CallsModules(c.left) != CallsModules(c.right);
}

bool IsWrappedFunction(std::string_view op) {
  constexpr std::string_view kPrefix = "builtins::";
  if (op.substr(0, kPrefix.size()) != kPrefix) return false;
  const std::string_view name = op.substr(kPrefix.size());
  // What FX writes as a bare call that is Python's own: getattr(x, "shape"),
  // len, the conversions, and `and`/`or` of boolean expressions.
  static constexpr std::string_view kBuiltins[] = {
      "abs",   "all",      "and",  "any",   "bool",    "callable", "chr",   "dict",
      "divmod", "enumerate", "filter", "float", "getattr", "hasattr", "hash", "id",
      "int",   "isinstance", "issubclass", "iter", "len", "list",  "map",   "max",
      "min",   "next",     "not",  "or",    "ord",     "pow",      "print", "range",
      "repr",  "reversed", "round", "setattr", "slice", "sorted",  "str",   "sum",
      "tuple", "type",     "zip"};
  for (std::string_view b : kBuiltins) {
    if (name == b) return false;
  }
  return !name.empty();
}

bool IsCloneCounter(std::string_view name) {
  return ShortOp(name) == "clone" && name.find("::") != std::string_view::npos;
}

std::string_view NodeNoun(GraphKind kind) {
  switch (kind) {
    case GraphKind::kIr: return "IR nodes";
    case GraphKind::kFx: return "FX nodes";
    case GraphKind::kHlo: return "HLO instructions";
  }
  return "nodes";
}

std::vector<uint32_t> CountNodeUsers(const Graph& g) {
  std::vector<uint32_t> users(g.nodes.size(), 0);
  for (const Node& n : g.nodes) {
    for (ValueRef v : n.operands) {
      if (v.node < users.size()) ++users[v.node];
    }
  }
  return users;
}

std::vector<bool> NodeSet(const Graph& g, const std::vector<uint32_t>& nodes) {
  std::vector<bool> in(g.nodes.size(), false);
  for (uint32_t i : nodes) {
    if (i < in.size()) in[i] = true;
  }
  return in;
}

const Attr* AttrWithKey(const Node& n, StrId key) {
  if (key.empty()) return nullptr;
  for (const Attr& a : n.attrs) {
    if (a.key == key) return &a;
  }
  return nullptr;
}

std::vector<bool> ReachesOutput(const Graph& g) {
  std::vector<bool> live(g.nodes.size(), false);
  for (ValueRef v : g.outputs) {
    if (v.node < live.size()) live[v.node] = true;
  }
  // What the graph does besides returning values: the ROOT instruction
  // (an HLO tuple packing the outputs) and side effects are uses too.
  // Attribute keys are interned, so the ROOT flag is one id to compare (no
  // id at all when no node carries it) instead of a string per attribute.
  const StrId root = g.strings.Find("ROOT");
  // Asked once per op, not per node: the memo behind HasSideEffects hashes
  // the op's text, and a graph has many nodes per op.
  StrIdMap<int8_t> effects(g, -1);
  // Nodes are topologically ordered, so one backward sweep suffices: a
  // node's users come after it, and whether it is a use itself is its own.
  for (size_t i = g.nodes.size(); i-- > 0;) {
    const Node& n = g.nodes[i];
    if (!live[i] && (n.kind == NodeKind::kOp || n.kind == NodeKind::kMethodCall)) {
      int8_t& e = effects[n.op];
      if (e < 0) e = HasSideEffects(g.str(n.op)) ? 1 : 0;
      if (e == 1 || AttrWithKey(n, root) != nullptr) live[i] = true;
    }
    if (!live[i]) continue;
    for (ValueRef v : n.operands) {
      if (v.node < live.size()) live[v.node] = true;
    }
  }
  return live;
}

std::string JoinOpCounts(std::vector<std::pair<std::string, int64_t>> counts,
                         size_t max_items, bool signed_counts) {
  std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) {
    int64_t ma = a.second < 0 ? -a.second : a.second;
    int64_t mb = b.second < 0 ? -b.second : b.second;
    if (ma != mb) return ma > mb;
    return a.first < b.first;
  });
  std::string out;
  size_t shown = 0;
  for (const auto& [op, n] : counts) {
    if (max_items != 0 && shown == max_items) {
      out += fmt::format(", ... {} more ops", counts.size() - shown);
      break;
    }
    if (!out.empty()) out += ", ";
    out += signed_counts ? fmt::format("{:+} {}", n, op) : fmt::format("{} {}", n, op);
    ++shown;
  }
  return out;
}

bool IsEmptyResult(const Graph& g, const Node& n) {
  if (n.num_results() == 0) return false;
  for (uint32_t i = 0; i < n.num_results(); ++i) {
    std::optional<int64_t> elems = g.result(n, i).NumElements();
    if (!elems || *elems != 0) return false;
  }
  return true;
}

bool IsSymbolicScalar(const Graph& g, const Node& n) {
  if (g.attr(n, "sym")) return true;
  std::string_view s = ShortOp(g.str(n.op));
  return s.substr(0, 4) == "sym_" || (s == "size" && n.kind == NodeKind::kMethodCall);
}

namespace {

// "all-reduce-start" -> "all_reduce", "_c10d_functional::all_reduce_" ->
// "all_reduce": one spelling for every format's collectives.
std::string NormalizeOpWord(std::string_view op) {
  std::string s(ShortOp(op));
  for (char& ch : s) {
    if (ch == '-') ch = '_';
  }
  while (!s.empty() && s.back() == '_') s.pop_back();
  while (!s.empty() && s.front() == '_') s.erase(0, 1);
  return s;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Whether `k` occurs in `w` at its start or right after a '_'.
bool HasWordStart(std::string_view w, std::string_view k) {
  for (size_t pos = w.find(k); pos != std::string_view::npos; pos = w.find(k, pos + 1)) {
    if (pos == 0 || w[pos - 1] == '_') return true;
  }
  return false;
}

// CollectiveKind of an op whose NormalizeOpWord is `w` (taken by value: the
// suffixes come off it).
std::string_view CollectiveKindOfWord(std::string w, std::string_view op) {
  // The done half of an async pair is the same collective as its start.
  if (EndsWith(w, "_done") || EndsWith(w, "_wait")) return "";
  for (std::string_view suffix : {"_start", "_async", "_into_tensor", "_tensor", "_coalesced",
                                  "_base", "_single"}) {
    if (EndsWith(w, suffix)) w.resize(w.size() - suffix.size());
  }
  if (w == "all_reduce" || w == "allreduce" || w == "cross_replica_sum" || w == "psum" ||
      w == "reduce_scatter_sum") {
    return w == "reduce_scatter_sum" ? "reduce-scatter" : "all-reduce";
  }
  if (w == "all_gather" || w == "allgather" || w == "all_gather_base") return "all-gather";
  if (w == "reduce_scatter" || w == "reducescatter" || w == "psum_scatter") {
    return "reduce-scatter";
  }
  if (w == "all_to_all" || w == "alltoall") return "all-to-all";
  if (w == "collective_permute" || w == "ppermute") return "collective-permute";
  if (w == "collective_broadcast") return "collective-broadcast";
  // c10d's broadcast and reduce are collectives; HLO's broadcast is not.
  if (op.find("c10d") != std::string_view::npos &&
      (w == "broadcast" || w == "reduce" || w == "gather" || w == "scatter")) {
    return w == "broadcast" ? "broadcast (c10d)" : w == "reduce" ? "reduce (c10d)"
           : w == "gather"  ? "gather (c10d)" : "scatter (c10d)";
  }
  return "";
}

}  // namespace

namespace {

bool ComputeSideEffects(std::string_view op) {
  std::string_view s = ShortOp(op);
  if (s.empty()) return true;
  // In-place ops (`add_`, `index_put_`, `copy_`) write an operand.
  if (s.back() == '_' && !(s.size() > 2 && s.substr(s.size() - 2) == "__")) return true;
  const std::string w = NormalizeOpWord(op);
  if (!CollectiveKindOfWord(w, op).empty()) return true;
  for (std::string_view k : {"assert", "print", "record", "sync", "barrier", "send", "recv",
                             "outfeed", "infeed", "set", "rng_get_and_update_state",
                             "rng_bit_generator", "custom_call", "resize", "wait_tensor",
                             "check", "warn", "effects", "with_effects", "save", "copy_to", "seed",
                             "philox"}) {
    if (HasWordStart(w, k)) return true;
  }
  return false;
}

struct OpFacts {
  bool side_effects = false;
  std::string_view collective;  // a literal of CollectiveKindOfWord
};

// Keys of the memo below, looked up by string_view.
struct TransparentHash : StringViewHash {
  using is_transparent = void;
};
struct TransparentEq {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
};

// What an op name says, remembered: it is asked once per distinct op of
// every graph (a dump can hold 10^5 small graphs, all with the same few
// hundred ops), and the answer reads the name a couple of dozen times.
// One memo per thread, as graph pairs are analysed on every core; it
// starts over past a bound, so a dump of endless distinct names does not
// grow it.
const OpFacts& FactsOf(std::string_view op) {
  thread_local absl::flat_hash_map<std::string, OpFacts, TransparentHash, TransparentEq> memo;
  auto it = memo.find(op);
  if (it != memo.end()) return it->second;
  if (memo.size() >= 4096) memo.clear();
  OpFacts facts{ComputeSideEffects(op), CollectiveKindOfWord(NormalizeOpWord(op), op)};
  return memo.emplace(std::string(op), facts).first->second;
}

}  // namespace

bool HasSideEffects(std::string_view op) { return FactsOf(op).side_effects; }

std::string_view CollectiveKind(std::string_view op) {
  // No collective's word has a '.', and the word keeps any '.' of the op's
  // last part: a module call (`module::layers.3.attn`) is answered without
  // the memo, which a symbolic_trace graph, an op per module, overflows.
  if (ShortOp(op).find('.') != std::string_view::npos) return "";
  return FactsOf(op).collective;
}

bool IsProvenanceKey(std::string_view key) {
  return key == "NodeType" || key == "xla_shape" || key == "location" || key == "scope" ||
         key == "num_outputs" || key == "ROOT" || key == "frame" || key == "stack_trace" ||
         key == "name" || key == "op_name" || key == "op_type" || key == "metadata" ||
         key == "source_file" || key == "source_line" || key == "sym";
}

std::string Plural(int64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

Alignment SwapAlignmentLists(const Alignment& a) {
  Alignment s;
  s.left_only = a.right_only;
  s.right_only = a.left_only;
  for (const auto& [l, r] : a.matched_outputs) s.matched_outputs.emplace_back(r, l);
  std::sort(s.matched_outputs.begin(), s.matched_outputs.end());
  s.left_only_outputs = a.right_only_outputs;
  s.right_only_outputs = a.left_only_outputs;
  return s;
}

}  // namespace graphdiff::analyze
