// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Scoring an alignment against a mutation's ground truth, up to nodes no
// alignment can tell apart, and the expectation every planted-change test
// makes: exactly the planted changes, nothing else, and a consistent
// alignment.
#ifndef GRAPHDIFF_TESTS_TESTING_EXPECT_ALIGNMENT_H_
#define GRAPHDIFF_TESTS_TESTING_EXPECT_ALIGNMENT_H_

#include <string>

#include "graphdiff/align.h"
#include "testing/graph_mutate.h"

namespace graphdiff::testing {

struct Score {
  double precision = 0, recall = 0;
};

// Precision and recall of the pairs against the truth, up to
// interchangeable nodes of the left graph `g`.
Score Compare(const Graph& g, const Alignment& a, const Mutated& m);

// Exactly the planted changes of `m` (a mutation of `g`), nothing else;
// the alignment passes VerifyAlignment.
void ExpectExactly(const Graph& g, const Alignment& a, const Mutated& m, const std::string& what);

}  // namespace graphdiff::testing

#endif  // GRAPHDIFF_TESTS_TESTING_EXPECT_ALIGNMENT_H_
