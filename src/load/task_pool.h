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
#include <vector>

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
  // The next task, moved out; call with mu_ held and a task queued.
  std::function<void()> Pop();
  bool Empty() const { return first_.empty() && next_ == queue_.size(); }

  unsigned threads_;
  std::mutex mu_;
  std::condition_variable cv_;
  // RunGroup's tasks, run before the rest.
  std::deque<std::function<void()>> first_;
  // Added tasks, queue_[next_] the next to run. A vector read forward, not a
  // deque popped: a deque frees each block as it empties, on the thread that
  // popped it, and a block freed by a thread other than the one that
  // allocated it takes that thread's malloc lock (held by it for milliseconds
  // while the kernel zeroes fresh pages). Emptied, the vector is cleared and
  // its memory kept for the next tasks.
  std::vector<std::function<void()>> queue_;
  size_t next_ = 0;
  size_t running_ = 0;
};

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_LOAD_TASK_POOL_H_
