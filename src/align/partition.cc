// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/partition.h"

#include <algorithm>
#include <initializer_list>
#include <tuple>

#include "absl/container/flat_hash_map.h"
#include "align/hash.h"

namespace graphdiff::align {
namespace {

// The colour a fixed cell lends its neighbours in the first round.
constexpr uint64_t kFixedColour = 0x66697864ULL;

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

JointPartition::JointPartition(const State& st, const std::vector<uint64_t>& key)
    : st_(st), n0_(st.side[0].size) {
  const uint32_t n = n0_ + st.side[1].size;
  elems_.reserve(n);
  // Cells are never empty, so there are never more than elements: room for
  // them all up front, as address space the pages of which are touched only
  // when used, instead of doubling (each step a fresh copy of every cell,
  // two million of them when individualising look-alikes one by one).
  cells_.reserve(n);
  parent_.reserve(n);
  elem_.assign(n, Element{0, 0, 0});
  fixed_.assign(n, 0);
  // Pairs made by earlier matchers are cells of their own that never split,
  // built as they are, without sorting a million keys that cannot split.
  auto add_fixed = [&](std::initializer_list<uint32_t> members) {
    const auto c = static_cast<uint32_t>(cells_.size());
    const auto start = static_cast<uint32_t>(elems_.size());
    uint32_t left = 0;
    for (uint32_t x : members) {
      elem_[x].cell = c;
      elem_[x].pos = static_cast<uint32_t>(elems_.size());
      elems_.push_back(x);
      fixed_[x] = 1;
      left += x < n0_;
    }
    cells_.push_back(Cell{start, static_cast<uint32_t>(elems_.size()), left, 0, 1, 0});
  };
  for (uint32_t l = 0; l < n0_; ++l) {
    const uint32_t r = st.map[0][l];
    if (r != kNone && st.map[1][r] == l) {
      add_fixed({l, n0_ + r});
    } else if (r != kNone || st.covered[0][l]) {
      add_fixed({l});
    }
  }
  for (uint32_t r = 0; r < n - n0_; ++r) {
    const uint32_t l = st.map[1][r];
    if ((l != kNone && st.map[0][l] != r) || (l == kNone && st.covered[1][r])) {
      add_fixed({n0_ + r});
    }
  }

  // One round of refinement, node by node: each free element's key
  // combined with the colours of its neighbours, per edge role. Walking
  // nodes in file order keeps neighbours close in memory, where splitting
  // cell by cell jumps across the graph for every edge; and the round
  // leaves the queue only the cells it split. On replicated graphs the
  // starting keys (the full-level fingerprints) are already stable, and
  // this pass is all refinement costs.
  // The refined keys go in each element's SplitBy scratch (zero again
  // before any split): a vector of its own was 8 bytes an element of fresh
  // memory.
  ForBothSides(st.parallel, [&](int s) {
    const uint32_t begin = s == 0 ? 0 : n0_, end = s == 0 ? n0_ : n;
    for (uint32_t x = begin; x < end; ++x) {
      if (fixed_[x]) continue;
      uint64_t sum = 0;
      ForEachEdge(x, /*include_fixed=*/true, [&](uint32_t t, uint64_t code) {
        sum += Combine(fixed_[t] ? Combine(kFixedColour, elem_[t].cell) : key[t], code);
      });
      elem_[x].sig = Combine(key[x], sum);
    }
  });
  // Cells by refined key, numbered in order of first appearance, members
  // in element order: a counting sort. There are far fewer cells than
  // elements, and sorting every element's key cost more than the round.
  // Each side numbers its keys on its own thread; the right side's then
  // take the left's numbers, or new ones in their order: the numbering one
  // pass over all elements gives, left elements coming first.
  const auto first_free_cell = static_cast<uint32_t>(cells_.size());
  struct SideCells {
    absl::flat_hash_map<uint64_t, uint32_t> index;  // key -> the side's own number
    std::vector<uint64_t> keys;                     // by the side's own number
    std::vector<uint32_t> count;
    std::vector<uint32_t> cell;  // the side's own number -> cell
  };
  SideCells side[2];
  ForBothSides(st.parallel, [&](int s) {
    const uint32_t begin = s == 0 ? 0 : n0_, end = s == 0 ? n0_ : n;
    SideCells& mine = side[s];
    for (uint32_t x = begin; x < end; ++x) {
      if (fixed_[x]) continue;
      const auto [it, added] =
          mine.index.try_emplace(elem_[x].sig, static_cast<uint32_t>(mine.keys.size()));
      if (added) {
        mine.keys.push_back(elem_[x].sig);
        mine.count.push_back(0);
      }
      elem_[x].sig = 0;
      elem_[x].cell = it->second;
      ++mine.count[it->second];
    }
  });
  for (int s = 0; s < 2; ++s) {
    SideCells& mine = side[s];
    mine.cell.resize(mine.keys.size());
    for (size_t k = 0; k < mine.keys.size(); ++k) {
      uint32_t c = kNone;
      if (s == 1) {
        const auto it = side[0].index.find(mine.keys[k]);
        if (it != side[0].index.end()) c = side[0].cell[it->second];
      }
      if (c == kNone) {
        c = static_cast<uint32_t>(cells_.size());
        cells_.push_back(Cell{0, 0, 0, 0, 0, 0});
      }
      mine.cell[k] = c;
      cells_[c].end += mine.count[k];
      if (s == 0) cells_[c].left = mine.count[k];
    }
  }
  auto at = static_cast<uint32_t>(elems_.size());
  for (uint32_t c = first_free_cell; c < num_cells(); ++c) {
    cells_[c].start = at;
    at += cells_[c].end;
    cells_[c].end = cells_[c].start + cells_[c].end;
  }
  elems_.resize(n);
  // Left members fill each cell from its start, right ones after them.
  ForBothSides(st.parallel, [&](int s) {
    const uint32_t begin = s == 0 ? 0 : n0_, end = s == 0 ? n0_ : n;
    const SideCells& mine = side[s];
    std::vector<uint32_t> next(mine.cell.size());
    for (size_t k = 0; k < next.size(); ++k) {
      const Cell& cell = cells_[mine.cell[k]];
      next[k] = cell.start + (s == 0 ? 0 : cell.left);
    }
    for (uint32_t x = begin; x < end; ++x) {
      if (fixed_[x]) continue;
      const uint32_t k = elem_[x].cell;
      elem_[x].cell = mine.cell[k];
      elem_[x].pos = next[k];
      elems_[next[k]++] = x;
    }
  });
  first_split_cell_ = static_cast<uint32_t>(cells_.size());
  // The round's cells are stable against the cells they came from (one per
  // starting key, and the fixed ones); as in Hopcroft's algorithm, of the
  // pieces of a split cell all but the largest go on the queue.
  absl::flat_hash_map<uint64_t, uint32_t> largest;  // starting key -> its largest piece
  for (uint32_t c = first_free_cell; c < num_cells(); ++c) {
    auto [it, added] = largest.try_emplace(key[elems_[cells_[c].start]], c);
    if (!added && size(c) > size(it->second)) it->second = c;
  }
  for (uint32_t c = first_free_cell; c < num_cells(); ++c) {
    if (largest.at(key[elems_[cells_[c].start]]) != c) Push(c);
  }
}

void JointPartition::Push(uint32_t c) {
  if (cells_[c].queued) return;
  cells_[c].queued = 1;
  queue_.push_back(c);
}

template <typename Fn>
void JointPartition::ForEachEdge(uint32_t element, bool include_fixed, Fn fn) const {
  const int s = element < n0_ ? 0 : 1;
  const uint32_t off = s == 0 ? 0 : n0_;
  const SideView& view = st_.side[s];
  const uint32_t v = element - off;
  const CodeTable& codes = Codes();
  auto ops = view.operands(v);
  // Fixed cells never split, so splitting reads only free neighbours.
  for (uint32_t i = 0; i < ops.size(); ++i) {
    const uint32_t t = off + ops[i].node;
    if (include_fixed || !fixed_[t]) fn(t, ReadBy(codes, i, ops[i].output));
  }
  for (const Use& u : view.users(v)) {
    const uint32_t t = off + u.user;
    if (include_fixed || !fixed_[t]) fn(t, Reads(codes, u.pos, u.output));
  }
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
    ForEachEdge(elems_[k], /*include_fixed=*/false, [&](uint32_t t, uint64_t code) {
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
