// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "load/entry_path.h"

#include <algorithm>
#include <cctype>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "util/absl_sv.h"

namespace graphdiff {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

absl::Status Refuse(std::string_view archive, std::string_view entry,
                    std::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat(
      AbslSv(archive), ": refusing archive entry '", AbslSv(entry), "': ",
      AbslSv(why)));
}

}  // namespace

absl::StatusOr<std::string> CheckEntryPath(std::string_view archive,
                                           std::string_view entry) {
  if (!entry.empty() && (entry[0] == '/' || entry[0] == '\\')) {
    return Refuse(archive, entry, "absolute path");
  }
  // A drive letter makes the path absolute on Windows, where the dump may
  // have been made.
  if (entry.size() >= 2 && entry[1] == ':' &&
      std::isalpha(static_cast<unsigned char>(entry[0]))) {
    return Refuse(archive, entry, "absolute path");
  }
  std::string out;
  size_t start = 0;
  while (start <= entry.size()) {
    size_t end = entry.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = entry.size();
    std::string_view part = entry.substr(start, end - start);
    if (part == "..") return Refuse(archive, entry, "'..' leads out of the archive");
    // Backslashes separate components only for the check above: on Unix a
    // backslash is an ordinary character of a name, so it stays in the name.
    start = end + 1;
  }
  start = 0;
  while (start <= entry.size()) {
    size_t end = entry.find('/', start);
    if (end == std::string_view::npos) end = entry.size();
    std::string_view part = entry.substr(start, end - start);
    if (!part.empty() && part != ".") {
      if (!out.empty()) out += '/';
      out.append(part.data(), part.size());
    }
    start = end + 1;
  }
  return out;
}

bool IsHiddenPath(std::string_view path) {
  size_t start = 0;
  while (start < path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view part = path.substr(start, end - start);
    if ((part.size() > 1 && part[0] == '.' && part != "..") || part == "__MACOSX") {
      return true;
    }
    start = end + 1;
  }
  return false;
}

std::string StripCompressionSuffix(std::string_view name) {
  if (EndsWith(name, ".tgz")) {
    return std::string(name.substr(0, name.size() - 4)) + ".tar";
  }
  for (std::string_view suffix : {".gz", ".xz", ".bz2", ".zst", ".lzma"}) {
    if (EndsWith(name, suffix) && name.size() > suffix.size()) {
      return std::string(name.substr(0, name.size() - suffix.size()));
    }
  }
  return std::string(name);
}

std::string_view BaseName(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

namespace {

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// `run_2024_01_01_12_00_00_000000-pid_111`, `run_1700000000`: a directory
// named for one run.
bool IsRunStamp(std::string_view c) {
  if (c.substr(0, 4) != "run_" && c.substr(0, 4) != "run-") return false;
  std::string_view rest = c.substr(4);
  if (rest.empty() || rest[0] < '0' || rest[0] > '9') return false;
  for (char ch : rest) {
    bool ok = (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == 'p' || ch == 'i' ||
              ch == 'd' || ch == 'T' || ch == ':' || ch == '.';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::string NormalizeRunStamps(std::string_view path, bool fold_ranks) {
  std::string out;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find_first_of("/!", start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view c = path.substr(start, end - start);
    if (IsRunStamp(c)) {
      out += "run_*";
    } else if (fold_ranks && (c.substr(0, 5) == "rank_" || c.substr(0, 5) == "rank-") &&
               AllDigits(c.substr(5))) {
      out += "rank_*";
    } else if (fold_ranks && c.substr(0, 4) == "rank" && AllDigits(c.substr(4))) {
      out += "rank*";
    } else {
      out.append(c.data(), c.size());
    }
    if (end == path.size()) break;
    out += path[end];
    start = end + 1;
  }
  return out;
}

}  // namespace graphdiff
