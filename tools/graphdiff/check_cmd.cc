// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// `graphdiff check DUMP --baseline FILE [--budget FILE]`: the CI size gate.
// Exit 0 within budget (PASS or IMPROVED), 1 over budget, 2 trouble.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "commands.h"
#include "fmt/format.h"
#include "graphdiff/gate.h"
#include "graphdiff/input.h"
#include "graphdiff/sanitize.h"
#include "cli_limits.h"

namespace graphdiff::cli {
namespace {

struct CheckArgs {
  std::string path;
  std::string baseline;
  std::string budget;
  std::string format = "text";
  std::string output;
  std::string markdown;
  std::string junit;
  bool update = false;
  bool allow_removal = false;
};

std::string Render(const CheckResult& r, const std::string& format) {
  if (format == "json") return RenderCheckJson(r);
  if (format == "csv") return RenderCheckCsv(r);
  if (format == "markdown") return RenderCheckMarkdown(r);
  if (format == "junit") return RenderCheckJunit(r);
  return RenderCheckText(r);
}

int RunCheck(const CheckArgs& args) {
  Budget budget = DefaultBudget();
  if (!args.budget.empty()) {
    absl::StatusOr<std::string> text = ReadInputFile(args.budget, "budget", CliLimits().max_input_bytes);
    if (!text.ok()) return Fail(text.status());
    absl::StatusOr<Budget> b = ParseBudget(*text, args.budget);
    if (!b.ok()) return Fail(b.status());
    budget = *std::move(b);
  }
  Baseline baseline;
  absl::StatusOr<std::string> text = ReadInputFile(args.baseline, "baseline", CliLimits().max_input_bytes);
  if (text.ok()) {
    absl::StatusOr<Baseline> b = ParseBaseline(*text, args.baseline);
    if (!b.ok()) return Fail(b.status());
    baseline = *std::move(b);
    bool any_graph = false;
    for (const GateUnit& u : baseline.units) any_graph = any_graph || u.kind == GateUnitKind::kGraph;
    if (!any_graph && !args.update) {
      // An empty baseline would pass every dump: the gate would be disarmed.
      return Fail(absl::InvalidArgumentError(fmt::format(
          "baseline {} holds no graphs, so it would pass anything; re-create it with "
          "`graphdiff snapshot DUMP -o {}` from a dump that has graphs",
          args.baseline, args.baseline)));
    }
  } else if (!(args.update && absl::IsNotFound(text.status()))) {
    return Fail(text.status());
  }
  std::vector<Finding> findings;
  std::vector<std::pair<std::string, std::string>> skipped;
  absl::StatusOr<Baseline> current = SnapshotPath(args.path, &findings, &skipped);
  if (!current.ok()) return Fail(current.status());
  CheckResult result = CheckAgainstBaseline(baseline, *current, budget, findings, args.baseline);
  result.skipped = std::move(skipped);
  for (const auto& [file, format] :
       {std::pair{args.markdown, "markdown"}, std::pair{args.junit, "junit"}}) {
    if (file.empty()) continue;
    if (absl::Status st = WriteOutput(file, Render(result, format)); !st.ok()) return Fail(st);
  }
  if (absl::Status st = WriteOutput(args.output, Render(result, args.format)); !st.ok()) {
    return Fail(st);
  }
  if (args.update) {
    int changed = 0, added = 0, removed = 0;
    std::vector<std::string> gone;
    for (const UnitCheck& u : result.units) {
      if (u.is_new) {
        ++added;
      } else if (u.is_missing) {
        ++removed;
        gone.push_back(u.key);
      } else if (!u.changes.empty()) {
        ++changed;
      }
    }
    if (removed > 0 && !args.allow_removal) {
      // Accepting a dump that lost graphs would quietly stop gating them.
      std::string list;
      for (size_t i = 0; i < gone.size() && i < 5; ++i) list += (i ? ", " : "") + gone[i];
      if (gone.size() > 5) list += fmt::format(", and {} more", gone.size() - 5);
      return Fail(absl::FailedPreconditionError(fmt::format(
          "not updating {}: {} unit{} of the baseline {} missing from {} ({}); if they are "
          "gone for good, add --allow-removal",
          args.baseline, removed, removed == 1 ? "" : "s", removed == 1 ? "is" : "are",
          args.path, list)));
    }
    if (absl::Status st = WriteOutput(args.baseline, BaselineToJson(*current)); !st.ok()) {
      return Fail(st);
    }
    std::string note =
        TerminalSafe(fmt::format("baseline {} updated from {}: {} changed, {} new, {} removed",
                                 args.baseline, args.path, changed, added, removed));
    std::fprintf(stderr, "graphdiff: %s\n", note.c_str());
    return kExitSame;
  }
  return result.verdict == GateVerdict::kFail ? kExitDifferent : kExitSame;
}

}  // namespace

Runner AddCheckCommand(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand(
      "check", "CI gate: compare a dump with a baseline under a budget (exit 1 over budget)");
  cmd->add_option("dump", args->path, "Dump file, directory or archive ('-': standard input)")
      ->required();
  cmd->add_option("--baseline", args->baseline, "Baseline JSON from `graphdiff snapshot`")
      ->required();
  cmd->add_option("--budget", args->budget,
                  "Budget JSON (limits per metric, graph and op); default: no growth");
  cmd->add_option("--format", args->format, "Report format")
      ->check(CLI::IsMember({"text", "json", "markdown", "junit", "csv"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Write the report to FILE instead of stdout");
  cmd->add_option("--markdown", args->markdown, "Also write the Markdown summary to FILE");
  cmd->add_option("--junit", args->junit, "Also write JUnit XML to FILE");
  cmd->add_flag("--update-baseline", args->update,
                "Accept the dump: rewrite the baseline from it and report what changed");
  cmd->add_flag("--allow-removal", args->allow_removal,
                "With --update-baseline: accept that graphs of the baseline are gone");
  AddLoadingOptions(cmd);
  AddLimitOptions(cmd);
  return [cmd, args]() -> int {
    if (!cmd->parsed()) return -1;
    return RunCheck(*args);
  };
}

}  // namespace graphdiff::cli
