// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Normalise: the per-node facts every later matcher compares.
#include <algorithm>
#include <string>
#include <string_view>

#include "align/hash.h"
#include "align/matchers.h"
#include "align/module_class.h"
#include "fmt/format.h"
#include "util/str_id_map.h"

namespace graphdiff::align {
namespace {

class StrHashes {
 public:
  explicit StrHashes(const Graph& g)
      : g_(g), cache_(g, 0), presentation_(g, 0) {}
  // IsPresentationKey, once per distinct key.
  bool presentation(StrId id) {
    uint8_t& p = presentation_[id];
    if (p == 0) p = IsPresentationKey(g_.str(id)) ? 2 : 1;
    return p == 2;
  }
  uint64_t operator()(StrId id) {
    uint64_t& h = cache_[id];
    if (h == 0) h = HashString(g_.str(id)) | 1;
    return h;
  }
  // What operator()(id) will give, HashString(str(id)), hashed elsewhere.
  void Prime(StrId id, uint64_t hash) { cache_[id] = hash | 1; }
  // A get_attr's target, its number left out when the tracer numbered it
  // (make_fx's `_param_constant12`, `_tensor_constant3`, a frozen graph's
  // `_frozen_param7`): those number the fetches in the order one trace
  // made them, and a trace that lifted two of them (AOT) or ran one more
  // layer shifts every number after. Equal numbers then named different
  // tensors (Swin-T's attention-mask constants paired two places apart).
  // Not cached: the check is a few bytes from the end of the name, and a
  // map by string id would be sized by the pool (two million ids of a
  // graph of 10^6 nodes) for the few graphs that fetch tensors at all.
  uint64_t target(StrId id) {
    const std::string_view name = g_.str(id);
    const size_t stem = name.find_last_not_of("0123456789") + 1;
    const std::string_view base = name.substr(0, stem);
    auto ends = [&](std::string_view w) {
      return base.size() >= w.size() && base.substr(base.size() - w.size()) == w;
    };
    const bool numbered = stem < name.size() && stem > 1 && name[0] == '_' &&
                          (ends("constant") || ends("param"));
    return numbered ? HashString(base) | 1 : (*this)(id);
  }

