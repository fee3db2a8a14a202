// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <fstream>

#include "commands.h"

namespace graphdiff::cli {

int Fail(const absl::Status& status) {
  std::fprintf(stderr, "graphdiff: %s\n", std::string(status.message()).c_str());
  return kExitTrouble;
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
