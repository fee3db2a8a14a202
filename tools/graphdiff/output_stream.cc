// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "output_stream.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "fmt/format.h"
#include "progress.h"

namespace graphdiff::cli {

absl::StatusOr<OutputStream> OutputStream::Open(const std::string& path) {
  StopProgress();
  if (path.empty() || path == "-") return OutputStream("", -1);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    return absl::UnavailableError(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  }
  return OutputStream(path, fd);
}

OutputStream::OutputStream(OutputStream&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)) {}

OutputStream::~OutputStream() {
  if (fd_ >= 0) ::close(fd_);
}

absl::Status OutputStream::Write(std::string_view text) {
  if (path_.empty()) {
    errno = 0;
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size()) {
      const int err = errno;
      return absl::DataLossError(fmt::format("cannot write standard output: {}",
                                             err ? std::strerror(err) : "short write"));
    }
    return absl::OkStatus();
  }
  if (fd_ < 0) return absl::FailedPreconditionError(fmt::format("{} is closed", path_));
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      return absl::DataLossError(fmt::format("cannot write {}: {}", path_, std::strerror(err)));
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::Status OutputStream::Close() {
  if (path_.empty()) {
    errno = 0;
    if (std::fflush(stdout) != 0) {
      const int err = errno;
      return absl::DataLossError(fmt::format("cannot write standard output: {}",
                                             err ? std::strerror(err) : "short write"));
    }
    return absl::OkStatus();
  }
  if (fd_ < 0) return absl::OkStatus();
  const int fd = std::exchange(fd_, -1);
  if (::close(fd) != 0) {
    return absl::DataLossError(fmt::format("cannot write {}: {}", path_, std::strerror(errno)));
  }
  return absl::OkStatus();
}

}  // namespace graphdiff::cli
