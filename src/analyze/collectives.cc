// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// collectives: cross-device communication added or removed (all-reduce,
// all-gather, reduce-scatter, all-to-all, collective-permute, in IR, FX and
// HLO spellings; inside HLO while bodies and called computations too). A
// data- or tensor-parallel variant of a model shows here first.
#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analyze/analyze.h"
#include "fmt/format.h"
#include "util/checked.h"
#include "util/str_id_map.h"

namespace graphdiff::analyze {
namespace {

// Adds `n` to `counts` for each collective in "2 all-reduce, 1 add".
void CountCalleeOps(std::string_view ops, int64_t* total, std::map<std::string, int64_t>* counts) {
  size_t pos = 0;
  while (pos < ops.size()) {
    size_t end = ops.find(", ", pos);
    if (end == std::string_view::npos) end = ops.size();
    std::string_view item = ops.substr(pos, end - pos);
    size_t sp = item.find(' ');
    if (sp != std::string_view::npos) {
      std::string_view kind = CollectiveKind(item.substr(sp + 1));
      // Counts are the parser's, saturated at the largest (HLO call chains
      // multiply them), or a dump's own attribute text: neither may
      // overflow here.
      int64_t n = 0;
      for (char ch : item.substr(0, sp)) {
        if (ch < '0' || ch > '9') {
          n = -1;
          break;
        }
        n = n > (std::numeric_limits<int64_t>::max() - 9) / 10
                ? std::numeric_limits<int64_t>::max()
                : n * 10 + (ch - '0');
      }
      if (!kind.empty() && n > 0) {
        int64_t& count = (*counts)[std::string(kind)];
        count = SaturatingAdd(count, n);
        *total = SaturatingAdd(*total, n);
      }
    }
    pos = end + 2;
  }
}

// Collectives a node performs: itself, or inside what it calls. `known`
// caches, per op id, whether the op is one (-1 not asked yet): a
// symbolic_trace graph has an op per module call, and asking by name reads
// each of them again and overflows the name memo of FactsOf.
// `callee_ops` is the id of that attribute key in g's pool (AttrWithKey).
int64_t NodeCollectives(const Graph& g, const Node& n, StrId callee_ops, StrIdMap<int8_t>* known,
                        std::map<std::string, int64_t>* counts) {
  int64_t total = 0;
  int8_t& is_collective = (*known)[n.op];
  if (is_collective < 0) is_collective = !CollectiveKind(g.str(n.op)).empty();
  std::string_view kind = is_collective ? CollectiveKind(g.str(n.op)) : std::string_view();
  if (!kind.empty()) {
    ++(*counts)[std::string(kind)];
    ++total;
  }
  if (const Attr* ops = AttrWithKey(n, callee_ops)) {
    CountCalleeOps(g.str(ops->value), &total, counts);
  }
  return total;
}

}  // namespace

void FindCollectiveChanges(const PairContext& c, std::vector<Finding>* out) {
  // A kind's count can differ only where an op's count does or where a
  // node lists the ops it calls: with neither (the pair's op histogram
  // changed in no collective, no `callee_ops` on either side), there is
  // nothing to report, and no pass over two graphs of 10^6 nodes (a
  // third of the findings' time) to find that out. A get_attr node reads a
  // module attribute and is never counted (nor is it in the histogram).
  const StrId left_callees = c.left.strings.Find("callee_ops");
  const StrId right_callees = c.right.strings.Find("callee_ops");
  if (c.stats != nullptr && left_callees.empty() && right_callees.empty() &&
      std::none_of(c.stats->op_delta.begin(), c.stats->op_delta.end(),
                   [](const auto& delta) { return !CollectiveKind(delta.first).empty(); })) {
    return;
  }
  std::map<std::string, std::pair<int64_t, int64_t>> counts;
  // Only nodes that perform collectives are kept: graphs can be huge.
  using PerNode = std::vector<std::pair<uint32_t, std::map<std::string, int64_t>>>;
  auto collect = [](const Graph& g, StrId callee_ops, PerNode* per) {
    std::map<std::string, int64_t> m;
    StrIdMap<int8_t> known(g, -1);
    for (uint32_t i = 0; i < g.nodes.size(); ++i) {
      if (g.nodes[i].kind == NodeKind::kGetAttr) continue;
      if (NodeCollectives(g, g.nodes[i], callee_ops, &known, &m) > 0) {
        per->emplace_back(i, std::move(m));
        m.clear();
      }
    }
  };
  PerNode per_left, per_right;
  collect(c.left, left_callees, &per_left);
  collect(c.right, right_callees, &per_right);
  for (const auto& [i, m] : per_left) {
    for (const auto& [k, n] : m) counts[k].first = SaturatingAdd(counts[k].first, n);
  }
  for (const auto& [i, m] : per_right) {
    for (const auto& [k, n] : m) counts[k].second = SaturatingAdd(counts[k].second, n);
  }
  Finding f;
  f.id = "collectives";
  f.severity = Severity::kWarning;
  f.graph = c.label;
  std::string parts;
  int64_t added = 0, removed = 0;
  for (const auto& [kind, lr] : counts) {
    if (lr.first == lr.second) continue;
    int64_t d = lr.second - lr.first;
    int64_t& side = d > 0 ? added : removed;
    side = SaturatingAdd(side, d > 0 ? d : -d);
    parts += fmt::format("{}{} {} -> {}", parts.empty() ? "" : ", ", kind, lr.first, lr.second);
  }
  if (parts.empty()) return;
  f.count = SaturatingAdd(added, removed);
  f.title = fmt::format("collectives {}: {}",
                        added > 0 && removed > 0 ? "changed" : added > 0 ? "added" : "removed",
                        parts);
  f.explanation = fmt::format(
      "{} collective operations added and {} removed (counted where they run, including "
      "inside loop bodies and called computations). Collectives synchronise devices and move "
      "data between them: a data-parallel variant adds gradient all-reduces, tensor or "
      "sequence parallelism adds all-gathers and reduce-scatters, expert parallelism adds "
      "all-to-alls; each costs interconnect time on every step.",
      added, removed);
  for (const auto& [i, m] : per_left) {
    for (const auto& [k, n] : m) {
      if (counts[k].first != counts[k].second) {
        f.evidence.push_back(NodeEvidence(c.left, i, Side::kLeft, fmt::format("{} {}", n, k)));
      }
    }
  }
  for (const auto& [i, m] : per_right) {
    for (const auto& [k, n] : m) {
      if (counts[k].first != counts[k].second) {
        f.evidence.push_back(NodeEvidence(c.right, i, Side::kRight, fmt::format("{} {}", n, k)));
      }
    }
  }
  out->push_back(std::move(f));
}

}  // namespace graphdiff::analyze
