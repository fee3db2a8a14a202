// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The graphdiff command line as a function of argv: main.cc calls it, and so
// does the Python module (`python3 -m graphdiff`), so both are one program.
// Thin: each subcommand lives in its own *_cmd.cc.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "cli_limits.h"
#include "commands.h"
#include "progress.h"
#include "graphdiff/version.h"

namespace graphdiff::cli {

int RunCommandLine(int argc, char** argv) {
  ResetLimits();
  StopProgress();
  CLI::App app{"graphdiff: explain the difference between two compiled PyTorch graphs"};
  app.set_version_flag("--version", std::string(graphdiff::Version()));
  app.require_subcommand(1);
  std::vector<Runner> runners = {
      // In the order --help lists them: the main job first.
      AddDiffCommand(app),
      AddStatsCommand(app),
      AddLintCommand(app),
      AddSnapshotCommand(app),
      AddCheckCommand(app),
  };
  // A mistyped subcommand gets a suggestion rather than CLI11's generic
  // complaint about extra arguments.
  if (argc > 1 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    std::string typed = argv[1];
    if (std::find(names.begin(), names.end(), typed) == names.end()) {
      std::string guess = SuggestCommand(typed, names);
      std::string all;
      for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
      if (guess.empty()) {
        std::fprintf(stderr, "graphdiff: unknown command '%s' (commands: %s; see --help)\n",
                     typed.c_str(), all.c_str());
      } else {
        std::fprintf(stderr, "graphdiff: unknown command '%s'; did you mean '%s'?\n",
                     typed.c_str(), guess.c_str());
      }
      return kExitTrouble;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Usage errors are trouble (2), as in diff(1); --help and --version are not.
    int rc = app.exit(e);
    return rc == 0 ? 0 : kExitTrouble;
  }
  StartProgress();
  int rc = -1;
  for (const Runner& run : runners) {
    rc = run();
    if (rc >= 0) break;
  }
  StopProgress();
  return rc >= 0 ? rc : kExitTrouble;
}

}  // namespace graphdiff::cli
