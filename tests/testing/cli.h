// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Runs the graphdiff binary the way a user or CI job would, capturing its
// stdout, stderr and exit code.
#ifndef GRAPHDIFF_TESTS_TESTING_CLI_H_
#define GRAPHDIFF_TESTS_TESTING_CLI_H_

#include <string>
#include <vector>

namespace graphdiff::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `graphdiff ARGS...` with the working directory set to testdata/.
CliResult RunCli(const std::vector<std::string>& args);

// How to run it otherwise: standard input from a file, extra environment.
struct CliOptions {
  std::string stdin_file;        // default: /dev/null
  std::vector<std::string> env;  // "NAME=value" assignments
};
CliResult RunCli(const std::vector<std::string>& args, const CliOptions& options);

// A shell word: `s` in single quotes, safe in a command line.
std::string Quote(const std::string& s);
// A whole file's bytes; empty when unreadable.
std::string Slurp(const std::string& path);

// Writes `content` to a fresh file under the test temp dir, whole at once
// (readers in other test processes never see it half written); returns its
// path.
std::string WriteTempFile(const std::string& name, const std::string& content);

}  // namespace graphdiff::testing

#endif  // GRAPHDIFF_TESTS_TESTING_CLI_H_