 private:
  const Graph& g_;
  StrIdMap<uint64_t> cache_;
  StrIdMap<uint8_t> presentation_;  // 0 unknown, 1 no, 2 yes
};

bool IsAliasClass(std::string_view cls) { return cls == "alias"; }

// Functionalization writes an in-place update of a view (`fill_` of a
// slice of a buffer) as the update out of place, scattered back into the
// base (`slice_scatter(base, fill, ...)`); what then reads the buffer reads
// the scatter. Those readers stand for readers of the base, as make_fx's
// in-place graph writes them: without that, Swin-T's attention mask (nine
// fills of one buffer) shared no structure between the two traces past its
// first fill.
bool IsViewScatter(std::string_view op) {
  constexpr std::string_view kAten = "aten::";
  if (op.substr(0, kAten.size()) != kAten) return false;
  op.remove_prefix(kAten.size());
  return op == "slice_scatter" || op == "select_scatter" || op == "diagonal_scatter" ||
         op == "as_strided_scatter";
}

// `operator.getitem(x, k)` left as a node by a parser: a projection.
bool ProjectionIndex(const Graph& g, const Node& n, uint32_t* index) {
  std::string_view op = g.str(n.op);
  if (n.operands.size() != 1 || op.size() < 7 ||
      op.substr(op.size() - 7) != "getitem") {
    return false;
  }
  std::optional<std::string_view> k = g.attr(n, "arg1");
  if (!k) return false;
  std::optional<std::vector<int64_t>> v = ParseIntList(*k);
  if (!v || v->size() != 1 || (*v)[0] < 0) return false;
  *index = static_cast<uint32_t>((*v)[0]);
  return true;
}

// `operands`: how many the graph's nodes hold (CountOperandsIfAlignable).
absl::Status BuildSide(const Graph& g, const OpEquivalence& eq, size_t operands, SideView& s) {
  const uint32_t n = static_cast<uint32_t>(g.nodes.size());
  s.graph = &g;
  s.size = n;
  s.cls.assign(n, 0);
  s.op_hash.assign(n, 0);
  s.leaf.assign(n, 0);
  s.module.assign(n, 0);
  s.type_hash.assign(n, 0);
  s.attr_hash.assign(n, 0);
  s.height.assign(n, 0);
  s.op_begin.assign(n + 1, 0);
  s.ops.clear();
  // One entry per operand: room for all of them at once, not a doubling
  // that copied two million operands into fresh pages on the way.
  s.ops.reserve(operands);
  StrHashes hashes(g);
  const uint64_t target_key = HashString("target") | 1;  // as hashes() gives it
  struct OpInfo {
    uint64_t cls = 0;
    bool alias = false;
    bool scatter = false;  // IsViewScatter
    uint64_t hash = 0;
  };
  // Op class per distinct op string, and per module path for module calls:
  // an array by string id, not a hash map, since a module-level graph has
  // as many distinct paths as nodes.
  std::vector<OpInfo> infos;
  StrIdMap<uint32_t> info_of[2] = {StrIdMap<uint32_t>(g, 0), StrIdMap<uint32_t>(g, 0)};
  std::vector<ValueRef> forward(n);  // what an alias/projection stands for
  std::vector<uint8_t> is_alias(n, 0);
  size_t typed = 0;
  for (uint32_t v = 0; v < n; ++v) {
    const Node& node = g.nodes[v];
    s.leaf[v] = node.kind == NodeKind::kInput || node.kind == NodeKind::kConstant ||
                node.kind == NodeKind::kGetAttr;
    // Op class, cached per distinct op string (index + 1 into infos).
    uint32_t& slot = info_of[node.kind == NodeKind::kModuleCall][node.op];
    if (slot == 0) {
      std::string_view op = g.str(node.op);
      std::string_view cls;
      uint64_t op_hash = 0;
      bool hashed = false;
      if (node.kind == NodeKind::kModuleCall) {
        const Attr* target = nullptr;
        for (const Attr& a : node.attrs) {
          if (g.str(a.key) == "target") {
            target = &a;
            break;
          }
        }
        const std::string_view path = target ? g.str(target->value) : op;
        std::string_view rep = ModuleOpFromName(path);
        if (!rep.empty()) cls = eq.ClassOf(rep);
        // A module call's op is "module::" + its target, each its own
        // string in a graph of module calls: both are hashed in one pass
        // (HashStringAndSuffix), the target's ready for the attributes.
        constexpr std::string_view kModule = "module::";
        if (target != nullptr && op.size() == kModule.size() + path.size() &&
            op.substr(0, kModule.size()) == kModule && op.substr(kModule.size()) == path) {
          static constexpr uint64_t kAfterModule = FnvBytes(kFnvBasis, kModule);
          uint64_t path_hash;
          HashStringAndSuffix(kAfterModule, kModule.size(), path, &op_hash, &path_hash);
          hashes.Prime(target->value, path_hash);
          hashed = true;
        }
      }
      if (cls.empty()) cls = eq.ClassOf(op);
      // An op outside every class is its own class (ClassOf gives back its
      // text): hashed once.
      if (!hashed) op_hash = HashString(op);
      const bool own = cls.data() == op.data() && cls.size() == op.size();
      infos.push_back({own ? op_hash : HashString(cls), IsAliasClass(cls),
                       node.kind == NodeKind::kOp && IsViewScatter(op), op_hash});
      slot = static_cast<uint32_t>(infos.size());
    }
    const OpInfo& info = infos[slot - 1];
    s.cls[v] = info.cls;
    s.op_hash[v] = info.hash;
    s.module[v] = node.kind == NodeKind::kModuleCall;
    // Operands, resolved through aliases and projections. An alias keeps
    // its own operand unresolved, so a chain of aliases stays a chain
    // instead of becoming a row of look-alike siblings.
    const bool scatter = info.scatter && node.operands.size() >= 2;
    const bool alias = (info.alias && node.operands.size() == 1) || scatter;
    uint32_t index = 0;
    const bool projection = !alias && ProjectionIndex(g, node, &index);
    s.op_begin[v] = static_cast<uint32_t>(s.ops.size());
    uint32_t h = 0;
    ValueRef source{};
    for (const ValueRef& r : node.operands) {
      ValueRef x = (is_alias[r.node] && r.output == 0) ? forward[r.node] : r;
      // An alias stands for its one operand, a scatter for its base.
      if (!scatter || &r == &node.operands[0]) source = x;
      const ValueRef kept = alias || projection ? r : x;
      s.ops.push_back(kept);
      h = std::max(h, s.height[kept.node] + 1);
    }
    s.height[v] = h;
    if (alias) {
      is_alias[v] = 1;
      forward[v] = source;
    } else if (projection) {
      is_alias[v] = 1;
      forward[v] = ValueRef{source.node, index};
    }
    // Types.
    if (node.num_results() != 0) ++typed;
    uint64_t th = node.num_results();
    for (uint32_t i = 0; i < node.num_results(); ++i) {
      const TensorType& t = g.result(node, i);
      th = Combine(th, static_cast<uint64_t>(t.dtype) * 2 + t.rank_known);
      for (const Dim& d : t.dims) {
        th = Combine(th, static_cast<uint64_t>(d.kind()) ^
                             (static_cast<uint64_t>(d.value()) << 3) ^
                             (d.kind() == Dim::Kind::kSymbolic ? hashes(d.symbol()) : 0));
      }
    }
    s.type_hash[v] = th;
    // Attributes: an unordered sum, since formats order keys differently.
    uint64_t ah = 0;
    const bool get_attr = node.kind == NodeKind::kGetAttr;
    for (const Attr& a : node.attrs) {
      if (hashes.presentation(a.key)) continue;
      const uint64_t key = hashes(a.key);
      ah += Combine(key, get_attr && key == target_key ? hashes.target(a.value)
                                                        : hashes(a.value));
    }
    s.attr_hash[v] = ah;
  }
  s.op_begin[n] = static_cast<uint32_t>(s.ops.size());
  s.alias = std::move(is_alias);
  s.out_pos.assign(n, kNone);
  for (uint32_t i = 0; i < g.outputs.size(); ++i) {
    uint32_t o = g.outputs[i].node;
    if (o < n && s.out_pos[o] == kNone) s.out_pos[o] = i;
  }
  s.typed = n > 0 && typed * 2 >= n;
  // Users: counting sort by used node, so each list is in user order.
  s.use_begin.assign(n + 1, 0);
  for (const ValueRef& r : s.ops) ++s.use_begin[r.node + 1];
  for (uint32_t v = 0; v < n; ++v) s.use_begin[v + 1] += s.use_begin[v];
  s.uses.assign(s.ops.size(), Use{});
  std::vector<uint32_t> fill(s.use_begin.begin(), s.use_begin.end() - 1);
  for (uint32_t v = 0; v < n; ++v) {
    for (uint32_t i = s.op_begin[v]; i < s.op_begin[v + 1]; ++i) {
      const ValueRef& r = s.ops[i];
      s.uses[fill[r.node]++] = Use{v, i - s.op_begin[v], r.output};
    }
  }
  return absl::OkStatus();
}

}  // namespace

const char* MatcherName(MatcherId id) {
  switch (id) {
    case MatcherId::kNone: return "none";
    case MatcherId::kAnchor: return "anchor";
    case MatcherId::kRefine: return "refine";
    case MatcherId::kSymmetry: return "symmetry";
    case MatcherId::kPropagate: return "propagate";
    case MatcherId::kSimilarity: return "similarity";
    case MatcherId::kTwins: return "twins";
    case MatcherId::kRelaxed: return "relaxed";
    case MatcherId::kPosition: return "position";
    case MatcherId::kIdentical: return "identical";
  }
  return "none";
}

absl::StatusOr<size_t> CountOperandsIfAlignable(const Graph& g) {
  size_t operands = 0;
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    operands += g.nodes[v].operands.size();
    for (const ValueRef& r : g.nodes[v].operands) {
      if (r.node >= v) {
        return absl::InvalidArgumentError(fmt::format(
            "{}: node {} ({}) uses node {} which does not come before it; "
            "graphs must be in topological order",
            g.source.file, v, g.str(g.nodes[v].name), r.node));
      }
    }
  }
  for (const ValueRef& r : g.outputs) {
    if (r.node >= g.nodes.size()) {
      return absl::InvalidArgumentError(fmt::format(
          "{}: output refers to node {} of a {}-node graph", g.source.file, r.node,
          g.nodes.size()));
    }
  }
  return operands;
}

