// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Reports: a DiffResult (or a lint result) rendered for a terminal, for
// machines (versioned JSON, docs/json-schema.md) or for a pull request
// (Markdown). The JSON can be read back, so tools that consume it and the
// structs here stay in step.
#ifndef GRAPHDIFF_REPORT_H_
#define GRAPHDIFF_REPORT_H_

#include "graphdiff/export.h"
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "graphdiff/diff.h"
#include "graphdiff/findings.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

struct PairGraphs;  // graphdiff/visual.h

// kHtml and kDot draw graphs (graphdiff/visual.h); Model Explorer export
// writes several files and has its own function there.
enum class ReportFormat { kText, kJson, kMarkdown, kHtml, kDot };
// "text", "json", "markdown" (also "md"), "html", "dot".
absl::StatusOr<ReportFormat> ParseReportFormat(std::string_view name);

// Presentation choices. JSON ignores them (it always holds everything).
// The default text report fits a screen: the verdict, each finding with one
// line of evidence, one line per differing pair, and counts of the rest.
struct RenderOptions {
  bool color = false;     // ANSI colour (the CLI sets it on a tty)
  size_t max_items = 8;  // longer lists end with "... and N more"; 0 = all
  size_t width = 80;      // text wraps at this column
  // Every finding's explanation and evidence, each pair's changed nodes,
  // counters, and every reading warning.
  bool verbose = false;
  // List identical pairs too (by default they are counted, not listed).
  bool all = false;
  // The graphs behind DiffResult::pairs (FindPairGraphs), for the formats
  // that draw; others ignore it. Null: HTML lists findings without drawings.
  const std::vector<PairGraphs>* graphs = nullptr;
  // Most nodes drawn per side of a pair (HTML, DOT); more are drawn on demand.
  size_t max_drawn_nodes = 300;
  // HTML: the first this many differing pairs are laid out by Graphviz; the
  // rest are drawn by the page when asked.
  size_t max_laid_out_pairs = 40;
};

// The version of the diff and lint JSON documents. Version 2 spells sameness
// "identical" everywhere (version 1 said "same" in the summary and in metrics
// pairs); readers take both, since those keys are derived, not read.
inline constexpr int kReportSchemaVersion = 2;
inline constexpr int kOldestReportSchemaVersion = 1;

// One switch over the formats.
std::string RenderDiff(const DiffResult& result, ReportFormat format,
                       const RenderOptions& options = {});
std::string RenderDiffText(const DiffResult& result, const RenderOptions& options = {});
std::string RenderDiffMarkdown(const DiffResult& result,
                               const RenderOptions& options = {});
// Like `git diff --stat`: one line per differing graph or metrics pair (node
// and output counts, a bar of changes), then a summary line.
std::string RenderDiffStat(const DiffResult& result, const RenderOptions& options = {});
// One line: the verdict and what was compared.
std::string RenderDiffBrief(const DiffResult& result);
// The documented JSON document (docs/json-schema.md), pretty-printed with a
// trailing newline.
std::string DiffResultToJson(const DiffResult& result);

// Reads the JSON text back. Errors: not JSON (with line and column), wrong
// schema_version, a missing or mistyped key. GraphPairDiff::alignment stays
// empty (it is not serialised).
absl::StatusOr<DiffResult> DiffResultFromJson(std::string_view json_text);
// Reads a JSON list of findings (the "findings" of a diff or lint document).
absl::StatusOr<std::vector<Finding>> FindingsFromJson(std::string_view json_text);

// `graphdiff lint`: the findings of one dump.
struct LintReport {
  std::string root;
  std::vector<Finding> findings;
  // Files of the dump not read as dumps, (path, reason) (Dump::skipped).
  std::vector<std::pair<std::string, std::string>> skipped;
};
std::string RenderLint(const LintReport& report, ReportFormat format,
                       const RenderOptions& options = {});

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_REPORT_H_
