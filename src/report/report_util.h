// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Pieces the text and Markdown reports share: word wrapping, colour, the
// one-paragraph verdict, evidence lines.
#ifndef GRAPHDIFF_SRC_REPORT_REPORT_UTIL_H_
#define GRAPHDIFF_SRC_REPORT_REPORT_UTIL_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "graphdiff/diff.h"
#include "graphdiff/findings.h"

namespace graphdiff::report {

// Word-wraps `text` to `width` columns; the first line starts with `first`,
// later lines with `rest` (prefixes count toward the width). Words are made
// TerminalSafe (colour kept) before they are measured, so what escaping adds
// counts; words longer than a line are kept whole. Ends with a newline.
std::string Wrap(std::string_view text, size_t width, std::string_view first,
                 std::string_view rest);

// Columns `s` takes on a terminal: one per code point, colour sequences
// (ESC [ ... m) none.
size_t DisplayWidth(std::string_view s);

// `text` made TerminalSafe and cut to at most `width` columns, ending in
// "..." when cut (at a code point, never inside a colour sequence).
std::string Clip(std::string_view text, size_t width);

// ANSI SGR: `code` such as "1" (bold), "31" (red). Plain text when !color.
std::string Paint(std::string_view text, std::string_view code, bool color);
std::string_view SeverityColor(Severity s);

// "right ir.txt:8 %6 aten::expand: note" (parts left out when empty).
std::string EvidenceLine(const Evidence& e);

// "ir.txt" or "a.txt <-> b.txt".
std::string PairName(const GraphPairDiff& p);
// PairName of each of r.pairs, with the graphs' names after it where two
// pairs would read alike: "trace.log (aot_forward_graph [1/0])" for the
// graphs of a file of many (save records, TORCH_LOGS and TORCH_TRACE logs).
std::vector<std::string> PairLabels(const DiffResult& r);
std::string MetricsName(const MetricsPairDiff& m);
// "IR", "FX", "HLO".
std::string_view KindName(GraphKind kind);

// The verdict paragraph: same or different, how much was compared, and the
// titles of the most important findings.
std::string Verdict(const DiffResult& r);
// Its first part: same, different or nothing compared, and how much.
std::string VerdictHead(const DiffResult& r);

// Counts of findings per severity: "2 warnings, 3 info".
std::string SeverityCounts(const std::vector<Finding>& findings);

// How many of `total` items to show under `max_items` (0 = all).
inline size_t Shown(size_t total, size_t max_items) {
  return max_items == 0 || total <= max_items ? total : max_items;
}

}  // namespace graphdiff::report

#endif  // GRAPHDIFF_SRC_REPORT_REPORT_UTIL_H_
