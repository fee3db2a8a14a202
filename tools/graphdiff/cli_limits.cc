// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "cli_limits.h"

#include "graphdiff/input.h"
#include "progress.h"

namespace graphdiff::cli {
namespace {

CliLimitValues& Values() {
  static CliLimitValues values{LoadOptions{}, kDefaultMaxInputBytes};
  return values;
}

}  // namespace

void AddLimitOptions(CLI::App* cmd) {
  CliLimitValues& v = Values();
  const char* group = "Limits (docs/hardening.md)";
  // Sizes take suffixes: 512M, 8G, 16GiB.
  auto bytes = CLI::AsSizeValue(false);
  cmd->add_option("--max-file-bytes", v.load.max_file_bytes,
                  "Largest dump file or archive entry")
      ->transform(bytes)
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--max-archive-bytes", v.load.max_archive_bytes,
                  "Most bytes all archives of one dump may expand to")
      ->transform(bytes)
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--max-archive-entries", v.load.max_archive_entries,
                  "Most entries in one archive")
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--max-files", v.load.max_files, "Most files in one dump")
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--max-compression-ratio", v.load.max_compression_ratio,
                  "Most an archive may expand per compressed byte (0 = unlimited)")
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--max-input-bytes", v.max_input_bytes,
                  "Largest baseline, budget or --equiv file")
      ->transform(bytes)
      ->capture_default_str()
      ->group(group);
}

void AddLoadingOptions(CLI::App* cmd) {
  cmd->add_option("-j,--jobs", Values().load.threads,
                  "Threads for parsing files and the records of a large save file, and for "
                  "diffing graph pairs (0 = one per core); the output is the same for any number")
      ->capture_default_str();
  AddProgressOptions(cmd);
}

const CliLimitValues& CliLimits() { return Values(); }

void ResetLimits() { Values() = CliLimitValues{LoadOptions{}, kDefaultMaxInputBytes}; }

}  // namespace graphdiff::cli
