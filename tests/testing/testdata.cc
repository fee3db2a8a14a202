// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "testing/testdata.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"

namespace graphdiff::testing {

std::string TestdataPath(const std::string& relative) {
  return std::string(GRAPHDIFF_TESTDATA_DIR) + "/" + relative;
}

std::string ReadTestdata(const std::string& relative) {
  std::ifstream f(TestdataPath(relative), std::ios::binary);
  if (!f) {
    ADD_FAILURE() << "cannot read testdata/" << relative;
    return "";
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<std::string> ListDumpFiles(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  fs::path root(GRAPHDIFF_TESTDATA_DIR);
  fs::path start = dir.empty() ? root : root / dir;
  if (!fs::exists(start)) return out;
  for (const auto& e : fs::recursive_directory_iterator(start)) {
    if (!e.is_regular_file()) continue;
    std::string rel = fs::relative(e.path(), root).generic_string();
    std::string name = e.path().filename().string();
    if (rel.rfind("golden/", 0) == 0) continue;
    if (name == "README.md" || e.path().extension() == ".json" ||
        e.path().extension() == ".py") {
      continue;
    }
    out.push_back(rel);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace graphdiff::testing
