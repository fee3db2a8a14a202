// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// Parse, pair, align, diff and render, as `graphdiff diff` does: the input
// is two dumps split at the first "\n====\n" (or one dump against itself),
// and every report must be clean whatever the dumps held.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_target.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/gate.h"
#include "graphdiff/report.h"

namespace {

// The same bytes twice in one dump: the second file is a copy of the first
// one's parse (RepeatedFiles), which must be what parsing it gives; a diff
// of the dump with itself pairs every graph node for node.
void CheckRepeatedFile(const std::string& text, const graphdiff::Dump& alone,
                       const graphdiff::LoadOptions& options) {
  using namespace graphdiff;
  absl::StatusOr<Dump> twice =
      LoadDumpFromMemory("left", {{"a/ir.txt", text}, {"b/ir.txt", text}}, options);
  // A file skipped alone (empty, not a dump) is skipped twice.
  const size_t files = alone.files.size();
  if (!twice.ok() || twice->files.size() != 2 * files ||
      twice->skipped.size() != 2 * alone.skipped.size()) {
    std::fprintf(stderr, "a file loaded alone did not load the same twice\n");
    std::abort();
  }
  if (files == 0) return;
  const DumpFile& one = alone.files[0];
  for (const DumpFile& f : twice->files) {
    bool same = f.graphs.size() == one.graphs.size() && f.warnings.size() == one.warnings.size();
    for (size_t i = 0; same && i < f.graphs.size(); ++i) {
      same = EncodeGraph(f.graphs[i]) == EncodeGraph(one.graphs[i]) &&
             f.graphs[i].source.first_line == one.graphs[i].source.first_line &&
             f.graphs[i].source.file == f.source;
    }
    for (size_t i = 0; same && i < f.warnings.size(); ++i) {
      same = f.warnings[i].message == one.warnings[i].message &&
             f.warnings[i].line == one.warnings[i].line && f.warnings[i].source == f.source;
    }
    if (!same) {
      std::fprintf(stderr, "%s: a repeated file is not its own parse\n", f.path.c_str());
      std::abort();
    }
  }
  absl::StatusOr<DiffResult> self = DiffDumps(*twice, *twice);
  if (self.ok() && !self->identical()) {
    std::fprintf(stderr, "a dump differs from itself\n");
    std::abort();
  }
}

}  // namespace

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
  CheckRepeatedFile(left, *l, options);
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
