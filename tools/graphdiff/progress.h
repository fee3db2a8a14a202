// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The progress line on stderr. On a terminal, work that takes over a second
// shows one line, redrawn in place: phase, files, graphs, bytes read, time.
// Never in a pipe, a CI log (CI set) or on TERM=dumb unless --progress asks;
// --no-progress turns it off everywhere. Asked for off a terminal, it prints
// a plain line every few seconds and one when the work ends, so a log shows
// it without carriage returns. Whatever else goes to stderr (Fail, notes)
// stops the line first.
#ifndef GRAPHDIFF_TOOLS_PROGRESS_H_
#define GRAPHDIFF_TOOLS_PROGRESS_H_

#include <functional>
#include <string_view>

#include "CLI/CLI.hpp"
#include "graphdiff/dump.h"

namespace graphdiff::cli {

enum class ProgressMode { kAuto, kOn, kOff };

// Adds --progress and --no-progress to `cmd`.
void AddProgressOptions(CLI::App* cmd);
// Starts the line for one command run (RunCommandLine) and ends it, erasing
// what it drew on a terminal; StopProgress also forgets the mode given.
void StartProgress();
void StopProgress();
// What the running command does now ("diffing", "linting").
void SetProgressPhase(std::string_view phase);
// The callback for one load; loads running at once (diff's two sides) are
// summed. Empty when no line is shown.
std::function<void(const LoadProgress&)> LoadProgressCallback();

// The line for the given state, as drawn ("parsing: 3/10 files, 12 graphs,
// 1.5 MB read, 2.0 s"); exposed for tests.
std::string FormatProgress(std::string_view phase, const LoadProgress& p, double seconds);

}  // namespace graphdiff::cli

#endif  // GRAPHDIFF_TOOLS_PROGRESS_H_
