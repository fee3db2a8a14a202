// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Module-level FX against aten-level FX, led by structure. Both graphs run
// the same forward, so the aten graph is the module graph with every module
// call expanded into its decomposition (possibly nothing: Dropout in eval
// mode) and parameters made explicit. Starting from what is already paired
// (graph inputs by position), each dataflow chain of free module-side nodes
// (every node the only reader of the one before it) is laid against the
// chain that leaves the counterpart of its start on the aten side, and the
// two are aligned by a small dynamic programme in which each module node
// takes a run of consecutive aten nodes. Names only weigh in: a run holding
// an op the module's name suggests (module_class.cc) costs a little less.
// Every chain is aligned once, in O(chain length x run bound), so the pass is
// linear in the graph.
#include <algorithm>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "align/hash.h"
#include "align/matchers.h"
#include "align/module_class.h"

namespace graphdiff::align {
namespace {

// A module call decomposes into at most this many chain nodes (Linear on a
// 3-D input: view, addmm, view; a written-out GELU: five).
constexpr uint32_t kMaxRun = 8;
// Chains longer than this are cut: the programme stays small.
constexpr uint32_t kMaxChain = 512;

constexpr double kEmpty = 1.0;         // a computing node with no aten node
constexpr double kExtra = 0.6;         // each aten node beyond the first
constexpr double kNameHit = 0.4;       // the run holds an op the name suggests
constexpr double kClassMiss = 0.5;     // a function op whose run lacks its op
constexpr double kLateEmpty = 1e-3;    // ties: the earlier module vanishes
constexpr double kFitExtra = 0.1;      // an extra node the op is known to become
constexpr double kSuffix = 0.45;       // an aten node left for a join after the chain
constexpr double kOwnLast = 0.05;      // a function's run ends in its own op
constexpr double kWeights = 0.3;       // a run reads weights its module has not
constexpr double kBeforeWeights = 0.04;  // a vanished module feeds one that reads weights

struct Side {
  const SideView* v;
  int s;
  std::vector<uint8_t> param;  // leaf, or computed from leaves only
  // Output positions where the value leaves the forward: an AOT forward
  // returns the module's outputs first, then what backward saves, and a
  // saved value still flows on down its chain.
  uint32_t outputs = 0;
};

bool Main(const State& st, const Side& x, uint32_t n) {
  return !x.param[n] && !x.v->alias[n] && st.free(x.s, n);
}

// The distinct operands of n that carry data (not parameters or constants).
void DataOperands(const Side& x, uint32_t n, std::vector<uint32_t>* out) {
  out->clear();
  for (const ValueRef& r : x.v->operands(n)) {
    if (!x.param[r.node]) out->push_back(r.node);
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

// Free data users of n, distinct, in node order.
void DataUsers(const State& st, const Side& x, uint32_t n, std::vector<uint32_t>* out) {
  out->clear();
  for (const Use& u : x.v->users(n)) {
    if (Main(st, x, u.user)) out->push_back(u.user);
  }
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

// From `start`, follow the only free data user while it reads nothing else.
std::vector<uint32_t> Chain(const State& st, const Side& x, uint32_t start) {
  std::vector<uint32_t> chain{start};
  std::vector<uint32_t> users, ops;
  while (chain.size() < kMaxChain) {
    const uint32_t last = chain.back();
    if (x.v->out_pos[last] < x.outputs) break;
    DataUsers(st, x, last, &users);
    if (users.size() != 1) break;
    // Every reader of `last`, not just the free ones: a matched reader means
    // the value also flows somewhere already known.
    bool other = false;
    for (const Use& u : x.v->users(last)) other |= u.user != users[0] && !x.v->alias[u.user];
    if (other) break;
    DataOperands(x, users[0], &ops);
    if (ops.size() != 1) break;
    chain.push_back(users[0]);
  }
  return chain;
}

// The matcher's working state: the two sides, which nodes carry data, and
// where each module-side value lives on the aten side.
class ChainAligner {
 public:
  ChainAligner(State& st, int ms) : st_(st), ms_(ms), as_(1 - ms) {
    for (int s = 0; s < 2; ++s) {
      Side& x = sides_[s];
      x.v = &st.side[s];
      x.s = s;
      x.param.assign(x.v->size, 0);
      for (uint32_t n = 0; n < x.v->size; ++n) {
        // Graph inputs carry data unless lifted; get_attr and constants
        // are parameters.
        if (x.v->leaf[n]) {
          x.param[n] = x.v->graph->nodes[n].kind != NodeKind::kInput || x.v->lifted[n];
          continue;
        }
        // A module call on parameters alone (`wpe(self.pos)`) counts as
        // one: its aten decomposition reads only get_attr nodes too.
        bool all = true;
        for (const ValueRef& r : x.v->operands(n)) all &= x.param[r.node] != 0;
        x.param[n] = all && !x.v->operands(n).empty() ? 1 : 0;
      }
    }
    const uint32_t outputs = static_cast<uint32_t>(
        std::min(st.side[0].graph->outputs.size(), st.side[1].graph->outputs.size()));
    sides_[ms].outputs = static_cast<uint32_t>(st.side[ms].graph->outputs.size());
    sides_[1 - ms].outputs = outputs;
    value_.assign(M().v->size, kNone);
  }

  void Run() {
    std::vector<uint32_t> run_begin;
    for (uint32_t v = 0; v < M().v->size; ++v) {
      if (!Main(st_, M(), v) || value_[v] != kNone) continue;
      DataOperands(M(), v, &ops_);
      if (ops_.empty()) continue;
      bool ready = true;
      for (uint32_t p : ops_) ready &= ValueOf(p) != kNone;
      if (!ready) continue;
      const uint32_t first = ValueOf(ops_[0]);
      const uint32_t start = FindStart(v);
      if (start == kNone) {
        // No aten node to start from: only a module that vanishes passes
        // the value on (its readers then start from it). Walking the chain
        // here could repeat for every node of an unpairable chain.
        bool vanish = false;
        Expected(v, &want_, &vanish);
        if (vanish && ops_.size() == 1) value_[v] = first;
        continue;
      }
      const std::vector<uint32_t> c = Chain(st_, M(), v);
      const std::vector<uint32_t> d = Chain(st_, A(), start);
      if (AlignRuns(c, d, &run_begin)) Commit(c, d, run_begin, first);
    }
    PairParameterModules();
    PairLostOutputs();
  }

 private:
  const Side& M() const { return sides_[ms_]; }
  const Side& A() const { return sides_[as_]; }

  // Where a module-side value lives on the aten side: its pair, or for a
  // node that vanished, the value it passed through.
  uint32_t ValueOf(uint32_t n) const {
    const uint32_t m = st_.map[ms_][n];
    return m != kNone ? m : value_[n];
  }

  // What a module-side node may become, as aten class hashes; `weights`:
  // whether its aten ops read parameters, when its name says (-1 unknown).
  void Expected(uint32_t n, std::vector<uint64_t>* out, bool* vanish,
                int* weights = nullptr) const {
    out->clear();
    *vanish = false;
    if (weights) *weights = -1;
    const OpEquivalence& eq = *st_.equivalence;
    const Graph& g = *M().v->graph;
    const Node& node = g.nodes[n];
    if (!M().v->module[n]) {
      // A function (`F.adaptive_avg_pool2d`) may decompose as its module
      // does. It holds no weights: what it reads is in the graph, so with
      // no parameter among its operands its aten ops read none either
      // (`stochastic_depth`, the identity in eval mode, is not the batch
      // norm before it).
      if (weights) {
        bool reads = false;
        for (const ValueRef& r : M().v->operands(n)) reads |= M().param[r.node] != 0;
        if (!reads) *weights = 0;
      }
      *vanish = FunctionMayVanish(g.str(node.op));
      out->push_back(M().v->cls[n]);
      for (std::string_view op : ModuleDecomposition(g.str(node.op))) {
        out->push_back(HashString(eq.ClassOf(op)));
      }
      return;
    }
    std::optional<std::string_view> target = g.attr(node, "target");
    std::string_view rep = ModuleOpFromName(target ? *target : g.str(node.op));
    if (rep.empty()) return;
    *vanish = ModuleMayVanish(rep);
    if (std::optional<bool> w = ModuleHoldsParameters(rep); w && weights) *weights = *w;
    for (std::string_view op : ModuleDecomposition(rep)) {
      out->push_back(HashString(eq.ClassOf(op)));
    }
  }

  // The aten node where module-side node `v` (whose data operands are
  // ops_) starts, or kNone; fills prefix_ with nodes a join takes before
  // its start.
  uint32_t FindStart(uint32_t v) {
    // Free data users of the first operand's value that read the values of
    // all the others too, and nothing else.
    DataUsers(st_, A(), ValueOf(ops_[0]), &starts_);
    starts_.erase(std::remove_if(starts_.begin(), starts_.end(),
                                 [&](uint32_t u) {
                                   DataOperands(A(), u, &aops_);
                                   if (aops_.size() != ops_.size()) return true;
                                   for (uint32_t p : ops_) {
                                     if (!std::binary_search(aops_.begin(), aops_.end(),
                                                             ValueOf(p))) {
                                       return true;
                                     }
                                   }
                                   return false;
                                 }),
                  starts_.end());
    // Module-side siblings reading the same values, in node order: both
    // traces record one forward in execution order, so the k-th reader on
    // one side is the k-th on the other when their counts agree.
    DataUsers(st_, M(), ops_[0], &siblings_);
    siblings_.erase(std::remove_if(siblings_.begin(), siblings_.end(),
                                   [&](uint32_t u) {
                                     DataOperands(M(), u, &aops_);
                                     return aops_ != ops_;
                                   }),
                    siblings_.end());
    prefix_.clear();
    if (starts_.empty() && ops_.size() >= 2) FindJoin();
    if (starts_.size() == siblings_.size()) {
      const size_t k = std::find(siblings_.begin(), siblings_.end(), v) - siblings_.begin();
      return k < starts_.size() ? starts_[k] : kNone;
    }
    if (!M().v->module[v]) {
      for (uint32_t u : starts_) {
        if (A().v->cls[u] == M().v->cls[v]) return u;
      }
      return kNone;
    }
    return starts_.size() == 1 ? starts_[0] : kNone;
  }

  // A join whose aten op reads what its operands' chains computed after
  // them (`matmul`: `expand`, `clone`, `_unsafe_view` of each, then `bmm`):
  // walk each operand's free single-reader chain a few steps; the node the
  // walks meet at starts the join, and the walked nodes (prefix_) are part
  // of its decomposition.
  void FindJoin() {
    uint32_t join = kNone;
    bool ok = true;
    reach_.clear();
    for (uint32_t p : ops_) {
      uint32_t cur = ValueOf(p);
      reach_.push_back(cur);
      uint32_t meet = kNone;
      for (uint32_t step = 0; step < kMaxRun; ++step) {
        DataUsers(st_, A(), cur, &users_);
        if (users_.size() != 1) break;
        DataOperands(A(), users_[0], &aops_);
        if (aops_.size() != 1) {
          meet = users_[0];
          break;
        }
        cur = users_[0];
        reach_.push_back(cur);
        prefix_.push_back(cur);
      }
      if (meet == kNone || (join != kNone && meet != join)) ok = false;
      join = meet;
    }
    if (ok && join != kNone) {
      std::sort(reach_.begin(), reach_.end());
      DataOperands(A(), join, &aops_);
      for (uint32_t x : aops_) ok &= std::binary_search(reach_.begin(), reach_.end(), x);
      if (ok) starts_.assign(1, join);
    }
    if (starts_.empty()) prefix_.clear();
  }

  // The dynamic programme: run_begin[i] is where module node c[i]'s run of
  // d starts, run_begin[k] where the runs end. False when no run
  // assignment covers even a prefix.
  bool AlignRuns(const std::vector<uint32_t>& c, const std::vector<uint32_t>& d,
                 std::vector<uint32_t>* run_begin) {
    const uint32_t k = static_cast<uint32_t>(c.size()), j = static_cast<uint32_t>(d.size());
    // dp[i][t][v]: cost of aligning c[0..i) with d[0..t), v: c[i - 1]
    // vanished. choice: run length * 2 + the v it came from.
    const double inf = std::numeric_limits<double>::infinity();
    dp_.assign(static_cast<size_t>(k + 1) * (j + 1) * 2, inf);
    choice_.assign(static_cast<size_t>(k + 1) * (j + 1) * 2, 0);
    auto at = [&](uint32_t i, uint32_t t, uint32_t v) {
      return (static_cast<size_t>(i) * (j + 1) + t) * 2 + v;
    };
    // The better of the two states at (i, t).
    auto best_at = [&](uint32_t i, uint32_t t) {
      return dp_[at(i, t, 1)] < dp_[at(i, t, 0)] ? at(i, t, 1) : at(i, t, 0);
    };
    dp_[at(0, 0, 0)] = 0;
    // Which chain nodes read parameters (a weight, a bias, `t` of one).
    reads_.assign(j, 0);
    for (uint32_t q = 0; q < j; ++q) {
      for (const ValueRef& r : A().v->operands(d[q])) reads_[q] |= A().param[r.node];
    }
    for (uint32_t i = 0; i < k; ++i) {
      bool vanish = false;
      int weights = -1;
      Expected(c[i], &want_, &vanish, &weights);
      const bool function = !M().v->module[c[i]];
      for (uint32_t t = 0; t <= j; ++t) {
        for (uint32_t v = 0; v < 2; ++v) {
          const double base = dp_[at(i, t, v)];
          if (base == inf) continue;
          for (uint32_t len = 0; len <= kMaxRun && t + len <= j; ++len) {
            double cost;
            if (len == 0) {
              // A function op is written in the trace; it vanishes less
              // readily than a module whose class nobody knows, unless it
              // is the identity in eval mode (FunctionMayVanish).
              cost = (vanish ? 0.0 : kEmpty) + (function && !vanish ? kClassMiss : 0.0) +
                     kLateEmpty * i;
            } else {
              // Each node beyond the first costs, less when it is one the
              // node is known to become (`getitem` -> three `slice`s).
              bool hit = false, reads = false;
              cost = -kExtra;
              for (uint32_t q = t; q < t + len; ++q) {
                const bool fits =
                    std::find(want_.begin(), want_.end(), A().v->cls[d[q]]) != want_.end();
                hit |= fits;
                reads |= reads_[q] != 0;
                cost += fits ? kFitExtra : kExtra;
              }
              // A module that holds weights reads them, one that holds none
              // does not: where a name misleads about the op (`pwconv1` a
              // Linear, `act` a GELU), it still tells this much.
              if (weights != -1 && reads != (weights == 1)) cost += kWeights;
              cost += -(hit ? kNameHit : 0.0) + (function && !hit ? kClassMiss : 0.0) +
                      (vanish ? kEmpty : 0.0);
              // The run's last node is the pair: where a function keeps its
              // own op (`reshape` as `clone`, `_unsafe_view`), that one ends
              // the run rather than starting the next.
              if (function && A().v->cls[d[t + len - 1]] == M().v->cls[c[i]]) {
                cost -= kOwnLast;
              }
              // Where nothing says which of several modules vanished, the one
              // that feeds a module reading weights did: Dropout goes before
              // the Linear or convolution it regularises (AlexNet's,
              // MobileNet's, EfficientNet's classifiers; VGG's reads like
              // AlexNet's shifted by one module and stays ambiguous).
              if (v == 1 && reads) cost -= kBeforeWeights;
            }
            const size_t to = at(i + 1, t + len, len == 0 ? 1 : 0);
            if (base + cost < dp_[to]) {
              dp_[to] = base + cost;
              choice_[to] = len * 2 + v;
            }
          }
        }
      }
    }
    // The aten chain may run on past the module chain's end: the nodes a
    // join (`matmul` of two chains) computes before its own op sit at the
    // end of the chains it reads. Left over, they are the join's to take;
    // only where the aten chain does end at a join.
    bool before_join = false;
    DataUsers(st_, A(), d.back(), &users_);
    if (users_.size() == 1) {
      DataOperands(A(), users_[0], &aops_);
      before_join = aops_.size() >= 2;
    }
    uint32_t end = j;
    double best = dp_[best_at(k, j)];
    for (uint32_t t = 0; before_join && t < j; ++t) {
      const double total = dp_[best_at(k, t)] + kSuffix * (j - t);
      if (total < best) {
        best = total;
        end = t;
      }
    }
    if (best == inf) {
      // Runs of at most kMaxRun cannot cover the chain: the longest
      // covered prefix.
      while (end > 0 && dp_[best_at(k, end)] == inf) --end;
      if (dp_[best_at(k, end)] == inf) return false;
    }
    run_begin->assign(k + 1, 0);
    (*run_begin)[k] = end;
    for (uint32_t i = k, t = end, v = best_at(k, end) & 1; i > 0; --i) {
      const uint32_t ch = choice_[at(i, t, v)];
      t -= ch / 2;
      v = ch & 1;
      (*run_begin)[i - 1] = t;
    }
    return true;
  }

  // Pairs each module node with the last node of its run; the rest of the
  // run, the join's prefix and parameter preparation only the run reads
  // (`t` of a weight) are its decomposition.
  void Commit(const std::vector<uint32_t>& c, const std::vector<uint32_t>& d,
              const std::vector<uint32_t>& run_begin, uint32_t first) {
    uint32_t carried = first;
    for (uint32_t i = 0; i + 1 < run_begin.size(); ++i) {
      const uint32_t b = run_begin[i], e = run_begin[i + 1];
      if (b == e) {
        value_[c[i]] = carried;
        continue;
      }
      const uint32_t root = d[e - 1];
      carried = root;
      if (e - b == 1 && !M().v->module[c[i]] && M().v->cls[c[i]] == A().v->cls[root]) {
        // The same op on both levels: propagation pairs it from its
        // operands, as it would without module calls around.
        value_[c[i]] = root;
        continue;
      }
      st_.MatchSided(ms_, c[i], root, MatcherId::kRelaxed);
      auto cover = [&](uint32_t x) {
        st_.Cover(as_, x);
        if (ms_ == 0) {
          st_.extra.emplace_back(c[i], x);
        } else {
          st_.extra.emplace_back(x, c[i]);
        }
      };
      for (uint32_t q = b; q + 1 < e; ++q) cover(d[q]);
      if (i == 0) {
        for (uint32_t x : prefix_) {
          if (st_.free(as_, x)) cover(x);
        }
      }
      for (uint32_t q = b; q < e; ++q) {
        for (const ValueRef& r : A().v->operands(d[q])) {
          const uint32_t x = r.node;
          if (!A().param[x] || A().v->leaf[x] || !st_.free(as_, x)) continue;
          bool only = true;
          for (const Use& u : A().v->users(x)) {
            only &= std::find(d.begin() + b, d.begin() + e, u.user) != d.begin() + e;
          }
          if (only) cover(x);
        }
      }
    }
  }

  // Where the chains lost the value the forward returns (Swin-T: a wrapped
  // window attention's body of a hundred ops, past which nothing pairs),
  // an AOT forward's outputs still say it: it returns the module's outputs
  // first, then what backward saves, so a free computed output pairs with
  // the aten output at its place. Otherwise the model's output was
  // "replaced" by the saved values. With as many outputs on both sides
  // (make_fx) the position matcher pairs them, after the certain pairs.
  void PairLostOutputs() {
    const Graph& mg = *M().v->graph;
    const Graph& ag = *A().v->graph;
    if (ag.outputs.size() <= mg.outputs.size()) return;
    const size_t n = mg.outputs.size();
    for (size_t i = 0; i < n; ++i) {
      const uint32_t m = mg.outputs[i].node, a = ag.outputs[i].node;
      if (m >= M().v->size || a >= A().v->size) continue;
      if (!Main(st_, M(), m) || !Main(st_, A(), a) || value_[m] != kNone) continue;
      if (M().v->leaf[m] || A().v->leaf[a]) continue;
      st_.MatchSided(ms_, m, a, MatcherId::kPosition);
    }
  }

  // Module calls on parameters alone pair with the parameter-only operand
  // at their place in the reader's counterpart (`wpe(self.pos)` with
  // `embedding(_param_constant1, _tensor_constant0)`).
  void PairParameterModules() {
    for (uint32_t n = 0; n < M().v->size; ++n) {
      if (!M().v->module[n] || !M().param[n] || !st_.free(ms_, n)) continue;
      for (const Use& u : M().v->users(n)) {
        const uint32_t m = st_.map[ms_][u.user];
        if (m == kNone) continue;
        auto theirs = A().v->operands(m);
        if (u.pos >= theirs.size()) continue;
        const uint32_t x = theirs[u.pos].node;
        if (A().param[x] && !A().v->leaf[x] && st_.free(as_, x)) {
          st_.MatchSided(ms_, n, x, MatcherId::kRelaxed);
          break;
        }
      }
    }
  }

  State& st_;
  const int ms_, as_;  // the module-level side and the aten side
  Side sides_[2];
  std::vector<uint32_t> value_;
  // Scratch, reused across nodes.
  std::vector<uint32_t> ops_, aops_, siblings_, starts_, users_, reach_, prefix_;
  std::vector<uint64_t> want_;
  std::vector<uint8_t> reads_;
  std::vector<double> dp_;
  std::vector<uint32_t> choice_;
};

}  // namespace

void ModuleChainMatcher::Run(State& st) {
  int ms = -1;
  for (int s = 0; s < 2; ++s) {
    bool any = false;
    for (uint32_t v = 0; v < st.side[s].size && !any; ++v) any = st.side[s].module[v];
    if (!any) continue;
    if (ms != -1) return;  // both module-level: same-level matchers do it
    ms = s;
  }
  if (ms == -1) return;
  ChainAligner(st, ms).Run();
}

}  // namespace graphdiff::align
