// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// PairDumps: which left graph is compared with which right graph. Rules run
// from strongest evidence to weakest (path, name, frame, order), each over
// what the earlier ones left, always in dump order so ties resolve the same
// way every run.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "align/hash.h"
#include "align/sequence.h"
#include "graphdiff/dump.h"
#include "load/entry_path.h"

namespace graphdiff {
namespace {

// "sub/a.zip!top/ir.txt" -> "sub/top/ir.txt": an archive stands for the
// folder it was made from, so a zipped run pairs with an unzipped one.
std::string DropArchiveNames(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (char c : path) {
    if (c == '!') {
      size_t slash = out.rfind('/');
      out.erase(slash == std::string::npos ? 0 : slash + 1);
      continue;
    }
    out += c;
  }
  return out;
}

// Paths of a side's files for comparison: archive names dropped, run stamps
// folded as the gate's keys fold them (ranks kept), then the top-level
// directories that every file shares stripped, so that `trace_once/ir.txt`
// and `openxla/ir.txt` compare equal, and so do
// `debug/run_2024_01_01_pid_111/ir.txt` and `debug/run_2024_01_02_pid_222/ir.txt`.
std::vector<std::string> PairingPaths(const Dump& dump) {
  std::vector<std::string> paths;
  paths.reserve(dump.files.size());
  for (const DumpFile& f : dump.files) {
    paths.push_back(NormalizeRunStamps(DropArchiveNames(f.path), /*fold_ranks=*/false));
  }
  while (!paths.empty()) {
    size_t slash = paths[0].find('/');
    if (slash == std::string::npos) break;
    std::string_view top(paths[0].data(), slash + 1);
    bool shared = std::all_of(paths.begin(), paths.end(), [&](const std::string& p) {
      return std::string_view(p).substr(0, top.size()) == top && p.size() > top.size();
    });
    if (!shared) break;
    size_t cut = top.size();
    for (std::string& p : paths) p.erase(0, cut);
  }
  return paths;
}

// Frames inside torch, torch_xla or installed packages move with every
// release; only the user's own frames identify a graph across versions.
bool IsLibraryFrame(std::string_view frame) {
  size_t open = frame.rfind(" (");
  std::string_view file = open == std::string_view::npos ? frame : frame.substr(open + 2);
  if (file.empty() || file.front() == '<' || file.front() == '(') return true;
  bool python_dir = false;
  size_t start = 0;
  while (start < file.size()) {
    size_t end = file.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = file.size();
    std::string_view seg = file.substr(start, end - start);
    if (seg == "torch" || seg == "torch_xla" || seg == "torch_xla2" || seg == "torchax" ||
        seg == "functorch" || seg == "site-packages" || seg == "dist-packages") {
      return true;
    }
    if (seg.substr(0, 7) == "python2" || seg.substr(0, 7) == "python3") python_dir = true;
    start = end + 1;
  }
  return python_dir;
}

struct Candidate {
  GraphRef ref;
  GraphKind kind;
  std::string path;
  std::string name;
  std::string frame;
  const Graph* graph = nullptr;
  bool paired = false;
};

// What a graph is made of, whatever its numbering and order: its op
// multiset, node, input and output counts. Records of one save file that
// a run repeats, or a renumbered copy of one, hash alike; so do graphs
// differing only in attributes, which the diff then reports.
// Ops' hashes by string id, hashed once for all the graphs of one pool: a
// map made for each graph was most of hashing a log of 10^5 small graphs.
// The graphs must outlive it (a pool's address keys its ids).
class OpHashes {
 public:
  uint64_t Of(const Graph& g, StrId op) {
    if (g.strings.identity() != pool_) {
      pool_ = g.strings.identity();
      hashes_.clear();
    }
    auto [it, added] = hashes_.try_emplace(op.id, 0);
    if (added) it->second = align::HashString(g.str(op));
    return it->second;
  }

