// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Helpers for the Load* and Pair* tests: archives built in memory with
// libarchive's writer (so every format and every hostile entry is made on
// the spot, never checked in as an opaque blob) and a scratch directory.
#ifndef GRAPHDIFF_TESTS_LOAD_TEST_HELPERS_H_
#define GRAPHDIFF_TESTS_LOAD_TEST_HELPERS_H_

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "gtest/gtest.h"

namespace graphdiff::testing_load {

inline std::string ResnetDir(std::string_view backend) {
  return std::string(GRAPHDIFF_TESTDATA_DIR) + "/resnet18-xla5430/" + std::string(backend);
}

inline std::string ReadTestFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void WriteTestFile(const std::string& path, std::string_view content) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(content.data(), static_cast<std::streamsize>(content.size()));
}

// A fresh directory under the test temp dir, removed with the object.
class ScratchDir {
 public:
  ScratchDir() {
    static std::atomic<int> counter{0};
    path_ = ::testing::TempDir() + "graphdiff_load_" + std::to_string(::getpid()) + "_" +
            std::to_string(counter++);
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string Join(std::string_view rel) const { return path_ + "/" + std::string(rel); }

 private:
  std::string path_;
};

struct TestEntry {
  enum class Type { kFile, kDir, kSymlink, kHardlink };
  std::string path;
  std::string content;  // file content, or the link target
  Type type = Type::kFile;
};

// The files of a ResNet-18 dump folder as entries under `prefix` ("" or "dir/").
inline std::vector<TestEntry> ResnetEntries(std::string_view backend, std::string_view prefix) {
  std::vector<TestEntry> out;
  for (const char* name : {"fx_graph.txt", "ir.txt", "metrics.txt"}) {
    out.push_back({std::string(prefix) + name, ReadTestFile(ResnetDir(backend) + "/" + name)});
  }
  return out;
}

// Builds an archive in memory. `format`: "zip", "tar" or "raw" (a single
// compressed file); `filter`: "", "gzip", "xz" or "bzip2".
inline std::string MakeArchive(std::string_view format, std::string_view filter,
                               const std::vector<TestEntry>& entries) {
  std::string out;
  struct archive* a = archive_write_new();
  if (format == "zip") archive_write_set_format_zip(a);
  if (format == "tar") archive_write_set_format_pax_restricted(a);
  if (format == "raw") archive_write_set_format_raw(a);
  if (filter == "gzip") archive_write_add_filter_gzip(a);
  if (filter == "xz") archive_write_add_filter_xz(a);
  if (filter == "bzip2") archive_write_add_filter_bzip2(a);
  archive_write_set_bytes_in_last_block(a, 1);
  auto write = [](struct archive*, void* client, const void* buffer, size_t n) -> la_ssize_t {
    static_cast<std::string*>(client)->append(static_cast<const char*>(buffer), n);
    return static_cast<la_ssize_t>(n);
  };
  EXPECT_EQ(archive_write_open(a, &out, nullptr, write, nullptr), ARCHIVE_OK)
      << archive_error_string(a);
  for (const TestEntry& e : entries) {
    struct archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.path.c_str());
    archive_entry_set_perm(entry, 0644);
    switch (e.type) {
      case TestEntry::Type::kFile:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_size(entry, static_cast<la_int64_t>(e.content.size()));
        break;
      case TestEntry::Type::kDir:
        archive_entry_set_filetype(entry, AE_IFDIR);
        archive_entry_set_perm(entry, 0755);
        break;
      case TestEntry::Type::kSymlink:
        archive_entry_set_filetype(entry, AE_IFLNK);
        archive_entry_set_symlink(entry, e.content.c_str());
        break;
      case TestEntry::Type::kHardlink:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_hardlink(entry, e.content.c_str());
        archive_entry_set_size(entry, 0);
        break;
    }
    EXPECT_EQ(archive_write_header(a, entry), ARCHIVE_OK) << archive_error_string(a);
    if (e.type == TestEntry::Type::kFile && !e.content.empty()) {
      EXPECT_EQ(archive_write_data(a, e.content.data(), e.content.size()),
                static_cast<la_ssize_t>(e.content.size()));
    }
    archive_entry_free(entry);
  }
  archive_write_close(a);
  archive_write_free(a);
  return out;
}

// A plain gzip stream of `content` (what `gzip file` writes).
inline std::string Gzip(std::string_view content) {
  return MakeArchive("raw", "gzip", {{"data", std::string(content)}});
}

}  // namespace graphdiff::testing_load

#endif  // GRAPHDIFF_TESTS_LOAD_TEST_HELPERS_H_
