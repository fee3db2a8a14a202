// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/stats.h"
#include "util/checked.h"
#include "model/stats_parts.h"
#include "util/str_id_map.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"

namespace graphdiff {

namespace {

// The first eight bytes of `s` as a number that orders as the bytes do
// (zeros past the end).
uint64_t OrderedPrefix(std::string_view s) {
  uint64_t key = 0;
  const size_t n = std::min<size_t>(s.size(), 8);
  for (size_t i = 0; i < n; ++i) {
    key |= uint64_t{static_cast<unsigned char>(s[i])} << (56 - 8 * i);
  }
  return key;
}

using Entry = std::pair<std::string_view, uint64_t>;

// An entry's place keyed by its name's eight bytes from some depth on, and
// by how many of them there are (9: more follow). Sixteen bytes, not the
// entry itself: a million ops' keys were 40 MB of fresh memory.
struct Keyed {
  uint64_t chunk;
  uint32_t left;
  uint32_t index;  // into the entries being sorted
};

// Sorts the keys of entries whose names are equal in their first `depth`
// bytes by the rest of their names (each key's index says which entry it
// is; the entries do not move). Names are compared eight bytes at a time as
// numbers; a tie where both names go on is sorted again eight bytes deeper,
// in place, and a tie where one ends is settled by length (the shorter is a
// prefix of the other). A graph of module calls has a million distinct ops
// sharing long prefixes (`module::features.3.conv.0.1`): a string compare
// call per pair, each reading two names far apart in the pool, was most of
// `stats`' own time on it. A run of few names, or one found this many sorts
// deep (a hostile dump's names, each parting from the rest a chunk later
// than the last, would nest a sort per name), is sorted by plain string
// compares.
//
// Only keys move until the end: the entries were permuted in place at each
// depth, a chain of dependent cache misses a million long (18% of `stats`
// of such a graph), where one gather at the end reads them independently.
constexpr size_t kFewNames = 16;
constexpr int kMostNested = 32;
void SortKeys(const Entry* entries, Keyed* k, size_t n, size_t depth, int nested) {
  auto name = [entries](const Keyed& x) { return entries[x.index].first; };
  auto chunk = [&depth](std::string_view s) { return OrderedPrefix(s.substr(depth)); };
  auto left = [&depth](std::string_view s) {
    return static_cast<uint32_t>(std::min<size_t>(s.size() - depth, 9));
  };
  // Skip eight bytes every name shares (all of "module::"), a pass each
  // rather than a sort.
  for (;;) {
    const uint64_t first = chunk(name(k[0]));
    bool shared = true;
    for (size_t i = 0; i < n && shared; ++i) {
      const std::string_view s = name(k[i]);
      shared = left(s) == 9 && chunk(s) == first;
    }
    if (!shared) break;
    depth += 8;
  }
  for (size_t i = 0; i < n; ++i) {
    const std::string_view s = name(k[i]);
    k[i].chunk = chunk(s);
    k[i].left = left(s);
  }
  std::sort(k, k + n, [](const Keyed& x, const Keyed& y) {
    return x.chunk != y.chunk ? x.chunk < y.chunk : x.left < y.left;
  });
  // Runs that tie and go on are sorted deeper once the scan is done (their
  // keys are refilled in place).
  absl::InlinedVector<std::pair<size_t, size_t>, 8> ties;
  for (size_t run = 0, i = 1; i <= n; ++i) {
    if (i < n && k[i].chunk == k[run].chunk && k[i].left == k[run].left) continue;
    if (i - run > 1 && k[run].left == 9) ties.emplace_back(run, i);
    run = i;
  }
  for (const auto& [from, to] : ties) {
    if (to - from <= kFewNames || nested >= kMostNested) {
      std::sort(k + from, k + to,
                [&name](const Keyed& x, const Keyed& y) { return name(x) < name(y); });
    } else {
      SortKeys(entries, k + from, to - from, depth + 8, nested + 1);
    }
  }
}

// Sorts (name, count) pairs by name and adds up the counts of equal names
// (an empty op and a literal "?" under two ids). The scratch lists are a
// thread's own, kept from graph to graph (a log of 10^5 small graphs sorts
// once per graph).
void SortAndMerge(std::vector<Entry>* list) {
  auto& v = *list;
  if (v.size() > 1) {
    thread_local std::vector<Keyed> keyed;
    thread_local std::vector<Entry> sorted;
    keyed.resize(v.size());
    for (size_t i = 0; i < v.size(); ++i) keyed[i].index = static_cast<uint32_t>(i);
    SortKeys(v.data(), keyed.data(), v.size(), 0, 0);
    sorted.clear();
    sorted.reserve(v.size());
    for (const Keyed& x : keyed) sorted.push_back(v[x.index]);
    v.swap(sorted);
  }
  size_t out = 0;
  for (size_t i = 0; i < v.size();) {
    uint64_t count = 0;
    size_t j = i;
    for (; j < v.size() && v[j].first == v[i].first; ++j) count += v[j].second;
    v[out++] = {v[i].first, count};
    i = j;
  }
  v.resize(out);
}

}  // namespace

void ComputeStatsParts(const Graph& graph, GraphStats* stats, StatsHistograms* hist,
                       bool sort_ops) {
  GraphStats& s = *stats;
  s = GraphStats{};
  s.name = graph.name;
  s.kind = graph.kind;
  s.record_index = graph.source.record_index;
  s.repeat_count = graph.source.repeat_count;
  s.inputs = graph.inputs.size();
  s.outputs = graph.outputs.size();
  hist->ops.clear();
  hist->dtypes.clear();
  // Count by StrId first: one list entry per distinct op instead of one per
  // node.
  StrIdMap<uint64_t> op_counts(graph, 0);
  // A slot per DType; a value past them (none a parser makes) would print
  // as DTypeName does, "?", the unknown dtype's name. The slots are few: a
  // log of 10^5 small graphs clears and walks them once per graph.
  constexpr size_t kDTypes = static_cast<size_t>(DType::kToken) + 1;
  uint64_t dtype_counts[kDTypes] = {};
  // get_attr nodes are inputs (parameters, buffers), not ops: kept for the
  // input bytes below, so the nodes are walked once.
  absl::InlinedVector<uint32_t, 16> get_attrs;
  for (uint32_t i = 0; i < graph.nodes.size(); ++i) {
    const Node& n = graph.nodes[i];
    if (n.kind == NodeKind::kGetAttr) {
      get_attrs.push_back(i);
      continue;
    }
    ++s.nodes;
    ++op_counts[n.op];
    if (n.kind == NodeKind::kConstant) ++s.constants;
    const uint32_t results = n.num_results();
    if (results > 1) ++s.multi_output_nodes;
    for (uint32_t i = 0; i < results; ++i) {
      const size_t d = static_cast<size_t>(graph.result(n, i).dtype);
      ++dtype_counts[d < kDTypes ? d : 0];
    }
  }
  op_counts.ForEach([&](StrId id, uint64_t count) {
    std::string_view op = graph.strings.Get(id);
    hist->ops.emplace_back(op.empty() ? std::string_view("?") : op, count);
  });
  if (sort_ops) SortAndMerge(&hist->ops);
  for (size_t d = 0; d < kDTypes; ++d) {
    if (dtype_counts[d] != 0) {
      hist->dtypes.emplace_back(DTypeName(static_cast<DType>(d)), dtype_counts[d]);
    }
  }
  SortAndMerge(&hist->dtypes);
  auto add_input_bytes = [&](const Node& n) {
    std::optional<int64_t> elems;
    int width = 0;
    // A SymInt placeholder (`Sym(s0)`) is a size, not tensor data: its bytes
    // are unknown, not those of an s64 scalar.
    bool symbolic = graph.attr(n, "sym").has_value();
    if (n.num_results() == 1 && !symbolic) {
      elems = graph.result(n, 0).NumElements();
      width = DTypeBytes(graph.result(n, 0).dtype);
    }
    if (elems && width > 0) {
      s.parameter_bytes = SaturatingAdd(
          s.parameter_bytes, SaturatingMul(static_cast<uint64_t>(*elems), static_cast<uint64_t>(width)));
    } else {
      ++s.inputs_unknown_size;
    }
  };
  for (uint32_t i : graph.inputs) {
    if (i < graph.nodes.size()) add_input_bytes(graph.nodes[i]);
  }
  for (uint32_t i : get_attrs) add_input_bytes(graph.nodes[i]);
}

GraphStats ComputeStats(const Graph& graph) {
  GraphStats s;
  StatsHistograms hist;
  ComputeStatsParts(graph, &s, &hist);
  s.source = graph.source.file;
  // Into the maps in key order, each at the end: a symbolic_trace graph has
  // as many ops as module calls, and a search per op (string compares down
  // the tree) was most of the cost.
  for (const auto& [op, count] : hist.ops) s.ops.emplace_hint(s.ops.end(), op, count);
  for (const auto& [dt, count] : hist.dtypes) s.dtypes.emplace_hint(s.dtypes.end(), dt, count);
  return s;
}

}  // namespace graphdiff
