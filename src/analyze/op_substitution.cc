// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// op-substitution: matched nodes whose ops differ, grouped by op pair. Known
// equivalents (one class of the op table) are named as such; anything else
// is a real substitution. A node paired with several (a module call and its
// decomposition) is one instance of its pattern, `module call
// (aten::linear) -> aten::t + 2 aten::view + aten::addmm x3`, not a row per
// member. A module call on one side stands for the op its
// name suggests (bn -> batch_norm); a module lowered to exactly that op is a
// level difference, not a substitution. An op matched with an XLA fusion is
// explained by the fused computation's contents (kind and fused ops).
#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "align/module_class.h"
#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

struct NodeRole {
  std::string label;  // what the node does: an op, or "module call (aten::batch_norm)"
  std::string op;     // the op to compare classes with
  bool module = false;
};

std::optional<NodeRole> Describe(const Graph& g, const Node& n) {
  NodeRole s;
  if (n.kind == NodeKind::kModuleCall) {
    std::optional<std::string_view> target = g.attr(n, "target");
    std::string_view path = target ? *target : g.str(n.op);
    std::string_view op = align::ModuleOpFromName(path);
    if (op.empty()) return std::nullopt;  // the name says nothing to compare
    s.op = std::string(op);
    s.label = fmt::format("module call ({})", op);
    s.module = true;
    return s;
  }
  if (n.kind != NodeKind::kOp && n.kind != NodeKind::kMethodCall) return std::nullopt;
  s.op = std::string(g.str(n.op));
  s.label = s.op;
  return s;
}

struct Group {
  int64_t count = 0;
  bool known = false;
  bool lowering = false;  // one op is part of what the other is known to become
  bool module = false;
  bool wrapped = false;  // one op calls a wrapped function, across levels
  std::vector<std::pair<uint32_t, uint32_t>> nodes;
};

bool IsFusion(std::string_view op) { return ShortOp(op) == "fusion"; }

// `b` is one of the ops `a` is known to become one level down (a Linear
// module's `addmm`, `matmul`'s `bmm`, `getitem`'s `slice`), or the reverse.
bool KnownLowering(const OpEquivalence& eq, std::string_view a, std::string_view b) {
  for (int k = 0; k < 2; ++k) {
    std::string_view from = k == 0 ? a : b, to = k == 0 ? b : a;
    for (std::string_view op : align::ModuleDecomposition(from)) {
      if (eq.ClassOf(op) == eq.ClassOf(to)) return true;
    }
  }
  return false;
}

// Severity and title of a pairing of different ops. A module name only
// suggests its op, so a mismatch there is no alarm; across levels (FX
// against the IR it ran as) ops are lowered, copied and re-viewed by design:
// a pairing of different ops there is a lowering to look at, not an alarm.
void Headline(const std::string& left_label, const std::string& right_label, bool known,
              bool lowering, bool module, bool same_level, bool wrapped, Finding* f) {
  f->severity = known || lowering || module || wrapped || !same_level ? Severity::kInfo
                                                                      : Severity::kWarning;
  f->title = fmt::format("{} -> {} x{}{}", left_label, right_label, f->count,
                         known      ? " (known equivalent)"
                         : lowering ? " (known lowering)"
                                    : "");
}

// One node paired with several on the other side, grouped by the single
// node's role and the members' ops.
struct DecompositionGroup {
  int64_t count = 0;
  std::string pattern;  // "aten::t + 2 aten::view + aten::addmm", first instance's order
  int64_t members = 0;  // nodes per instance
  bool lowering = false, known = false, module = false;
  bool wrapped = false;  // the single node calls a wrapped function, across levels
  std::vector<std::string> unexplained;  // member ops neither equivalent nor a lowering
  std::vector<std::vector<uint32_t>> instances;  // single node first, then members
};

// "aten::t + 2 aten::view + aten::addmm": ops in order of first appearance.
std::string PatternOf(const std::vector<std::string>& ops) {
  std::vector<std::pair<std::string, int64_t>> counts;
  for (const std::string& op : ops) {
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const auto& c) { return c.first == op; });
    if (it == counts.end()) {
      counts.emplace_back(op, 1);
    } else {
      ++it->second;
    }
  }
  std::string out;
  for (const auto& [op, n] : counts) {
    if (!out.empty()) out += " + ";
    out += n > 1 ? fmt::format("{} {}", n, op) : op;
  }
  return out;
}

