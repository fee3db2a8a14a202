// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "testing/cli.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "gtest/gtest.h"

namespace graphdiff::testing {

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += "'\\''";
    else out += c;
  }
  return out + "'";
}

std::string Slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

CliResult RunCli(const std::vector<std::string>& args) { return RunCli(args, CliOptions{}); }

CliResult RunCli(const std::vector<std::string>& args, const CliOptions& options) {
  static int counter = 0;
  std::string base = ::testing::TempDir() + "/graphdiff_cli_" +
                     std::to_string(::getpid()) + "_" + std::to_string(counter++);
  // The caller's terminal width must not leak into reports under test.
  std::string cmd = "cd " + Quote(GRAPHDIFF_TESTDATA_DIR) + " && env -u COLUMNS";
  for (const std::string& e : options.env) cmd += " " + Quote(e);
  cmd += " " + Quote(GRAPHDIFF_CLI_PATH);
  for (const std::string& a : args) cmd += " " + Quote(a);
  cmd += " >" + Quote(base + ".out") + " 2>" + Quote(base + ".err") + " <" +
         Quote(options.stdin_file.empty() ? std::string("/dev/null") : options.stdin_file);
  int status = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = Slurp(base + ".out");
  r.err = Slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

std::string WriteTempFile(const std::string& name, const std::string& content) {
  std::string path = ::testing::TempDir() + "/" + name;
  // ctest runs each test in its own process, two at a time, and tests of
  // one file share its fixtures by name: written in place, one process
  // truncates the file while another's graphdiff reads it. A rename puts
  // the whole file there at once.
  std::string staging = path + "." + std::to_string(getpid()) + ".tmp";
  {
    std::ofstream f(staging, std::ios::binary);
    f << content;
    EXPECT_TRUE(f.good()) << "cannot write " << staging;
  }
  EXPECT_EQ(std::rename(staging.c_str(), path.c_str()), 0) << "cannot rename to " << path;
  return path;
}

}  // namespace graphdiff::testing
