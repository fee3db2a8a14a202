// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The lint renderers, one per format file, chosen by render.cc.
#ifndef GRAPHDIFF_SRC_REPORT_FORMATS_H_
#define GRAPHDIFF_SRC_REPORT_FORMATS_H_

#include <string>

#include "graphdiff/report.h"
#include "nlohmann/json.hpp"

namespace graphdiff {

std::string RenderLintText(const LintReport& report, const RenderOptions& options);
std::string RenderLintMarkdown(const LintReport& report, const RenderOptions& options);
nlohmann::ordered_json LintToJson(const LintReport& report);
// The JSON values behind the public text functions.
nlohmann::ordered_json DiffResultToJsonValue(const DiffResult& result);
nlohmann::ordered_json FindingToJsonValue(const Finding& finding);
absl::StatusOr<DiffResult> DiffResultFromJsonValue(const nlohmann::json& json);
absl::StatusOr<std::vector<Finding>> FindingsFromJsonValue(const nlohmann::json& findings);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_REPORT_FORMATS_H_
