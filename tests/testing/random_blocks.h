// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Small random graphs made of look-alikes, for checking alignment's
// internals against slow, obvious versions of the same computation.
#ifndef GRAPHDIFF_TESTS_TESTING_RANDOM_BLOCKS_H_
#define GRAPHDIFF_TESTS_TESTING_RANDOM_BLOCKS_H_

#include <cstdint>

#include "graphdiff/graph.h"

namespace graphdiff::testing {

// `copies` copies of one random block of adds, muls, relus and exps over
// three shared inputs (every other copy's last node an output): look-alikes
// of every kind, with a different block for each seed. In copy
// `converted`, if any, a `_to_copy` sits between each node and its first
// operand, as a cast inserted by one compiler sits in the other's graph.
Graph RandomBlocks(uint64_t seed, int copies, int converted = -1);

}  // namespace graphdiff::testing

#endif  // GRAPHDIFF_TESTS_TESTING_RANDOM_BLOCKS_H_