 private:
  const void* pool_ = nullptr;
  absl::flat_hash_map<uint32_t, uint64_t> hashes_;
};

uint64_t ShapeHash(const Graph& g, OpHashes& ops) {
  uint64_t sum = 0;
  for (const Node& n : g.nodes) sum += align::Combine(ops.Of(g, n.op), n.operands.size());
  uint64_t h = align::Combine(sum, g.nodes.size());
  h = align::Combine(h, g.inputs.size());
  h = align::Combine(h, g.outputs.size());
  return align::Combine(h, static_cast<uint8_t>(g.kind));
}

// Pairs sequence a with sequence b as a line diff would: equal shapes as
// align::AlignSequences pairs them (an edit script, so one record more on
// one side, a step that compiled once more, shifts no pair after it), and
// between two such matches, and at the ends, what is left by order.
// Positions (i, j), in order of i.
std::vector<std::pair<size_t, size_t>> AlignShapes(const std::vector<uint64_t>& a,
                                                   const std::vector<uint64_t>& b) {
  std::vector<std::pair<size_t, size_t>> out;
  size_t i = 0, j = 0;
  auto gap = [&](size_t i_end, size_t j_end) {
    for (; i < i_end && j < j_end; ++i, ++j) out.emplace_back(i, j);
  };
  for (const auto& [mi, mj] : align::AlignSequences(a, b)) {
    gap(mi, mj);
    out.emplace_back(mi, mj);
    i = mi + 1;
    j = mj + 1;
  }
  gap(a.size(), b.size());
  return out;
}

std::vector<Candidate> Candidates(const Dump& dump) {
  std::vector<std::string> paths = PairingPaths(dump);
  std::vector<Candidate> out;
  for (uint32_t f = 0; f < dump.files.size(); ++f) {
    const DumpFile& file = dump.files[f];
    for (uint32_t g = 0; g < file.graphs.size(); ++g) {
      const Graph& graph = file.graphs[g];
      Candidate c;
      c.ref = GraphRef{f, g};
      c.kind = graph.kind;
      c.path = paths[f];
      c.graph = &graph;
      // An IR graph has no name of its own: a save file names it after a
      // frame or its position, which says nothing the other rules do not.
      c.name = !graph.source.graph_name.empty() ? graph.source.graph_name
               : graph.kind != GraphKind::kIr   ? graph.name
                                                : std::string();
      for (std::string_view frame : graph.source.frames) {
        if (IsLibraryFrame(frame)) continue;
        if (!c.frame.empty()) c.frame += '\n';
        c.frame += frame;
      }
      out.push_back(std::move(c));
    }
  }
  return out;
}

using KeyFn = std::string (*)(const Candidate&);

// True when the key tells the remaining graphs of `kind` apart: at least two
// different values over both sides. A key every graph shares ("GraphModule")
// would pair by order while claiming to pair by name.
bool Informative(const std::vector<Candidate>& left, const std::vector<Candidate>& right,
                 GraphKind kind, KeyFn key) {
  std::string seen;
  bool have = false;
  for (const std::vector<Candidate>* side : {&left, &right}) {
    for (const Candidate& c : *side) {
      if (c.paired || c.kind != kind) continue;
      std::string k = key(c);
      if (!have) {
        seen = std::move(k);
        have = true;
      } else if (k != seen) {
        return true;
      }
    }
  }
  return false;
}

// Pairs remaining graphs of each kind whose non-empty keys are equal: the
// graphs of one key on each side, in dump order, are paired as AlignShapes
// pairs them (in order, unless one side has graphs the other lacks).
void PairByKey(std::vector<Candidate>& left, std::vector<Candidate>& right, KeyFn key,
               bool require_informative, PairRule how, std::vector<GraphPairing>* out) {
  for (GraphKind kind : {GraphKind::kIr, GraphKind::kFx, GraphKind::kHlo}) {
    if (require_informative && !Informative(left, right, kind, key)) continue;
    std::map<std::string, std::pair<std::vector<size_t>, std::vector<size_t>>> by_key;
    for (size_t i = 0; i < left.size(); ++i) {
      if (left[i].paired || left[i].kind != kind) continue;
      std::string k = key(left[i]);
      if (!k.empty()) by_key[k].first.push_back(i);
    }
    for (size_t i = 0; i < right.size(); ++i) {
      if (right[i].paired || right[i].kind != kind) continue;
      std::string k = key(right[i]);
      if (!k.empty()) by_key[k].second.push_back(i);
    }
    std::vector<uint64_t> a, b;
    OpHashes ops;
    for (const auto& [k, sides] : by_key) {
      const auto& [ls, rs] = sides;
      if (ls.empty() || rs.empty()) continue;
      // One graph a side pairs whatever its shape: a graph of 10^6 module
      // calls is not hashed for nothing.
      const bool one_each = ls.size() == 1 && rs.size() == 1;
      a.clear();
      b.clear();
      for (size_t i : ls) a.push_back(one_each ? 0 : ShapeHash(*left[i].graph, ops));
      for (size_t i : rs) b.push_back(one_each ? 0 : ShapeHash(*right[i].graph, ops));
      for (const auto& [i, j] : AlignShapes(a, b)) {
        Candidate& l = left[ls[i]];
        Candidate& r = right[rs[j]];
        l.paired = r.paired = true;
        out->push_back(GraphPairing{l.ref, r.ref, how});
      }
    }
  }
}

// The graphs of a file pair with those of the file at the same path, record
// by record as AlignShapes pairs them.
std::string PathKey(const Candidate& c) { return c.path; }
// Within a file pair, graphs that carry names pair by name first: a
// TORCH_TRACE log's `aot_forward_graph [1/0]` with the other run's, though a
// recompile in one run put another forward graph between them.
std::string PathNameKey(const Candidate& c) {
  return c.name.empty() ? std::string() : c.path + '\n' + c.name;
}
std::string NameKey(const Candidate& c) { return c.name; }
std::string FrameKey(const Candidate& c) { return c.frame; }
std::string NoKey(const Candidate&) { return "-"; }

size_t CountGraphs(const Dump& d) {
  size_t n = 0;
  for (const DumpFile& f : d.files) n += f.graphs.size();
  return n;
}

// Graphs of different kinds (an aten-level FX graph and the IR it ran as)
// are compared when nothing else can be meant: each side holds exactly one
// graph, or the user named one file on each side and exactly one graph of
// each is left over.
void PairLastOnes(const Dump& left, const Dump& right, std::vector<Candidate>& l,
                  std::vector<Candidate>& r, std::vector<GraphPairing>* out) {
  auto unpaired = [](std::vector<Candidate>& side) {
    Candidate* last = nullptr;
    size_t n = 0;
    for (Candidate& c : side) {
      if (!c.paired) {
        last = &c;
        ++n;
      }
    }
    return n == 1 ? last : nullptr;
  };
  Candidate* a = unpaired(l);
  Candidate* b = unpaired(r);
  if (a == nullptr || b == nullptr) return;
  bool one_graph_each = CountGraphs(left) == 1 && CountGraphs(right) == 1;
  bool one_file_each = left.files.size() == 1 && right.files.size() == 1;
  if (!one_graph_each && !one_file_each) return;
  a->paired = b->paired = true;
  out->push_back(GraphPairing{a->ref, b->ref, PairRule::kOnly});
}

void PairMetrics(const Dump& left, const Dump& right, Pairing* out) {
  struct Report {
    uint32_t file, report;
    std::string path;
    bool paired = false;
  };
  auto collect = [](const Dump& dump) {
    std::vector<std::string> paths = PairingPaths(dump);
    std::vector<Report> reports;
    for (uint32_t f = 0; f < dump.files.size(); ++f) {
      for (uint32_t m = 0; m < dump.files[f].metrics.size(); ++m) {
        reports.push_back(Report{f, m, paths[f]});
      }
    }
    return reports;
  };
  std::vector<Report> l = collect(left), r = collect(right);
  std::map<std::pair<std::string, uint32_t>, size_t> right_by_path;
  for (size_t i = 0; i < r.size(); ++i) right_by_path.emplace(std::make_pair(r[i].path, r[i].report), i);
  for (Report& a : l) {
    auto it = right_by_path.find({a.path, a.report});
    if (it == right_by_path.end()) continue;
    Report& b = r[it->second];
    a.paired = b.paired = true;
    out->metrics.push_back(MetricsPairing{a.file, a.report, b.file, b.report, PairRule::kPath});
  }
  size_t j = 0;
  for (Report& a : l) {
    if (a.paired) continue;
    while (j < r.size() && r[j].paired) ++j;
    if (j == r.size()) break;
    a.paired = r[j].paired = true;
    out->metrics.push_back(
        MetricsPairing{a.file, a.report, r[j].file, r[j].report, PairRule::kOrder});
  }
  std::sort(out->metrics.begin(), out->metrics.end(),
            [](const MetricsPairing& x, const MetricsPairing& y) {
              return std::tie(x.left_file, x.left_report) < std::tie(y.left_file, y.left_report);
            });
  for (const Report& a : l) {
    if (!a.paired) out->left_unpaired_metrics.emplace_back(a.file, a.report);
  }
  for (const Report& b : r) {
    if (!b.paired) out->right_unpaired_metrics.emplace_back(b.file, b.report);
  }
}

}  // namespace

Pairing PairDumps(const Dump& left, const Dump& right) {
  Pairing out;
  std::vector<Candidate> l = Candidates(left), r = Candidates(right);
  PairByKey(l, r, PathNameKey, false, PairRule::kPath, &out.graphs);
  PairByKey(l, r, PathKey, false, PairRule::kPath, &out.graphs);
  PairByKey(l, r, NameKey, true, PairRule::kName, &out.graphs);
  PairByKey(l, r, FrameKey, true, PairRule::kFrame, &out.graphs);
  // Every remaining graph has the same key, so this pairs them in order.
  PairByKey(l, r, NoKey, false, PairRule::kOrder, &out.graphs);
  PairLastOnes(left, right, l, r, &out.graphs);
  std::sort(out.graphs.begin(), out.graphs.end(),
            [](const GraphPairing& a, const GraphPairing& b) {
              return std::tie(a.left.file, a.left.graph) < std::tie(b.left.file, b.left.graph);
            });
  for (const Candidate& c : l) {
    if (!c.paired) out.left_unpaired.push_back(c.ref);
  }
  for (const Candidate& c : r) {
    if (!c.paired) out.right_unpaired.push_back(c.ref);
  }
  PairMetrics(left, right, &out);
  return out;
}

}  // namespace graphdiff
