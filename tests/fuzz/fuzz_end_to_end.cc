// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// Parse, pair, align, diff and render, as `graphdiff diff` does: the input
// is two dumps split at the first "\n====\n" (or one dump against itself),
// and every report must be clean whatever the dumps held.
#include "fuzz_target.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/gate.h"
#include "graphdiff/report.h"

GRAPHDIFF_FUZZ_TARGET(end_to_end) {
  using namespace graphdiff;
  std::string_view text = fuzz::AsText(data, size);
  constexpr std::string_view kSplit = "\n====\n";
  size_t cut = text.find(kSplit);
  std::string left(text.substr(0, cut));
  std::string right(cut == std::string_view::npos ? text : text.substr(cut + kSplit.size()));
  LoadOptions options;
  options.threads = 1;
  options.max_file_bytes = 4 << 20;
  absl::StatusOr<Dump> l = LoadDumpFromMemory("left", {{"ir.txt", left}}, options);
  absl::StatusOr<Dump> r = LoadDumpFromMemory("right", {{"ir.txt", right}}, options);
  if (!l.ok() || !r.ok()) return 0;
  absl::StatusOr<DiffResult> diff = DiffDumps(*l, *r);
  if (!diff.ok()) return 0;
  RenderOptions render;
  render.verbose = true;
  render.all = true;
  fuzz::CheckJsonOutput(RenderDiff(*diff, ReportFormat::kJson, render), "diff json");
  fuzz::CheckCleanOutput(RenderDiff(*diff, ReportFormat::kText, render), "diff text");
  fuzz::CheckCleanOutput(RenderDiff(*diff, ReportFormat::kMarkdown, render), "diff markdown");
  fuzz::CheckCleanOutput(RenderDiffStat(*diff, render), "diff stat");
  fuzz::CheckCleanOutput(RenderDiffBrief(*diff), "diff brief");
  LintReport lint{"left", LintDump(*l), {}};
  fuzz::CheckJsonOutput(RenderLint(lint, ReportFormat::kJson, render), "lint json");
  fuzz::CheckCleanOutput(RenderLint(lint, ReportFormat::kText, render), "lint text");
  Baseline before = SnapshotDump(*l), after = SnapshotDump(*r);
  fuzz::CheckJsonOutput(BaselineToJson(before), "baseline");
  CheckResult check = CheckAgainstBaseline(before, after, DefaultBudget(), {}, "b.json");
  fuzz::CheckCleanOutput(RenderCheckText(check), "check text");
  fuzz::CheckCleanOutput(RenderCheckMarkdown(check), "check markdown");
  fuzz::CheckCleanOutput(RenderCheckJunit(check), "check junit");
  fuzz::CheckCleanOutput(RenderCheckCsv(check), "check csv");
  fuzz::CheckJsonOutput(RenderCheckJson(check), "check json");
  return 0;
}
