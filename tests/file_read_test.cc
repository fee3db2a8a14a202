// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// ReadFileBytes maps large files and reads small ones; either way the caller
// sees the file's bytes, and the errors name the file and the limit.
#include "load/file_read.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "load_test_helpers.h"

namespace graphdiff {
namespace {

using testing_load::ScratchDir;
using testing_load::WriteTestFile;

std::string Pattern(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>('a' + (i * 7 + i / 4096) % 26);
  return s;
}

TEST(FileRead, LargeFileIsMappedSmallFileIsRead) {
  ScratchDir dir;
  const std::string big = Pattern(kMapFileBytes + 12345), small = Pattern(1000);
  WriteTestFile(dir.Join("big.txt"), big);
  WriteTestFile(dir.Join("small.txt"), small);

  absl::StatusOr<FileBytes> b = ReadFileBytes(dir.Join("big.txt"), UINT64_MAX, "limit");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(b->mapped());
  EXPECT_EQ(b->size(), big.size());
  EXPECT_TRUE(b->view() == big);

  absl::StatusOr<FileBytes> s = ReadFileBytes(dir.Join("small.txt"), UINT64_MAX, "limit");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_FALSE(s->mapped());
  EXPECT_TRUE(s->view() == small);

  // Moving hands the mapping over once; the moved-from object is empty.
  FileBytes moved = *std::move(b);
  EXPECT_TRUE(moved.mapped());
  EXPECT_TRUE(moved.view() == big);
  FileBytes assigned;
  assigned = std::move(moved);
  EXPECT_TRUE(assigned.view() == big);
  EXPECT_TRUE(moved.view().empty());
  assigned = std::move(*s);
  EXPECT_FALSE(assigned.mapped());
  EXPECT_TRUE(assigned.view() == small);
}

// Compared a block at a time: every block counts, and so do the lengths.
TEST(FileRead, FileHoldsBytesComparesEveryBlockAndTheLength) {
  ScratchDir dir;
  const std::string path = dir.Join("f.txt");
  const std::string text = Pattern(200000);  // three blocks and a part
  WriteTestFile(path, text);
  EXPECT_TRUE(FileHoldsBytes(path, text));
  for (size_t at : {size_t{0}, size_t{65535}, size_t{65536}, size_t{131073}, text.size() - 1}) {
    std::string other = text;
    other[at] = static_cast<char>(other[at] ^ 1);
    EXPECT_FALSE(FileHoldsBytes(path, other)) << at;
  }
  EXPECT_FALSE(FileHoldsBytes(path, std::string_view(text).substr(0, text.size() - 1)));
  EXPECT_FALSE(FileHoldsBytes(path, text + "x"));
  EXPECT_FALSE(FileHoldsBytes(dir.Join("missing.txt"), text));
  EXPECT_FALSE(FileHoldsBytes(dir.path(), ""));  // not a regular file
  WriteTestFile(dir.Join("empty.txt"), "");
  EXPECT_TRUE(FileHoldsBytes(dir.Join("empty.txt"), ""));
  EXPECT_FALSE(FileHoldsBytes(dir.Join("empty.txt"), "a"));
}

TEST(FileRead, ErrorsNameTheFileAndTheLimit) {
  ScratchDir dir;
  WriteTestFile(dir.Join("f.txt"), Pattern(100));
  absl::StatusOr<FileBytes> over = ReadFileBytes(dir.Join("f.txt"), 99, "--max-file-bytes");
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(over.status().message().find("--max-file-bytes"), std::string::npos);

  absl::StatusOr<FileBytes> missing = ReadFileBytes(dir.Join("nope.txt"), UINT64_MAX, "x");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("nope.txt"), std::string::npos);

  absl::StatusOr<FileBytes> directory = ReadFileBytes(dir.path(), UINT64_MAX, "x");
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.status().code(), absl::StatusCode::kInvalidArgument);

  absl::StatusOr<std::string> whole = ReadWholeFile(dir.Join("f.txt"), 100, "x");
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(*whole, Pattern(100));
}

}  // namespace
}  // namespace graphdiff
