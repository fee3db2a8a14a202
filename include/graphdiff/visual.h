// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Visual reports: the diff drawn rather than listed. A self-contained HTML
// page (Graphviz-laid-out SVG of each changed region, left and right side by
// side, findings linked to their nodes, node details, search, expansion),
// the changed region as Graphviz DOT, and Model Explorer files (each side's
// graph, change-kind overlays and the node mapping for its split view).
//
// Drawing needs the graphs, not only the DiffResult: PairGraphs points at
// the two graphs behind each GraphPairDiff. Renderers read them and never
// keep the pointers.
#ifndef GRAPHDIFF_VISUAL_H_
#define GRAPHDIFF_VISUAL_H_

#include "graphdiff/export.h"
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/graph.h"
#include "graphdiff/report.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// The graphs one GraphPairDiff compared (null when unknown: that pair is
// listed but not drawn). Index i belongs to DiffResult::pairs[i].
struct PairGraphs {
  const Graph* left = nullptr;
  const Graph* right = nullptr;
  // The text of each graph's dump file, when the caller has it (Dump does
  // not keep it): the HTML page then shows each node's own dump line beside
  // the line rebuilt from the parsed node. Empty: rebuilt lines only.
  std::string_view left_text;
  std::string_view right_text;
};

// Finds each pair's graphs in the dumps DiffDumps compared, by file path,
// graph name and the node names of the pair's alignment (which tells apart
// graphs of one name in one file). The dumps must outlive the result.
// Errors: a pair's graphs are not in the dumps (a DiffResult of other dumps,
// or one read back from JSON, which has no alignment); a pair keeps rows for
// its changed node pairs only (DiffOptions::unchanged_rows = false).
absl::StatusOr<std::vector<PairGraphs>> FindPairGraphs(const DiffResult& result,
                                                       const Dump& left, const Dump& right);

// The HTML report: verdict, findings and, per differing graph pair, drawings
// of the changed region with its matched context, at most
// RenderOptions::max_drawn_nodes nodes per side (the rest is a click away:
// every node's data is embedded). One file: no network, no external assets.
// Without RenderOptions::graphs the page holds the findings and no drawings.
std::string RenderDiffHtml(const DiffResult& result, const RenderOptions& options = {});

// The changed region of each differing pair as Graphviz DOT: one digraph per
// pair with a cluster per side; added, removed, changed and unchanged nodes
// filled apart, extra outputs outlined, substitution groups clustered.
std::string RenderDiffDot(const DiffResult& result, const RenderOptions& options = {});

// A file of a multi-file report: a path relative to the output directory.
struct ReportFile {
  std::string path;
  std::string content;
};

// Model Explorer export, per differing graph pair k: `pairK.left.json` and
// `pairK.right.json` (graph JSON, {"graphs": [...]}), `pairK.left.nodedata.json`
// and `pairK.right.nodedata.json` (node-data overlays colouring nodes by change
// kind), `pairK.mapping.json` (sync-navigation mapping, one-to-many where a
// substitution made it), plus `index.json` listing them. Errors: no graphs.
absl::StatusOr<std::vector<ReportFile>> RenderModelExplorer(const DiffResult& result,
                                                            const RenderOptions& options);

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_VISUAL_H_
