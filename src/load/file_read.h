// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Reading a whole file from disk into one allocation sized from its length:
// dump files reach gigabytes, and growing a buffer would copy them again.
#ifndef GRAPHDIFF_SRC_LOAD_FILE_READ_H_
#define GRAPHDIFF_SRC_LOAD_FILE_READ_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/statusor.h"
#include "load/text_buffer.h"

namespace graphdiff {

// The whole file. A file longer than `max_bytes` is an error that names the
// limit (`limit_name`) so the user knows which option to raise.
absl::StatusOr<std::string> ReadWholeFile(const std::string& path, uint64_t max_bytes,
                                          std::string_view limit_name);
// The same, read into one buffer of its size and not copied again: never a
// mapping, so bytes kept while other files load cannot vanish under the
// reader when the file shrinks (see FileBytes).
absl::StatusOr<TextBuffer> ReadFileCopy(const std::string& path, uint64_t max_bytes,
                                        std::string_view limit_name);
// A whole file's bytes for one parse: a read-only mapping of the file where
// it is large, else a copy read into memory.
//
// Why map: a copy of a large dump is fresh memory the kernel must zero and
// then fill from the page cache. On the one-graph FX dump of 211 MB, the
// zeroing and copying were a sixth of `graphdiff stats`. A mapping shares the
// page cache's pages and costs neither.
//
// The price is the one every mapping reader (LLVM, git, ripgrep) pays: a file
// truncated by another process while it is parsed ends the process with
// SIGBUS instead of a read error. Small files, the many files of a dump
// directory, are read: unmapping costs more than copying them.
class FileBytes {
 public:
  FileBytes() = default;
  explicit FileBytes(TextBuffer copy) : copy_(std::move(copy)) {}
  ~FileBytes();
  FileBytes(FileBytes&& other) noexcept;
  FileBytes& operator=(FileBytes&& other) noexcept;
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  // Adopts a mapping made with mmap; the destructor unmaps it.
  static FileBytes Mapping(const char* base, size_t size);

  std::string_view view() const {
    return mapped_ != nullptr ? std::string_view(mapped_, mapped_size_) : copy_.view();
  }
  size_t size() const { return view().size(); }
  bool mapped() const { return mapped_ != nullptr; }

 private:
  void Unmap();

  TextBuffer copy_;
  const char* mapped_ = nullptr;
  size_t mapped_size_ = 0;
};

// Files at least this long are mapped by ReadFileBytes.
inline constexpr uint64_t kMapFileBytes = uint64_t{4} << 20;

// A file's start, read in one open: the whole file when it is shorter than
// kMapFileBytes, else its first bytes only, for the caller to map or stream
// once it knows what the file is. A dump directory's many small files were
// opened twice, first for the head that tells an archive, then for the rest.
struct FileStart {
  TextBuffer whole;  // the whole file, when `complete`
  std::string head;  // else its first `head_bytes` (fewer when it is shorter)
  bool complete = false;
};
absl::StatusOr<FileStart> ReadFileStart(const std::string& path, size_t head_bytes);

// "PATH: file is N bytes, over the limit of MAX (LIMIT_NAME)".
absl::Status FileTooLargeError(const std::string& path, uint64_t size, uint64_t max_bytes,
                               std::string_view limit_name);

// The whole file, mapped or read (see FileBytes), with ReadWholeFile's
// errors and limit.
absl::StatusOr<FileBytes> ReadFileBytes(const std::string& path, uint64_t max_bytes,
                                        std::string_view limit_name);

// Whether the file at `path` is a regular file holding exactly `bytes`,
// read a block at a time into a buffer of the calling thread's: no memory
// the size of the file. False where it cannot be read.
bool FileHoldsBytes(const std::string& path, std::string_view bytes);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_LOAD_FILE_READ_H_
