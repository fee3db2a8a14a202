// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The resource limits every subcommand shares (docs/hardening.md): one set
// of options, registered on each subcommand by AddLimitOptions, so a limit
// that trips can always name the option that raises it.
#ifndef GRAPHDIFF_TOOLS_CLI_LIMITS_H_
#define GRAPHDIFF_TOOLS_CLI_LIMITS_H_

#include <cstdint>

#include "CLI/CLI.hpp"
#include "graphdiff/dump.h"

namespace graphdiff::cli {

struct CliLimitValues {
  LoadOptions load;          // dumps: files, archives, decompression
  uint64_t max_input_bytes;  // baselines, budgets, equivalence tables
};

// Adds --max-file-bytes, --max-archive-bytes, --max-archive-entries,
// --max-files, --max-compression-ratio and --max-input-bytes to `cmd`.
void AddLimitOptions(CLI::App* cmd);
// Adds -j/--jobs (LoadOptions::threads, also the threads diff uses for graph
// pairs), --progress and --no-progress to a subcommand that loads dumps.
void AddLoadingOptions(CLI::App* cmd);
// The limits as parsed (defaults until then).
const CliLimitValues& CliLimits();
// Back to the defaults: one process may run several command lines (the
// Python module does), and a limit given to one must not carry into the next.
void ResetLimits();

}  // namespace graphdiff::cli

#endif  // GRAPHDIFF_TOOLS_CLI_LIMITS_H_
