// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The scene behind every visual format. The drawn region is chosen the same
// way for both sides (changes, then counterparts, then neighbours) so the
// two drawings of a pair show corresponding nodes.
#include "report/visual_scene.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "fmt/format.h"
#include "util/labels.h"

namespace graphdiff::visual {
namespace {

// Users of each node, as offsets into one array (CSR): memory stays linear
// on 10^6-node graphs.
struct Users {
  std::vector<uint32_t> start;
  std::vector<uint32_t> list;
  explicit Users(const Graph& g) : start(g.nodes.size() + 1, 0) {
    for (const Node& n : g.nodes) {
      for (const ValueRef& v : n.operands) {
        if (v.node < g.nodes.size()) ++start[v.node + 1];
      }
    }
    for (size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
    list.resize(start.back());
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
      for (const ValueRef& v : g.nodes[i].operands) {
        if (v.node < g.nodes.size()) list[fill[v.node]++] = i;
      }
    }
  }
};

struct Selection {
  std::vector<uint32_t> nodes[2];
  bool truncated[2] = {false, false};
};

// Seeds, their counterparts, then one hop of neighbours and their
// counterparts; each side stops growing at `cap`.
Selection Select(const PairScene& s, const Users* users[2], size_t cap) {
  Selection out;
  std::vector<uint8_t> in[2];
  for (int k = 0; k < 2; ++k) in[k].assign(s.side[k].change.size(), 0);
  auto add = [&](int k, uint32_t n) {
    if (in[k][n]) return;
    if (out.nodes[k].size() >= cap) {
      out.truncated[k] = true;
      return;
    }
    in[k][n] = 1;
    out.nodes[k].push_back(n);
  };
  auto cross = [&](size_t from0, size_t from1) {
    size_t from[2] = {from0, from1};
    size_t end[2] = {out.nodes[0].size(), out.nodes[1].size()};
    for (int k = 0; k < 2; ++k) {
      for (size_t i = from[k]; i < end[k]; ++i) {
        for (uint32_t q : s.side[k].partners[out.nodes[k][i]]) add(1 - k, q);
      }
    }
  };
  for (int k = 0; k < 2; ++k) {
    const SideScene& side = s.side[k];
    for (uint32_t n = 0; n < side.change.size(); ++n) {
      if (side.change[n] != Change::kSame || side.output[n] == kOnlyOutput) add(k, n);
    }
  }
  cross(0, 0);
  size_t before[2] = {out.nodes[0].size(), out.nodes[1].size()};
  for (int k = 0; k < 2; ++k) {
    const Graph& g = *s.side[k].graph;
    size_t end = before[k];
    for (size_t i = 0; i < end; ++i) {
      uint32_t n = out.nodes[k][i];
      for (const ValueRef& v : g.nodes[n].operands) {
        if (v.node < g.nodes.size()) add(k, v.node);
      }
      for (uint32_t j = users[k]->start[n]; j < users[k]->start[n + 1]; ++j) {
        add(k, users[k]->list[j]);
      }
    }
  }
  cross(before[0], before[1]);
  for (auto& v : out.nodes) std::sort(v.begin(), v.end());
  return out;
}

// Resolves the evidence of the pair's findings on its two graphs.
void ResolveEvidence(const DiffResult& result, const std::vector<uint32_t>& findings,
                     PairScene* s) {
  const GraphPairDiff& p = result.pairs[s->pair];
  for (int k = 0; k < 2; ++k) {
    s->evidence[k].clear();
    const std::string& source = k == 0 ? p.left_source : p.right_source;
    const Side side = k == 0 ? Side::kLeft : Side::kRight;
    NameIndex names;
    bool indexed = false;
    for (uint32_t f : findings) {
      const std::vector<Evidence>& ev = result.findings[f].evidence;
      PairScene::FindingEvidence* mine = nullptr;
      for (uint32_t e = 0; e < ev.size(); ++e) {
        if (ev[e].side != side || ev[e].source != source || ev[e].node.empty()) continue;
        if (!indexed) {
          names = IndexNames(*s->side[k].graph);
          indexed = true;
        }
        int64_t node = FindNode(names, ev[e].node);
        if (node < 0) continue;
        if (mine == nullptr) {
          s->evidence[k].push_back({f, {}});
          mine = &s->evidence[k].back();
        }
        mine->items.emplace_back(e, static_cast<uint32_t>(node));
      }
    }
  }
}

void GroupDeadEnds(const DiffResult& result, const Users* users[2], PairScene* s) {
  for (int k = 0; k < 2; ++k) {
    const Graph& g = *s->side[k].graph;
    const Users& u = *users[k];
    // Positions in evidence[k], which is in finding order: the stable sort
    // breaks ties by finding.
    std::vector<size_t> order(s->evidence[k].size());
    for (size_t j = 0; j < order.size(); ++j) order[j] = j;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return s->evidence[k][a].items.size() < s->evidence[k][b].items.size();
    });
    // owner[n]: 1 + the index of the group holding n; 0 = free.
    std::vector<uint32_t> owner(g.nodes.size(), 0);
    for (size_t j : order) {
      const PairScene::FindingEvidence& fe = s->evidence[k][j];
      uint32_t me = static_cast<uint32_t>(s->finding_groups[k].size() + 1);
      std::vector<uint32_t> members;
      for (const auto& [e, n] : fe.items) {
        if (owner[n] != 0 || u.start[n] != u.start[n + 1]) continue;
        owner[n] = me;
        members.push_back(n);
      }
      if (members.size() < 2) {
        for (uint32_t n : members) owner[n] = 0;
        continue;
      }
      size_t dead = members.size();
      for (size_t i = 0; i < dead; ++i) {
        for (const ValueRef& v : g.nodes[members[i]].operands) {
          uint32_t o = v.node;
          if (o >= g.nodes.size() || owner[o] != 0) continue;
          bool only_ours = true;
          for (uint32_t j = u.start[o]; j < u.start[o + 1]; ++j) {
            if (owner[u.list[j]] != me) only_ours = false;
          }
          if (only_ours) {
            owner[o] = me;
            members.push_back(o);
          }
        }
      }
      std::sort(members.begin(), members.end());
      s->finding_groups[k].push_back(
          {fe.finding, result.findings[fe.finding].title, std::move(members)});
    }
  }
}

}  // namespace

