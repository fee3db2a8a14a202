// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Which gate unit a single-dump finding belongs to. Shared by the snapshot
// (which counts findings per graph) and the check (which quotes them).
#ifndef GRAPHDIFF_SRC_GATE_FINDING_MAP_H_
#define GRAPHDIFF_SRC_GATE_FINDING_MAP_H_

#include <cstddef>
#include <vector>

#include "graphdiff/findings.h"
#include "graphdiff/gate.h"

namespace graphdiff::gate_internal {

// The index of the unit `finding.graph` names: a unit key, a loader source
// name or dump path (with `#record` when the file holds several graphs), or
// a graph name unique in the dump; else the file of its evidence when that
// file holds one unit. Returns units.size() for dump-wide findings.
size_t UnitForFinding(const std::vector<GateUnit>& units, const Finding& finding);

}  // namespace graphdiff::gate_internal

#endif  // GRAPHDIFF_SRC_GATE_FINDING_MAP_H_
