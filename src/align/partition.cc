// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/partition.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "align/hash.h"

namespace graphdiff::align {
namespace {

// Edge roles. A node read by a splitter member at operand `pos` (output
// `output`) and a node whose operand `pos` is a splitter member are
// different roles, so direction and position both count.
uint64_t ReadByCode(uint32_t pos, uint32_t output) {
  return Mix((static_cast<uint64_t>(pos) << 33) ^ (static_cast<uint64_t>(output) << 1) ^
             0x5eed0001ULL);
}
uint64_t ReadsCode(uint32_t pos, uint32_t output) {
  return Mix((static_cast<uint64_t>(pos) << 33) ^ (static_cast<uint64_t>(output) << 1) ^
             0x5eed0002ULL);
}

// The codes of small positions and outputs, which are nearly all of them,
// come from a table: refinement visits every edge many times.
constexpr uint32_t kTablePos = 64, kTableOut = 8;
struct CodeTable {
  uint64_t read_by[kTablePos][kTableOut];
  uint64_t reads[kTablePos][kTableOut];
  CodeTable() {
    for (uint32_t p = 0; p < kTablePos; ++p) {
      for (uint32_t o = 0; o < kTableOut; ++o) {
        read_by[p][o] = ReadByCode(p, o);
        reads[p][o] = ReadsCode(p, o);
      }
    }
  }
};
const CodeTable& Codes() {
  static const CodeTable* table = new CodeTable();
  return *table;
}
inline uint64_t ReadBy(const CodeTable& t, uint32_t pos, uint32_t output) {
  return pos < kTablePos && output < kTableOut ? t.read_by[pos][output]
                                               : ReadByCode(pos, output);
}
inline uint64_t Reads(const CodeTable& t, uint32_t pos, uint32_t output) {
  return pos < kTablePos && output < kTableOut ? t.reads[pos][output] : ReadsCode(pos, output);
}

}  // namespace

JointPartition::JointPartition(const State& st, const std::vector<uint64_t>& key,
                               const std::vector<uint8_t>& fixed)
    : st_(st), n0_(st.side[0].size) {
  const uint32_t n = n0_ + st.side[1].size;
  {
    std::vector<std::pair<uint64_t, uint32_t>> order(n);
    for (uint32_t x = 0; x < n; ++x) order[x] = {key[x], x};
    std::sort(order.begin(), order.end());
    elems_.resize(n);
    for (uint32_t i = 0; i < n; ++i) elems_[i] = order[i].second;
  }
  pos_.resize(n);
  cell_of_.resize(n);
  for (uint32_t i = 0; i < n;) {
    uint32_t j = i;
    uint32_t left = 0;
    const auto c = static_cast<uint32_t>(start_.size());
    while (j < n && key[elems_[j]] == key[elems_[i]]) {
      left += elems_[j] < n0_;
      ++j;
    }
    start_.push_back(i);
    end_.push_back(j);
    left_.push_back(left);
    fixed_.push_back(fixed[elems_[i]]);
    queued_.push_back(0);
    for (uint32_t k = i; k < j; ++k) {
      pos_[elems_[k]] = k;
      cell_of_[elems_[k]] = c;
    }
    i = j;
  }
  first_split_cell_ = static_cast<uint32_t>(start_.size());
  for (uint32_t c = 0; c < num_cells(); ++c) Push(c);
  sig_.assign(n, 0);
  mark_.assign(n, 0);
}

void JointPartition::Push(uint32_t c) {
  if (queued_[c]) return;
  queued_[c] = 1;
  queue_.push_back(c);
}

template <typename Fn>
void JointPartition::ForEachEdge(uint32_t element, Fn fn) const {
  const int s = element < n0_ ? 0 : 1;
  const uint32_t off = s == 0 ? 0 : n0_;
  const SideView& view = st_.side[s];
  const uint32_t v = element - off;
  const CodeTable& codes = Codes();
  auto ops = view.operands(v);
  for (uint32_t i = 0; i < ops.size(); ++i) {
    fn(off + ops[i].node, ReadBy(codes, i, ops[i].output));
  }
  for (const Use& u : view.users(v)) fn(off + u.user, Reads(codes, u.pos, u.output));
}

void JointPartition::MoveToTail(uint32_t c, uint32_t x) {
  // Swaps x with the last member of c's range and shrinks the range by one.
  const uint32_t last = end_[c] - 1;
  const uint32_t y = elems_[last];
  const uint32_t px = pos_[x];
  elems_[px] = y;
  pos_[y] = px;
  elems_[last] = x;
  pos_[x] = last;
  --end_[c];
}

uint32_t JointPartition::NewCell(uint32_t parent, uint32_t count) {
  // The last `count` members of `parent` become the new cell.
  const auto c = static_cast<uint32_t>(start_.size());
  const uint32_t e = end_[parent];
  const uint32_t b = e - count;
  uint32_t left = 0;
  for (uint32_t k = b; k < e; ++k) {
    cell_of_[elems_[k]] = c;
    left += elems_[k] < n0_;
  }
  end_[parent] = b;
  left_[parent] -= left;
  start_.push_back(b);
  end_.push_back(e);
  left_.push_back(left);
  fixed_.push_back(fixed_[parent]);
  queued_.push_back(0);
  parent_.push_back(parent);
  return c;
}

void JointPartition::SplitBy(uint32_t splitter) {
  touched_.clear();
  for (uint32_t k = start_[splitter]; k < end_[splitter]; ++k) {
    ForEachEdge(elems_[k], [&](uint32_t t, uint64_t code) {
      if (!mark_[t]) {
        mark_[t] = 1;
        touched_.push_back(t);
      }
      sig_[t] += code;
    });
  }
  // Touched members grouped by cell with a counting pass, in order of first
  // touch; only a cell whose members saw the splitter differently needs its
  // segment sorted. Sorting every touch was the refinement's main cost.
  if (count_.size() < start_.size()) count_.resize(start_.size(), 0);
  cells_.clear();
  for (uint32_t t : touched_) {
    const uint32_t c = cell_of_[t];
    if (size(c) > 1 && !fixed_[c] && count_[c]++ == 0) cells_.push_back(c);
  }
  uint32_t total = 0;
  for (uint32_t c : cells_) {
    const uint32_t n = count_[c];
    count_[c] = total;  // becomes the segment's end after the scatter
    total += n;
  }
  groups_.resize(total);
  for (uint32_t t : touched_) {
    const uint32_t c = cell_of_[t];
    if (size(c) > 1 && !fixed_[c]) groups_[count_[c]++] = Touch{c, sig_[t], t};
    sig_[t] = 0;
    mark_[t] = 0;
  }
  uint32_t begin = 0;
  for (uint32_t c : cells_) {
    const uint32_t end = count_[c];
    count_[c] = 0;
    bool alike = true;
    for (uint32_t k = begin + 1; k < end && alike; ++k) {
      alike = groups_[k].sig == groups_[begin].sig;
    }
    if (!alike) {
      std::sort(groups_.begin() + begin, groups_.begin() + end, [](const Touch& a, const Touch& b) {
        return std::tie(a.sig, a.element) < std::tie(b.sig, b.element);
      });
    }
    begin = end;
  }
  for (size_t i = 0; i < groups_.size();) {
    const uint32_t c = groups_[i].cell;
    size_t j = i;
    while (j < groups_.size() && groups_[j].cell == c) ++j;
    const uint32_t touched = static_cast<uint32_t>(j - i);
    if (touched == size(c) && groups_[i].sig == groups_[j - 1].sig) {
      i = j;
      continue;  // every member sees the splitter alike
    }
    const bool balanced_before = left_[c] * 2 == size(c);
    const bool was_queued = queued_[c] != 0;
    // Untouched members stay in c; so does the first group when every
    // member was touched. Each other group moves to c's tail and becomes
    // a new cell.
    size_t g = i;
    if (touched == size(c)) {
      while (g < j && groups_[g].sig == groups_[i].sig) ++g;
    }
    uint32_t largest = c;
    uint32_t largest_size = 0;  // c's final size is known only at the end
    std::vector<uint32_t>& made = made_;
    made.clear();
    while (g < j) {
      size_t h = g;
      while (h < j && groups_[h].sig == groups_[g].sig) ++h;
      for (size_t k = g; k < h; ++k) MoveToTail(c, groups_[k].element);
      end_[c] += static_cast<uint32_t>(h - g);  // NewCell takes them back
      const uint32_t nc = NewCell(c, static_cast<uint32_t>(h - g));
      made.push_back(nc);
      if (size(nc) > largest_size) {
        largest_size = size(nc);
        largest = nc;
      }
      g = h;
    }
    if (size(c) >= largest_size) largest = c;
    if (checking_ && balanced_before) {
      if (left_[c] * 2 != size(c)) inconsistent_ = true;
      for (uint32_t nc : made) {
        if (left_[nc] * 2 != size(nc)) inconsistent_ = true;
      }
    }
    // Hopcroft: when c was already waiting, all pieces must be used;
    // otherwise the partition is stable against c, and the counts against
    // its largest piece follow from the others.
    if (was_queued) {
      for (uint32_t nc : made) Push(nc);
    } else {
      if (largest != c) Push(c);
      for (uint32_t nc : made) {
        if (nc != largest) Push(nc);
      }
    }
    i = j;
  }
}

void JointPartition::Refine() {
  while (!queue_.empty()) {
    const uint32_t c = queue_.front();
    queue_.pop_front();
    queued_[c] = 0;
    SplitBy(c);
  }
}

void JointPartition::Undo(size_t mark) {
  while (parent_.size() > mark) {
    const uint32_t c = static_cast<uint32_t>(start_.size()) - 1;
    const uint32_t p = parent_.back();
    for (uint32_t k = start_[c]; k < end_[c]; ++k) cell_of_[elems_[k]] = p;
    end_[p] = end_[c];
    left_[p] += left_[c];
    start_.pop_back();
    end_.pop_back();
    left_.pop_back();
    fixed_.pop_back();
    queued_.pop_back();
    parent_.pop_back();
  }
}

bool JointPartition::Individualise(uint32_t l, uint32_t r) {
  const uint32_t c = cell_of_[l];
  if (cell_of_[r] != c || fixed_[c]) return false;
  if (size(c) == 2) return true;
  const size_t mark = parent_.size();
  // Move l and r to c's tail; they become a cell of their own.
  MoveToTail(c, l);
  MoveToTail(c, r);
  end_[c] += 2;
  // The partition was stable against c; against c minus the pair, the
  // counts follow from those against the pair.
  Push(NewCell(c, 2));
  checking_ = true;
  inconsistent_ = false;
  Refine();
  checking_ = false;
  if (inconsistent_) {
    Undo(mark);
    return false;
  }
  return true;
}

}  // namespace graphdiff::align
