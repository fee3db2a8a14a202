// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// When a parser interns node names. The graphs of one dump share a string
// pool (StringPool::Share): the FX graphs of a log, the modules of an HLO
// text, the records of a save file.
#ifndef GRAPHDIFF_SRC_PARSE_INTERN_NAMES_H_
#define GRAPHDIFF_SRC_PARSE_INTERN_NAMES_H_

#include <cstddef>

namespace graphdiff {

// A graph of up to this many nodes (FX: body lines) interns its node names,
// so that `primals_1` or `%17`, repeated by every small graph of a dump, is
// stored once for all of them. A bigger graph's names are mostly its own:
// it stores them without the lookup.
inline constexpr size_t kInternNamesUpTo = 4096;

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_INTERN_NAMES_H_
