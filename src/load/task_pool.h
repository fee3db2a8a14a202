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

  // Runs task(0) .. task(n - 1) on the pool and returns when they are done;
  // called from inside a running task. They go before anything queued, and
  // the calling thread runs queued tasks while it waits, so a pool of any
  // size cannot deadlock on it.
  void RunGroup(size_t n, const std::function<void(size_t)>& task);

  unsigned threads() const { return threads_; }

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
