// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Test helpers to find and read files under testdata/ (tests read committed
// files only; parsers themselves never touch the disk).
#ifndef GRAPHDIFF_TESTS_TESTING_TESTDATA_H_
#define GRAPHDIFF_TESTS_TESTING_TESTDATA_H_

#include <string>
#include <vector>

namespace graphdiff::testing {

// Absolute path of testdata/<relative>.
std::string TestdataPath(const std::string& relative);
// Whole file contents; fails the current test (ADD_FAILURE) when unreadable.
std::string ReadTestdata(const std::string& relative);
// Every regular file below testdata/<dir> (recursive), as paths relative to
// testdata/, sorted. Skips goldens and README/JSON documentation files.
std::vector<std::string> ListDumpFiles(const std::string& dir = "");

}  // namespace graphdiff::testing

#endif  // GRAPHDIFF_TESTS_TESTING_TESTDATA_H_
