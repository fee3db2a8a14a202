// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// A partition of the nodes of both graphs together, refined to the coarsest
// stable colouring (two nodes share a cell only when they have the same
// number of neighbours in every cell, per edge role), with backtracking.
//
// Both sides live in one partition, so a cell is a set of look-alikes across
// the two graphs: one left and one right node alone in a cell is a match,
// a cell with as many left as right nodes is a set of interchangeable
// candidates, and a cell holding one side only is a difference. This is the
// colour refinement of graph isomorphism solvers (nauty, bliss, Traces):
// Hopcroft's "all but the largest piece" keeps the total work
// O((N + E) log N), and individualising one pair and refining again is how
// a choice among look-alikes propagates before the next one is made.
#ifndef GRAPHDIFF_SRC_ALIGN_PARTITION_H_
#define GRAPHDIFF_SRC_ALIGN_PARTITION_H_

#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "align/state.h"

namespace graphdiff::align {

class JointPartition {
 public:
  // Element ids: left node v is v, right node v is left_size + v. Nodes
  // paired (or covered) by earlier matchers are fixed cells, one per pair,
  // that never split. `key` gives the initial colour of every other element
  // (equal keys start in one cell; entries of fixed elements are unused).
  // The cells start refined by one round and with the queue of what that
  // round split: Refine() finishes the job.
  JointPartition(const State& st, const std::vector<uint64_t>& key);

  // Splits cells until the partition is stable.
  void Refine();

  // Puts l and r (element ids, same cell) in a cell of their own and
  // refines. Returns false, with the partition as it was before, when the
  // choice splits a cell with as many left as right nodes into pieces that
  // are not: then l and r are not interchangeable counterparts.
  bool Individualise(uint32_t l, uint32_t r);

  // Moves the members of cell c for which aside(element) holds into a
  // fixed cell of their own, without refining. Only for members the caller
  // has paired by an exact correspondence closed under neighbours (see
  // GuessLookAlikes): then no member of any other cell counts a neighbour
  // among them, and the partition stays stable. Never undone.
  template <typename Pred>
  void SetAside(uint32_t c, Pred aside) {
    const uint32_t end = cells_[c].end;
    uint32_t lo = cells_[c].start, hi = end;  // [hi, end): set aside
    // Only members on the wrong side of the split move: when a whole cell
    // goes, as it nearly always does, nothing does.
    for (;;) {
      while (lo < hi && !aside(elems_[lo])) ++lo;
      while (lo < hi && aside(elems_[hi - 1])) --hi;
      if (lo >= hi) break;
      --hi;
      std::swap(elems_[lo], elems_[hi]);
      elem_[elems_[lo]].pos = lo;
      elem_[elems_[hi]].pos = hi;
      ++lo;
    }
    const uint32_t moved = end - hi;
    if (moved == 0) return;
    if (moved < size(c)) {
      NewCell(c, moved);  // Individualise undoes only cells of its own call
      c = num_cells() - 1;
    }
    cells_[c].fixed = 1;
    for (uint32_t k = cells_[c].start; k < cells_[c].end; ++k) fixed_[elems_[k]] = 1;
  }

  uint32_t cell(uint32_t element) const { return elem_[element].cell; }
  uint32_t num_cells() const { return static_cast<uint32_t>(cells_.size()); }
  uint32_t size(uint32_t c) const { return cells_[c].end - cells_[c].start; }
  uint32_t left_count(uint32_t c) const { return cells_[c].left; }
  uint32_t right_count(uint32_t c) const { return size(c) - cells_[c].left; }
  bool fixed(uint32_t c) const { return cells_[c].fixed != 0; }
  // Members of cell c, in no particular order.
  const uint32_t* begin(uint32_t c) const { return elems_.data() + cells_[c].start; }
  const uint32_t* end(uint32_t c) const { return elems_.data() + cells_[c].end; }
  uint32_t left_size() const { return n0_; }

 private:
  void Push(uint32_t c);
  void MoveToTail(uint32_t c, uint32_t x);
  uint32_t NewCell(uint32_t parent, uint32_t count);
  void SplitBy(uint32_t splitter);
  void Undo(size_t trail_mark);
  template <typename Fn>
  void ForEachEdge(uint32_t element, bool include_fixed, Fn fn) const;

  // What refinement reads of an element and of a cell sits together: it
  // visits them in no order memory follows, and on big graphs its time is
  // the cache misses, one per array it touches.
  struct Element {
    uint64_t sig;  // SplitBy scratch: the sum of the splitter's edge codes
    uint32_t cell;
    uint32_t pos;  // index in elems_; kMarked is set while SplitBy counts it
  };
  static constexpr uint32_t kMarked = 1u << 31;
  struct Cell {
    uint32_t start, end;  // range in elems_
    uint32_t left;        // members from the left graph
    uint32_t count;       // SplitBy scratch, zero between calls
    uint8_t fixed, queued;
  };

  const State& st_;
  uint32_t n0_ = 0;
  std::vector<uint32_t> elems_;
  std::vector<Element> elem_;
  std::vector<Cell> cells_;
  std::vector<uint8_t> fixed_;  // per element: in a fixed cell
  std::deque<uint32_t> queue_;
  // parent_[c - first_split_cell_]: the cell that cell c was split from.
  // Cells are made in id order and undone in reverse, so the last one made
  // always sits right after its parent's range.
  std::vector<uint32_t> parent_;
  uint32_t first_split_cell_ = 0;
  bool checking_ = false;
  bool inconsistent_ = false;
  // Scratch for SplitBy.
  struct Touch {
    uint32_t cell;
    uint64_t sig;
    uint32_t element;
  };
  std::vector<uint32_t> touched_;
  std::vector<Touch> groups_;
  std::vector<uint32_t> made_;
  std::vector<uint32_t> split_;  // cells touched by the current splitter
};

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_PARTITION_H_
