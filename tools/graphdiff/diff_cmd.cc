// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// `graphdiff diff LEFT RIGHT`: load both dumps, diff, render. Exit 0 when the
// dumps are the same up to numbering and order, 1 when they differ, 2 on
// trouble.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <unistd.h>

#include "commands.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/equivalence.h"
#include "graphdiff/report.h"

namespace graphdiff::cli {

// Colour on a terminal only, unless forced; NO_COLOR and TERM=dumb opt out.
bool WantColor(const std::string& mode, const std::string& output) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  if (!output.empty() && output != "-") return false;
  if (std::getenv("NO_COLOR") != nullptr) return false;
  const char* term = std::getenv("TERM");
  if (term != nullptr && std::string(term) == "dumb") return false;
  return isatty(fileno(stdout)) != 0;
}

namespace {

struct DiffArgs {
  std::string left;
  std::string right;
  std::string format = "text";
  std::string output;
  std::string equiv;
  std::string color = "auto";
  size_t max_items = 8;
  std::string graph;
};

int RunDiff(const DiffArgs& args) {
  absl::StatusOr<ReportFormat> format = ParseReportFormat(args.format);
  if (!format.ok()) return Fail(format.status());
  OpEquivalence eq = OpEquivalence::BuiltIn();
  if (!args.equiv.empty()) {
    std::ifstream f(args.equiv, std::ios::binary);
    if (!f) return Fail(absl::NotFoundError("cannot read " + args.equiv));
    std::ostringstream text;
    text << f.rdbuf();
    absl::Status st = eq.AddJson(text.str(), args.equiv);
    if (!st.ok()) return Fail(st);
  }
  absl::StatusOr<Dump> left = LoadDump(args.left);
  if (!left.ok()) return Fail(left.status());
  absl::StatusOr<Dump> right = LoadDump(args.right);
  if (!right.ok()) return Fail(right.status());
  DiffOptions options;
  options.align.equivalence = &eq;
  options.graph_selector = args.graph;
  absl::StatusOr<DiffResult> result = DiffDumps(*left, *right, options);
  if (!result.ok()) return Fail(result.status());
  // Name the sides as the user typed them.
  result->left_root = args.left;
  result->right_root = args.right;
  RenderOptions render;
  render.color = WantColor(args.color, args.output);
  render.max_items = args.max_items;
  absl::Status st = WriteOutput(args.output, RenderDiff(*result, *format, render));
  if (!st.ok()) return Fail(st);
  return result->same() ? kExitSame : kExitDifferent;
}

}  // namespace

Runner AddDiffCommand(CLI::App& app) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* cmd = app.add_subcommand(
      "diff", "Explain the difference between two dumps (LEFT = baseline, RIGHT = candidate)");
  cmd->add_option("left", args->left, "Baseline dump: file, directory or archive")->required();
  cmd->add_option("right", args->right, "Candidate dump: file, directory or archive")
      ->required();
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json", "markdown", "md"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "Write to FILE instead of stdout");
  cmd->add_option("--equiv", args->equiv, "JSON file of extra op-equivalence classes");
  cmd->add_option("--color", args->color, "Colour: auto (on a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  cmd->add_option("--max-items", args->max_items, "Longest list shown in text/markdown (0 = all)")
      ->capture_default_str();
  cmd->add_option("--graph", args->graph,
                  "Only graphs whose file path or graph name matches (path substring)");
  return [cmd, args]() -> int {
    if (!cmd->parsed()) return -1;
    return RunDiff(*args);
  };
}

}  // namespace graphdiff::cli
