// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// DiffDumps / DiffGraphs: pair, align, compare metrics, run every finding
// family, link and sort. Only orchestration lives here.
#include "graphdiff/diff.h"

#include <algorithm>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "analyze/analyze.h"
#include "analyze/pair_memo.h"
#include "analyze/reading.h"
#include "analyze/select.h"
#include "fmt/format.h"
#include "graphdiff/stats.h"
#include "load/task_pool.h"
#include "util/labels.h"

namespace graphdiff {
namespace {

using analyze::MetricsContext;
using analyze::PairContext;

// Symmetric families look at both sides at once; one-directional ones run
// once per direction so that swapping the dumps mirrors every finding.
void RunGraphFamilies(const PairContext& c, const PairContext& mirror, bool parallel,
                      std::vector<Finding>* out) {
  // The one-directional families seen from the other side, and the size
  // delta, come last; on a pair of big graphs they run beside the others
  // (each family is a pass over a graph), into their own list.
  std::vector<Finding> last;
  auto other_side = [&] {
    analyze::FindDeadConstantExpands(mirror, &last);
    analyze::FindNewDeadCode(mirror, &last);
    analyze::FindNewDuplicates(mirror, &last);
    analyze::FindSizeDelta(c, &last);
  };
  std::future<void> beside;
  if (parallel) beside = std::async(std::launch::async, other_side);
  analyze::FindOutputChanges(c, out);
  analyze::FindLiftedInputs(c, out);
  analyze::FindClonesAdded(c, out);
  analyze::FindCollectiveChanges(c, out);
  analyze::FindOpSubstitutions(c, out);
  analyze::FindAttributeChanges(c, out);
  analyze::FindTypeChanges(c, out);
  analyze::FindDeadConstantExpands(c, out);
  analyze::FindNewDeadCode(c, out);
  analyze::FindNewDuplicates(c, out);
  if (beside.valid()) {
    beside.get();
  } else {
    other_side();
  }
  out->insert(out->end(), std::make_move_iterator(last.begin()),
              std::make_move_iterator(last.end()));
}

// Pairs diffed side by side are handed to the threads in runs of at most
// this many pairs or nodes (DiffDumps).
constexpr size_t kRunPairs = 64;
constexpr size_t kRunNodes = 4096;

PairRow MakeRow(const Graph& l, const Graph& r, const NodePair& p) {
  PairRow row;
  row.left = analyze::NodeName(l, p.left);
  row.right = analyze::NodeName(r, p.right);
  row.reasons = p.reasons;
  row.matcher = p.matcher;
  row.detail = p.detail;
  row.left_op = std::string(l.str(l.nodes[p.left].op));
  row.right_op = std::string(r.str(r.nodes[p.right].op));
  return row;
}

// Rows per task when the rows are built in parallel: large enough that a
// task outweighs its scheduling, small enough to even out the threads.
constexpr size_t kRowsPerTask = 1 << 16;

// Rows come in alignment order, so at least one side's nodes are visited
// in an order memory does not follow, and each row would wait on three
// cache misses in turn: the node, its name's view, the characters. Fetching
// rows ahead in stages lets the misses of different rows overlap.
void FillRows(const Graph& l, const Graph& r, const std::vector<const NodePair*>& pairs,
              size_t begin, size_t end, PairRow* rows) {
  constexpr size_t kAhead = 6;
  auto fetch_node = [](const Graph& g, uint32_t v) {
#if defined(__GNUC__)
    __builtin_prefetch(g.nodes.data() + v);
#endif
  };
  auto fetch_view = [](const Graph& g, uint32_t v) { g.strings.Prefetch(g.nodes[v].name); };
  auto fetch_chars = [](const Graph& g, uint32_t v) {
#if defined(__GNUC__)
    __builtin_prefetch(g.str(g.nodes[v].name).data());
#endif
  };
  for (size_t k = begin; k < end; ++k) {
    if (k + 3 * kAhead < end) {
      fetch_node(l, pairs[k + 3 * kAhead]->left);
      fetch_node(r, pairs[k + 3 * kAhead]->right);
    }
    if (k + 2 * kAhead < end) {
      fetch_view(l, pairs[k + 2 * kAhead]->left);
      fetch_view(r, pairs[k + 2 * kAhead]->right);
    }
    if (k + kAhead < end) {
      fetch_chars(l, pairs[k + kAhead]->left);
      fetch_chars(r, pairs[k + kAhead]->right);
    }
    rows[k] = MakeRow(l, r, *pairs[k]);
  }
}

GraphPairDiff Summarise(const Graph& l, const Graph& r, const Alignment& alignment, PairRule how,
                        const analyze::PairStats& stats, bool unchanged_rows, unsigned threads) {
  GraphPairDiff d;
  d.left_source = l.source.file;
  d.right_source = r.source.file;
  d.left_graph = l.name;
  d.right_graph = r.name;
  d.how = how;
  d.kind = r.kind;
  std::vector<const NodePair*> valid;
  if (unchanged_rows) valid.reserve(alignment.pairs.size());
  for (const NodePair& p : alignment.pairs) {
    if (p.left >= l.nodes.size() || p.right >= r.nodes.size()) continue;
    ++d.matched;
    d.changed += p.changed();
    if (unchanged_rows || p.changed()) valid.push_back(&p);
  }
  d.pairs.resize(valid.size());
  // A row per matched node pair touches every node's name and op, scattered
  // across the string pools: on big graphs it is the costliest part of a
  // diff after alignment, and the rows are independent.
  // A pool for one task was a queue and two locks a pair: a dump of 10^5
  // small graphs spent more on them than on the rows.
  if (valid.size() <= kRowsPerTask || threads == 1) {
    FillRows(l, r, valid, 0, valid.size(), d.pairs.data());
  } else {
    TaskPool pool(threads);
    for (size_t b = 0; b < valid.size(); b += kRowsPerTask) {
      pool.Add([&, b] {
        FillRows(l, r, valid, b, std::min(valid.size(), b + kRowsPerTask), d.pairs.data());
      });
    }
    pool.Run();
  }
  d.left_nodes = stats.left.nodes;
  d.right_nodes = stats.right.nodes;
  d.left_inputs = l.inputs.size();
  d.right_inputs = r.inputs.size();
  d.left_outputs = l.outputs.size();
  d.right_outputs = r.outputs.size();
  // In op order already: each entry placed at the end.
  for (const auto& [op, n] : stats.op_delta) d.op_delta.emplace_hint(d.op_delta.end(), op, n);
  d.matched_outputs = alignment.matched_outputs.size();
  for (uint32_t i : alignment.left_only) {
    if (i >= l.nodes.size()) continue;
    d.left_only.push_back(analyze::NodeName(l, i));
    d.left_only_get_attrs += l.nodes[i].kind == NodeKind::kGetAttr;
  }
  for (uint32_t i : alignment.right_only) {
    if (i >= r.nodes.size()) continue;
    d.right_only.push_back(analyze::NodeName(r, i));
    d.right_only_get_attrs += r.nodes[i].kind == NodeKind::kGetAttr;
  }
  for (uint32_t pos : alignment.left_only_outputs) {
    if (pos < l.outputs.size()) d.left_only_outputs.push_back(analyze::ValueName(l, l.outputs[pos]));
  }
  for (uint32_t pos : alignment.right_only_outputs) {
    if (pos < r.outputs.size()) {
      d.right_only_outputs.push_back(analyze::ValueName(r, r.outputs[pos]));
    }
  }
  return d;
}

// Names files by their path inside the dump (DumpFile::path), not by the
// loader's display name, which starts with whatever root the user typed:
// reports stay the same wherever the dumps live.
void RenameSources(std::vector<Finding>* findings, size_t first, std::string_view left_from,
                   std::string_view left_to, std::string_view right_from,
                   std::string_view right_to) {
  for (size_t i = first; i < findings->size(); ++i) {
    for (Evidence& e : (*findings)[i].evidence) {
      if (e.side == Side::kLeft && e.source == left_from) e.source = left_to;
      if (e.side == Side::kRight && e.source == right_from) e.source = right_to;
    }
  }
}

// Views: copying both paths for every pair was two allocations a pair.
struct PairSources {
  std::string_view left;  // DumpFile::path
  std::string_view right;
};

// The summary of a pair of graphs equal in content to those `known` was
// made of, on which no finding fired: that one, named for these graphs.
// On a log of 10^5 repeated small graphs, running every finding family to
// find nothing, and the statistics and summary again, were three quarters
// of diffing a pair, seventy allocations each.
void Relabel(const GraphPairDiff& known, const Graph& l, const Graph& r, PairRule how,
             const PairSources& sources, GraphPairDiff* pair) {
  *pair = known;
  pair->left_source = sources.left;
  pair->right_source = sources.right;
  pair->left_graph = l.name;
  pair->right_graph = r.name;
  pair->how = how;
}

// Adds the pair's findings to `findings` and its summary to `*pair`.
// `known`, when not null, is the alignment of graphs of the same content
// (PairMemo). The alignment goes into the summary, or into `*spare` when
// the summary keeps none (DiffOptions::alignments) and `spare` is not null.
absl::Status DiffOnePair(const Graph& l, const Graph& r, PairRule how, std::string label,
                         const PairSources& sources, const DiffOptions& options,
                         const OpEquivalence& eq, const Alignment* known,
                         std::vector<Finding>* findings, GraphPairDiff* pair,
                         Alignment* spare = nullptr) {
  absl::StatusOr<Alignment> a =
      known != nullptr ? absl::StatusOr<Alignment>(*known) : Align(l, r, options.align);
  if (!a.ok()) return a.status();
  // The summary, the size finding and dead code (in both directions) read
  // each side's statistics. A pair of big graphs diffed alone spreads its
  // passes over two threads. (Made on a thread of their own beside the
  // aligner instead, they took no less wall time: the aligner's stages
  // slowed by as much.)
  const bool beside =
      l.nodes.size() + r.nodes.size() > kRowsPerTask && options.align.threads != 1;
  const analyze::PairStats stats = analyze::ComputePairStats(l, r, beside);
  const Alignment swapped = analyze::SwapAlignmentLists(*a);
  PairContext c{l, r, *a, eq, options, label};
  PairContext mirror{r, l, swapped, eq, options, label, /*mirrored=*/true};
  mirror.pairs_from = &*a;
  c.stats = &stats;
  c.left_live = mirror.right_live = &stats.left_live;
  c.right_live = mirror.left_live = &stats.right_live;
  size_t first = findings->size();
  // The reportable rows touch every node of both graphs, the findings
  // mostly what changed: on a second core the rows cost no wall time. Only
  // for a pair diffed alone: pairs diffed side by side already fill the
  // cores, and a thread per pair of a dump of 10^5 small graphs cost more
  // than the diffs.
  std::future<GraphPairDiff> summary;
  if (options.align.threads != 1) {
    summary = std::async(std::launch::async, [&] {
      return Summarise(l, r, *a, how, stats, options.unchanged_rows, options.align.threads);
    });
  }
  RunGraphFamilies(c, mirror, beside, findings);
  GraphPairDiff d =
      summary.valid() ? summary.get()
                      : Summarise(l, r, *a, how, stats, options.unchanged_rows, 1);
  if (!d.identical()) {
    std::vector<Finding> mine(findings->begin() + static_cast<std::ptrdiff_t>(first),
                              findings->end());
    analyze::FindOtherChanges(c, mine, findings);
  }
  RenameSources(findings, first, l.source.file, sources.left, r.source.file,
                sources.right);
  d.left_source = sources.left;
  d.right_source = sources.right;
  // The findings are done with it; the rows above were built from it.
  if (options.alignments) {
    d.alignment = *std::move(a);
  } else if (spare != nullptr) {
    *spare = *std::move(a);
  }
  *pair = std::move(d);
  return absl::OkStatus();
}

MetricsPairDiff CompareMetrics(const MetricsReport& l, const MetricsReport& r, PairRule how) {
  MetricsPairDiff d;
  d.left_source = l.source;
  d.right_source = r.source;
  d.how = how;
  // Later duplicates win, as in MetricsReport.
  std::map<std::string, CounterValues> counters;
  for (const Counter& c : l.counters) counters[c.name].left = c.value;
  for (const Counter& c : r.counters) counters[c.name].right = c.value;
  for (auto& [name, c] : counters) {
    c.name = name;
    d.counters.push_back(std::move(c));
  }
  std::map<std::string, MetricValues> metrics;
  for (const Metric& m : l.metrics) {
    metrics[m.name].left = m.accumulator;
    metrics[m.name].unit = m.unit;
  }
  for (const Metric& m : r.metrics) {
    metrics[m.name].right = m.accumulator;
    metrics[m.name].unit = m.unit;
  }
  for (auto& [name, m] : metrics) {
    m.name = name;
    d.metrics.push_back(std::move(m));
  }
  return d;
}

// Graph labels carry the record index when a file holds several graphs.
std::string GraphLabel(const DumpFile& f, const Graph& g) {
  return f.graphs.size() > 1 ? RecordLabel(f.path, g.source.record_index) : f.path;
}

// The options with an op-equivalence table filled in: the caller's, or the
// built-in one stored in `builtin`, which must outlive the returned options.
DiffOptions WithEquivalence(const DiffOptions& options, OpEquivalence* builtin) {
  DiffOptions opts = options;
  if (opts.align.equivalence == nullptr) {
    *builtin = OpEquivalence::BuiltIn();
    opts.align.equivalence = builtin;
  }
  return opts;
}

}  // namespace

bool GraphPairDiff::identical() const {
  return changed == 0 && left_only.empty() && right_only.empty() && left_only_outputs.empty() &&
         right_only_outputs.empty() && left_outputs == right_outputs;
}

bool MetricsPairDiff::identical() const {
  for (const CounterValues& c : counters) {
    if (c.left != c.right) return false;
  }
  return true;
}

bool DiffResult::identical() const {
  if (!unpaired.empty()) return false;
  for (const GraphPairDiff& p : pairs) {
    if (!p.identical()) return false;
  }
  for (const MetricsPairDiff& m : metrics) {
    if (!m.identical()) return false;
  }
  return true;
}

absl::StatusOr<DiffResult> DiffDumps(const Dump& left, const Dump& right,
                                     const DiffOptions& options) {
  OpEquivalence builtin;
  DiffOptions opts = WithEquivalence(options, &builtin);
  const OpEquivalence& eq = *opts.align.equivalence;
  DiffResult result;
  result.left_root = left.root;
  result.right_root = right.root;
  Pairing pairing = PairDumps(left, right);
  const std::string& sel = opts.graph_selector;
  // Each selected graph pair is diffed on its own: its summary into its
  // place in result.pairs, its findings into its slot; the slots are then
  // joined in pairing order, so threads change nothing but the wall time.
  // (A slot held a whole DiffResult, its summary moved on afterwards: on a
  // dump of 10^5 small graphs, a third of the diff's fresh memory.)
  struct Slot {
    const GraphPairing* pairing;
    const DumpFile* lf;
    const DumpFile* rf;
    const Graph* l;
    const Graph* r;
    absl::Status status;
    std::vector<Finding> findings;
  };
  std::vector<Slot> slots;
  slots.reserve(pairing.graphs.size());
  for (const GraphPairing& gp : pairing.graphs) {
    const DumpFile& lf = left.files[gp.left.file];
    const DumpFile& rf = right.files[gp.right.file];
    const Graph& l = lf.graphs[gp.left.graph];
    const Graph& r = rf.graphs[gp.right.graph];
    if (analyze::Selected(sel, lf.path, l.name) || analyze::Selected(sel, rf.path, r.name)) {
      slots.push_back({&gp, &lf, &rf, &l, &r, absl::OkStatus(), {}});
    }
  }
  // Pairs diffed side by side keep each to one thread; one pair alone uses
  // the cores inside its alignment and summary.
  if (slots.size() != 1 || opts.threads == 1) opts.align.threads = 1;
  result.pairs.resize(slots.size());
  {
    // Only graphs of shared pools can be found again (a save file's
    // records, copies of a repeated file): a pair whose pools no other pair
    // has is not hashed. In a directory of distinct files that is every
    // pair, and hashing them was a tenth of the diff.
    std::vector<bool> memo_on(slots.size(), false);
    if (slots.size() > 1) {
      absl::flat_hash_map<std::pair<const void*, const void*>, uint32_t> pools;
      for (const Slot& slot : slots) {
        ++pools[{slot.l->strings.identity(), slot.r->strings.identity()}];
      }
      for (size_t i = 0; i < slots.size(); ++i) {
        memo_on[i] = pools[{slots[i].l->strings.identity(), slots[i].r->strings.identity()}] > 1;
      }
    }
    analyze::PairMemo memo;
    auto diff_slot = [&](size_t i) {
      Slot& slot = slots[i];
      GraphPairDiff& pair = result.pairs[i];
      const DumpFile& lf = *slot.lf;
      const DumpFile& rf = *slot.rf;
      analyze::PairMemo::Key key{};
      analyze::PairMemo::Known known;
      if (memo_on[i]) {
        key = analyze::PairMemo::KeyOf(*slot.l, *slot.r);
        known = memo.Find(key, *slot.l, *slot.r);
      }
      if (known.diff != nullptr && !known.findings) {
        Relabel(*known.diff, *slot.l, *slot.r, slot.pairing->how, {lf.path, rf.path}, &pair);
        return;
      }
      // A pair whose findings a repeat will run again keeps its alignment
      // in the memo when the summary holds none.
      const bool remember = memo_on[i] && known.diff == nullptr;
      Alignment spare;
      slot.status = DiffOnePair(
          *slot.l, *slot.r, slot.pairing->how,
          SidesLabel(GraphLabel(lf, *slot.l), GraphLabel(rf, *slot.r)), {lf.path, rf.path},
          opts, eq, known.alignment, &slot.findings, &pair, remember ? &spare : nullptr);
      if (!slot.status.ok()) return;
      pair.left_partial = slot.l->partial;
      pair.right_partial = slot.r->partial;
      // Final from here on: result.pairs is not resized again.
      if (remember) {
        std::shared_ptr<const Alignment> own;
        if (!opts.alignments && !slot.findings.empty()) {
          own = std::make_shared<const Alignment>(std::move(spare));
        }
        memo.Add(key, *slot.l, *slot.r, &pair, !slot.findings.empty(), std::move(own));
      }
    };
    // Small pairs go to the threads in runs: a task a pair of a log of 10^5
    // small graphs was a queued closure and a lock a pair. A run ends at
    // kRunNodes nodes, so a big pair is a task of its own.
    TaskPool pool(slots.size() == 1 ? 1 : opts.threads);
    size_t begin = 0, nodes = 0;
    for (size_t i = 0; i < slots.size(); ++i) {
      nodes += slots[i].l->nodes.size() + slots[i].r->nodes.size();
      if (nodes < kRunNodes && i + 1 - begin < kRunPairs && i + 1 < slots.size()) continue;
      pool.Add([&diff_slot, begin, end = i + 1] {
        for (size_t k = begin; k < end; ++k) diff_slot(k);
      });
      begin = i + 1;
      nodes = 0;
    }
    pool.Run();
  }
  for (Slot& slot : slots) {
    if (!slot.status.ok()) return slot.status;
    for (Finding& f : slot.findings) result.findings.push_back(std::move(f));
  }
  for (const MetricsPairing& mp : pairing.metrics) {
    const std::string& lpath = left.files[mp.left_file].path;
    const std::string& rpath = right.files[mp.right_file].path;
    if (!analyze::Selected(sel, lpath, "") && !analyze::Selected(sel, rpath, "")) continue;
    // Reports are renamed like graphs: by their path inside the dump.
    MetricsReport l = left.files[mp.left_file].metrics[mp.left_report];
    MetricsReport r = right.files[mp.right_file].metrics[mp.right_report];
    l.source = lpath;
    r.source = rpath;
    MetricsContext c{l, r, opts, SidesLabel(lpath, rpath)};
    analyze::FindCompilation(c, &result.findings);
    analyze::FindCloneCounters(c, &result.findings);
    analyze::FindCounterDeltas(c, &result.findings);
    MetricsPairDiff m = CompareMetrics(l, r, mp.how);
    if (!m.identical()) analyze::FindSmallCounterChanges(c, result.findings, &result.findings);
    result.metrics.push_back(std::move(m));
  }
  auto add_unpaired = [&](const Dump& d, const std::vector<GraphRef>& refs, Side side) {
    for (const GraphRef& ref : refs) {
      const Graph& g = d.files[ref.file].graphs[ref.graph];
      if (!analyze::Selected(sel, d.files[ref.file].path, g.name)) continue;
      result.unpaired.push_back(
          {side, UnpairedKind::kGraph, GraphLabel(d.files[ref.file], g), g.name});
    }
  };
  auto add_unpaired_metrics = [&](const Dump& d,
                                  const std::vector<std::pair<uint32_t, uint32_t>>& refs,
                                  Side side) {
    for (const auto& [file, report] : refs) {
      const std::string& path = d.files[file].path;
      if (!analyze::Selected(sel, path, "")) continue;
      result.unpaired.push_back(
          {side, UnpairedKind::kMetrics, RecordLabel(path, report), ""});
    }
  };
  add_unpaired(left, pairing.left_unpaired, Side::kLeft);
  add_unpaired_metrics(left, pairing.left_unpaired_metrics, Side::kLeft);
  add_unpaired(right, pairing.right_unpaired, Side::kRight);
  add_unpaired_metrics(right, pairing.right_unpaired_metrics, Side::kRight);
  analyze::LinkFindings(&result.findings, opts.max_evidence);
  SortFindings(&result.findings);
  analyze::AddReadingNotes(left, Side::kLeft, &result);
  analyze::AddReadingNotes(right, Side::kRight, &result);
  return result;
}

absl::StatusOr<DiffResult> DiffGraphs(const Graph& left, const Graph& right,
                                      const DiffOptions& options) {
  OpEquivalence builtin;
  DiffOptions opts = WithEquivalence(options, &builtin);
  if (opts.threads == 1) opts.align.threads = 1;
  DiffResult result;
  result.left_root = left.source.file;
  result.right_root = right.source.file;
  absl::Status st = DiffOnePair(left, right, PairRule::kGraphs,
                                SidesLabel(left.source.file, right.source.file),
                                {left.source.file, right.source.file}, opts,
                                *opts.align.equivalence, nullptr, &result.findings,
                                &result.pairs.emplace_back());
  if (!st.ok()) return st;
  analyze::LinkFindings(&result.findings, opts.max_evidence);
  SortFindings(&result.findings);
  return result;
}

}  // namespace graphdiff
