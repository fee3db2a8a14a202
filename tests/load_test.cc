// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// LoadDump on files and directories: classification, skips, errors, order,
// limits, symbolic links.
#include <sys/stat.h>

#include <filesystem>
#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graphdiff/dump.h"
#include "graphdiff/gate.h"
#include "gtest/gtest.h"
#include "load_test_helpers.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;
using testing_load::ReadTestFile;
using testing_load::ResnetDir;
using testing_load::ScratchDir;
using testing_load::WriteTestFile;

std::vector<std::string> Paths(const Dump& dump) {
  std::vector<std::string> out;
  for (const DumpFile& f : dump.files) out.push_back(f.path);
  return out;
}

const char kBadIr[] = "IR {\n  %0 = f32[] prim::Constant(), value=0\n  %1 = f32[] aten::relu(%7)\n}\n";

TEST(LoadDump, ResnetDirectory) {
  absl::StatusOr<Dump> dump = LoadDump(ResnetDir("openxla"));
  ASSERT_TRUE(dump.ok()) << dump.status();
  EXPECT_EQ(dump->root, ResnetDir("openxla"));
  EXPECT_THAT(Paths(*dump), ::testing::ElementsAre("fx_graph.txt", "ir.txt", "metrics.txt"));
  EXPECT_TRUE(dump->skipped.empty());
  const DumpFile& fx = dump->files[0];
  EXPECT_EQ(fx.format, DumpFormat::kFxCode);
  ASSERT_EQ(fx.graphs.size(), 1u);
  EXPECT_EQ(fx.graphs[0].kind, GraphKind::kFx);
  const DumpFile& ir = dump->files[1];
  EXPECT_EQ(ir.format, DumpFormat::kIrText);
  ASSERT_EQ(ir.graphs.size(), 1u);
  EXPECT_EQ(ir.graphs[0].nodes.size(), 277u);
  EXPECT_EQ(ir.source, ResnetDir("openxla") + "/ir.txt");
  EXPECT_EQ(ir.graphs[0].source.file, ir.source);
  const DumpFile& metrics = dump->files[2];
  EXPECT_EQ(metrics.format, DumpFormat::kMetrics);
  ASSERT_EQ(metrics.metrics.size(), 1u);
  ASSERT_NE(metrics.metrics[0].FindCounter("xla::clone"), nullptr);
  EXPECT_EQ(metrics.metrics[0].FindCounter("xla::clone")->value, 103);
}

TEST(LoadDump, SingleFile) {
  std::string path = ResnetDir("torchxla_trace_once") + "/ir.txt";
  absl::StatusOr<Dump> dump = LoadDump(path);
  ASSERT_TRUE(dump.ok()) << dump.status();
  ASSERT_EQ(dump->files.size(), 1u);
  EXPECT_EQ(dump->files[0].path, "ir.txt");
  EXPECT_EQ(dump->files[0].source, path);
  ASSERT_EQ(dump->files[0].graphs.size(), 1u);
  EXPECT_EQ(dump->files[0].graphs[0].nodes.size(), 197u);
}

TEST(LoadDump, MissingPathIsNotFound) {
  absl::StatusOr<Dump> dump = LoadDump("/nonexistent/graphdiff/dump");
  ASSERT_FALSE(dump.ok());
  EXPECT_EQ(dump.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr("/nonexistent/graphdiff/dump"));
}

TEST(LoadDump, SkipsBinaryUnknownAndEmptyFilesWithReasons) {
  ScratchDir dir;
  WriteTestFile(dir.Join("ir.txt"), ReadTestFile(ResnetDir("openxla") + "/ir.txt"));
  WriteTestFile(dir.Join("garbage.bin"), std::string("\x7f" "ELF\x02\x01\x00\x00\x00\xff\xfe", 11));
  WriteTestFile(dir.Join("notes.txt"), "just some notes\nnothing to see\n");
  WriteTestFile(dir.Join("empty.txt"), "");
  WriteTestFile(dir.Join(".git/config"), "[core]\n");
  WriteTestFile(dir.Join(".hidden.txt"), "IR {\n");
  absl::StatusOr<Dump> dump = LoadDump(dir.path());
  ASSERT_TRUE(dump.ok()) << dump.status();
  EXPECT_THAT(Paths(*dump), ::testing::ElementsAre("ir.txt"));
  using P = std::pair<std::string, std::string>;
  EXPECT_THAT(dump->skipped,
              ::testing::ElementsAre(P("empty.txt", "empty file"),
                                     P("garbage.bin", "not a recognised dump (binary)"),
                                     P("notes.txt", "not a recognised dump")));
}

