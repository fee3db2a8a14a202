// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "load/file_read.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "util/absl_sv.h"

namespace graphdiff {
namespace {

absl::Status ErrnoError(const std::string& path, std::string_view what, int err) {
  std::string message = absl::StrCat(path, ": ", AbslSv(what), ": ", std::strerror(err));
  if (err == ENOENT) return absl::NotFoundError(message);
  if (err == EACCES || err == EPERM) return absl::PermissionDeniedError(message);
  return absl::UnavailableError(message);
}

// Closes the descriptor on every return path.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

// Reads up to `size` bytes into `out`; returns the count read (short at EOF).
absl::StatusOr<size_t> ReadFully(int fd, const std::string& path, char* out, size_t size) {
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::read(fd, out + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(path, "cannot read", errno);
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return done;
}

}  // namespace

absl::Status FileTooLargeError(const std::string& path, uint64_t size, uint64_t max_bytes,
                               std::string_view limit_name) {
  return absl::ResourceExhaustedError(absl::StrCat(path, ": file is ", size,
                                                   " bytes, over the limit of ", max_bytes,
                                                   " (", AbslSv(limit_name), ")"));
}

namespace {

// Opens `path` for a whole-file read: a regular file no longer than
// `max_bytes`. Returns its size.
absl::StatusOr<uint64_t> OpenForWholeRead(const std::string& path, uint64_t max_bytes,
                                          std::string_view limit_name, Fd& fd) {
  if (fd.get() < 0) return ErrnoError(path, "cannot open", errno);
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return ErrnoError(path, "cannot stat", errno);
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a regular file"));
  }
  uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > max_bytes) return FileTooLargeError(path, size, max_bytes, limit_name);
  return size;
}

absl::StatusOr<TextBuffer> ReadOpenFile(const std::string& path, int fd, uint64_t size) {
  // An uninitialised buffer: zero-filling a std::string first writes every
  // page twice, a sixth of the time `stats` spent on a 150 MB file.
  TextBuffer data;
  char* out = data.Reserve(static_cast<size_t>(size));
  if (out == nullptr && size > 0) {
    return absl::ResourceExhaustedError(
        absl::StrCat(path, ": not enough memory to read its ", size, " bytes"));
  }
  absl::StatusOr<size_t> n = ReadFully(fd, path, out, static_cast<size_t>(size));
  if (!n.ok()) return n.status();
  // A file that shrank while we read it is read as it now is; one that grew
  // is read up to the size it had when opened.
  data.Commit(*n);
  return data;
}

// O_NONBLOCK: opening a FIFO would otherwise wait for a writer forever,
// before fstat could refuse it. Regular files ignore the flag.
int OpenReadOnly(const std::string& path) {
  return ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
}

}  // namespace

FileBytes::~FileBytes() { Unmap(); }

FileBytes::FileBytes(FileBytes&& other) noexcept
    : copy_(std::move(other.copy_)),
      mapped_(std::exchange(other.mapped_, nullptr)),
      mapped_size_(std::exchange(other.mapped_size_, 0)) {}

FileBytes& FileBytes::operator=(FileBytes&& other) noexcept {
  if (this != &other) {
    Unmap();
    copy_ = std::move(other.copy_);
    mapped_ = std::exchange(other.mapped_, nullptr);
    mapped_size_ = std::exchange(other.mapped_size_, 0);
  }
  return *this;
}

FileBytes FileBytes::Mapping(const char* base, size_t size) {
  FileBytes bytes;
  bytes.mapped_ = base;
  bytes.mapped_size_ = size;
  return bytes;
}

void FileBytes::Unmap() {
  if (mapped_ != nullptr) ::munmap(const_cast<char*>(mapped_), mapped_size_);
  mapped_ = nullptr;
  mapped_size_ = 0;
}

absl::StatusOr<FileBytes> ReadFileBytes(const std::string& path, uint64_t max_bytes,
                                        std::string_view limit_name) {
  Fd fd(OpenReadOnly(path));
  absl::StatusOr<uint64_t> size = OpenForWholeRead(path, max_bytes, limit_name, fd);
  if (!size.ok()) return size.status();
  if (*size >= kMapFileBytes && *size <= SIZE_MAX) {
    // MAP_POPULATE maps every page now, in one call, instead of taking a
    // fault per 4 KiB page while the parser walks the text.
    void* base = ::mmap(nullptr, static_cast<size_t>(*size), PROT_READ,
                        MAP_PRIVATE | MAP_POPULATE, fd.get(), 0);
    if (base != MAP_FAILED) {
      return FileBytes::Mapping(static_cast<const char*>(base), static_cast<size_t>(*size));
    }
    // Filesystems that cannot map (some FUSE and network mounts) are read.
  }
  absl::StatusOr<TextBuffer> copy = ReadOpenFile(path, fd.get(), *size);
  if (!copy.ok()) return copy.status();
  return FileBytes(*std::move(copy));
}

absl::StatusOr<FileStart> ReadFileStart(const std::string& path, size_t head_bytes) {
  Fd fd(OpenReadOnly(path));
  absl::StatusOr<uint64_t> size = OpenForWholeRead(path, UINT64_MAX, "", fd);
  if (!size.ok()) return size.status();
  FileStart start;
  if (*size < kMapFileBytes) {
    absl::StatusOr<TextBuffer> whole = ReadOpenFile(path, fd.get(), *size);
    if (!whole.ok()) return whole.status();
    start.whole = *std::move(whole);
    start.complete = true;
    return start;
  }
  start.head.resize(head_bytes);
  absl::StatusOr<size_t> n = ReadFully(fd.get(), path, start.head.data(), head_bytes);
  if (!n.ok()) return n.status();
  start.head.resize(*n);
  return start;
}

absl::StatusOr<TextBuffer> ReadFileCopy(const std::string& path, uint64_t max_bytes,
                                        std::string_view limit_name) {
  Fd fd(OpenReadOnly(path));
  absl::StatusOr<uint64_t> size = OpenForWholeRead(path, max_bytes, limit_name, fd);
  if (!size.ok()) return size.status();
  return ReadOpenFile(path, fd.get(), *size);
}

absl::StatusOr<std::string> ReadWholeFile(const std::string& path, uint64_t max_bytes,
                                          std::string_view limit_name) {
  absl::StatusOr<TextBuffer> data = ReadFileCopy(path, max_bytes, limit_name);
  if (!data.ok()) return data.status();
  return std::string(data->view());
}

bool FileHoldsBytes(const std::string& path, std::string_view bytes) {
  Fd fd(OpenReadOnly(path));
  absl::StatusOr<uint64_t> size = OpenForWholeRead(path, UINT64_MAX, "", fd);
  if (!size.ok() || *size != bytes.size()) return false;
  constexpr size_t kBlock = size_t{1} << 16;
  thread_local std::unique_ptr<char[]> block;
  if (block == nullptr) block.reset(new char[kBlock]);
  for (size_t done = 0; done < bytes.size();) {
    const size_t want = std::min(kBlock, bytes.size() - done);
    absl::StatusOr<size_t> n = ReadFully(fd.get(), path, block.get(), want);
    if (!n.ok() || *n != want || std::memcmp(block.get(), bytes.data() + done, want) != 0) {
      return false;
    }
    done += want;
  }
  // A file that grew since its size was taken holds more.
  char past;
  absl::StatusOr<size_t> more = ReadFully(fd.get(), path, &past, 1);
  return more.ok() && *more == 0;
}

}  // namespace graphdiff
