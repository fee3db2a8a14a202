// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Lists the files of a dump directory: recursive, sorted, hidden names
// ignored, and never led out of the tree by a symbolic link.
#ifndef GRAPHDIFF_SRC_LOAD_DIR_WALK_H_
#define GRAPHDIFF_SRC_LOAD_DIR_WALK_H_

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace graphdiff {

struct DirListing {
  std::vector<std::string> files;  // relative paths, '/'-separated, sorted
  std::vector<std::pair<std::string, std::string>> skipped;  // (path, reason)
};

// Walks `root`. A symbolic link is listed as a file when it leads to a
// regular file inside `root`; a link to a directory, out of the tree or to
// nothing is skipped with a reason (following it could loop or read files the
// user did not name). More than `max_files` files is an error.
absl::StatusOr<DirListing> WalkDirectory(const std::string& root, size_t max_files);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_LOAD_DIR_WALK_H_
