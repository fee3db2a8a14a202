// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Explaining a gate failure with the structural diff: the baseline keeps
// each graph's structure, so a failing graph is aligned with its baseline
// self and the diff's findings (hints included) say why it grew.
#ifndef GRAPHDIFF_SRC_GATE_EXPLAIN_H_
#define GRAPHDIFF_SRC_GATE_EXPLAIN_H_

#include <string>
#include <string_view>

#include "graphdiff/gate.h"

namespace graphdiff::gate_internal {

// Fills UnitCheck::diff_findings of every failing graph unit whose baseline
// and current units both carry a structure. A structure that does not decode
// becomes a note saying so, never a crash or a silent gap.
void ExplainFailures(const Baseline& baseline, const Baseline& current, CheckResult* result);

// `SyncTensorsGraph.49` -> `SyncTensorsGraph`: a graph name without the
// numeric suffix XLA derives from the module's id.
std::string StripNameCounter(std::string_view name);

}  // namespace graphdiff::gate_internal

#endif  // GRAPHDIFF_SRC_GATE_EXPLAIN_H_
