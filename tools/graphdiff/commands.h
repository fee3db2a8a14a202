// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The subcommands' wiring: each Add*Command registers its options on the
// CLI11 app and returns the function that runs it. Only this layer turns a
// status into an exit code.
#ifndef GRAPHDIFF_TOOLS_COMMANDS_H_
#define GRAPHDIFF_TOOLS_COMMANDS_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphdiff/dump.h"
#include "graphdiff/gate.h"
#include "graphdiff/stats.h"

namespace graphdiff::cli {

// Exit codes follow diff(1): 0 same / within budget, 1 different / over
// budget, 2 trouble.
inline constexpr int kExitSame = 0;
inline constexpr int kExitDifferent = 1;
inline constexpr int kExitTrouble = 2;

using Runner = std::function<int()>;

// The whole command line: parses argv (argv[0] is the program name), runs
// the subcommand, writes to stdout/stderr, and returns the exit code.
int RunCommandLine(int argc, char** argv);

Runner AddStatsCommand(CLI::App& app);
Runner AddSnapshotCommand(CLI::App& app);
Runner AddCheckCommand(CLI::App& app);
Runner AddDiffCommand(CLI::App& app);
Runner AddLintCommand(CLI::App& app);

// Colour for `--color MODE` (auto: stdout is a terminal, NO_COLOR unset,
// TERM not dumb, and no -o FILE); defined in diff_cmd.cc.
bool WantColor(const std::string& mode, const std::string& output);

// Loads a dump, lints it and snapshots it for the gate (snapshot_cmd.cc);
// `findings` receives the lint findings, `skipped` the files not read (shown
// as the user named them). Refuses a dump with no graphs.
absl::StatusOr<Baseline> SnapshotPath(const std::string& path, std::vector<Finding>* findings,
                                      std::vector<std::pair<std::string, std::string>>* skipped);

// Appends the size facts of every graph and every metrics report of `dump`
// to `report`, with its skipped files, each named as the user named the
// dump (`path`, see DisplayPath); stats_cmd.cc.
void AddStats(const Dump& dump, const std::string& path, StatsReport* report);

// Prints "graphdiff: <message>" to stderr and returns kExitTrouble.
int Fail(const absl::Status& status);
// How to show file `inner` of the dump the user named `root`: the path they
// typed for a plain file, `root/inner` in a directory, `root!inner` in an
// archive.
std::string DisplayPath(const std::string& root, const std::string& inner);
// Writes `text` to `path`, or stdout when path is empty or "-". Errors say
// why (`cannot write X: No such file or directory`).
absl::Status WriteOutput(const std::string& path, std::string_view text);

// The report width: `requested` when non-zero; else the terminal's width
// when stdout is one (TIOCGWINSZ); else $COLUMNS; else 80.
size_t OutputWidth(size_t requested);
// True when the process ends as soon as RunCommandLine returns (main.cc sets
// it). A host that lives on, the Python module running many command lines in
// one interpreter, leaves it false so that KeepUntilExit does not pile up
// every run's dumps.
inline bool g_exit_after_run = false;
// Keeps a large value alive until the process exits, where the OS reclaims
// it at once; destroying 10^6 nodes one by one is a noticeable part of a
// diff. Held through a global, so leak checkers see it as reachable. Without
// g_exit_after_run the value is destroyed as usual, by the caller.
template <typename T>
void KeepUntilExit(T&& value) {
  if (!g_exit_after_run) return;
  static auto* kept = new std::vector<std::shared_ptr<void>>();
  kept->push_back(std::make_shared<std::decay_t<T>>(std::forward<T>(value)));
}

// LoadDump with the command line's limits, threads (--jobs) and progress
// line, except that "-" reads the dump (a file or an archive) from standard
// input. `take_graphs`, when set, is LoadOptions::take_graphs.
absl::StatusOr<Dump> LoadInput(const std::string& path,
                               std::function<void(const TakenGraphs&)> take_graphs = nullptr);
// Both sides of a diff as LoadInput gives them, loaded together
// (LoadDumpPair) unless one is standard input.
DumpPair LoadInputs(const std::string& left, const std::string& right);
// The text-report tail that lists a dump's skipped files (at most
// `max_items`, 0 = all) and every reading warning.
std::string ReadingNotes(const Dump& dump, const std::string& path, size_t max_items);
// True when the dump holds at least one graph or metrics report.
bool HoldsSomething(const Dump& dump);
// Why a dump that holds nothing is trouble, and what to do about it.
std::string WhyNothingReadable(const Dump& dump, const std::string& path);
// The subcommand `typed` was probably meant to be, or "" when none is close.
std::string SuggestCommand(std::string_view typed, const std::vector<std::string>& names);

}  // namespace graphdiff::cli

#endif  // GRAPHDIFF_TOOLS_COMMANDS_H_
