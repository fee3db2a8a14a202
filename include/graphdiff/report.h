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
#include <vector>

#include "absl/status/statusor.h"
#include "graphdiff/diff.h"
#include "graphdiff/findings.h"
#include "nlohmann/json.hpp"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

enum class ReportFormat { kText, kJson, kMarkdown };
// "text", "json", "markdown" (also "md").
absl::StatusOr<ReportFormat> ParseReportFormat(std::string_view name);

// Presentation choices. JSON ignores them (it always holds everything).
struct RenderOptions {
  bool color = false;     // ANSI colour (the CLI sets it on a tty)
  size_t max_items = 8;  // longer lists end with "... and N more"; 0 = all
  size_t width = 80;      // text wraps at this column
};

// The version of the diff and lint JSON documents.
inline constexpr int kReportSchemaVersion = 1;

// One switch over the formats.
std::string RenderDiff(const DiffResult& result, ReportFormat format,
                       const RenderOptions& options = {});
std::string RenderDiffText(const DiffResult& result, const RenderOptions& options = {});
std::string RenderDiffMarkdown(const DiffResult& result,
                               const RenderOptions& options = {});
nlohmann::ordered_json DiffResultToJson(const DiffResult& result);

// Reads the JSON back. Errors: wrong schema_version, a missing or mistyped
// key. GraphPairDiff::alignment stays empty (it is not serialised).
absl::StatusOr<DiffResult> DiffResultFromJson(const nlohmann::json& json);
nlohmann::ordered_json FindingToJson(const Finding& finding);
absl::StatusOr<std::vector<Finding>> FindingsFromJson(const nlohmann::json& findings);

// `graphdiff lint`: the findings of one dump.
struct LintReport {
  std::string root;
  std::vector<Finding> findings;
};
std::string RenderLint(const LintReport& report, ReportFormat format,
                       const RenderOptions& options = {});

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_REPORT_H_
