// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "load/task_pool.h"

#include <algorithm>
#include <cstddef>
#include <thread>
#include <utility>
#include <vector>

namespace graphdiff {

TaskPool::TaskPool(unsigned threads) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads_ = threads;
}

void TaskPool::Add(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (next_ == queue_.size()) {
      queue_.clear();
      next_ = 0;
    } else if (next_ >= 4096 && next_ * 2 >= queue_.size()) {
      // Never emptied (an archive's entries added as others run): drop the
      // run half so the queue stays near the tasks still waiting.
      queue_.erase(queue_.begin(), queue_.begin() + static_cast<ptrdiff_t>(next_));
      next_ = 0;
    }
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

std::function<void()> TaskPool::Pop() {
  if (!first_.empty()) {
    std::function<void()> task = std::move(first_.front());
    first_.pop_front();
    return task;
  }
  return std::move(queue_[next_++]);
}

void TaskPool::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    // A running task may still add work, so idle workers wait for it.
    cv_.wait(lock, [this] { return !Empty() || running_ == 0; });
    if (Empty()) break;
    std::function<void()> task = Pop();
    ++running_;
    lock.unlock();
    task();
    lock.lock();
    --running_;
    if (Empty() && running_ == 0) {
      cv_.notify_all();
      break;
    }
  }
}

void TaskPool::RunGroup(size_t n, const std::function<void(size_t)>& task) {
  size_t remaining = n;  // guarded by mu_
  std::unique_lock<std::mutex> lock(mu_);
  for (size_t i = n; i-- > 0;) {
    first_.push_front([this, &task, &remaining, i] {
      task(i);
      std::lock_guard<std::mutex> done(mu_);
      if (--remaining == 0) cv_.notify_all();
    });
  }
  cv_.notify_all();
  while (remaining > 0) {
    if (Empty()) {
      cv_.wait(lock, [&] { return remaining == 0 || !Empty(); });
      continue;
    }
    std::function<void()> next = Pop();
    ++running_;
    lock.unlock();
    next();
    lock.lock();
    --running_;
  }
}

void TaskPool::Run() {
  // Helpers start even for one queued task: an archive adds its entries later.
  std::vector<std::thread> helpers;
  helpers.reserve(threads_ - 1);
  for (unsigned i = 1; i < threads_; ++i) helpers.emplace_back([this] { Work(); });
  Work();
  for (std::thread& t : helpers) t.join();
}

}  // namespace graphdiff
