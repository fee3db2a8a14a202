// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// dtype-change and shape-change: matched nodes whose result types differ,
// summarised by pattern: "f32 -> bf16 in 312 nodes", "batch dimension 2 ->
// 4 in 70 nodes", "static -> symbolic 2 -> s0 in 40 nodes". A node counts
// once per finding; the title's numbers are the sums of its groups.
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
  switch (d.kind) {
    case Dim::Kind::kStatic: return std::to_string(d.value);
    case Dim::Kind::kBounded: return fmt::format("<={}", d.value);
    case Dim::Kind::kSymbolic: {
      std::string_view s = g.str(d.symbol);
      return s.empty() ? std::string("?") : std::string(s);
    }
    case Dim::Kind::kUnknown: return "?";
  }
  return "?";
}

// The pattern of one node's shape change: the distinct dim changes, and
// where they sit.
struct ShapeChange {
  std::set<std::string> changes;  // "2 -> 4", "2 -> s0"
  bool rank = false;              // rank differs: "rank 2 -> 3"
  bool only_dim0 = true;
  bool to_symbolic = false, to_static = false;
};

void CompareDims(const Graph& lg, const TensorType& l, const Graph& rg, const TensorType& r,
                 ShapeChange* out) {
  if (!l.rank_known || !r.rank_known) {
    if (l.rank_known != r.rank_known) {
      out->changes.insert(l.rank_known ? "known -> unknown rank" : "unknown -> known rank");
      out->only_dim0 = false;
    }
    return;
  }
  if (l.dims.size() != r.dims.size()) {
    out->rank = true;
    out->only_dim0 = false;
    out->changes.insert(fmt::format("rank {} -> {}", l.dims.size(), r.dims.size()));
    return;
  }
  for (size_t i = 0; i < l.dims.size(); ++i) {
    std::string a = DimText(lg, l.dims[i]), b = DimText(rg, r.dims[i]);
    if (l.dims[i].kind == r.dims[i].kind && a == b) continue;
    if (i != 0) out->only_dim0 = false;
    bool ls = l.dims[i].kind == Dim::Kind::kSymbolic, rs = r.dims[i].kind == Dim::Kind::kSymbolic;
    out->to_symbolic |= !ls && rs;
    out->to_static |= ls && !rs;
    out->changes.insert(fmt::format("{} -> {}", a, b));
  }
}

// "batch dimension" only when the change sits in dim 0 everywhere and comes
// from a graph input: a weight whose first dim grew is not a batch.
std::string PatternText(const ShapeChange& s, bool all_dim0) {
  std::string changes;
  for (const std::string& c : s.changes) changes += (changes.empty() ? "" : ", ") + c;
  if (s.rank || s.changes.empty()) return changes.empty() ? "result count" : changes;
  if (s.to_symbolic && !s.to_static) return "static -> symbolic " + changes;
  if (s.to_static && !s.to_symbolic) return "symbolic -> static " + changes;
  if (s.changes.size() == 1 && all_dim0) return "batch dimension " + changes;
  return (s.changes.size() == 1 ? "size " : "sizes ") + changes;
}

struct Group {
  std::vector<std::pair<uint32_t, uint32_t>> nodes;
  bool all_dim0 = true;
  bool has_input = false;
  ShapeChange sample;
};

// "f32 -> bf16 in 300 nodes" or "shapes changed in 90 nodes: a in 70, b in 12,
// 8 more in 3 other patterns". Groups sorted largest first.
std::string Summary(std::string_view what, int64_t total,
                    const std::vector<std::pair<std::string, int64_t>>& groups) {
  auto nodes = [](int64_t n) { return Plural(n, "node", "nodes"); };
  if (groups.size() == 1) return fmt::format("{} in {}", groups[0].first, nodes(total));
  std::string out = fmt::format("{} changed in {}: ", what, nodes(total));
  size_t shown = std::min<size_t>(groups.size(), 3);
  int64_t rest = total;
  for (size_t i = 0; i < shown; ++i) {
    rest -= groups[i].second;
    out += fmt::format("{}{} in {}", i ? ", " : "", groups[i].first, groups[i].second);
  }
  if (groups.size() > shown) {
    out += fmt::format(", {} more in {} other patterns", rest, groups.size() - shown);
  }
  return out;
}

