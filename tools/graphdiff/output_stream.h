// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// A command's report written a piece at a time. The stats of a log of 10^5
// graphs are tens of megabytes of text; held whole, the text and the stats
// behind it were as much fresh memory as the graphs themselves, and on a
// virtual machine fresh memory is a third of a parse's time.
#ifndef GRAPHDIFF_TOOLS_OUTPUT_STREAM_H_
#define GRAPHDIFF_TOOLS_OUTPUT_STREAM_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace graphdiff::cli {

// Standard output, or a file created (or truncated) when opened. Errors name
// the file and the system's reason ("cannot write out/r.txt: No space left on
// device"). Opening stops the progress line: the report comes after the work.
class OutputStream {
 public:
  // `path` empty or "-" is standard output.
  static absl::StatusOr<OutputStream> Open(const std::string& path);

  OutputStream(OutputStream&& other) noexcept;
  OutputStream& operator=(OutputStream&&) = delete;
  OutputStream(const OutputStream&) = delete;
  ~OutputStream();  // closes a file not closed yet; its error is lost

  absl::Status Write(std::string_view text);
  // Flushes standard output, or closes the file (where a full disk may show).
  absl::Status Close();

 private:
  OutputStream(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}

  std::string path_;  // "" for standard output
  int fd_ = -1;       // the file; -1 for standard output or once closed
};

}  // namespace graphdiff::cli

#endif  // GRAPHDIFF_TOOLS_OUTPUT_STREAM_H_
