// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The check every parser that shares one string pool among the graphs of a
// dump owes: a string interned into one graph after the parse is that
// graph's alone (the sealed pool is copied on write).
#ifndef GRAPHDIFF_TESTS_TESTING_SHARED_POOL_H_
#define GRAPHDIFF_TESTS_TESTING_SHARED_POOL_H_

#include <string_view>

#include "graphdiff/graph.h"

namespace graphdiff::testing {

// Interns a new string into `writer`, which shares its pool with `other`:
// `writer` finds it and keeps `kept` (one of its ids) as `kept_text`;
// `other` neither sees it nor grows; `writer` no longer shares its pool.
void ExpectWriteStaysInOneGraph(Graph& writer, const Graph& other, StrId kept,
                                std::string_view kept_text);

}  // namespace graphdiff::testing

#endif  // GRAPHDIFF_TESTS_TESTING_SHARED_POOL_H_
