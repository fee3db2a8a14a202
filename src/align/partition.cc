// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/partition.h"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "align/hash.h"
#include "align/radix_sort.h"

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
    // By key, then element: made in element order, so a stable sort by
    // key alone gives it.
    std::vector<std::pair<uint64_t, uint32_t>> order(n);
    for (uint32_t x = 0; x < n; ++x) order[x] = {key[x], x};
    if (n < kRadixMin) {
      std::sort(order.begin(), order.end());
    } else {
      RadixSort(order, [](const std::pair<uint64_t, uint32_t>& e) { return e.first; }, 64);
    }
    elems_.resize(n);
    for (uint32_t i = 0; i < n; ++i) elems_[i] = order[i].second;
  }
  elem_.assign(n, Element{0, 0, 0});
  for (uint32_t i = 0; i < n;) {
    uint32_t j = i;
    uint32_t left = 0;
    const auto c = static_cast<uint32_t>(cells_.size());
    while (j < n && key[elems_[j]] == key[elems_[i]]) {
      left += elems_[j] < n0_;
      ++j;
    }
    cells_.push_back(Cell{i, j, left, 0, fixed[elems_[i]], 0});
    for (uint32_t k = i; k < j; ++k) {
      elem_[elems_[k]].pos = k;
      elem_[elems_[k]].cell = c;
    }
    i = j;
  }
  first_split_cell_ = static_cast<uint32_t>(cells_.size());
  for (uint32_t c = 0; c < num_cells(); ++c) Push(c);
}

void JointPartition::Push(uint32_t c) {
  if (cells_[c].queued) return;
  cells_[c].queued = 1;
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
  const uint32_t last = cells_[c].end - 1;
  const uint32_t y = elems_[last];
  const uint32_t px = elem_[x].pos;
  elems_[px] = y;
  elem_[y].pos = px;
  elems_[last] = x;
  elem_[x].pos = last;
  --cells_[c].end;
}

uint32_t JointPartition::NewCell(uint32_t parent, uint32_t count) {
  // The last `count` members of `parent` become the new cell.
  const auto c = static_cast<uint32_t>(cells_.size());
  const uint32_t e = cells_[parent].end;
  const uint32_t b = e - count;
  uint32_t left = 0;
  for (uint32_t k = b; k < e; ++k) {
    elem_[elems_[k]].cell = c;
    left += elems_[k] < n0_;
  }
  cells_[parent].end = b;
  cells_[parent].left -= left;
  cells_.push_back(Cell{b, e, left, 0, cells_[parent].fixed, 0});
  parent_.push_back(parent);
  return c;
}

void JointPartition::SplitBy(uint32_t splitter) {
  touched_.clear();
  for (uint32_t k = cells_[splitter].start; k < cells_[splitter].end; ++k) {
    ForEachEdge(elems_[k], [&](uint32_t t, uint64_t code) {
      Element& e = elem_[t];
      if (!(e.pos & kMarked)) {
        e.pos |= kMarked;
        touched_.push_back(t);
      }
      e.sig += code;
    });
  }
  // Touched members grouped by cell with a counting pass, in order of first
  // touch; only a cell whose members saw the splitter differently needs its
  // segment sorted. Sorting every touch was the refinement's main cost.
  split_.clear();
  for (uint32_t t : touched_) {
    Cell& cell = cells_[elem_[t].cell];
    if (cell.end - cell.start > 1 && !cell.fixed && cell.count++ == 0) {
      split_.push_back(elem_[t].cell);
    }
  }
  uint32_t total = 0;
  for (uint32_t c : split_) {
    const uint32_t n = cells_[c].count;
    cells_[c].count = total;  // becomes the segment's end after the scatter
    total += n;
  }
  groups_.resize(total);
  for (uint32_t t : touched_) {
    Element& e = elem_[t];
    Cell& cell = cells_[e.cell];
    if (cell.end - cell.start > 1 && !cell.fixed) groups_[cell.count++] = Touch{e.cell, e.sig, t};
    e.sig = 0;
    e.pos &= ~kMarked;
  }
  uint32_t begin = 0;
  for (uint32_t c : split_) {
    const uint32_t end = cells_[c].count;
    cells_[c].count = 0;
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
    const bool balanced_before = cells_[c].left * 2 == size(c);
    const bool was_queued = cells_[c].queued != 0;
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
      cells_[c].end += static_cast<uint32_t>(h - g);  // NewCell takes them back
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
      if (cells_[c].left * 2 != size(c)) inconsistent_ = true;
      for (uint32_t nc : made) {
        if (cells_[nc].left * 2 != size(nc)) inconsistent_ = true;
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
    cells_[c].queued = 0;
    SplitBy(c);
  }
}

void JointPartition::Undo(size_t mark) {
  while (parent_.size() > mark) {
    const uint32_t c = static_cast<uint32_t>(cells_.size()) - 1;
    const uint32_t p = parent_.back();
    for (uint32_t k = cells_[c].start; k < cells_[c].end; ++k) elem_[elems_[k]].cell = p;
    cells_[p].end = cells_[c].end;
    cells_[p].left += cells_[c].left;
    cells_.pop_back();
    parent_.pop_back();
  }
}

bool JointPartition::Individualise(uint32_t l, uint32_t r) {
  const uint32_t c = cell(l);
  if (cell(r) != c || fixed(c)) return false;
  if (size(c) == 2) return true;
  const size_t mark = parent_.size();
  // Move l and r to c's tail; they become a cell of their own.
  MoveToTail(c, l);
  MoveToTail(c, r);
  cells_[c].end += 2;
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
