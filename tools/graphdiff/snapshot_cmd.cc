// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// `graphdiff snapshot DUMP -o baseline.json`: the gate's baseline file.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "fmt/format.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/gate.h"
#include "graphdiff/sanitize.h"
#include "cli_limits.h"
#include "progress.h"

namespace graphdiff::cli {

absl::StatusOr<Baseline> SnapshotPath(const std::string& path, std::vector<Finding>* findings,
                                      std::vector<std::pair<std::string, std::string>>* skipped) {
  absl::StatusOr<Dump> dump = LoadInput(path);
  if (!dump.ok()) return dump.status();
  // A gate over nothing passes everything: refuse it.
  bool any_graph = false;
  for (const DumpFile& f : dump->files) any_graph = any_graph || !f.graphs.empty();
  if (!any_graph) {
    return absl::InvalidArgumentError(fmt::format(
        "no graphs to gate in {}: {}", path,
        HoldsSomething(*dump) ? std::string("it holds only metrics reports; a gate needs the "
                                            "graphs too (XLA_SAVE_TENSORS_FILE, TORCH_LOGS)")
                              : WhyNothingReadable(*dump, path)));
  }
  SetProgressPhase("linting");
  *findings = LintDump(*dump);
  for (const auto& [file, reason] : dump->skipped) {
    skipped->emplace_back(DisplayPath(path, file), reason);
  }
  return SnapshotDump(*dump, *findings);
}

namespace {

struct SnapshotArgs {
  std::string path;
  std::string output;
};

int RunSnapshot(const SnapshotArgs& args) {
  std::vector<Finding> findings;
  std::vector<std::pair<std::string, std::string>> skipped;
  absl::StatusOr<Baseline> b = SnapshotPath(args.path, &findings, &skipped);
  if (!b.ok()) return Fail(b.status());
  // The baseline is the report here; what it leaves out goes to stderr.
  StopProgress();
  for (const auto& [file, reason] : skipped) {
    std::string note = TerminalSafe(fmt::format("not in the baseline: {}: {}", file, reason));
    std::fprintf(stderr, "graphdiff: %s\n", note.c_str());
  }
  absl::Status st = WriteOutput(args.output, BaselineToJson(*b));
  return st.ok() ? kExitSame : Fail(st);
}

}  // namespace

Runner AddSnapshotCommand(CLI::App& app) {
  auto args = std::make_shared<SnapshotArgs>();
  CLI::App* cmd = app.add_subcommand(
      "snapshot", "Write a baseline (size facts, counters, findings) for `graphdiff check`");
  cmd->add_option("dump", args->path, "Dump file, directory or archive")->required();
  cmd->add_option("-o,--output", args->output, "Write the baseline to FILE instead of stdout");
  AddLoadingOptions(cmd);
  AddLimitOptions(cmd);
  return [cmd, args]() -> int {
    if (!cmd->parsed()) return -1;
    return RunSnapshot(*args);
  };
}

}  // namespace graphdiff::cli
