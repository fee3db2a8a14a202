// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "load/task_pool.h"

#include <algorithm>
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
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

void TaskPool::Work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    // A running task may still add work, so idle workers wait for it.
    cv_.wait(lock, [this] { return !queue_.empty() || running_ == 0; });
    if (queue_.empty()) break;
    std::function<void()> task = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    lock.unlock();
    task();
    lock.lock();
    --running_;
    if (queue_.empty() && running_ == 0) {
      cv_.notify_all();
      break;
    }
  }
}

void TaskPool::RunGroup(size_t n, const std::function<void(size_t)>& task) {
  size_t remaining = n;  // guarded by mu_
  std::unique_lock<std::mutex> lock(mu_);
  for (size_t i = n; i-- > 0;) {
    queue_.push_front([this, &task, &remaining, i] {
      task(i);
      std::lock_guard<std::mutex> done(mu_);
      if (--remaining == 0) cv_.notify_all();
    });
  }
  cv_.notify_all();
  while (remaining > 0) {
    if (queue_.empty()) {
      cv_.wait(lock, [&] { return remaining == 0 || !queue_.empty(); });
      continue;
    }
    std::function<void()> next = std::move(queue_.front());
    queue_.pop_front();
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
