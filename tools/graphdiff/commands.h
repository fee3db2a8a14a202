// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The subcommands' wiring: each Add*Command registers its options on the
// CLI11 app and returns the function that runs it. Only this layer turns a
// status into an exit code.
#ifndef GRAPHDIFF_TOOLS_COMMANDS_H_
#define GRAPHDIFF_TOOLS_COMMANDS_H_

#include <functional>
#include <string>
#include <string_view>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"

namespace graphdiff::cli {

// Exit codes follow diff(1): 0 same / within budget, 1 different / over
// budget, 2 trouble.
inline constexpr int kExitSame = 0;
inline constexpr int kExitDifferent = 1;
inline constexpr int kExitTrouble = 2;

using Runner = std::function<int()>;

Runner AddStatsCommand(CLI::App& app);

// Prints "graphdiff: <message>" to stderr and returns kExitTrouble.
int Fail(const absl::Status& status);
// Writes `text` to `path`, or stdout when path is empty or "-".
absl::Status WriteOutput(const std::string& path, std::string_view text);

}  // namespace graphdiff::cli

#endif  // GRAPHDIFF_TOOLS_COMMANDS_H_
