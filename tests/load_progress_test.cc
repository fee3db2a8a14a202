// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// LoadOptions::progress, the pool's task groups and the buffer archive
// entries are decompressed into.
#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

#include "graphdiff/dump.h"
#include "gtest/gtest.h"
#include "load/task_pool.h"
#include "load/text_buffer.h"
#include "load_test_helpers.h"

namespace graphdiff {
namespace {

using testing_load::Gzip;
using testing_load::MakeArchive;
using testing_load::ReadTestFile;
using testing_load::ResnetDir;
using testing_load::ResnetEntries;
using testing_load::ScratchDir;
using testing_load::WriteTestFile;

// Every report of one load, checked as they come.
struct Recorder {
  std::vector<LoadProgress> seen;
  std::atomic<bool> inside{false};
  bool overlapped = false;

  std::function<void(const LoadProgress&)> Callback() {
    return [this](const LoadProgress& p) {
      if (inside.exchange(true)) overlapped = true;
      seen.push_back(p);
      inside = false;
    };
  }
};

void ExpectGrowing(const std::vector<LoadProgress>& seen) {
  for (size_t i = 1; i < seen.size(); ++i) {
    EXPECT_GE(seen[i].files_done, seen[i - 1].files_done);
    EXPECT_GE(seen[i].graphs, seen[i - 1].graphs);
    EXPECT_GE(seen[i].bytes_read, seen[i - 1].bytes_read);
  }
}

TEST(LoadProgressTest, DirectoryReportsFilesGraphsAndBytes) {
  for (unsigned threads : {1u, 2u, 4u}) {
    Recorder rec;
    LoadOptions options;
    options.threads = threads;
    options.progress = rec.Callback();
    absl::StatusOr<Dump> dump = LoadDump(ResnetDir("openxla"), options);
    ASSERT_TRUE(dump.ok()) << dump.status();
    ASSERT_FALSE(rec.seen.empty());
    EXPECT_FALSE(rec.overlapped);
    ExpectGrowing(rec.seen);
    const LoadProgress& last = rec.seen.back();
    EXPECT_EQ(last.phase, LoadPhase::kDone);
    size_t graphs = 0;
    uint64_t bytes = 0;
    for (const DumpFile& f : dump->files) {
      graphs += f.graphs.size();
      bytes += ReadTestFile(ResnetDir("openxla") + "/" + f.path).size();
    }
    EXPECT_EQ(last.files_found, dump->files.size() + dump->skipped.size());
    EXPECT_EQ(last.files_done, last.files_found);
    EXPECT_EQ(last.graphs, graphs);
    EXPECT_EQ(last.bytes_read, bytes);
    EXPECT_EQ(rec.seen.front().phase, LoadPhase::kListing);
    EXPECT_EQ(LoadPhaseName(last.phase), "done");
  }
}

TEST(LoadProgressTest, ArchiveCountsDecompressedBytesAndEntries) {
  ScratchDir dir;
  std::vector<testing_load::TestEntry> entries = ResnetEntries("openxla", "run/");
  uint64_t bytes = 0;
  for (const auto& e : entries) bytes += e.content.size();
  WriteTestFile(dir.Join("run.tar.gz"), MakeArchive("tar", "gzip", entries));
  Recorder rec;
  LoadOptions options;
  options.progress = rec.Callback();
  absl::StatusOr<Dump> dump = LoadDump(dir.Join("run.tar.gz"), options);
  ASSERT_TRUE(dump.ok()) << dump.status();
  ExpectGrowing(rec.seen);
  const LoadProgress& last = rec.seen.back();
  EXPECT_EQ(last.bytes_read, bytes);
  EXPECT_EQ(last.files_found, 1 + entries.size());  // the archive and its entries
  EXPECT_EQ(last.files_done, last.files_found);
  EXPECT_GT(last.graphs, 0u);
}

TEST(LoadProgressTest, NoCallbackIsTheDefault) {
  LoadOptions options;
  EXPECT_FALSE(options.progress);
  absl::StatusOr<Dump> dump = LoadDump(ResnetDir("openxla"), options);
  EXPECT_TRUE(dump.ok());
}

TEST(LoadProgressTest, CompressedFileReadsIntoOneBufferExactly) {
  // Over several growth steps of the buffer; the text must come out whole.
  std::string text = ReadTestFile(ResnetDir("openxla") + "/ir.txt");
  std::string big;
  while (big.size() < (3u << 20)) big += text;
  ScratchDir dir;
  WriteTestFile(dir.Join("a.txt"), big);
  WriteTestFile(dir.Join("b.txt.gz"), Gzip(big));
  absl::StatusOr<Dump> plain = LoadDump(dir.Join("a.txt"));
  absl::StatusOr<Dump> gz = LoadDump(dir.Join("b.txt.gz"));
  ASSERT_TRUE(plain.ok() && gz.ok()) << plain.status() << gz.status();
  ASSERT_EQ(plain->files.size(), 1u);
  ASSERT_EQ(gz->files.size(), 1u);
  ASSERT_EQ(plain->files[0].graphs.size(), gz->files[0].graphs.size());
  EXPECT_EQ(plain->files[0].graphs[0].nodes.size(), gz->files[0].graphs[0].nodes.size());
}

TEST(TextBufferTest, GrowsKeepsBytesAndShrinks) {
  TextBuffer b;
  std::string expected;
  for (int i = 0; i < 1000; ++i) {
    std::string piece(static_cast<size_t>(i % 97 + 1), static_cast<char>('a' + i % 26));
    char* room = b.Reserve(piece.size());
    ASSERT_NE(room, nullptr);
    std::copy(piece.begin(), piece.end(), room);
    b.Commit(piece.size());
    expected += piece;
  }
  b.Shrink();
  EXPECT_EQ(b.view(), expected);
  TextBuffer moved = std::move(b);
  EXPECT_TRUE(b.empty());
  EXPECT_EQ(moved.view(), expected);
  moved.Clear();
  EXPECT_TRUE(moved.empty());
}

TEST(TaskPoolTest, GroupsRunInsideTasksOnAnyPoolSize) {
  for (unsigned threads : {1u, 2u, 3u}) {
    TaskPool pool(threads);
    std::mutex mu;
    std::vector<int> sums;
    for (int t = 0; t < 6; ++t) {
      pool.Add([&pool, &mu, &sums, t] {
        std::vector<int> parts(8, 0);
        pool.RunGroup(parts.size(), [&parts, t](size_t i) {
          parts[i] = t * 100 + static_cast<int>(i);
        });
        int sum = 0;
        for (int p : parts) sum += p;
        std::lock_guard<std::mutex> lock(mu);
        sums.push_back(sum);
      });
    }
    pool.Run();
    std::sort(sums.begin(), sums.end());
    ASSERT_EQ(sums.size(), 6u);
    for (int t = 0; t < 6; ++t) EXPECT_EQ(sums[t], t * 800 + 28);
  }
}

// Tasks that add tasks, many more than the queue keeps before it drops the
// ones run: each runs once, and one thread runs them in the order added.
TEST(TaskPoolTest, TasksAddedWhileOthersRunRunOnceInOrder) {
  constexpr int kTasks = 10000;
  for (unsigned threads : {1u, 3u}) {
    TaskPool pool(threads);
    std::mutex mu;
    std::vector<int> ran;
    std::function<void(int)> add = [&](int id) {
      pool.Add([&, id] {
        {
          std::lock_guard<std::mutex> lock(mu);
          ran.push_back(id);
        }
        // Each task of the first three rounds adds one more, so the queue
        // is never empty until the end and drops the tasks run twice.
        if (id < 3 * kTasks) add(kTasks + id);
      });
    };
    pool.Add([&] {
      for (int id = 0; id < kTasks; ++id) add(id);
    });
    pool.Run();
    ASSERT_EQ(ran.size(), 4u * kTasks);
    if (threads == 1) {
      for (int i = 0; i < 4 * kTasks; ++i) ASSERT_EQ(ran[i], i) << i;
    } else {
      std::sort(ran.begin(), ran.end());
      for (int i = 0; i < 4 * kTasks; ++i) ASSERT_EQ(ran[i], i) << i;
    }
  }
}

}  // namespace
}  // namespace graphdiff
