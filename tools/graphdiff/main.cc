// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// graphdiff: explain the difference between two compiled PyTorch graphs.
#include "bus_error.h"
#include "commands.h"
#include "malloc_tuning.h"

int main(int argc, char** argv) {
  graphdiff::cli::TuneMallocForBigGraphs(argv);
  graphdiff::cli::ReportBusErrors();
  graphdiff::cli::g_exit_after_run = true;
  return graphdiff::cli::RunCommandLine(argc, argv);
}
