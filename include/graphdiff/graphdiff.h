// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The umbrella header: everything a tool linking graphdiff::graphdiff needs.
//
// The pipeline, one header per stage:
//   parse.h  text -> Graph / MetricsReport      (graph.h, metrics.h, strings.h)
//   dump.h   files, directories, archives -> Dump; pairing of two dumps
//   align.h  two graphs -> Alignment           (equivalence.h: op classes)
//   diff.h   two dumps -> DiffResult with findings (findings.h)
//   report.h DiffResult -> text | JSON | Markdown
//   stats.h  size facts of one graph
//   gate.h   snapshot a dump, check it against a baseline and budget
//   version.h
#ifndef GRAPHDIFF_GRAPHDIFF_H_
#define GRAPHDIFF_GRAPHDIFF_H_

#include "graphdiff/align.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/equivalence.h"
#include "graphdiff/findings.h"
#include "graphdiff/gate.h"
#include "graphdiff/graph.h"
#include "graphdiff/metrics.h"
#include "graphdiff/parse.h"
#include "graphdiff/report.h"
#include "graphdiff/stats.h"
#include "graphdiff/string_list.h"
#include "graphdiff/strings.h"
#include "graphdiff/version.h"
#include "graphdiff/visual.h"

#endif  // GRAPHDIFF_GRAPHDIFF_H_
