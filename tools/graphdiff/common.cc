// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "commands.h"

namespace graphdiff::cli {

int Fail(const absl::Status& status) {
  std::fprintf(stderr, "graphdiff: %s\n", std::string(status.message()).c_str());
  return kExitTrouble;
}

std::string DisplayPath(const std::string& root, const std::string& inner) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(root, ec)) {
    return root.empty() || root.back() == '/' ? root + inner : root + "/" + inner;
  }
  if (fs::path(root).filename().string() == inner) return root;
  return root + "!" + inner;
}

absl::Status WriteOutput(const std::string& path, std::string_view text) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return absl::OkStatus();
  }
  std::ofstream f(path, std::ios::binary);
  if (!f) return absl::UnavailableError("cannot write " + path);
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (!f) return absl::DataLossError("error writing " + path);
  return absl::OkStatus();
}

}  // namespace graphdiff::cli