bool Drawable(const GraphPairDiff& p, const PairGraphs& g) {
  if (g.left == nullptr || g.right == nullptr) return false;
  size_t nl = g.left->nodes.size();
  size_t nr = g.right->nodes.size();
  const Alignment& a = p.alignment;
  // A DiffResult read back from JSON has rows but no alignment.
  if (a.pairs.size() != p.pairs.size()) return false;
  for (const NodePair& np : a.pairs) {
    if (np.left >= nl || np.right >= nr) return false;
  }
  for (uint32_t i : a.left_only) {
    if (i >= nl) return false;
  }
  for (uint32_t i : a.right_only) {
    if (i >= nr) return false;
  }
  for (uint32_t pos : a.left_only_outputs) {
    if (pos >= g.left->outputs.size()) return false;
  }
  for (uint32_t pos : a.right_only_outputs) {
    if (pos >= g.right->outputs.size()) return false;
  }
  return true;
}

PairFindings::PairFindings(const DiffResult& result, const std::vector<PairGraphs>* graphs)
    : by_pair_(result.pairs.size()) {
  // Labels as DiffDumps writes them (analyze/diff.cc, GraphLabel; util/labels.h): a file's
  // only graph by its path, one of several by path#record. Which of the two
  // a file had is not in the result, so a pair answers to both, the bare
  // path only when no other pair reads that file: a label names one graph
  // per side either way.
  absl::flat_hash_map<std::string_view, uint32_t> readers[2];
  for (const GraphPairDiff& p : result.pairs) {
    ++readers[0][p.left_source];
    ++readers[1][p.right_source];
  }
  absl::flat_hash_map<std::string, std::vector<uint32_t>> pairs_by_label;
  for (size_t i = 0; i < result.pairs.size(); ++i) {
    const GraphPairDiff& p = result.pairs[i];
    const PairGraphs* g = graphs != nullptr && i < graphs->size() ? &(*graphs)[i] : nullptr;
    std::vector<std::string> names[2];
    for (int k = 0; k < 2; ++k) {
      const std::string& source = k == 0 ? p.left_source : p.right_source;
      const Graph* graph = g == nullptr ? nullptr : (k == 0 ? g->left : g->right);
      if (readers[k][source] == 1) names[k].push_back(source);
      if (graph != nullptr) {
        names[k].push_back(RecordLabel(source, graph->source.record_index));
      }
    }
    std::vector<std::string> labels;
    for (const std::string& l : names[0]) {
      for (const std::string& r : names[1]) labels.push_back(SidesLabel(l, r));
    }
    std::sort(labels.begin(), labels.end());
    labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
    for (std::string& label : labels) {
      pairs_by_label[std::move(label)].push_back(static_cast<uint32_t>(i));
    }
  }
  absl::flat_hash_set<std::string> metrics_labels;
  for (const MetricsPairDiff& m : result.metrics) {
    metrics_labels.insert(SidesLabel(m.left_source, m.right_source));
  }
  // (side, file) -> findings with evidence there that no pair's label names.
  absl::flat_hash_map<std::pair<int, std::string_view>, std::vector<uint32_t>> unowned;
  for (uint32_t f = 0; f < result.findings.size(); ++f) {
    const Finding& finding = result.findings[f];
    auto it = pairs_by_label.find(finding.graph);
    if (it != pairs_by_label.end()) {
      for (uint32_t i : it->second) by_pair_[i].push_back(f);
      continue;
    }
    if (metrics_labels.contains(finding.graph)) continue;
    for (const Evidence& e : finding.evidence) {
      if (!e.side || e.node.empty()) continue;
      std::vector<uint32_t>& list = unowned[{static_cast<int>(*e.side), e.source}];
      if (list.empty() || list.back() != f) list.push_back(f);
    }
  }
  if (unowned.empty()) return;
  for (size_t i = 0; i < result.pairs.size(); ++i) {
    const GraphPairDiff& p = result.pairs[i];
    std::vector<uint32_t>& mine = by_pair_[i];
    size_t owned = mine.size();
    for (int k = 0; k < 2; ++k) {
      auto it = unowned.find(
          std::pair<int, std::string_view>(k, k == 0 ? p.left_source : p.right_source));
      if (it != unowned.end()) mine.insert(mine.end(), it->second.begin(), it->second.end());
    }
    if (mine.size() == owned) continue;
    std::sort(mine.begin(), mine.end());
    mine.erase(std::unique(mine.begin(), mine.end()), mine.end());
  }
}

