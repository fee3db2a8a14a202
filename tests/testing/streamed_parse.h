// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Streamed parses for tests: what a GraphStream was handed (less what a
// restart voided) followed by what the parse returned must be the graphs
// of the unstreamed parse, in order.
#ifndef GRAPHDIFF_TESTS_TESTING_STREAMED_PARSE_H_
#define GRAPHDIFF_TESTS_TESTING_STREAMED_PARSE_H_

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "graphdiff/parse.h"
#include "parse/parse_parallel.h"
#include "testing/task_runners.h"

namespace graphdiff::testing {

// A runner that cuts a streamed text into `pieces` pieces (of about equal
// size) and parses them `wave` at a time, in reverse within a wave.
inline TaskRunner StreamRunner(std::string_view text, size_t pieces, size_t wave) {
  TaskRunner runner = ReverseRunner(wave);
  runner.min_piece_bytes = std::max<size_t>(1, text.size() / pieces);
  return runner;
}

// Collects what a stream is handed.
struct StreamedGraphs {
  GraphStream stream;
  std::vector<Graph> graphs;
  size_t batches = 0;   // takes since the last restart
  size_t restarts = 0;

  StreamedGraphs() {
    stream.take = [this](std::vector<Graph>& batch) {
      ++batches;
      for (Graph& g : batch) graphs.push_back(std::move(g));
      batch.clear();
    };
    stream.restart = [this] {
      ++restarts;
      batches = 0;
      graphs.clear();
    };
  }
  StreamedGraphs(const StreamedGraphs&) = delete;
  StreamedGraphs& operator=(const StreamedGraphs&) = delete;

  // The graphs taken, then `rest` (what the parse returned).
  std::vector<Graph> With(std::vector<Graph> rest) {
    std::vector<Graph> all = std::move(graphs);
    for (Graph& g : rest) all.push_back(std::move(g));
    return all;
  }
};

// ParseDetected of `text` streamed on `runner`: the graphs taken, then the
// ones returned; `batches` receives the takes after the last restart.
inline absl::StatusOr<ParsedText> ParseDetectedStreamed(std::string_view text,
                                                        std::string_view source,
                                                        const ParseOptions& options,
                                                        const TaskRunner& runner,
                                                        size_t* batches = nullptr,
                                                        size_t* restarts = nullptr) {
  StreamedGraphs taken;
  absl::StatusOr<ParsedText> parsed =
      ParseDetected(text, Detect(text), source, options, &runner, &taken.stream);
  if (batches != nullptr) *batches = taken.batches;
  if (restarts != nullptr) *restarts = taken.restarts;
  if (!parsed.ok()) return parsed;
  parsed->graphs = taken.With(std::move(parsed->graphs));
  return parsed;
}

}  // namespace graphdiff::testing

#endif  // GRAPHDIFF_TESTS_TESTING_STREAMED_PARSE_H_
