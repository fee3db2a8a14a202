// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Names of files inside a dump: archive entry paths checked for tricks that
// would escape the archive, hidden names, compression suffixes.
#ifndef GRAPHDIFF_SRC_LOAD_ENTRY_PATH_H_
#define GRAPHDIFF_SRC_LOAD_ENTRY_PATH_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace graphdiff {

// Normalises an archive entry path ("./a//b" -> "a/b"). An absolute path
// ("/x", "C:\x") or a `..` component is an InvalidArgument error naming
// `archive` and the entry as written. An empty result means the entry names
// the archive root itself.
absl::StatusOr<std::string> CheckEntryPath(std::string_view archive,
                                           std::string_view entry);

// True when a component of `path` is hidden (".git", "._x") or is the
// "__MACOSX" resource-fork folder that macOS adds to zips.
bool IsHiddenPath(std::string_view path);

// "ir.txt.gz" -> "ir.txt", "dump.tgz" -> "dump.tar"; unchanged when the name
// carries no compression suffix.
std::string StripCompressionSuffix(std::string_view name);

// A dump path as it stays from run to run: directory components named for
// one run (`run_2024_01_01_12_00_00_000000-pid_111` of TORCH_COMPILE_DEBUG,
// `run_1700000000`) become `run_*`. With `fold_ranks`, `rank_3` / `rank-3` /
// `rank3` become `rank_*` / `rank*` too (the gate's unit keys, which number
// collisions); without, a rank stays a key of its own (pairing two dumps,
// where rank 3 goes with rank 3). Components split at '/' and '!'.
std::string NormalizeRunStamps(std::string_view path, bool fold_ranks);

// The last component of a path ("a/b/ir.txt" -> "ir.txt").
std::string_view BaseName(std::string_view path);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_LOAD_ENTRY_PATH_H_
