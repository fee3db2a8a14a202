// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The one place that chooses a report format.
#include "fmt/format.h"
#include "graphdiff/report.h"
#include "report/formats.h"
#include "util/json_text.h"

namespace graphdiff {

absl::StatusOr<ReportFormat> ParseReportFormat(std::string_view name) {
  if (name == "text") return ReportFormat::kText;
  if (name == "json") return ReportFormat::kJson;
  if (name == "markdown" || name == "md") return ReportFormat::kMarkdown;
  return absl::InvalidArgumentError(
      fmt::format("unknown report format \"{}\" (expected text, json or markdown)", name));
}

std::string RenderDiff(const DiffResult& result, ReportFormat format,
                       const RenderOptions& options) {
  switch (format) {
    case ReportFormat::kText: return RenderDiffText(result, options);
    case ReportFormat::kJson: return DiffResultToJson(result);
    case ReportFormat::kMarkdown: return RenderDiffMarkdown(result, options);
  }
  return RenderDiffText(result, options);
}

std::string RenderLint(const LintReport& report, ReportFormat format,
                       const RenderOptions& options) {
  switch (format) {
    case ReportFormat::kText: return RenderLintText(report, options);
    case ReportFormat::kJson: return DumpJson(LintToJson(report));
    case ReportFormat::kMarkdown: return RenderLintMarkdown(report, options);
  }
  return RenderLintText(report, options);
}

}  // namespace graphdiff