TEST(LoadDump, ParseErrorNamesFileAndPosition) {
  ScratchDir dir;
  WriteTestFile(dir.Join("a/ok.txt"), ReadTestFile(ResnetDir("openxla") + "/metrics.txt"));
  WriteTestFile(dir.Join("b/bad_ir.txt"), kBadIr);
  absl::StatusOr<Dump> dump = LoadDump(dir.path());
  ASSERT_FALSE(dump.ok());
  EXPECT_EQ(dump.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(dump.status().message()),
              HasSubstr(dir.Join("b/bad_ir.txt") + ":3:"));
}

TEST(LoadDump, FirstErrorInPathOrderIsReported) {
  ScratchDir dir;
  for (int i = 0; i < 12; ++i) {
    WriteTestFile(dir.Join("f" + std::to_string(10 + i) + ".txt"), kBadIr);
  }
  for (unsigned threads : {1u, 2u, 4u}) {
    LoadOptions options;
    options.threads = threads;
    absl::StatusOr<Dump> dump = LoadDump(dir.path(), options);
    ASSERT_FALSE(dump.ok());
    EXPECT_THAT(std::string(dump.status().message()), HasSubstr(dir.Join("f10.txt") + ":3:"));
  }
}

TEST(LoadDump, OrderIsDeterministicWhateverTheThreads) {
  ScratchDir dir;
  std::string ir = ReadTestFile(ResnetDir("openxla") + "/ir.txt");
  std::string ir2 = ReadTestFile(ResnetDir("torchxla_trace_once") + "/ir.txt");
  std::vector<std::string> names = {"z.txt", "a/b.txt", "a.txt", "a/a/z.txt", "m/0.txt",
                                    "m/10.txt", "m/9.txt", "B.txt"};
  for (size_t i = 0; i < names.size(); ++i) WriteTestFile(dir.Join(names[i]), i % 2 ? ir : ir2);
  std::vector<std::string> expected = names;
  std::sort(expected.begin(), expected.end());
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    LoadOptions options;
    options.threads = threads;
    absl::StatusOr<Dump> dump = LoadDump(dir.path(), options);
    ASSERT_TRUE(dump.ok()) << dump.status();
    EXPECT_EQ(Paths(*dump), expected) << threads << " threads";
    for (const DumpFile& f : dump->files) {
      size_t i = std::find(names.begin(), names.end(), f.path) - names.begin();
      ASSERT_EQ(f.graphs.size(), 1u);
      EXPECT_EQ(f.graphs[0].nodes.size(), i % 2 ? 277u : 197u) << f.path;
    }
  }
}

TEST(LoadDump, LimitsAreEnforcedWithClearErrors) {
  LoadOptions small_files;
  small_files.max_file_bytes = 1000;
  absl::StatusOr<Dump> dump = LoadDump(ResnetDir("openxla"), small_files);
  ASSERT_FALSE(dump.ok());
  EXPECT_EQ(dump.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr("max_file_bytes"));
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr("fx_graph.txt"));

  LoadOptions few_files;
  few_files.max_files = 2;
  dump = LoadDump(ResnetDir("openxla"), few_files);
  ASSERT_FALSE(dump.ok());
  EXPECT_EQ(dump.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr("max_files"));

  few_files.max_files = 3;
  EXPECT_TRUE(LoadDump(ResnetDir("openxla"), few_files).ok());

  std::vector<std::pair<std::string, std::string>> files = {{"a.txt", "Counter: x\n  Value: 1\n"},
                                                            {"b.txt", "Counter: x\n  Value: 2\n"}};
  few_files.max_files = 1;
  EXPECT_EQ(LoadDumpFromMemory("mem", files, few_files).status().code(),
            absl::StatusCode::kResourceExhausted);
}

