// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Lifted parameters: an AOTAutograd forward takes every parameter and buffer
// as a graph input (`primals_*`), a module-level graph reads them inside its
// module calls. Against such a graph only the module side's own inputs are
// data; the rest must stay out of everything that pairs graph inputs, or the
// one data input pairs with a weight and no dataflow chain starts.
//
// What tells a lifted parameter from data is where it is read: the weight
// and bias operands of the ops that hold parameters (convolution, the
// norms, addmm, embedding), possibly through parameter preparation (`t` of
// a Linear weight). Where that leaves more candidates than the module side
// has inputs (a learnt scale read by `mul`, a buffer of positions read by
// `embedding` as indices), AOTAutograd's calling convention decides:
// parameters and buffers come before the user's inputs.
#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "align/hash.h"
#include "align/matchers.h"

namespace graphdiff::align {
namespace {

// Ops that read parameters (and, through the op table, their variants),
// with the operand position of their data (operands are the node's tensor
// arguments in order; constants such as layer_norm's shape are attributes).
struct DataOperand {
  std::string_view op;
  uint32_t pos;
};
constexpr DataOperand kParameterOps[] = {
    {"aten::convolution", 0},        // input, weight, bias
    {"aten::native_batch_norm", 0},  // input, weight, bias, running mean, running var
    {"aten::native_layer_norm", 0},  // input, weight, bias
    {"aten::native_group_norm", 0},  // input, weight, bias
    {"aten::linear", 0},             // input, weight, bias
    {"aten::addmm", 1},              // bias, input, weight
    {"aten::mm", 0},                 // input, weight (transposed)
    {"aten::embedding", 1},          // weight, indices
};

// Ops that only prepare a parameter for its reader (`t` of a Linear weight,
// a view or a copy of it).
constexpr std::string_view kPreparation[] = {"aten::t", "aten::view", "aten::expand",
                                             "aten::clone"};

constexpr uint32_t kMaxPreparation = 4;

class LiftedFinder {
 public:
  LiftedFinder(const State& st, int s) : v_(st.side[s]) {
    const OpEquivalence& eq = *st.equivalence;
    for (const DataOperand& d : kParameterOps) {
      readers_.push_back({HashString(eq.ClassOf(d.op)), d.pos});
    }
    for (std::string_view p : kPreparation) prep_.push_back(HashString(eq.ClassOf(p)));
  }

  // Whether anything but an alias reads n.
  bool Read(uint32_t n) const {
    for (const Use& u : v_.users(n)) {
      if (!v_.alias[u.user]) return true;
    }
    return false;
  }

  // Every read of n (through preparation) is a parameter operand; n is read.
  bool Parameter(uint32_t n, uint32_t depth = 0) const {
    bool read = false;
    for (const Use& u : v_.users(n)) {
      if (v_.alias[u.user]) continue;
      read = true;
      const uint64_t cls = v_.cls[u.user];
      bool known = false, weight = false;
      for (const auto& [c, pos] : readers_) {
        if (c != cls) continue;
        known = true;
        weight = u.pos != pos;
      }
      if (known) {
        if (!weight) return false;
        continue;
      }
      bool prep = false;
      for (uint64_t p : prep_) prep |= p == cls;
      if (!prep || depth >= kMaxPreparation || v_.operands(u.user).size() != 1 ||
          !Parameter(u.user, depth + 1)) {
        return false;
      }
    }
    return read;
  }

 private:
  const SideView& v_;
  std::vector<std::pair<uint64_t, uint32_t>> readers_;
  std::vector<uint64_t> prep_;
};

}  // namespace

void MarkLiftedInputs(State& st) {
  for (int s = 0; s < 2; ++s) st.side[s].lifted.assign(st.side[s].size, 0);
  int ms = -1;
  for (int s = 0; s < 2; ++s) {
    bool any = false;
    for (uint32_t v = 0; v < st.side[s].size && !any; ++v) any = st.side[s].module[v];
    if (!any) continue;
    if (ms != -1) return;  // both module-level: nothing was lifted
    ms = s;
  }
  if (ms == -1) return;
  const int as = 1 - ms;
  const Graph& mg = *st.side[ms].graph;
  const Graph& ag = *st.side[as].graph;
  if (ag.kind != GraphKind::kFx || ag.inputs.size() <= mg.inputs.size()) return;
  const size_t surplus = ag.inputs.size() - mg.inputs.size();
  LiftedFinder finder(st, as);
  std::vector<uint32_t> data;
  size_t found = 0;
  for (uint32_t v : ag.inputs) {
    if (v >= st.side[as].size) continue;
    if (finder.Parameter(v)) {
      st.side[as].lifted[v] = 1;
      ++found;
    } else {
      data.push_back(v);
    }
  }
  if (found > surplus) {
    // More weights than the module side can have lifted: the reading rule
    // does not fit this graph, so it decides nothing.
    st.side[as].lifted.assign(st.side[as].size, 0);
    return;
  }
  if (found == 0) return;  // no sign of lifted parameters at all
  // The rest of the surplus: inputs nothing reads (an unused parameter),
  // then the leading candidates.
  size_t left = data.size() - std::min(data.size(), mg.inputs.size());
  for (uint32_t v : data) {
    if (left == 0) break;
    if (!finder.Read(v)) {
      st.side[as].lifted[v] = 1;
      --left;
    }
  }
  for (uint32_t v : data) {
    if (left == 0) break;
    if (!st.side[as].lifted[v]) {
      st.side[as].lifted[v] = 1;
      --left;
    }
  }
}

}  // namespace graphdiff::align
