// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Large dumps are parsed from a read-only mapping of the file (see
// ReadFileBytes in src/load/file_read.h). If another process truncates the
// file while it is parsed (a log rotated by copy-and-truncate, a dump being
// rewritten), reading the vanished pages raises SIGBUS. The tool turns that
// into its usual error exit with a message that says what happened, rather
// than a crash.
#ifndef GRAPHDIFF_TOOLS_BUS_ERROR_H_
#define GRAPHDIFF_TOOLS_BUS_ERROR_H_

namespace graphdiff::cli {

// Installs the SIGBUS handler: one line on stderr, then exit code 2
// (kExitTrouble).
void ReportBusErrors();

}  // namespace graphdiff::cli

#endif  // GRAPHDIFF_TOOLS_BUS_ERROR_H_