PairScene BuildScene(const DiffResult& result, size_t index, const PairGraphs& graphs,
                     const PairFindings& findings, size_t max_drawn) {
  const GraphPairDiff& p = result.pairs[index];
  const Alignment& a = p.alignment;
  PairScene s;
  s.pair = index;
  s.side[0].graph = graphs.left;
  s.side[1].graph = graphs.right;
  for (SideScene& side : s.side) {
    size_t n = side.graph->nodes.size();
    side.change.assign(n, Change::kOnly);  // a node no pair mentions has no counterpart
    side.output.assign(n, kNotOutput);
    side.partners.assign(n, {});
    side.pair_row.assign(n, 0);
  }
  for (size_t k = 0; k < a.pairs.size(); ++k) {
    const NodePair& np = a.pairs[k];
    Change c = np.changed() ? Change::kChanged : Change::kSame;
    for (int side = 0; side < 2; ++side) {
      uint32_t me = side == 0 ? np.left : np.right;
      uint32_t other = side == 0 ? np.right : np.left;
      SideScene& sc = s.side[side];
      // A node in a changed pair stays changed whatever its other pairs say.
      if (sc.change[me] != Change::kChanged) sc.change[me] = c;
      sc.partners[me].push_back(other);
      sc.pair_row[me] = static_cast<uint32_t>(k + 1);
    }
  }
  for (int side = 0; side < 2; ++side) {
    SideScene& sc = s.side[side];
    const Graph& g = *sc.graph;
    for (const ValueRef& v : g.outputs) {
      if (v.node < g.nodes.size()) sc.output[v.node] = std::max<uint8_t>(sc.output[v.node], kOutput);
    }
    const std::vector<uint32_t>& only = side == 0 ? a.left_only_outputs : a.right_only_outputs;
    for (uint32_t pos : only) {
      uint32_t node = g.outputs[pos].node;
      if (node < g.nodes.size()) sc.output[node] = kOnlyOutput;
    }
    for (uint32_t n = 0; n < sc.partners.size(); ++n) {
      std::sort(sc.partners[n].begin(), sc.partners[n].end());
      if (sc.partners[n].size() > 1) s.groups.emplace_back(side, n);
    }
  }
  Users lu(*graphs.left);
  Users ru(*graphs.right);
  const Users* users[2] = {&lu, &ru};
  ResolveEvidence(result, findings.Of(index), &s);
  GroupDeadEnds(result, users, &s);
  Selection all = Select(s, users, std::numeric_limits<size_t>::max());
  Selection capped = Select(s, users, std::max<size_t>(max_drawn, 1));
  for (int k = 0; k < 2; ++k) {
    s.side[k].region_size = all.nodes[k].size();
    s.side[k].drawn = std::move(capped.nodes[k]);
    s.side[k].truncated = capped.truncated[k];
  }
  return s;
}