template <typename Map>
std::vector<std::pair<std::string, int64_t>> Sorted(const Map& m) {
  std::vector<std::pair<std::string, int64_t>> v;
  for (const auto& [k, g] : m) v.emplace_back(k, static_cast<int64_t>(g.nodes.size()));
  std::stable_sort(v.begin(), v.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return v;
}

}  // namespace

void FindTypeChanges(const PairContext& c, std::vector<Finding>* out) {
  std::map<std::string, Group> dtypes;  // "f32 -> bf16"
  std::map<std::string, Group> shapes;  // the pattern's changes, joined
  for (const NodePair& p : c.alignment.pairs) {
    if (!(p.reasons & kChangedType)) continue;
    if (p.left >= c.left.nodes.size() || p.right >= c.right.nodes.size()) continue;
    const Node& ln = c.left.nodes[p.left];
    const Node& rn = c.right.nodes[p.right];
    if (ln.results.empty() || rn.results.empty()) continue;
    std::set<std::string> dt;
    ShapeChange sc;
    size_t k = std::min(ln.results.size(), rn.results.size());
    if (ln.results.size() != rn.results.size()) {
      sc.changes.insert(fmt::format("{} -> {} results", ln.results.size(), rn.results.size()));
      sc.rank = true;
      sc.only_dim0 = false;
    }
    for (size_t i = 0; i < k; ++i) {
      const TensorType& a = ln.results[i];
      const TensorType& b = rn.results[i];
      if (a.dtype != b.dtype) dt.insert(fmt::format("{} -> {}", DTypeName(a.dtype), DTypeName(b.dtype)));
      CompareDims(c.left, a, c.right, b, &sc);
    }
    if (!dt.empty()) {
      std::string key;
      for (const std::string& d : dt) key += (key.empty() ? "" : ", ") + d;
      dtypes[key].nodes.emplace_back(p.left, p.right);
    }
    if (!sc.changes.empty()) {
      std::string key;
      for (const std::string& s : sc.changes) key += s + ";";
      key += sc.rank ? "r" : "";
      key += sc.only_dim0 ? "0" : "";
      Group& g = shapes[key];
      if (g.nodes.empty()) g.sample = sc;
      g.all_dim0 = g.all_dim0 && sc.only_dim0;
      g.has_input = g.has_input || rn.kind == NodeKind::kInput;
      g.nodes.emplace_back(p.left, p.right);
    }
  }
  auto emit = [&](const char* id, const char* what, std::map<std::string, Group>& groups,
                  bool shape) {
    if (groups.empty()) return;
    std::map<std::string, Group> named;
    for (auto& [key, g] : groups) {
      std::string text = shape ? PatternText(g.sample, g.all_dim0 && g.has_input) : key;
      Group& dst = named[text];
      for (const auto& pr : g.nodes) dst.nodes.push_back(pr);
    }
    Finding f;
    f.id = id;
    f.graph = c.label;
    f.severity = shape ? Severity::kInfo : Severity::kWarning;
    auto sorted = Sorted(named);
    for (const auto& [text, n] : sorted) f.count += n;
    f.title = Summary(what, f.count, sorted);
    f.explanation = shape
        ? fmt::format("{} matched {} compute the same op on differently shaped values ({} "
                      "{}). A batch-size change shows as one dimension changing everywhere; "
                      "symbolic dims mean the graph was traced with dynamic shapes.",
                      f.count, f.count == 1 ? "node" : "nodes", sorted.size(),
                      sorted.size() == 1 ? "pattern" : "patterns")
        : fmt::format("{} matched {} compute in another element type ({} {}). Precision, "
                      "memory and speed all follow the dtype.",
                      f.count, f.count == 1 ? "node" : "nodes", sorted.size(),
                      sorted.size() == 1 ? "pattern" : "patterns");
    for (const auto& [text, n] : sorted) {
      for (const auto& [l, r] : named[text].nodes) {
        f.evidence.push_back(NodeEvidence(
            c.right, r, "right",
            fmt::format("{}: {} -> {}", text, FormatResults(c.left, c.left.nodes[l]),
                        FormatResults(c.right, c.right.nodes[r]))));
      }
    }
    out->push_back(std::move(f));
  };
  emit("dtype-change", "dtypes", dtypes, false);
  emit("shape-change", "shapes", shapes, true);
}

}  // namespace graphdiff::analyze
