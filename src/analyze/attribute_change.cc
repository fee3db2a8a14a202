// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// attribute-change: matched nodes whose attributes differ, summarised by
// attribute and change (`eps 1e-05 -> 0.001 in 20 aten::native_batch_norm
// nodes`), one finding per attribute key. Provenance (frames, metadata op
// names) is not an attribute of the computation and is left out.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

std::string Short(std::string_view v) {
  if (v.size() <= 48) return std::string(v);
  return std::string(v.substr(0, 45)) + "...";
}

std::map<std::string_view, std::string_view> Significant(const Graph& g, const Node& n) {
  std::map<std::string_view, std::string_view> out;
  for (const Attr& a : n.attrs) {
    std::string_view key = g.str(a.key);
    if (!IsProvenanceKey(key)) out[key] = g.str(a.value);
  }
  return out;
}

// The values a node is called with, in order: positional arguments by
// position, then keywords; list brackets, parentheses and `None` dropped,
// numbers by value. A module-level trace writes Python calls
// (`q.view(2, 8, 4, 8)`, `torch.topk(x, 3, dim = 1)`), an aten trace the
// schema (`view(x, [2, 8, 4, 8])`, `topk(x, 3, 1)`): the same values.
// With `collapse`, an argument whose values are all one (`[3, 3]`) counts
// as that value: Python's pooling and convolution functions take an int
// for a size the schema spells as a list (`avg_pool2d(x, kernel_size = 3)`
// is `avg_pool2d(x, [3, 3])`).
// In-place flags are left out (AOT functionalizes them), and so is a
// get_attr's target (make_fx renames parameters `_param_constantN`).
std::vector<std::string> CallValues(const Graph& g, const Node& n, bool collapse) {
  std::vector<std::pair<long, std::string_view>> positional;
  std::vector<std::string_view> keywords;
  for (const Attr& a : n.attrs) {
    std::string_view key = g.str(a.key);
    if (IsProvenanceKey(key) || key == "inplace") continue;
    if (key == "target" && n.kind == NodeKind::kGetAttr) continue;
    if (key.size() > 3 && key.substr(0, 3) == "arg" &&
        key.find_first_not_of("0123456789", 3) == std::string_view::npos) {
      // Saturating: a dump's argument number is input, never an exception.
      long pos = 0;
      for (char ch : key.substr(3)) pos = std::min(pos * 10 + (ch - '0'), 1L << 30);
      positional.emplace_back(pos, g.str(a.value));
    } else {
      keywords.push_back(g.str(a.value));
    }
  }
  std::sort(positional.begin(), positional.end());
  std::vector<std::string> out;
  auto add = [&](std::string_view v) {
    const size_t first = out.size();
    size_t i = 0;
    while (i < v.size()) {
      size_t j = v.find_first_of("[](), ", i);
      if (j == std::string_view::npos) j = v.size();
      if (j > i) {
        std::string token(v.substr(i, j - i));
        char* end = nullptr;
        const double d = std::strtod(token.c_str(), &end);
        if (end == token.c_str() + token.size()) token = fmt::format("{}", d);
        if (token != "None") out.push_back(std::move(token));
      }
      i = j + 1;
    }
    if (collapse && out.size() > first + 1 &&
        std::all_of(out.begin() + first, out.end(),
                    [&](const std::string& t) { return t == out[first]; })) {
      out.resize(first + 1);
    }
  };
  for (const auto& [pos, v] : positional) add(v);
  for (std::string_view v : keywords) add(v);
  return out;
}

// The same call written at two levels (see CallValues).
bool SameCall(const Graph& lg, const Node& l, const Graph& rg, const Node& r) {
  return CallValues(lg, l, false) == CallValues(rg, r, false) ||
         CallValues(lg, l, true) == CallValues(rg, r, true);
}

struct Change {
  std::map<std::string, int64_t> ops;  // right op -> nodes
  std::vector<std::pair<uint32_t, uint32_t>> nodes;
};

}  // namespace