// The walk takes each entry's type from the directory listing: files and
// folders at every depth, hidden names and special files left out.
TEST(LoadDump, WalkKnowsEachEntrysTypeFromTheListing) {
  ScratchDir dir;
  const std::string metrics = "Counter: x\n  Value: 7\n";
  WriteTestFile(dir.Join("top.txt"), metrics);
  WriteTestFile(dir.Join("a/b/c/deep.txt"), metrics);
  WriteTestFile(dir.Join("a/mid.txt"), metrics);
  WriteTestFile(dir.Join(".hidden/x.txt"), metrics);
  WriteTestFile(dir.Join("a/.dotfile.txt"), metrics);
  WriteTestFile(dir.Join("__MACOSX/y.txt"), metrics);
  std::filesystem::create_directories(dir.Join("empty/folder"));
  ASSERT_EQ(mkfifo(dir.Join("a/pipe").c_str(), 0600), 0);
  absl::StatusOr<Dump> dump = LoadDump(dir.path());
  ASSERT_TRUE(dump.ok()) << dump.status();
  EXPECT_THAT(Paths(*dump),
              ::testing::ElementsAre("a/b/c/deep.txt", "a/mid.txt", "top.txt"));
  ASSERT_EQ(dump->skipped.size(), 1u);
  EXPECT_EQ(dump->skipped[0].first, "a/pipe");
  EXPECT_EQ(dump->skipped[0].second, "not a regular file");
}

TEST(LoadDump, SymbolicLinksStayInsideTheDump) {
  ScratchDir outside;
  WriteTestFile(outside.Join("secret.txt"), "Counter: secret\n  Value: 1\n");
  ScratchDir dir;
  WriteTestFile(dir.Join("real/metrics.txt"), "Counter: x\n  Value: 7\n");
  namespace fs = std::filesystem;
  fs::create_symlink("real/metrics.txt", dir.Join("inside_link.txt"));
  fs::create_symlink(outside.Join("secret.txt"), dir.Join("outside_link.txt"));
  fs::create_directory_symlink("real", dir.Join("dir_link"));
  fs::create_directory_symlink(".", dir.Join("loop"));
  fs::create_symlink("missing.txt", dir.Join("dangling.txt"));
  absl::StatusOr<Dump> dump = LoadDump(dir.path());
  ASSERT_TRUE(dump.ok()) << dump.status();
  EXPECT_THAT(Paths(*dump), ::testing::ElementsAre("inside_link.txt", "real/metrics.txt"));
  ASSERT_EQ(dump->skipped.size(), 4u);
  EXPECT_EQ(dump->skipped[0].first, "dangling.txt");
  EXPECT_EQ(dump->skipped[1].first, "dir_link");
  EXPECT_THAT(dump->skipped[1].second, HasSubstr("directory"));
  EXPECT_EQ(dump->skipped[2].first, "loop");
  EXPECT_EQ(dump->skipped[3].first, "outside_link.txt");
  EXPECT_THAT(dump->skipped[3].second, HasSubstr("out of the dump"));
}

// A file's graphs as a report could show them, in order.
std::string Describe(const std::vector<Graph>& graphs) {
  std::string out;
  for (const Graph& g : graphs) {
    const GraphSource& s = g.source;
    out += g.name + " | " + s.file + " " + std::to_string(s.first_line) + "-" +
           std::to_string(s.last_line) + " #" + std::to_string(s.record_index) + " x" +
           std::to_string(s.repeat_count) + " " + s.graph_hash + "\n" + EncodeGraph(g) + "\n";
  }
  return out;
}

