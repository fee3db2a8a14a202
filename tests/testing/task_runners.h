// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// TaskRunners for tests of parsing in pieces: one that cuts texts of any
// size into `pieces` and runs the pieces one after another in reverse, so no
// piece can lean on the order pieces finish in; one with a thread a task.
#ifndef GRAPHDIFF_TESTS_TESTING_TASK_RUNNERS_H_
#define GRAPHDIFF_TESTS_TESTING_TASK_RUNNERS_H_

#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

#include "parse/parse_parallel.h"

namespace graphdiff::testing {

inline TaskRunner ReverseRunner(size_t pieces) {
  TaskRunner runner;
  runner.pieces = pieces;
  runner.min_piece_bytes = 1;
  runner.run = [](size_t n, const std::function<void(size_t)>& task) {
    for (size_t i = n; i-- > 0;) task(i);
  };
  return runner;
}

inline TaskRunner ThreadRunner(size_t pieces) {
  TaskRunner runner = ReverseRunner(pieces);
  runner.run = [](size_t n, const std::function<void(size_t)>& task) {
    std::vector<std::thread> threads;
    for (size_t i = 0; i < n; ++i) threads.emplace_back([&task, i] { task(i); });
    for (std::thread& t : threads) t.join();
  };
  return runner;
}

}  // namespace graphdiff::testing

#endif  // GRAPHDIFF_TESTS_TESTING_TASK_RUNNERS_H_
