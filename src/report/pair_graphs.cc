// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Finding the graphs behind a DiffResult's pairs again: DiffResult keeps
// plain data (paths and names), the drawings need the graphs themselves.
#include <map>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "fmt/format.h"
#include "graphdiff/visual.h"
#include "report/visual_scene.h"

namespace graphdiff {
namespace {

// Graphs of one dump by (file path, graph name), in dump order; each lookup
// takes the next one not yet taken, as pairing took each graph once.
class GraphFinder {
 public:
  explicit GraphFinder(const Dump& dump) {
    for (const DumpFile& f : dump.files) {
      for (const Graph& g : f.graphs) graphs_[{f.path, g.name}].push_back(&g);
    }
  }
  const Graph* Take(const std::string& path, const std::string& name) {
    auto it = graphs_.find({path, name});
    if (it == graphs_.end()) return nullptr;
    size_t& next = taken_[{path, name}];
    if (next >= it->second.size()) return nullptr;
    return it->second[next++];
  }

 private:
  std::map<std::pair<std::string, std::string>, std::vector<const Graph*>> graphs_;
  std::map<std::pair<std::string, std::string>, size_t> taken_;
};

}  // namespace

absl::StatusOr<std::vector<PairGraphs>> FindPairGraphs(const DiffResult& result,
                                                       const Dump& left, const Dump& right) {
  GraphFinder lf(left);
  GraphFinder rf(right);
  std::vector<PairGraphs> out;
  out.reserve(result.pairs.size());
  for (const GraphPairDiff& p : result.pairs) {
    PairGraphs g{lf.Take(p.left_source, p.left_graph), rf.Take(p.right_source, p.right_graph)};
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
