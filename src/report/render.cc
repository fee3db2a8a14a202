// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The one place that chooses a report format.
#include "fmt/format.h"
#include "graphdiff/report.h"
#include "graphdiff/visual.h"
#include "report/formats.h"
#include "util/json_text.h"

namespace graphdiff {

absl::StatusOr<ReportFormat> ParseReportFormat(std::string_view name) {
  if (name == "text") return ReportFormat::kText;
  if (name == "json") return ReportFormat::kJson;
  if (name == "markdown" || name == "md") return ReportFormat::kMarkdown;
  if (name == "html") return ReportFormat::kHtml;
  if (name == "dot") return ReportFormat::kDot;
  return absl::InvalidArgumentError(fmt::format(
      "unknown report format \"{}\" (expected text, json, markdown, html or dot)", name));
}

std::string RenderDiff(const DiffResult& result, ReportFormat format,
                       const RenderOptions& options) {
  switch (format) {
    case ReportFormat::kText: return RenderDiffText(result, options);
    case ReportFormat::kJson: return DiffResultToJson(result);
    case ReportFormat::kMarkdown: return RenderDiffMarkdown(result, options);
    case ReportFormat::kHtml: return RenderDiffHtml(result, options);
    case ReportFormat::kDot: return RenderDiffDot(result, options);
  }
  return RenderDiffText(result, options);
}

std::string RenderLint(const LintReport& report, ReportFormat format,
                       const RenderOptions& options) {
  switch (format) {
    case ReportFormat::kText: return RenderLintText(report, options);
    case ReportFormat::kJson: return DumpJson(LintToJson(report));
    case ReportFormat::kMarkdown:
    case ReportFormat::kHtml:  // lint has no pair to draw: its Markdown is the readable page
    case ReportFormat::kDot: return RenderLintMarkdown(report, options);
  }
  return RenderLintText(report, options);
}

}  // namespace graphdiff
