// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "load/archive_reader.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "load/entry_path.h"
#include "util/absl_sv.h"
#include "util/checked.h"

namespace graphdiff {
namespace {

constexpr size_t kChunk = 64 * 1024;
// Small enough that the ratio check sees input consumed as output grows.
constexpr size_t kDiskBlock = 256 * 1024;

bool HasPrefix(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

struct ArchiveDeleter {
  void operator()(struct archive* a) const { archive_read_free(a); }
};
using ArchivePtr = std::unique_ptr<struct archive, ArchiveDeleter>;

absl::Status Corrupt(std::string_view name, struct archive* a) {
  const char* why = archive_error_string(a);
  return absl::InvalidArgumentError(
      absl::StrCat(AbslSv(name), ": corrupt or unreadable archive: ",
                   why ? why : "unknown error"));
}

absl::Status OverFileLimit(std::string_view name, std::string_view entry,
                           uint64_t limit) {
  return absl::ResourceExhaustedError(absl::StrCat(
      AbslSv(name), "!", AbslSv(entry), ": entry is over the limit of ", limit,
      " bytes (LoadOptions::max_file_bytes; graphdiff --max-file-bytes)"));
}

absl::Status OverRatio(std::string_view name, uint64_t out, uint64_t in, uint64_t limit) {
  return absl::ResourceExhaustedError(absl::StrCat(
      AbslSv(name), ": decompression bomb? ", in, " compressed bytes expanded to more than ",
      out, ", over the ratio limit of ", limit,
      " (LoadOptions::max_compression_ratio; graphdiff --max-compression-ratio)"));
}

// Counts `n` more uncompressed bytes against the limits shared by the load.
absl::Status CountBytes(std::string_view name, const ArchiveLimits& limits, uint64_t n) {
  if (limits.total_bytes == nullptr) return absl::OkStatus();
  uint64_t total = limits.total_bytes->fetch_add(n) + n;
  if (total > limits.max_total_bytes) {
    return absl::ResourceExhaustedError(absl::StrCat(
        AbslSv(name), ": archives hold more than ", limits.max_total_bytes,
        " uncompressed bytes (LoadOptions::max_archive_bytes; graphdiff --max-archive-bytes)"));
  }
  if (limits.max_ratio > 0 && limits.input_bytes != nullptr && total > kRatioFloorBytes) {
    uint64_t in = limits.input_bytes->load();
    if (total > SaturatingMul(in, limits.max_ratio)) {
      return OverRatio(name, total, in, limits.max_ratio);
    }
  }
  return absl::OkStatus();
}

// The archive being read: its reader and how much came out of it so far.
struct Stream {
  std::string_view name;
  struct archive* a = nullptr;
  uint64_t out_bytes = 0;
};

// Reads one entry in chunks, straight into the buffer the parser reads: a
// header's size is a claim, not a fact, so it may refuse an entry early but
// never sizes an allocation.
absl::Status ReadEntryData(Stream& s, std::string_view entry_name, struct archive_entry* e,
                           const ArchiveLimits& limits, TextBuffer* out) {
  if (archive_entry_size_is_set(e)) {
    int64_t declared = archive_entry_size(e);
    if (declared > 0 && static_cast<uint64_t>(declared) > limits.max_file_bytes) {
      return OverFileLimit(s.name, entry_name, limits.max_file_bytes);
    }
  }
  while (true) {
    char* room = out->Reserve(kChunk);
    if (room == nullptr) {
      return absl::ResourceExhaustedError(
          absl::StrCat(AbslSv(s.name), "!", AbslSv(entry_name), ": out of memory"));
    }
    la_ssize_t n = archive_read_data(s.a, room, kChunk);
    if (n < 0) return Corrupt(s.name, s.a);
    if (n == 0) break;
    if (out->size() + static_cast<size_t>(n) > limits.max_file_bytes) {
      return OverFileLimit(s.name, entry_name, limits.max_file_bytes);
    }
    absl::Status counted = CountBytes(s.name, limits, static_cast<uint64_t>(n));
    if (!counted.ok()) return counted;
    s.out_bytes += static_cast<uint64_t>(n);
    if (limits.max_ratio > 0 && s.out_bytes > kRatioFloorBytes) {
      // Compressed bytes consumed so far (read ahead by at most one block).
      uint64_t in = static_cast<uint64_t>(std::max<la_int64_t>(archive_filter_bytes(s.a, -1), 1));
      if (s.out_bytes > SaturatingMul(in, limits.max_ratio)) {
        return OverRatio(s.name, s.out_bytes, in, limits.max_ratio);
      }
    }
    out->Commit(static_cast<size_t>(n));
    if (limits.progress) limits.progress(static_cast<uint64_t>(n));
  }
  out->Shrink();
  return absl::OkStatus();
}

// Hands libarchive an in-memory archive a block at a time, so that the
// compressed bytes it has consumed (for the ratio check) track what it has
// decompressed.
struct MemorySource {
  std::string_view data;
  size_t at = 0;
};

la_ssize_t ReadMemoryBlock(struct archive*, void* client, const void** buffer) {
  auto* src = static_cast<MemorySource*>(client);
  size_t n = std::min(kChunk, src->data.size() - src->at);
  *buffer = src->data.data() + src->at;
  src->at += n;
  return static_cast<la_ssize_t>(n);
}

}  // namespace

ArchiveMagic SniffArchive(std::string_view head) {
  if (HasPrefix(head, "PK\x03\x04") || HasPrefix(head, std::string_view("PK\x05\x06", 4))) {
    return ArchiveMagic::kZip;
  }
  if (HasPrefix(head, "7z\xBC\xAF\x27\x1C")) return ArchiveMagic::kSevenZip;
  if (HasPrefix(head, "\x1F\x8B") ||                             // gzip
      HasPrefix(head, std::string_view("\xFD" "7zXZ\x00", 6)) ||  // xz
      HasPrefix(head, "\x28\xB5\x2F\xFD") ||                      // zstd
      (HasPrefix(head, "BZh") && head.size() > 3 && head[3] >= '1' && head[3] <= '9')) {
    return ArchiveMagic::kCompressed;
  }
  if (head.size() >= 262 && head.substr(257, 5) == "ustar") return ArchiveMagic::kTar;
  return ArchiveMagic::kNone;
}

absl::Status ReadArchive(std::string_view name, const std::string& disk_path,
                         std::string_view memory, ArchiveMagic magic,
                         const ArchiveLimits& limits, const ArchiveSink& sink) {
  ArchivePtr a(archive_read_new());
  if (!a) return absl::ResourceExhaustedError("cannot allocate an archive reader");
  archive_read_support_filter_gzip(a.get());
  archive_read_support_filter_xz(a.get());
  archive_read_support_filter_lzma(a.get());
  archive_read_support_filter_bzip2(a.get());
  archive_read_support_filter_zstd(a.get());
  archive_read_support_format_tar(a.get());
  archive_read_support_format_zip(a.get());
  archive_read_support_format_7zip(a.get());
  // A compressed stream that holds no archive is a single compressed file.
  // Raw bids only when no real format does, and it is offered only behind a
  // compression magic, so plain text never reaches it.
  if (magic == ArchiveMagic::kCompressed) archive_read_support_format_raw(a.get());

  MemorySource source{memory, 0};
  int r = disk_path.empty()
              ? archive_read_open(a.get(), &source, nullptr, ReadMemoryBlock, nullptr)
              : archive_read_open_filename(a.get(), disk_path.c_str(), kDiskBlock);
  if (r != ARCHIVE_OK) return Corrupt(name, a.get());
  Stream stream{name, a.get(), 0};
  std::set<std::string> seen;

  size_t entries = 0;
  while (true) {
    struct archive_entry* e = nullptr;
    r = archive_read_next_header(a.get(), &e);
    if (r == ARCHIVE_EOF) break;
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) return Corrupt(name, a.get());
    if (++entries > limits.max_entries) {
      return absl::ResourceExhaustedError(
          absl::StrCat(AbslSv(name), ": archive has more than ", limits.max_entries,
                       " entries (LoadOptions::max_archive_entries; graphdiff "
                       "--max-archive-entries)"));
    }
    if (archive_format(a.get()) == ARCHIVE_FORMAT_RAW) {
      TextBuffer data;
      absl::Status read = ReadEntryData(stream, "", e, limits, &data);
      if (!read.ok()) return read;
      absl::Status taken = sink.file(std::string(), std::move(data));
      if (!taken.ok()) return taken;
      continue;
    }
    const char* raw_path = archive_entry_pathname(e);
    if (raw_path == nullptr) raw_path = archive_entry_pathname_utf8(e);
    std::string_view written = raw_path ? raw_path : "";
    absl::StatusOr<std::string> path = CheckEntryPath(name, written);
    if (!path.ok()) return path.status();
    if (path->empty() || IsHiddenPath(*path)) continue;

    // Links are never followed: a link entry could point anywhere, and the
    // same content is reachable through its target entry anyway.
    if (archive_entry_hardlink(e) != nullptr) {
      sink.skip(*path, "hard link in archive, not followed");
      continue;
    }
    mode_t type = archive_entry_filetype(e);
    if (type == AE_IFLNK) {
      sink.skip(*path, "symbolic link in archive, not followed");
      continue;
    }
    if (type == AE_IFDIR) continue;
    if (type != AE_IFREG && type != 0) {
      sink.skip(*path, "not a regular file");
      continue;
    }
    if (archive_entry_is_encrypted(e)) {
      sink.skip(*path, "encrypted archive entry");
      continue;
    }
    if (!seen.insert(*path).second) {
      sink.skip(*path, "duplicate entry name in archive, only the first is read");
      continue;
    }
    TextBuffer data;
    absl::Status read = ReadEntryData(stream, *path, e, limits, &data);
    if (!read.ok()) return read;
    absl::Status taken = sink.file(*std::move(path), std::move(data));
    if (!taken.ok()) return taken;
  }
  return absl::OkStatus();
}

}  // namespace graphdiff
