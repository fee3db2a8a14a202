// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "progress.h"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "fmt/format.h"

namespace graphdiff::cli {
namespace {

using Clock = std::chrono::steady_clock;

// Work shorter than this shows nothing on a terminal.
constexpr auto kQuiet = std::chrono::milliseconds(1000);
constexpr auto kTerminalEvery = std::chrono::milliseconds(100);
constexpr auto kLogEvery = std::chrono::milliseconds(5000);

ProgressMode& Mode() {
  static ProgressMode mode = ProgressMode::kAuto;
  return mode;
}

bool EnvSet(const char* name) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' && std::strcmp(v, "0") != 0 && std::strcmp(v, "false") != 0;
}

std::string Bytes(uint64_t n) {
  if (n < (1u << 20)) return fmt::format("{:.1f} KB", n / 1024.0);
  if (n < (1ull << 30)) return fmt::format("{:.1f} MB", n / 1048576.0);
  return fmt::format("{:.2f} GB", n / 1073741824.0);
}

// One run's line: the loads' counts, summed, and a thread that draws them.
class Line {
 public:
  Line(bool terminal) : terminal_(terminal), start_(Clock::now()) {
    drawer_ = std::thread([this] { Draw(); });
  }

  ~Line() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    drawer_.join();
    std::lock_guard<std::mutex> lock(mu_);
    if (terminal_) {
      if (drawn_) std::fputs("\r\033[K", stderr);
    } else {
      // Off a terminal the line was asked for: it always ends with a summary.
      std::fprintf(stderr, "graphdiff: %s\n", FormatProgress("done", Sum(), Seconds()).c_str());
    }
    std::fflush(stderr);
  }

  void SetPhase(std::string_view phase) {
    std::lock_guard<std::mutex> lock(mu_);
    phase_ = std::string(phase);
  }

  // A new load's slot; its counts are summed with the other loads'.
  size_t AddLoad() {
    std::lock_guard<std::mutex> lock(mu_);
    loads_.emplace_back();
    phase_.clear();  // a new load: its phases show again
    return loads_.size() - 1;
  }

  void Update(size_t slot, const LoadProgress& p) {
    std::lock_guard<std::mutex> lock(mu_);
    loads_[slot] = p;
    // A load's phase shows until the command names its own; a finished
    // load says "loaded" while another one may still be reading.
    if (phase_.empty() || phase_ == "listing" || phase_ == "reading" || phase_ == "parsing" ||
        phase_ == "loaded") {
      phase_ = p.phase == LoadPhase::kDone ? "loaded" : std::string(LoadPhaseName(p.phase));
    }
  }

 private:
  LoadProgress Sum() const {
    LoadProgress total;
    for (const LoadProgress& p : loads_) {
      total.files_found += p.files_found;
      total.files_done += p.files_done;
      total.graphs += p.graphs;
      total.bytes_read += p.bytes_read;
    }
    return total;
  }

  double Seconds() const {
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

  void Draw() {
    std::unique_lock<std::mutex> lock(mu_);
    if (cv_.wait_for(lock, terminal_ ? kQuiet : kLogEvery, [this] { return stop_; })) return;
    while (!stop_) {
      std::string text = FormatProgress(phase_.empty() ? "starting" : phase_, Sum(), Seconds());
      if (terminal_) {
        // Cut to the width of a narrow terminal so the line never wraps.
        if (text.size() > 78) text.resize(78);
        std::fprintf(stderr, "\r\033[Kgraphdiff: %s", text.c_str());
      } else {
        std::fprintf(stderr, "graphdiff: %s\n", text.c_str());
      }
      std::fflush(stderr);
      drawn_ = true;
      cv_.wait_for(lock, terminal_ ? kTerminalEvery : kLogEvery, [this] { return stop_; });
    }
  }

  const bool terminal_;
  const Clock::time_point start_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  bool drawn_ = false;
  std::string phase_;
  std::vector<LoadProgress> loads_;
  std::thread drawer_;
};

// Shared with the loads' callbacks, so a line outlives any load still
// reporting to it.
std::shared_ptr<Line>& Current() {
  static std::shared_ptr<Line> line;
  return line;
}

}  // namespace

std::string FormatProgress(std::string_view phase, const LoadProgress& p, double seconds) {
  std::string files = p.files_found > p.files_done
                          ? fmt::format("{}/{}", p.files_done, p.files_found)
                          : fmt::format("{}", p.files_done);
  return fmt::format("{}: {} file{}, {} graph{}, {} read, {:.1f} s", phase, files,
                     p.files_found == 1 && p.files_done <= 1 ? "" : "s", p.graphs,
                     p.graphs == 1 ? "" : "s", Bytes(p.bytes_read), seconds);
}

void AddProgressOptions(CLI::App* cmd) {
  const char* group = "Progress";
  cmd->add_flag_callback(
         "--progress", [] { Mode() = ProgressMode::kOn; },
         "Show a progress line on stderr even when it is not a terminal")
      ->group(group);
  cmd->add_flag_callback(
         "--no-progress", [] { Mode() = ProgressMode::kOff; },
         "Never show the progress line (default: on a terminal, not under CI or TERM=dumb)")
      ->group(group);
}

void StartProgress() {
  Current().reset();
  ProgressMode mode = Mode();
  bool terminal = isatty(fileno(stderr)) != 0;
  const char* term = std::getenv("TERM");
  bool dumb = term != nullptr && std::strcmp(term, "dumb") == 0;
  bool on = mode == ProgressMode::kOn ||
            (mode == ProgressMode::kAuto && terminal && !dumb && !EnvSet("CI"));
  if (on) Current() = std::make_shared<Line>(terminal && !dumb);
}

void StopProgress() {
  Current().reset();
  Mode() = ProgressMode::kAuto;  // the next command line starts from the default
}

void SetProgressPhase(std::string_view phase) {
  if (Current()) Current()->SetPhase(phase);
}

std::function<void(const LoadProgress&)> LoadProgressCallback() {
  std::shared_ptr<Line> line = Current();
  if (!line) return nullptr;
  size_t slot = line->AddLoad();
  return [line, slot](const LoadProgress& p) { line->Update(slot, p); };
}

}  // namespace graphdiff::cli