void FindAttributeChanges(const PairContext& c, std::vector<Finding>* out) {
  if (c.left.kind != c.right.kind) return;  // spellings differ between formats
  // Whether one side calls modules and the other does not: a pass over
  // both graphs, asked once and only when a pair's settings changed (most
  // pairs of a big diff have none).
  std::optional<bool> levels_known;
  auto levels = [&] {
    if (!levels_known) levels_known = ModuleLevelDiffers(c);
    return *levels_known;
  };
  // key -> (before, after) -> nodes
  std::map<std::string, std::map<std::pair<std::string, std::string>, Change>> by_key;
  // Keys whose every change sits on a node whose type changed too: a size
  // or shape argument following a shape change, not a setting of its own.
  std::map<std::string, bool> follows_type;
  for (const NodePair& p : c.alignment.pairs) {
    // Only the same op with other settings: a substitution's arguments
    // differ anyway, and a module call's target is no setting.
    if (!(p.reasons & kChangedAttributes) || (p.reasons & kChangedOp)) continue;
    if (p.left >= c.left.nodes.size() || p.right >= c.right.nodes.size()) continue;
    if (c.left.nodes[p.left].kind == NodeKind::kModuleCall ||
        c.right.nodes[p.right].kind == NodeKind::kModuleCall) {
      continue;
    }
    if (levels() && SameCall(c.left, c.left.nodes[p.left], c.right, c.right.nodes[p.right])) {
      continue;
    }
    auto l = Significant(c.left, c.left.nodes[p.left]);
    auto r = Significant(c.right, c.right.nodes[p.right]);
    std::set<std::string_view> keys;
    for (const auto& [k, v] : l) keys.insert(k);
    for (const auto& [k, v] : r) keys.insert(k);
    for (std::string_view k : keys) {
      auto li = l.find(k), ri = r.find(k);
      std::string before = li == l.end() ? "absent" : std::string(li->second);
      std::string after = ri == r.end() ? "absent" : std::string(ri->second);
      if (before == after) continue;
      Change& ch = by_key[std::string(k)][{before, after}];
      auto [it, fresh] = follows_type.try_emplace(std::string(k), true);
      it->second = it->second && (p.reasons & kChangedType) != 0;
      ++ch.ops[std::string(c.right.str(c.right.nodes[p.right].op))];
      ch.nodes.emplace_back(p.left, p.right);
    }
  }
  for (auto& [key, changes] : by_key) {
    // Largest change first, then by value: the title names the main one.
    std::vector<std::pair<const std::pair<std::string, std::string>*, const Change*>> order;
    for (const auto& [lr, ch] : changes) order.emplace_back(&lr, &ch);
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
      return a.second->nodes.size() > b.second->nodes.size();
    });
    Finding f;
    f.id = "attribute-change";
    f.severity = follows_type[key] ? Severity::kInfo : Severity::kWarning;
    f.graph = c.label;
    std::map<std::string, int64_t> ops;
    for (const auto& [lr, ch] : order) {
      f.count += static_cast<int64_t>(ch->nodes.size());
      for (const auto& [op, n] : ch->ops) ops[op] += n;
    }
    std::string where = ops.size() == 1
                            ? fmt::format("{} {}", ops.begin()->first,
                                          f.count == 1 ? "node" : "nodes")
                            : (f.count == 1 ? "node" : "nodes");
    if (order.size() == 1) {
      f.title = fmt::format("{} {} -> {} in {} {}", key, Short(order[0].first->first),
                            Short(order[0].first->second), f.count, where);
    } else {
      std::string parts;
      size_t shown = std::min<size_t>(order.size(), 2);
      int64_t rest = f.count;
      for (size_t i = 0; i < shown; ++i) {
        int64_t n = static_cast<int64_t>(order[i].second->nodes.size());
        rest -= n;
        parts += fmt::format("{}{} -> {} in {}", i ? ", " : "", Short(order[i].first->first),
                             Short(order[i].first->second), n);
      }
      if (order.size() > shown) {
        parts += fmt::format(", {} more in {} other changes", rest, order.size() - shown);
      }
      f.title = fmt::format("{} changed in {} {}: {}", key, f.count, where, parts);
    }
    f.explanation = fmt::format(
        "{} matched {} the same op with a different `{}` ({} distinct {}; by op: {}). "
        "An attribute is part of the computation: a different value can change results, "
        "precision or cost.",
        Plural(f.count, "node", "nodes"), f.count == 1 ? "computes" : "compute", key,
        order.size(),
        order.size() == 1 ? "change" : "changes",
        JoinOpCounts({ops.begin(), ops.end()}, 4, false));
    if (follows_type[key]) {
      f.explanation += " Every one of these nodes also changed its result type: the "
                       "attribute follows the shape change (see shape-change).";
    }
    for (const auto& [lr, ch] : order) {
      for (const auto& [l, r] : ch->nodes) {
        f.evidence.push_back(NodeEvidence(
            c.right, r, Side::kRight,
            fmt::format("{} {} -> {} (left {})", key, Short(lr->first), Short(lr->second),
                        NodeName(c.left, l))));
      }
    }
    out->push_back(std::move(f));
  }
}

}  // namespace graphdiff::analyze