// Pairs of one node with several, keyed by the single node (left first):
// single -> members in node order. XLA fusions are left out: what a fusion
// holds is told by its fused computation.
std::map<std::pair<int, uint32_t>, std::vector<uint32_t>> OneToMany(const PairContext& c) {
  const Alignment& a = c.alignment;
  std::map<std::pair<int, uint32_t>, std::vector<uint32_t>> out;
  // Counted in flat arrays: an alignment of a million pairs is common, one
  // with a one-to-many pair is not.
  std::vector<uint8_t> left_count(c.left.nodes.size(), 0), right_count(c.right.nodes.size(), 0);
  bool any = false;
  for (const NodePair& p : a.pairs) {
    if (p.left >= left_count.size() || p.right >= right_count.size()) continue;
    // Saturated at 2: only "more than one" matters.
    uint8_t& l = left_count[p.left];
    uint8_t& r = right_count[p.right];
    l = static_cast<uint8_t>(std::min(l + 1, 2));
    r = static_cast<uint8_t>(std::min(r + 1, 2));
    any |= l > 1 || r > 1;
  }
  if (!any) return out;
  for (const NodePair& p : a.pairs) {
    if (p.left >= left_count.size() || p.right >= right_count.size()) continue;
    if (left_count[p.left] > 1) {
      out[{0, p.left}].push_back(p.right);
    } else if (right_count[p.right] > 1) {
      out[{1, p.right}].push_back(p.left);
    }
  }
  auto fusion = [&](int side, uint32_t n) {
    const Graph& g = side == 0 ? c.left : c.right;
    return n < g.nodes.size() && IsFusion(g.str(g.nodes[n].op));
  };
  for (auto it = out.begin(); it != out.end();) {
    auto& [single, members] = *it;
    std::sort(members.begin(), members.end());
    bool fused = fusion(single.first, single.second);
    for (uint32_t m : members) fused |= fusion(1 - single.first, m);
    it = fused ? out.erase(it) : std::next(it);
  }
  return out;
}

// The sentence saying why a wrapped function's pairing is no alarm.
std::string WrappedNote(const std::string& label) {
  return fmt::format(
      " {} is a function the module-level trace kept whole (`torch.fx.wrap`): the other "
      "level records the ops of its body, which no op table knows, so this pairing shows "
      "where its body went, not a changed computation.",
      label);
}

