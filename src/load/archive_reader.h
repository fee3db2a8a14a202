// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Archives (.zip, .tar, .7z, and gzip/xz/bzip2/zstd streams, compressed tars
// among them) read entry by entry into memory with libarchive. Nothing is
// ever written to disk, so a hostile entry name cannot touch the file system;
// such names are still refused so that reports never show them.
#ifndef GRAPHDIFF_SRC_LOAD_ARCHIVE_READER_H_
#define GRAPHDIFF_SRC_LOAD_ARCHIVE_READER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "load/text_buffer.h"

namespace graphdiff {

// What the first bytes of a file say it is. kCompressed is a compressed
// stream: a compressed tar, or a single compressed file.
enum class ArchiveMagic { kNone, kZip, kTar, kSevenZip, kCompressed };

// Looks at the first bytes (at least 262 for tar) of a file.
ArchiveMagic SniffArchive(std::string_view head);

// Output below this many bytes is never called a bomb, so a small file that
// compresses extremely well (a run of zeros) still reads.
inline constexpr uint64_t kRatioFloorBytes = 32ull << 20;

struct ArchiveLimits {
  uint64_t max_file_bytes = 0;   // per entry
  size_t max_entries = 0;        // per archive
  uint64_t max_total_bytes = 0;  // over every archive of one load
  std::atomic<uint64_t>* total_bytes = nullptr;  // shared counter for the above
  // Uncompressed bytes out per compressed byte in, checked as data streams
  // (within one archive) and over the whole load against `input_bytes`, the
  // size of the archives the user handed over, so nesting cannot multiply
  // ratios. 0 = unlimited.
  uint64_t max_ratio = 0;
  const std::atomic<uint64_t>* input_bytes = nullptr;
  // Told every chunk of uncompressed bytes as it comes out; may be empty.
  std::function<void(uint64_t bytes)> progress;
};

// Receives the archive's entries in archive order.
struct ArchiveSink {
  // A regular file: its checked, normalised entry path and its bytes. The
  // path is empty for the content of a compressed single file, which has no
  // name of its own. A non-OK return stops reading and is returned.
  std::function<absl::Status(std::string path, TextBuffer data)> file;
  // An entry that is not read (link, device, encrypted), with the reason.
  std::function<void(std::string path, std::string reason)> skip;
};

// Reads every entry of the archive `name` (used in messages), streaming it
// from `disk_path` when that is non-empty, else from `memory`. Hidden entries
// and directories are passed over silently; an entry whose name repeats an
// earlier one is skipped, so the result never depends on which copy a
// reader keeps. Memory grows as bytes arrive, never from the size an entry
// header claims. Errors: corrupt archive, an entry path that is absolute or
// has `..`, a limit exceeded.
absl::Status ReadArchive(std::string_view name, const std::string& disk_path,
                         std::string_view memory, ArchiveMagic magic,
                         const ArchiveLimits& limits, const ArchiveSink& sink);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_LOAD_ARCHIVE_READER_H_
