// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// graphdiff_fuzz_replay TARGET PATH...: runs one fuzz target over every file
// under the given files and directories (corpus, seeds, crash reproducers),
// as libFuzzer would run them, but under any compiler. A crash, abort or
// sanitizer report fails the run; "N passed, 0 failed" ends a clean one.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_target.h"

namespace graphdiff::fuzz {

std::map<std::string, TargetFn>& Targets() {
  static std::map<std::string, TargetFn> targets;
  return targets;
}

bool Register(const char* name, TargetFn fn) {
  Targets()[name] = fn;
  return true;
}

}  // namespace graphdiff::fuzz

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using graphdiff::fuzz::Targets;
  if (argc < 2 || Targets().count(argv[1]) == 0) {
    std::fprintf(stderr, "usage: %s TARGET PATH...\ntargets:", argv[0]);
    for (const auto& [name, fn] : Targets()) std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  graphdiff::fuzz::TargetFn target = Targets()[argv[1]];
  std::vector<std::string> files;
  for (int i = 2; i < argc; ++i) {
    std::error_code ec;
    if (fs::is_directory(argv[i], ec)) {
      for (const auto& e : fs::recursive_directory_iterator(argv[i], ec)) {
        if (e.is_regular_file()) files.push_back(e.path().string());
      }
    } else if (fs::is_regular_file(argv[i], ec)) {
      files.push_back(argv[i]);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::fprintf(stderr, "%s: no input files\n", argv[1]);
    return 2;
  }
  for (const std::string& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string data = ss.str();
    // An exact-size heap copy, so an overread is a sanitizer report.
    std::vector<uint8_t> bytes(data.begin(), data.end());
    target(bytes.data(), bytes.size());
  }
  std::printf("%s: %zu passed, 0 failed\n", argv[1], files.size());
  return 0;
}
