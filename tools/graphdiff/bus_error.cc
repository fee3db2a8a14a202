// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "bus_error.h"

#include <signal.h>
#include <unistd.h>

#include "commands.h"

namespace graphdiff::cli {
namespace {

// Only async-signal-safe calls: write(2) and _exit(2).
void OnBusError(int) {
  static const char kMessage[] =
      "graphdiff: an input file shrank while it was being read (SIGBUS on its mapped "
      "pages); run again once nothing is rewriting it\n";
  ssize_t written = ::write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
  (void)written;
  ::_exit(kExitTrouble);
}

}  // namespace

void ReportBusErrors() {
  struct sigaction action = {};
  action.sa_handler = OnBusError;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGBUS, &action, nullptr);
}

}  // namespace graphdiff::cli