void FindDecompositions(const PairContext& c,
                        const std::map<std::pair<int, uint32_t>, std::vector<uint32_t>>& groups,
                        std::vector<Finding>* out) {
  std::optional<bool> levels_known;  // asked only when a wrapped function is found
  auto levels = [&] {
    if (!levels_known) levels_known = ModuleLevelDiffers(c);
    return *levels_known;
  };
  // Keyed by (side of the single node, its label, the members' ops sorted).
  std::map<std::tuple<int, std::string, std::vector<std::string>>, DecompositionGroup> found;
  for (const auto& [single, members] : groups) {
    const auto& [side, node] = single;
    const Graph& sg = side == 0 ? c.left : c.right;
    const Graph& mg = side == 0 ? c.right : c.left;
    if (node >= sg.nodes.size()) continue;
    std::optional<NodeRole> s = Describe(sg, sg.nodes[node]);
    if (!s || s->op == kElidedOp) continue;
    std::vector<std::string> ops;
    std::vector<uint32_t> instance{node};
    bool differs = false, explained = true, lowering = false;
    std::vector<std::string> unexplained;
    for (uint32_t m : members) {
      if (m >= mg.nodes.size()) continue;
      std::optional<NodeRole> r = Describe(mg, mg.nodes[m]);
      if (!r || r->op == kElidedOp) continue;
      ops.push_back(r->label);
      instance.push_back(m);
      if (r->op == s->op) continue;
      differs = true;
      if (c.equivalence.KnownEquivalent(s->op, r->op)) continue;
      if (KnownLowering(c.equivalence, s->op, r->op)) {
        lowering = true;
        continue;
      }
      explained = false;
      unexplained.push_back(r->label);
    }
    if (!differs) continue;
    std::vector<std::string> sorted = ops;
    std::sort(sorted.begin(), sorted.end());
    DecompositionGroup& g = found[{side, s->label, sorted}];
    if (g.count == 0) {
      g.pattern = PatternOf(ops);
      g.members = static_cast<int64_t>(ops.size());
      g.module = s->module;
      g.lowering = explained && lowering;
      g.known = explained && !lowering;
      g.wrapped = !explained && IsWrappedFunction(s->op) && levels();
    }
    for (std::string& u : unexplained) {
      if (std::find(g.unexplained.begin(), g.unexplained.end(), u) == g.unexplained.end()) {
        g.unexplained.push_back(std::move(u));
      }
    }
    ++g.count;
    g.instances.push_back(std::move(instance));
  }
  const bool same_level = c.left.kind == c.right.kind;
  for (auto& [key, g] : found) {
    const auto& [side, label, sorted] = key;
    Finding f;
    f.id = "op-substitution";
    f.graph = c.label;
    f.count = g.count;
    Headline(side == 0 ? label : g.pattern, side == 0 ? g.pattern : label, g.known, g.lowering,
             g.module, same_level, g.wrapped, &f);
    const char* where = side == 0 ? "left" : "right";
    const char* other = side == 0 ? "right" : "left";
    // "3 module call (aten::linear) nodes on the left are each"
    std::string each = fmt::format("{} {} {} on the {} {}", g.count, label,
                                   g.count == 1 ? "node" : "nodes", where,
                                   g.count == 1 ? "is" : "are each");
    if (g.lowering || g.known) {
      f.explanation = fmt::format(
          "{} lowered to {} on the {}: ops it is known to become one level down (a module or "
          "function call lowered to aten ops), not a different computation.",
          each, g.pattern, other);
    } else {
      std::string ops;
      for (const std::string& u : g.unexplained) ops += (ops.empty() ? "" : ", ") + u;
      f.explanation = fmt::format(
          "{} paired with {} on the {}, and the op table does not know {} as part of what "
          "{} becomes.",
          each, g.pattern, other, ops, label);
      if (g.module) {
        f.explanation += " The module name only suggests its op: check that the lowering is "
                         "the expected one.";
      } else if (g.wrapped) {
        f.explanation += WrappedNote(label);
      } else if (same_level) {
        f.explanation += " The computation itself may have changed.";
        f.hint = "If the ops are the same computation, add them to an --equiv file.";
      }
    }
    for (const std::vector<uint32_t>& inst : g.instances) {
      const Graph& sg = side == 0 ? c.left : c.right;
      const Graph& mg = side == 0 ? c.right : c.left;
      const Side ss = side == 0 ? Side::kLeft : Side::kRight;
      const Side ms = side == 0 ? Side::kRight : Side::kLeft;
      f.evidence.push_back(NodeEvidence(sg, inst[0], ss, side == 0 ? "before" : "after"));
      for (size_t i = 1; i < inst.size(); ++i) {
        f.evidence.push_back(NodeEvidence(mg, inst[i], ms, side == 0 ? "after" : "before"));
      }
    }
    out->push_back(std::move(f));
  }
}

// Group label standing for "the ops on the side without fusions".
constexpr char kFusedOps[] = "\x01ops";

// What a fusion computes, from the parser's summary of its fused
// computation: "kLoop fusion of 1 add, 2 broadcast".
struct FusionContents {
  std::string kind;  // "kLoop", or "" when the dump does not say
  std::string ops;   // "1 add, 2 broadcast", or ""
  std::set<uint32_t> fusions;
};

FusionContents DescribeFusions(const Graph& g, const std::vector<uint32_t>& nodes) {
  FusionContents out;
  std::set<std::string> kinds, ops;
  for (uint32_t i : nodes) {
    out.fusions.insert(i);
    const Node& n = g.nodes[i];
    if (auto k = g.attr(n, "kind")) kinds.insert(std::string(*k));
    if (auto o = g.attr(n, "callee_ops")) ops.insert(std::string(*o));
  }
  for (const std::string& k : kinds) out.kind += (out.kind.empty() ? "" : "/") + k;
  for (const std::string& o : ops) out.ops += (out.ops.empty() ? "" : "; ") + o;
  return out;
}