absl::Status CheckAlignable(const Graph& g) { return CountOperandsIfAlignable(g).status(); }

absl::Status Normalizer::Run(const Graph& left, const Graph& right,
                             const AlignOptions& options, State& state) {
  static const OpEquivalence* const kBuiltIn = new OpEquivalence(OpEquivalence::BuiltIn());
  state.options = &options;
  state.equivalence = options.equivalence ? options.equivalence : kBuiltIn;
  const OpEquivalence& eq = *state.equivalence;
  // A thread costs tens of microseconds: worth it only on big graphs.
  constexpr size_t kParallelNodes = 1 << 15;
  state.parallel = options.threads != 1 && std::thread::hardware_concurrency() > 1 &&
                   left.nodes.size() + right.nodes.size() >= kParallelNodes;
  absl::Status status[2];
  ForBothSides(state.parallel, [&](int s) {
    const Graph& g = s == 0 ? left : right;
    // The check and the count are one pass over the nodes: each pass over
    // a graph of 10^6 nodes reads a hundred megabytes.
    absl::StatusOr<size_t> operands = CountOperandsIfAlignable(g);
    if (!operands.ok()) {
      status[s] = operands.status();
      return;
    }
    status[s] = BuildSide(g, eq, *operands, state.side[s]);
    if (!status[s].ok()) return;
    state.map[s].assign(g.nodes.size(), kNone);
    state.how[s].assign(g.nodes.size(), MatcherId::kNone);
    state.covered[s].assign(g.nodes.size(), 0);
    state.taken[s].assign((g.nodes.size() + 63) / 64, 0);
  });
  for (const absl::Status& st : status) {
    if (!st.ok()) return st;
  }
  state.same_kind = left.kind == right.kind;
  state.use_types = state.side[0].typed && state.side[1].typed;
  MarkLiftedInputs(state);
  return absl::OkStatus();
}

}  // namespace graphdiff::align
