// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// dtype-change and shape-change: matched nodes whose result types differ,
// summarised by pattern: "f32 -> bf16 in 312 nodes", "batch dimension 2 ->
// 4 in 70 nodes", "static -> symbolic 8 -> s0 in 40 nodes". A node counts
// once per finding. dtype groups partition the nodes, so their numbers sum
// to the total; one node can carry several dim changes (batch and spatial
// sizes), so each shape change is counted over the nodes that show it and
// the title leads with the most common.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"

namespace graphdiff::analyze {
namespace {

std::string DimText(const Graph& g, const Dim& d) {
  switch (d.kind()) {
    case Dim::Kind::kStatic: return std::to_string(d.value());
    case Dim::Kind::kBounded: return fmt::format("<={}", d.value());
    case Dim::Kind::kSymbolic: {
      std::string_view s = g.str(d.symbol());
      return s.empty() ? std::string("?") : std::string(s);
    }
    case Dim::Kind::kUnknown: return "?";
  }
  return "?";
}

enum class ChangeKind { kSize, kToSymbolic, kToStatic, kRank };

// One kind of dim change ("2 -> 4") over the nodes that show it.
struct DimChange {
  ChangeKind kind = ChangeKind::kSize;
  std::set<uint32_t> nodes;       // right node indices
  std::set<uint32_t> dim0_nodes;  // of which show it in dim 0
  bool has_input = false;
};

using Changes = std::map<std::string, DimChange>;

void Note(Changes* changes, std::string text, ChangeKind kind, bool dim0, bool input,
          uint32_t node) {
  DimChange& c = (*changes)[std::move(text)];
  c.kind = kind;
  c.nodes.insert(node);
  if (dim0) c.dim0_nodes.insert(node);
  c.has_input = c.has_input || input;
}

// Records the dim changes between two results of one matched pair; true
// when there were any.
bool CompareDims(const Graph& lg, const TensorType& l, const Graph& rg, const TensorType& r,
                 bool input, uint32_t node, Changes* out) {
  // A side that does not know the shape says nothing about a change.
  if (!l.rank_known || !r.rank_known) return false;
  if (l.dims.size() != r.dims.size()) {
    Note(out, fmt::format("rank {} -> {}", l.dims.size(), r.dims.size()), ChangeKind::kRank,
         false, input, node);
    return true;
  }
  bool any = false;
  for (size_t i = 0; i < l.dims.size(); ++i) {
    std::string a = DimText(lg, l.dims[i]), b = DimText(rg, r.dims[i]);
    if (l.dims[i].kind() == r.dims[i].kind() && a == b) continue;
    bool ls = l.dims[i].kind() == Dim::Kind::kSymbolic, rs = r.dims[i].kind() == Dim::Kind::kSymbolic;
    ChangeKind kind = !ls && rs   ? ChangeKind::kToSymbolic
                      : ls && !rs ? ChangeKind::kToStatic
                                  : ChangeKind::kSize;
    Note(out, fmt::format("{} -> {}", a, b), kind, i == 0, input, node);
    any = true;
  }
  return any;
}

// "batch dimension 2 -> 4" only when the change comes from a graph input
// and sits in dim 0 of nearly every node showing it (a backward pass also
// has transposed activations): a weight whose first dim grew is no batch.
std::string ChangeText(const std::string& change, const DimChange& c) {
  switch (c.kind) {
    case ChangeKind::kToSymbolic: return "static -> symbolic " + change;
    case ChangeKind::kToStatic: return "symbolic -> static " + change;
    case ChangeKind::kRank: return change;
    case ChangeKind::kSize: break;
  }
  bool batch = c.has_input && c.dim0_nodes.size() * 5 >= c.nodes.size() * 4;
  return (batch ? "batch dimension " : "size ") + change;
}

std::string Nodes(int64_t n) { return Plural(n, "node", "nodes"); }

}  // namespace

void FindTypeChanges(const PairContext& c, std::vector<Finding>* out) {
  std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>> dtypes;  // "f32 -> bf16"
  Changes shapes;
  std::vector<std::pair<uint32_t, uint32_t>> shape_nodes;
  for (const NodePair& p : c.alignment.pairs) {
    if (!(p.reasons & kChangedType)) continue;
    if (p.left >= c.left.nodes.size() || p.right >= c.right.nodes.size()) continue;
    const Node& ln = c.left.nodes[p.left];
    const Node& rn = c.right.nodes[p.right];
    if (ln.num_results() == 0 || rn.num_results() == 0) continue;
    bool input = rn.kind == NodeKind::kInput;
    std::set<std::string> dt;
    bool shaped = false;
    if (ln.num_results() != rn.num_results()) {
      Note(&shapes, fmt::format("{} -> {} results", ln.num_results(), rn.num_results()),
           ChangeKind::kRank, false, input, p.right);
      shaped = true;
    }
    const uint32_t k = std::min(ln.num_results(), rn.num_results());
    for (uint32_t i = 0; i < k; ++i) {
      const TensorType& a = c.left.result(ln, i);
      const TensorType& b = c.right.result(rn, i);
      if (a.dtype != b.dtype && a.dtype != DType::kUnknown && b.dtype != DType::kUnknown) {
        dt.insert(fmt::format("{} -> {}", DTypeName(a.dtype), DTypeName(b.dtype)));
      }
      shaped = CompareDims(c.left, a, c.right, b, input, p.right, &shapes) || shaped;
    }
    if (!dt.empty()) {
      std::string key;
      for (const std::string& d : dt) key += (key.empty() ? "" : ", ") + d;
      dtypes[key].emplace_back(p.left, p.right);
    }
    if (shaped) shape_nodes.emplace_back(p.left, p.right);
  }
  auto evidence = [&](Finding* f, const std::vector<std::pair<uint32_t, uint32_t>>& nodes,
                      const std::string& what) {
    for (const auto& [l, r] : nodes) {
      f->evidence.push_back(NodeEvidence(
          c.right, r, Side::kRight,
          fmt::format("{}{}{} -> {}", what, what.empty() ? "" : ": ",
                      FormatResults(c.left, c.left.nodes[l]),
                      FormatResults(c.right, c.right.nodes[r]))));
    }
  };
  if (!dtypes.empty()) {
    std::vector<std::pair<std::string, int64_t>> groups;
    Finding f;
    f.id = "dtype-change";
    f.severity = Severity::kWarning;
    f.graph = c.label;
    for (const auto& [key, nodes] : dtypes) {
      groups.emplace_back(key, static_cast<int64_t>(nodes.size()));
      f.count += static_cast<int64_t>(nodes.size());
    }
    std::stable_sort(groups.begin(), groups.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (groups.size() == 1) {
      f.title = fmt::format("{} in {}", groups[0].first, Nodes(f.count));
    } else {
      f.title = fmt::format("dtypes changed in {}: ", Nodes(f.count));
      size_t shown = std::min<size_t>(groups.size(), 3);
      int64_t rest = f.count;
      for (size_t i = 0; i < shown; ++i) {
        rest -= groups[i].second;
        f.title += fmt::format("{}{} in {}", i ? ", " : "", groups[i].first, groups[i].second);
      }
      if (groups.size() > shown) {
        f.title += fmt::format(", {} more in {} other patterns", rest, groups.size() - shown);
      }
    }
    f.explanation = fmt::format(
        "{} matched {} in another element type ({} {}). Precision, memory and speed all "
        "follow the dtype.",
        Nodes(f.count), f.count == 1 ? "computes" : "compute", groups.size(),
        groups.size() == 1 ? "pattern" : "patterns");
    for (const auto& [key, nodes] : groups) evidence(&f, dtypes[key], key);
    out->push_back(std::move(f));
  }
  if (!shape_nodes.empty()) {
    std::vector<std::pair<std::string, int64_t>> changes;
    for (const auto& [text, ch] : shapes) {
      changes.emplace_back(ChangeText(text, ch), static_cast<int64_t>(ch.nodes.size()));
    }
    std::stable_sort(changes.begin(), changes.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    Finding f;
    f.id = "shape-change";
    f.severity = Severity::kInfo;
    f.graph = c.label;
    f.count = static_cast<int64_t>(shape_nodes.size());
    size_t shown = std::min<size_t>(changes.size(), 3);
    std::string others;
    for (size_t i = 1; i < shown; ++i) {
      others += fmt::format("{}{} in {}", i > 1 ? ", " : "", changes[i].first, changes[i].second);
    }
    if (changes.size() > shown) {
      others += fmt::format(", {} more dim changes", changes.size() - shown);
    }
    if (changes[0].second == f.count) {
      f.title = fmt::format("{} in {}", changes[0].first, Nodes(f.count));
      if (!others.empty()) f.title += " (also " + others + ")";
    } else {
      f.title = fmt::format("shapes changed in {}: {} in {}{}{}", Nodes(f.count),
                            changes[0].first, changes[0].second, others.empty() ? "" : ", ",
                            others);
    }
    f.explanation = fmt::format(
        "{} matched {} the same op on differently shaped values ({} distinct dim {}). A "
        "batch-size change shows as dim 0 changing from the inputs on; symbolic dims mean "
        "the graph was traced with dynamic shapes.",
        Nodes(f.count), f.count == 1 ? "computes" : "compute", changes.size(),
        changes.size() == 1 ? "change" : "changes");
    evidence(&f, shape_nodes, "");
    out->push_back(std::move(f));
  }
}

}  // namespace graphdiff::analyze
