// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// A small pool of threads that runs tasks which may add more tasks (an
// archive found while walking a directory adds one task per entry).
#ifndef GRAPHDIFF_SRC_LOAD_TASK_POOL_H_
#define GRAPHDIFF_SRC_LOAD_TASK_POOL_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>

namespace graphdiff {

class TaskPool {
 public:
  // `threads` workers in total, the caller of Run() included; 0 = one per core.
  explicit TaskPool(unsigned threads);

  // Queues a task; safe to call from inside a running task.
  void Add(std::function<void()> task);

  // Runs queued tasks until none is queued or running. Call once.
  void Run();

 private:
  void Work();

  unsigned threads_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  size_t running_ = 0;
};

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_LOAD_TASK_POOL_H_
