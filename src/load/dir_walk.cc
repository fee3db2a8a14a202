// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "load/dir_walk.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace graphdiff {
namespace {

namespace fs = std::filesystem;

// True when `path` is `root` or lies below it (both canonical).
bool IsInside(const fs::path& root, const fs::path& path) {
  auto r = root.begin();
  auto p = path.begin();
  for (; r != root.end(); ++r, ++p) {
    if (p == path.end() || *r != *p) return false;
  }
  return true;
}

struct Walker {
  fs::path canonical_root;
  size_t max_files;
  DirListing out;

  absl::Status Walk(const fs::path& dir, const std::string& rel) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) {
      return absl::UnavailableError(
          absl::StrCat(dir.string(), ": cannot list directory: ", ec.message()));
    }
    // Sorted by name so the walk order never depends on the file system.
    std::vector<std::string> names;
    // increment(ec), not ++: the operator throws, and errors must be statuses.
    for (fs::directory_iterator end; it != end; it.increment(ec)) {
      names.push_back(it->path().filename().string());
    }
    if (ec) {
      return absl::UnavailableError(
          absl::StrCat(dir.string(), ": cannot list directory: ", ec.message()));
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      if (name.empty() || name[0] == '.' || name == "__MACOSX") continue;
      fs::path path = dir / name;
      std::string child = rel.empty() ? name : rel + "/" + name;
      fs::file_status status = fs::symlink_status(path, ec);
      if (ec) {
        out.skipped.emplace_back(child, "cannot stat: " + ec.message());
        continue;
      }
      if (fs::is_symlink(status)) {
        absl::Status s = Link(path, child);
        if (!s.ok()) return s;
      } else if (fs::is_directory(status)) {
        absl::Status s = Walk(path, child);
        if (!s.ok()) return s;
      } else if (fs::is_regular_file(status)) {
        absl::Status s = Add(child);
        if (!s.ok()) return s;
      } else {
        out.skipped.emplace_back(child, "not a regular file");
      }
    }
    return absl::OkStatus();
  }

  absl::Status Link(const fs::path& path, const std::string& child) {
    std::error_code ec;
    fs::path target = fs::canonical(path, ec);
    if (ec) {
      out.skipped.emplace_back(child, "symbolic link to nothing");
      return absl::OkStatus();
    }
    if (!IsInside(canonical_root, target)) {
      out.skipped.emplace_back(child, "symbolic link leads out of the dump, not followed");
      return absl::OkStatus();
    }
    if (fs::is_directory(target, ec)) {
      out.skipped.emplace_back(child, "symbolic link to a directory, not followed");
      return absl::OkStatus();
    }
    if (!fs::is_regular_file(target, ec)) {
      out.skipped.emplace_back(child, "not a regular file");
      return absl::OkStatus();
    }
    return Add(child);
  }

  absl::Status Add(const std::string& child) {
    if (out.files.size() >= max_files) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "dump has more than ", max_files,
          " files (LoadOptions::max_files; graphdiff --max-files)"));
    }
    out.files.push_back(child);
    return absl::OkStatus();
  }
};

}  // namespace

absl::StatusOr<DirListing> WalkDirectory(const std::string& root, size_t max_files) {
  std::error_code ec;
  Walker walker;
  walker.canonical_root = fs::canonical(root, ec);
  if (ec) {
    return absl::NotFoundError(absl::StrCat(root, ": ", ec.message()));
  }
  walker.max_files = max_files;
  absl::Status s = walker.Walk(fs::path(root), "");
  if (!s.ok()) return s;
  // Names were sorted per directory; a global sort makes "a/b" vs "a.txt"
  // order the same as DumpFile order.
  std::sort(walker.out.files.begin(), walker.out.files.end());
  std::sort(walker.out.skipped.begin(), walker.out.skipped.end());
  return std::move(walker.out);
}

}  // namespace graphdiff
