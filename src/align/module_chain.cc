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

struct Side {
  const SideView* v;
  int s;
  std::vector<uint8_t> param;  // leaf, or computed from leaves only
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
    if (x.v->out_pos[last] != kNone) break;
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
  const int as = 1 - ms;
  Side sides[2];
  for (int s = 0; s < 2; ++s) {
    Side& x = sides[s];
    x.v = &st.side[s];
    x.s = s;
    x.param.assign(x.v->size, 0);
    for (uint32_t n = 0; n < x.v->size; ++n) {
      // Graph inputs carry data; get_attr and constants are parameters.
      if (x.v->leaf[n]) {
        x.param[n] = x.v->graph->nodes[n].kind != NodeKind::kInput;
        continue;
      }
      // A module call on parameters alone (`wpe(self.pos)`) counts as one:
      // its aten decomposition reads only get_attr nodes too.
      bool all = true;
      for (const ValueRef& r : x.v->operands(n)) all &= x.param[r.node] != 0;
      x.param[n] = all && !x.v->operands(n).empty() ? 1 : 0;
    }
  }
  const Side& M = sides[ms];
  const Side& A = sides[as];
  const OpEquivalence& eq = *st.equivalence;

  // What a module-side node may become, as aten class hashes.
  auto expected = [&](uint32_t n, std::vector<uint64_t>* out, bool* vanish) {
    out->clear();
    *vanish = false;
    const Graph& g = *M.v->graph;
    const Node& node = g.nodes[n];
    if (!M.v->module[n]) {
      // A function (`F.adaptive_avg_pool2d`) may decompose as its module does.
      out->push_back(M.v->cls[n]);
      for (std::string_view op : ModuleDecomposition(g.str(node.op))) {
        out->push_back(HashString(eq.ClassOf(op)));
      }
      return;
    }
    std::optional<std::string_view> target = g.attr(node, "target");
    std::string_view rep = ModuleOpFromName(target ? *target : g.str(node.op));
    if (rep.empty()) return;
    *vanish = ModuleMayVanish(rep);
    for (std::string_view op : ModuleDecomposition(rep)) out->push_back(HashString(eq.ClassOf(op)));
  };

  // Where a module-side value lives on the aten side: its pair, or for a
  // node that vanished, the value it passed through.
  std::vector<uint32_t> value(M.v->size, kNone);
  auto value_of = [&](uint32_t n) {
    const uint32_t m = st.map[ms][n];
    return m != kNone ? m : value[n];
  };