std::string_view ChangeName(Change c, int side) {
  switch (c) {
    case Change::kSame: return "same";
    case Change::kChanged: return "changed";
    case Change::kOnly: return side == 0 ? "removed" : "added";
  }
  return "same";
}

std::string_view ChangeColor(Change c, int side) {
  switch (c) {
    case Change::kSame: return "#ffffff";
    case Change::kChanged: return "#ffe082";
    case Change::kOnly: return side == 0 ? "#ef9a9a" : "#a5d6a7";
  }
  return "#ffffff";
}

std::string NodeLabel(const Graph& g, uint32_t node) {
  std::string_view op = g.str(g.nodes[node].op);
  for (std::string_view ns : {"aten::", "prim::", "xla::"}) {
    if (op.substr(0, ns.size()) == ns) {
      op.remove_prefix(ns.size());
      break;
    }
  }
  return std::string(op);
}

std::string NodeLine(const Graph& g, uint32_t node) {
  const Node& n = g.nodes[node];
  std::string line = fmt::format("{} = {}(", g.str(n.name),
                                 g.str(n.raw_op).empty() ? g.str(n.op) : g.str(n.raw_op));
  for (size_t i = 0; i < n.operands.size(); ++i) {
    const ValueRef& v = n.operands[i];
    if (i) line += ", ";
    if (v.node >= g.nodes.size()) {
      line += "?";
      continue;
    }
    line += g.str(g.nodes[v.node].name);
    if (v.output != 0) line += fmt::format(".{}", v.output);
  }
  line += ")";
  for (const Attr& at : n.attrs) line += fmt::format(", {}={}", g.str(at.key), g.str(at.value));
  line += " : " + FormatResults(g, n);
  return line;
}

NameIndex IndexNames(const Graph& g) {
  NameIndex index;
  index.reserve(g.nodes.size());
  for (uint32_t i = 0; i < g.nodes.size(); ++i) index.emplace(g.str(g.nodes[i].name), i);
  return index;
}

int64_t FindNode(const NameIndex& index, std::string_view name) {
  auto it = index.find(name);
  if (it != index.end()) return it->second;
  size_t dot = name.rfind('.');
  if (dot != std::string_view::npos && dot > 0) {
    it = index.find(name.substr(0, dot));
    if (it != index.end()) return it->second;
  }
  return -1;
}

}  // namespace graphdiff::visual
