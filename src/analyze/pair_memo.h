// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Diffs of graph pairs already diffed, found again by content. A run's
// dumps repeat their graphs: a save file holds the same few step graphs
// again and again (only consecutive repeats fold into one record), and a
// log of recompiles prints the same code anew. Aligning is a function of
// the two graphs' content, so a pair whose graphs equal, node for node,
// those of a pair diffed before takes a copy of that alignment: on a dump
// of 10^5 small graphs, aligning was a third of the diff, mostly setting up
// a handful of nodes. So are the summary (counts, op deltas, node names and
// rows) and whether any finding fires, whatever the graphs' names, sources
// and lines: a repeat of a pair that had no finding takes the summary too.
#ifndef GRAPHDIFF_SRC_ANALYZE_PAIR_MEMO_H_
#define GRAPHDIFF_SRC_ANALYZE_PAIR_MEMO_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "graphdiff/align.h"
#include "graphdiff/diff.h"
#include "graphdiff/graph.h"

namespace graphdiff::analyze {

// A hash of everything aligning reads of a graph (ops, names, frames,
// attributes, result types, operands, inputs, outputs, kind), by string id:
// equal only for graphs whose pools share their strings.
uint64_t GraphContentHash(const Graph& g);

// Whether aligning or diffing `a` and `b` with the same other graph must
// give the same result, but for the names of graphs and sources and the
// lines findings point at: their pools share their strings and every field
// aligning, the summary and the findings read is equal (line numbers, names
// of the graphs and their sources only label what they find).
bool SameGraphContent(const Graph& a, const Graph& b);

// Finished diffs of the pairs of one diff, by the content of both graphs.
// Safe to use from several threads. Holds pointers: the graphs and the
// summaries added must outlive it, unchanged.
class PairMemo {
 public:
  // The key of a pair, computed without the lock.
  struct Key {
    const void* left_pool;
    const void* right_pool;
    uint64_t left_hash;
    uint64_t right_hash;
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.left_pool, k.right_pool, k.left_hash, k.right_hash);
    }
    friend bool operator==(const Key& a, const Key& b) {
      return a.left_pool == b.left_pool && a.right_pool == b.right_pool &&
             a.left_hash == b.left_hash && a.right_hash == b.right_hash;
    }
  };
  static Key KeyOf(const Graph& left, const Graph& right);

  // What a pair of the same content gave.
  struct Known {
    const GraphPairDiff* diff = nullptr;  // its summary
    const Alignment* alignment = nullptr;  // its alignment, when `diff` is set
    bool findings = true;                  // whether any finding fired on it
  };
  // The diff of graphs equal in content to `left` and `right`: `diff` is
  // null when there is none.
  Known Find(const Key& key, const Graph& left, const Graph& right) const;
  // Keeps the diff of `left` and `right` (the first one for its key). Its
  // alignment is `own`, or the summary's when `own` is null.
  void Add(const Key& key, const Graph& left, const Graph& right, const GraphPairDiff* diff,
           bool findings, std::shared_ptr<const Alignment> own = nullptr);

 private:
  struct Entry {
    const Graph* left;
    const Graph* right;
    Known known;
    std::shared_ptr<const Alignment> own;
  };
  mutable std::mutex mu_;
  absl::flat_hash_map<Key, Entry> entries_;
};

}  // namespace graphdiff::analyze

#endif  // GRAPHDIFF_SRC_ANALYZE_PAIR_MEMO_H_
