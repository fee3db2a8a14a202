// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <iterator>
#include <map>
#include <sstream>

#include "commands.h"
#include "fmt/format.h"
#include "graphdiff/sanitize.h"
#include "cli_limits.h"
#include "output_stream.h"
#include "progress.h"

namespace graphdiff::cli {

int Fail(const absl::Status& status) {
  StopProgress();
  // Messages quote paths and names from dumps: never raw to the terminal.
  std::string text = TerminalSafe(std::string(status.message()));
  std::fprintf(stderr, "graphdiff: %s\n", text.c_str());
  return kExitTrouble;
}

std::string DisplayPath(const std::string& root, const std::string& inner) {
  namespace fs = std::filesystem;
  if (root == "-") return "-";  // standard input holds one file
  std::error_code ec;
  if (fs::is_directory(root, ec)) {
    return root.empty() || root.back() == '/' ? root + inner : root + "/" + inner;
  }
  if (fs::path(root).filename().string() == inner) return root;
  return root + "!" + inner;
}

absl::Status WriteOutput(const std::string& path, std::string_view text) {
  absl::StatusOr<OutputStream> out = OutputStream::Open(path);
  if (!out.ok()) return out.status();
  absl::Status st = out->Write(text);
  return st.ok() ? out->Close() : st;
}

size_t OutputWidth(size_t requested) {
  if (requested > 0) return std::max<size_t>(requested, 20);
  if (isatty(fileno(stdout)) != 0) {
    struct winsize ws {};
    if (ioctl(fileno(stdout), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20) return ws.ws_col;
  }
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    long n = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && n >= 20 && n <= 1000) return static_cast<size_t>(n);
  }
  return 80;
}

absl::StatusOr<Dump> LoadInput(const std::string& path,
                               std::function<void(const TakenGraphs&)> take_graphs) {
  LoadOptions options = CliLimits().load;
  options.progress = LoadProgressCallback();
  options.take_graphs = std::move(take_graphs);
  if (path != "-") return LoadDump(path, options);
  // Standard input has no size to check up front: read it in blocks, no
  // further than the file limit.
  std::string data;
  char block[1 << 16];
  while (std::cin.read(block, sizeof(block)) || std::cin.gcount() > 0) {
    data.append(block, static_cast<size_t>(std::cin.gcount()));
    if (data.size() > options.max_file_bytes) {
      return absl::ResourceExhaustedError(fmt::format(
          "standard input holds more than {} bytes (graphdiff --max-file-bytes)",
          options.max_file_bytes));
    }
  }
  if (std::cin.bad()) {
    return absl::UnavailableError(
        fmt::format("cannot read standard input: {}", std::strerror(errno)));
  }
  absl::StatusOr<Dump> dump = LoadDumpFromMemory("-", {{"stdin", std::move(data)}}, options);
  if (dump.ok()) dump->root = "-";
  return dump;
}

DumpPair LoadInputs(const std::string& left, const std::string& right) {
  if (left != "-" && right != "-") {
    LoadOptions options = CliLimits().load;
    options.progress = LoadProgressCallback();
    return LoadDumpPair(left, right, options);
  }
  // Standard input on one side: the sides load on their own, at once.
  std::future<absl::StatusOr<Dump>> pending =
      std::async(std::launch::async, [&right] { return LoadInput(right); });
  DumpPair out;
  out.left = LoadInput(left);
  out.right = pending.get();
  return out;
}

std::string WhyNothingReadable(const Dump& dump, const std::string& path) {
  std::string what = path == "-" ? std::string("standard input") : path;
  std::string why;
  if (dump.files.empty() && dump.skipped.empty()) {
    why = fmt::format("{} holds no files", what);
  } else {
    why = fmt::format("no recognised dump in {}", what);
    if (!dump.skipped.empty()) {
      std::map<std::string, size_t> reasons;
      for (const auto& [file, reason] : dump.skipped) ++reasons[reason];
      why += fmt::format(" ({} file{} skipped:", dump.skipped.size(),
                         dump.skipped.size() == 1 ? "" : "s");
      bool first = true;
      for (const auto& [reason, n] : reasons) {
        why += fmt::format("{} {} {}", first ? "" : ",", n, reason);
        first = false;
      }
      if (dump.skipped.size() <= 3) {
        why += "; ";
        for (size_t i = 0; i < dump.skipped.size(); ++i) {
          why += (i ? ", " : "") + DisplayPath(path, dump.skipped[i].first);
        }
      }
      why += ")";
    } else {
      why += " (its files hold no graph and no metrics report)";
    }
  }
  return why + ".\ngraphdiff reads lazy-tensor IR, XLA save files (XLA_SAVE_TENSORS_FILE), FX "
               "graph code (TORCH_LOGS=graph_code), HLO text and metrics reports; "
               "docs/producing-dumps.md says how to write them.";
}

std::string ReadingNotes(const Dump& dump, const std::string& path, size_t max_items) {
  std::string text;
  size_t shown = 0;
  for (const auto& [file, reason] : dump.skipped) {
    if (shown == 0) text += fmt::format("\nSkipped, not read ({}):\n", dump.skipped.size());
    if (max_items != 0 && shown == max_items) {
      text += fmt::format("  ... and {} more\n", dump.skipped.size() - shown);
      break;
    }
    ++shown;
    text += fmt::format("  {}: {}\n", DisplayPath(path, file), reason);
  }
  size_t warnings = 0;
  for (const DumpFile& f : dump.files) {
    for (const Diagnostic& d : f.warnings) warnings += d.count;
  }
  if (warnings > 0) {
    text += fmt::format("\nReading warnings ({}):\n", warnings);
    for (const DumpFile& f : dump.files) {
      for (const Diagnostic& d : f.warnings) text += "  " + d.ToString() + "\n";
    }
  }
  return TerminalSafe(text);
}

bool HoldsSomething(const Dump& dump) {
  for (const DumpFile& f : dump.files) {
    if (!f.graphs.empty() || !f.metrics.empty()) return true;
  }
  return false;
}

std::string SuggestCommand(std::string_view typed, const std::vector<std::string>& names) {
  // Levenshtein distance; a typo is at most two edits (or a prefix).
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
      size_t diag = row[0];
      row[0] = i;
      for (size_t j = 1; j <= b.size(); ++j) {
        size_t up = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1] ? 1 : 0)});
        diag = up;
      }
    }
    return row[b.size()];
  };
  std::string best;
  size_t best_d = 3;
  for (const std::string& n : names) {
    size_t d = distance(typed, n);
    if (typed.size() >= 2 && n.compare(0, typed.size(), typed) == 0) d = std::min<size_t>(d, 1);
    if (d < best_d) {
      best_d = d;
      best = n;
    }
  }
  return best;
}

}  // namespace graphdiff::cli
