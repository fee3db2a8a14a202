// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Carries what reading a dump skipped and tolerated into a DiffResult.
#ifndef GRAPHDIFF_SRC_ANALYZE_READING_H_
#define GRAPHDIFF_SRC_ANALYZE_READING_H_

#include "graphdiff/diff.h"
#include "graphdiff/dump.h"

namespace graphdiff::analyze {

// Appends `dump`'s skipped files and parser warnings to `result` under
// `side` and records how many graphs and metrics reports it held.
void AddReadingNotes(const Dump& dump, Side side, DiffResult* result);

}  // namespace graphdiff::analyze

#endif  // GRAPHDIFF_SRC_ANALYZE_READING_H_