TEST(LoadDump, TakenGraphsAreTheDumpsGraphs) {
  // A save file and an FX dump large enough to be handed out a few pieces
  // at a time, beside small files; on any number of threads, what
  // take_graphs is handed for each file is what the Dump holds without it.
  ScratchDir dir;
  std::string save, fx;
  for (const char* name : {"generated/mlp/ltc_save.txt", "generated/resnet18/ltc_save.txt",
                           "generated/multi_output/ltc_save.txt"}) {
    save += ReadTestFile(std::string(GRAPHDIFF_TESTDATA_DIR) + "/" + name);
  }
  const std::string forward =
      ReadTestFile(std::string(GRAPHDIFF_TESTDATA_DIR) + "/generated/resnet18/fx_aot_forward.txt");
  // Over five pieces of 4 MiB: two waves on two threads.
  while (fx.size() < (21u << 20)) fx += forward + "\n";
  std::string saves;
  while (saves.size() < (21u << 20)) saves += save;
  WriteTestFile(dir.Join("big/save.txt"), saves);
  WriteTestFile(dir.Join("big/fx.txt"), fx);
  WriteTestFile(dir.Join("ir.txt"), ReadTestFile(ResnetDir("openxla") + "/ir.txt"));
  WriteTestFile(dir.Join("metrics.txt"), "Counter: xla::clone\n  Value: 3\n");
  absl::StatusOr<Dump> held = LoadDump(dir.path());
  ASSERT_TRUE(held.ok()) << held.status();
  std::map<std::string, std::string> expected;
  for (const DumpFile& f : held->files) expected[f.source] = Describe(f.graphs);
  for (unsigned threads : {1u, 2u}) {
    SCOPED_TRACE(threads);
    std::mutex mu;
    std::map<std::string, std::vector<Graph>> taken;
    std::map<std::string, size_t> takes;
    std::map<std::string, bool> ended;
    LoadOptions options;
    options.threads = threads;
    options.take_graphs = [&](const TakenGraphs& t) {
      // The load's threads run the callee's tasks, each once (outside the
      // lock: the calling thread may take another file's graphs meanwhile).
      EXPECT_TRUE(static_cast<bool>(t.run));
      if (t.run) {
        std::vector<std::atomic<int>> ran(5);
        t.run(ran.size(), [&](size_t i) { ++ran[i]; });
        for (const std::atomic<int>& r : ran) EXPECT_EQ(r.load(), 1);
      }
      std::lock_guard<std::mutex> lock(mu);
      const std::string source(t.source);
      EXPECT_FALSE(ended[source]) << source << ": a call after the last";
      ended[source] = t.last;
      std::vector<Graph>& into = taken[source];
      if (t.restart) {
        into.clear();
        return;
      }
      EXPECT_EQ(dir.Join(std::string(t.path)), source);
      if (!t.graphs->empty()) ++takes[source];
      for (Graph& g : *t.graphs) into.push_back(std::move(g));
    };
    absl::StatusOr<Dump> dump = LoadDump(dir.path(), options);
    ASSERT_TRUE(dump.ok()) << dump.status();
    EXPECT_EQ(Paths(*dump), Paths(*held));
    std::map<std::string, std::string> got;
    for (const DumpFile& f : dump->files) {
      EXPECT_TRUE(f.graphs.empty()) << f.path;
      EXPECT_TRUE(ended[f.source]) << f.path << ": no last call";
      got[f.source] = Describe(taken[f.source]);
    }
    EXPECT_TRUE(got == expected);
    EXPECT_EQ(dump->files.back().metrics.size(), 1u);  // metrics stay in the dump
    // The big files went out in several takes.
    EXPECT_GE(takes[dir.Join("big/save.txt")], 2u);
    EXPECT_GE(takes[dir.Join("big/fx.txt")], 2u);
  }
}

TEST(LoadDump, FromMemoryParsesLikeADirectory) {
  std::vector<std::pair<std::string, std::string>> files = {
      {"run/metrics.txt", "Counter: xla::clone\n  Value: 3\n"},
      {"./run/ir.txt", ReadTestFile(ResnetDir("openxla") + "/ir.txt")},
      {"run/.cache", "junk"},
      {"run/empty.txt", ""}};
  absl::StatusOr<Dump> dump = LoadDumpFromMemory("mem", files);
  ASSERT_TRUE(dump.ok()) << dump.status();
  EXPECT_THAT(Paths(*dump), ::testing::ElementsAre("run/ir.txt", "run/metrics.txt"));
  EXPECT_EQ(dump->files[0].source, "mem/run/ir.txt");
  EXPECT_EQ(dump->files[0].graphs.at(0).nodes.size(), 277u);
  ASSERT_EQ(dump->skipped.size(), 1u);
  EXPECT_EQ(dump->skipped[0].first, "run/empty.txt");

  std::vector<std::pair<std::string, std::string>> tricky = {{"../x.txt", "Counter: a\n"}};
  EXPECT_EQ(LoadDumpFromMemory("mem", tricky).status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace graphdiff
