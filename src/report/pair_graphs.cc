// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Finding the graphs behind a DiffResult's pairs again: DiffResult keeps
// plain data (paths and names), the drawings need the graphs themselves.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "fmt/format.h"
#include "graphdiff/visual.h"
#include "report/visual_scene.h"

namespace graphdiff {
namespace {

// Whether `g` is the graph `side` of pair `p` was computed on: every
// aligned pair names the same node. Tells apart same-named graphs of a file.
bool Fits(const GraphPairDiff& p, const Graph& g, int side) {
  const Alignment& a = p.alignment;
  if (a.pairs.size() != p.pairs.size()) return false;
  for (size_t k = 0; k < a.pairs.size(); ++k) {
    uint32_t node = side == 0 ? a.pairs[k].left : a.pairs[k].right;
    if (node >= g.nodes.size()) return false;
    const std::string& name = side == 0 ? p.pairs[k].left : p.pairs[k].right;
    std::string_view actual = g.str(g.nodes[node].name);
    // Reports name an unnamed node by its index.
    if (actual.empty() ? name != fmt::format("#{}", node) : actual != name) return false;
  }
  return true;
}

// Graphs of one dump by (file path, graph name), in dump order; each lookup
// takes the first one not yet taken that fits the pair, as pairing took
// each graph once.
class GraphFinder {
 public:
  explicit GraphFinder(const Dump& dump) {
    for (const DumpFile& f : dump.files) {
      for (const Graph& g : f.graphs) graphs_[{f.path, g.name}].graphs.push_back(&g);
    }
  }
  const Graph* Take(const GraphPairDiff& p, int side) {
    auto it = graphs_.find({side == 0 ? p.left_source : p.right_source,
                            side == 0 ? p.left_graph : p.right_graph});
    if (it == graphs_.end()) return nullptr;
    Bucket& b = it->second;
    // Pairs come in dump order, so the taken graphs are mostly a prefix:
    // skipped once, not again by every later pair of a file of 10^4
    // unnamed graphs.
    while (b.first < b.graphs.size() && b.graphs[b.first] == nullptr) ++b.first;
    for (size_t k = b.first; k < b.graphs.size(); ++k) {
      const Graph*& g = b.graphs[k];
      if (g != nullptr && Fits(p, *g, side)) {
        const Graph* found = g;
        g = nullptr;
        return found;
      }
    }
    return nullptr;
  }

 private:
  struct Bucket {
    std::vector<const Graph*> graphs;  // null once taken
    size_t first = 0;                  // graphs before it are all taken
  };
  std::map<std::pair<std::string, std::string>, Bucket> graphs_;
};

}  // namespace

absl::StatusOr<std::vector<PairGraphs>> FindPairGraphs(const DiffResult& result,
                                                       const Dump& left, const Dump& right) {
  GraphFinder lf(left);
  GraphFinder rf(right);
  std::vector<PairGraphs> out;
  out.reserve(result.pairs.size());
  for (const GraphPairDiff& p : result.pairs) {
    if (p.pairs.size() != p.matched) {
      return absl::FailedPreconditionError(fmt::format(
          "pair {} <-> {} keeps rows for its changed node pairs only "
          "(DiffOptions::unchanged_rows = false); drawing it needs every row",
          p.left_source, p.right_source));
    }
    PairGraphs g;
    g.left = lf.Take(p, 0);
    g.right = rf.Take(p, 1);
    if (g.left == nullptr || g.right == nullptr) {
      return absl::NotFoundError(fmt::format(
          "the graphs of pair {} <-> {} are not in the dumps given", p.left_source,
          p.right_source));
    }
    if (!visual::Drawable(p, g)) {
      return absl::InvalidArgumentError(fmt::format(
          "the alignment of pair {} <-> {} does not fit the graphs given", p.left_source,
          p.right_source));
    }
    out.push_back(g);
  }
  return out;
}

}  // namespace graphdiff