// True when the fused ops (as "1 add, 2 broadcast") include `op`'s opcode.
bool FusedOpsHave(std::string_view ops, std::string_view op) {
  std::string_view s = ShortOp(op);
  size_t pos = 0;
  while ((pos = ops.find(s, pos)) != std::string_view::npos) {
    bool start = pos > 0 && ops[pos - 1] == ' ';
    size_t end = pos + s.size();
    bool stop = end == ops.size() || ops[end] == ',' || ops[end] == ';';
    if (start && stop) return true;
    pos = end;
  }
  return false;
}

}  // namespace

void FindOpSubstitutions(const PairContext& c, std::vector<Finding>* out) {
  const auto one_to_many = OneToMany(c);
  FindDecompositions(c, one_to_many, out);
  auto in_decomposition = [&](const NodePair& p) {
    return one_to_many.count({0, p.left}) || one_to_many.count({1, p.right});
  };
  std::map<std::pair<std::string, std::string>, Group> groups;
  std::optional<bool> levels_known;  // asked only when a wrapped function is paired
  auto levels = [&] {
    if (!levels_known) levels_known = ModuleLevelDiffers(c);
    return *levels_known;
  };
  for (const NodePair& p : c.alignment.pairs) {
    if (!(p.reasons & kChangedOp) || in_decomposition(p)) continue;
    if (p.left >= c.left.nodes.size() || p.right >= c.right.nodes.size()) continue;
    std::optional<NodeRole> l = Describe(c.left, c.left.nodes[p.left]);
    std::optional<NodeRole> r = Describe(c.right, c.right.nodes[p.right]);
    if (!l || !r || l->op == r->op) continue;
    // A stand-in for a node an elided dump left out is no substitution.
    if (l->op == kElidedOp || r->op == kElidedOp) continue;
    // Everything fused into (or out of) fusions is one story, whatever the
    // fused op: one group per direction, the ops listed inside.
    bool lf = IsFusion(l->op), rf = IsFusion(r->op);
    std::pair<std::string, std::string> key{l->label, r->label};
    if (rf && !lf) key.first = kFusedOps;
    if (lf && !rf) key.second = kFusedOps;
    Group& g = groups[key];
    ++g.count;
    g.module = l->module || r->module;
    g.known = c.equivalence.KnownEquivalent(l->op, r->op);
    g.lowering = !g.known && KnownLowering(c.equivalence, l->op, r->op);
    g.wrapped = (IsWrappedFunction(l->op) || IsWrappedFunction(r->op)) && levels();
    g.nodes.emplace_back(p.left, p.right);
  }
  for (auto& [key, g] : groups) {
    const auto& [left_label, right_label] = key;
    Finding f;
    f.id = "op-substitution";
    f.graph = c.label;
    f.count = g.count;
    bool right_fusion = left_label == kFusedOps, left_fusion = right_label == kFusedOps;
    if (left_fusion || right_fusion) {
      // A fusion is explained by what it fuses, not flagged as unknown.
      std::vector<uint32_t> fused;
      std::map<std::string, int64_t> other_ops;
      std::set<uint32_t> other_nodes;
      const Graph& fg = right_fusion ? c.right : c.left;
      const Graph& og = right_fusion ? c.left : c.right;
      for (const auto& [l, r] : g.nodes) {
        fused.push_back(right_fusion ? r : l);
        uint32_t o = right_fusion ? l : r;
        if (other_nodes.insert(o).second) ++other_ops[std::string(og.str(og.nodes[o].op))];
      }
      FusionContents fc = DescribeFusions(fg, fused);
      std::vector<std::string> missing;
      for (const auto& [op, n] : other_ops) {
        if (!FusedOpsHave(fc.ops, op)) missing.emplace_back(ShortOp(op));
      }
      std::string what = fmt::format(
          "{}{}", Plural(static_cast<int64_t>(fc.fusions.size()), "fusion", "fusions"),
          fc.kind.empty() ? "" : " (" + fc.kind + ")");
      std::string ops = JoinOpCounts({other_ops.begin(), other_ops.end()}, 4, false);
      f.severity = missing.empty() || fc.ops.empty() ? Severity::kInfo : Severity::kWarning;
      f.title = fmt::format("{} ({}) {} {}{}", Plural(g.count, "op", "ops"), ops,
                            right_fusion ? "fused into" : "unfused from", what,
                            fc.ops.empty() ? std::string() : " of " + fc.ops);
      f.explanation = fmt::format(
          "{} on the {} ({}) {} computed inside {} on the {}{}. XLA fusion merges "
          "elementwise work, broadcasts and reductions into one kernel; the pair view lines "
          "each fused op up with the fusion that now computes it.",
          Plural(static_cast<int64_t>(other_nodes.size()), "node", "nodes"),
          right_fusion ? "left" : "right", ops, other_nodes.size() == 1 ? "is" : "are", what,
          right_fusion ? "right" : "left",
          fc.ops.empty() ? std::string(" (the dump does not print the fused computation)")
                         : fmt::format(", whose fused computations hold {}", fc.ops));
      if (!fc.ops.empty() && !missing.empty()) {
        std::string names;
        for (const std::string& m : missing) names += (names.empty() ? "" : ", ") + m;
        f.explanation += fmt::format(
            " The fused computations hold no {}, so the computation itself may have changed.",
            names);
      }
      for (const auto& [l, r] : g.nodes) {
        f.evidence.push_back(NodeEvidence(c.left, l, Side::kLeft, "before"));
        f.evidence.push_back(NodeEvidence(c.right, r, Side::kRight, "after"));
      }
      out->push_back(std::move(f));
      continue;
    }
    bool same_level = c.left.kind == c.right.kind;
    Headline(left_label, right_label, g.known, g.lowering, g.module, same_level,
             g.wrapped && !g.known && !g.lowering, &f);
    if (g.lowering) {
      f.explanation = fmt::format(
          "{} matched nodes are {} on the left and {} on the right: one is part of what the "
          "other is known to become one level down (a module or function call lowered to "
          "aten ops), not a different computation.",
          g.count, left_label, right_label);
    } else if (g.known) {
      f.explanation = fmt::format(
          "{} matched nodes compute the same operation under different names: {} on the "
          "left, {} on the right (one class in the op-equivalence table). Variants can "
          "still differ in cost and in what they return.",
          g.count, left_label, right_label);
      if (right_label.find("no_training") != std::string::npos) {
        f.explanation +=
            " The `_no_training` variant is what AOTAutograd's functionalized graphs use "
            "for batch norm in eval mode.";
      }
    } else if (g.module) {
      f.explanation = fmt::format(
          "{} module calls on one side line up with {} on the other; the module name "
          "suggests a different op, so check that the lowering is the expected one.",
          g.count, right_label);
    } else if (g.wrapped) {
      f.explanation =
          fmt::format("{} matched nodes use {} on the left and {} on the right.", g.count,
                      left_label, right_label) +
          WrappedNote(IsWrappedFunction(left_label) ? left_label : right_label);
    } else if (!same_level) {
      f.explanation = fmt::format(
          "{} matched nodes use {} on the left ({}) but {} on the right ({}). Graphs of two "
          "levels lower ops differently (functional `*_copy` views, decompositions), so "
          "this pairing shows how the op was lowered; check it if the lowering is "
          "unexpected.",
          g.count, left_label, GraphKindName(c.left.kind), right_label,
          GraphKindName(c.right.kind));
    } else {
      f.explanation = fmt::format(
          "{} matched nodes use {} on the left but {} on the right, and the op table does "
          "not know them as equivalent: the computation itself may have changed.",
          g.count, left_label, right_label);
      f.hint = "If the two ops are the same computation, add them to an --equiv file.";
    }
    for (const auto& [l, r] : g.nodes) {
      f.evidence.push_back(NodeEvidence(c.left, l, Side::kLeft, "before"));
      f.evidence.push_back(NodeEvidence(c.right, r, Side::kRight, "after"));
    }
    out->push_back(std::move(f));
  }
}

}  // namespace graphdiff::analyze