  std::vector<uint32_t> ops, aops, siblings, starts, users, reach, prefix;
  std::vector<uint64_t> want;
  std::vector<double> dp;
  std::vector<uint32_t> choice;
  for (uint32_t v = 0; v < M.v->size; ++v) {
    if (!Main(st, M, v) || value[v] != kNone) continue;
    DataOperands(M, v, &ops);
    if (ops.empty()) continue;
    bool ready = true;
    for (uint32_t p : ops) ready &= value_of(p) != kNone;
    if (!ready) continue;
    // Aten starts: free data users of the first operand's value that read
    // the values of all the others too.
    const uint32_t first = value_of(ops[0]);
    DataUsers(st, A, first, &starts);
    starts.erase(std::remove_if(starts.begin(), starts.end(),
                                [&](uint32_t u) {
                                  DataOperands(A, u, &aops);
                                  if (aops.size() != ops.size()) return true;
                                  for (uint32_t p : ops) {
                                    if (!std::binary_search(aops.begin(), aops.end(),
                                                            value_of(p))) {
                                      return true;
                                    }
                                  }
                                  return false;
                                }),
                 starts.end());
    // Module-side siblings reading the same values, in node order: both
    // traces record one forward in execution order, so the k-th reader on
    // one side is the k-th on the other when their counts agree.
    DataUsers(st, M, ops[0], &siblings);
    siblings.erase(std::remove_if(siblings.begin(), siblings.end(),
                                  [&](uint32_t u) {
                                    DataOperands(M, u, &aops);
                                    return aops != ops;
                                  }),
                   siblings.end());
    // A join whose aten op reads what its operands' chains computed after
    // them (`matmul`: `expand`, `clone`, `_unsafe_view` of each, then
    // `bmm`): walk each operand's free single-reader chain a few steps; the
    // node the walks meet at starts the join, and the walked nodes are
    // part of its decomposition.
    prefix.clear();
    if (starts.empty() && ops.size() >= 2) {
      uint32_t join = kNone;
      bool ok = true;
      reach.clear();
      for (uint32_t p : ops) {
        uint32_t cur = value_of(p);
        reach.push_back(cur);
        uint32_t meet = kNone;
        for (uint32_t step = 0; step < kMaxRun; ++step) {
          DataUsers(st, A, cur, &users);
          if (users.size() != 1) break;
          DataOperands(A, users[0], &aops);
          if (aops.size() != 1) {
            meet = users[0];
            break;
          }
          cur = users[0];
          reach.push_back(cur);
          prefix.push_back(cur);
        }
        if (meet == kNone || (join != kNone && meet != join)) ok = false;
        join = meet;
      }
      if (ok && join != kNone) {
        std::sort(reach.begin(), reach.end());
        DataOperands(A, join, &aops);
        for (uint32_t x : aops) ok &= std::binary_search(reach.begin(), reach.end(), x);
        if (ok) starts.assign(1, join);
      }
      if (starts.empty()) prefix.clear();
    }
    uint32_t start = kNone;
    if (starts.size() == siblings.size()) {
      const size_t k = std::find(siblings.begin(), siblings.end(), v) - siblings.begin();
      if (k < starts.size()) start = starts[k];
    } else if (!M.v->module[v]) {
      for (uint32_t u : starts) {
        if (A.v->cls[u] == M.v->cls[v]) {
          start = u;
          break;
        }
      }
    } else if (starts.size() == 1) {
      start = starts[0];
    }
    if (start == kNone) {
      // No aten node to start from: only a module that vanishes passes the
      // value on (its readers then start from it). Walking the chain here
      // could repeat for every node of an unpairable chain.
      bool vanish = false;
      expected(v, &want, &vanish);
      if (vanish && ops.size() == 1) value[v] = first;
      continue;
    }
    std::vector<uint32_t> c = Chain(st, M, v);
    std::vector<uint32_t> d = Chain(st, A, start);
    const uint32_t k = static_cast<uint32_t>(c.size()), j = static_cast<uint32_t>(d.size());
    // dp[i][t]: cost of aligning c[0..i) with d[0..t).
    const double inf = std::numeric_limits<double>::infinity();
    dp.assign(static_cast<size_t>(k + 1) * (j + 1), inf);
    choice.assign(static_cast<size_t>(k + 1) * (j + 1), 0);
    auto at = [&](uint32_t i, uint32_t t) { return static_cast<size_t>(i) * (j + 1) + t; };
    dp[at(0, 0)] = 0;
    for (uint32_t i = 0; i < k; ++i) {
      bool vanish = false;
      expected(c[i], &want, &vanish);
      const bool function = !M.v->module[c[i]];
      for (uint32_t t = 0; t <= j; ++t) {
        const double base = dp[at(i, t)];
        if (base == inf) continue;
        for (uint32_t len = 0; len <= kMaxRun && t + len <= j; ++len) {
          double cost;
          if (len == 0) {
            // A function op is written in the trace; it vanishes less
            // readily than a module whose class nobody knows.
            cost = (vanish ? 0.0 : kEmpty) + (function ? kClassMiss : 0.0) + kLateEmpty * i;
          } else {
            // Each node beyond the first costs, less when it is one the
            // node is known to become (`getitem` -> three `slice`s).
            bool hit = false;
            cost = -kExtra;
            for (uint32_t q = t; q < t + len; ++q) {
              const bool fits =
                  std::find(want.begin(), want.end(), A.v->cls[d[q]]) != want.end();
              hit |= fits;
              cost += fits ? kFitExtra : kExtra;
            }
            cost += -(hit ? kNameHit : 0.0) + (function && !hit ? kClassMiss : 0.0) +
                    (vanish ? kEmpty : 0.0);
          }
          if (base + cost < dp[at(i + 1, t + len)]) {
            dp[at(i + 1, t + len)] = base + cost;
            choice[at(i + 1, t + len)] = len;
          }
        }
      }
    }
    // The aten chain may run on past the module chain's end: the nodes a
    // join (`matmul` of two chains) computes before its own op (`expand`,
    // `clone`, `_unsafe_view` of each operand) sit at the end of the
    // chains it reads. Left over, they are the join's to take.
    // Only where the aten chain does end at a join.
    bool before_join = false;
    DataUsers(st, A, d.back(), &users);
    if (users.size() == 1) {
      DataOperands(A, users[0], &aops);
      before_join = aops.size() >= 2;
    }
    uint32_t end = j;
    double best = dp[at(k, j)];
    for (uint32_t t = 0; before_join && t < j; ++t) {
      const double total = dp[at(k, t)] + kSuffix * (j - t);
      if (total < best) {
        best = total;
        end = t;
      }
    }
    if (best == inf) {
      // Runs of at most kMaxRun cannot cover the chain: the longest
      // covered prefix.
      while (end > 0 && dp[at(k, end)] == inf) --end;
      if (dp[at(k, end)] == inf) continue;
    }
    std::vector<uint32_t> run_begin(k + 1);
    run_begin[k] = end;
    for (uint32_t i = k, t = end; i > 0; --i) {
      t -= choice[at(i, t)];
      run_begin[i - 1] = t;
    }
    uint32_t carried = first;
    for (uint32_t i = 0; i < k; ++i) {
      const uint32_t b = run_begin[i], e = run_begin[i + 1];
      if (b == e) {
        value[c[i]] = carried;
        continue;
      }
      // The node whose value leaves the run is the counterpart; the rest of
      // the run, and parameter preparation read only by it (`t` of a
      // weight), are the decomposition.
      const uint32_t root = d[e - 1];
      carried = root;
      if (e - b == 1 && !M.v->module[c[i]] && M.v->cls[c[i]] == A.v->cls[root]) {
        // The same op on both levels: propagation pairs it from its
        // operands, as it would without module calls around.
        value[c[i]] = root;
        continue;
      }
      st.MatchSided(ms, c[i], root, MatcherId::kRelaxed);
      auto cover = [&](uint32_t x) {
        st.covered[as][x] = 1;
        if (ms == 0) {
          st.extra.emplace_back(c[i], x);
        } else {
          st.extra.emplace_back(x, c[i]);
        }
      };
      for (uint32_t q = b; q + 1 < e; ++q) cover(d[q]);
      if (i == 0) {
        for (uint32_t x : prefix) {
          if (st.free(as, x)) cover(x);
        }
      }
      for (uint32_t q = b; q < e; ++q) {
        for (const ValueRef& r : A.v->operands(d[q])) {
          const uint32_t x = r.node;
          if (!A.param[x] || A.v->leaf[x] || !st.free(as, x)) continue;
          bool only = true;
          for (const Use& u : A.v->users(x)) {
            only &= std::find(d.begin() + b, d.begin() + e, u.user) != d.begin() + e;
          }
          if (only) cover(x);
        }
      }
      carried = root;
    }
  }
  // Module calls on parameters alone pair with the parameter-only operand
  // at their place in the reader's counterpart (`wpe(self.pos)` with
  // `embedding(_param_constant1, _tensor_constant0)`).
  for (uint32_t n = 0; n < M.v->size; ++n) {
    if (!M.v->module[n] || !M.param[n] || !st.free(ms, n)) continue;
    for (const Use& u : M.v->users(n)) {
      const uint32_t m = st.map[ms][u.user];
      if (m == kNone) continue;
      auto theirs = A.v->operands(m);
      if (u.pos >= theirs.size()) continue;
      const uint32_t x = theirs[u.pos].node;
      if (A.param[x] && !A.v->leaf[x] && st.free(as, x)) {
        st.MatchSided(ms, n, x, MatcherId::kRelaxed);
        break;
      }
    }
  }
}

}  // namespace graphdiff::align
