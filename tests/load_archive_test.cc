// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// LoadDump on archives: every format read in memory, archives found inside
// directories and other archives, hostile entries refused.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graphdiff/dump.h"
#include "gtest/gtest.h"
#include "load_test_helpers.h"

namespace graphdiff {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing_load::Gzip;
using testing_load::MakeArchive;
using testing_load::ReadTestFile;
using testing_load::ResnetDir;
using testing_load::ResnetEntries;
using testing_load::ScratchDir;
using testing_load::TestEntry;
using testing_load::WriteTestFile;

std::vector<std::string> Paths(const Dump& dump) {
  std::vector<std::string> out;
  for (const DumpFile& f : dump.files) out.push_back(f.path);
  return out;
}

void ExpectResnetOpenxla(const Dump& dump, const std::string& prefix) {
  ASSERT_THAT(Paths(dump), ElementsAre(prefix + "fx_graph.txt", prefix + "ir.txt",
                                       prefix + "metrics.txt"));
  EXPECT_EQ(dump.files[0].format, DumpFormat::kFxCode);
  ASSERT_EQ(dump.files[1].graphs.size(), 1u);
  EXPECT_EQ(dump.files[1].graphs[0].nodes.size(), 277u);
  ASSERT_EQ(dump.files[2].metrics.size(), 1u);
}

struct ArchiveCase {
  const char* file_name;
  const char* format;
  const char* filter;
};

class LoadArchiveFormats : public ::testing::TestWithParam<ArchiveCase> {};

TEST_P(LoadArchiveFormats, ReadsTheZippedDumpDirectory) {
  const ArchiveCase& c = GetParam();
  std::vector<TestEntry> entries = {{"openxla/", "", TestEntry::Type::kDir}};
  for (TestEntry& e : ResnetEntries("openxla", "openxla/")) entries.push_back(e);
  ScratchDir dir;
  std::string path = dir.Join(c.file_name);
  WriteTestFile(path, MakeArchive(c.format, c.filter, entries));
  for (unsigned threads : {1u, 3u}) {
    LoadOptions options;
    options.threads = threads;
    absl::StatusOr<Dump> dump = LoadDump(path, options);
    ASSERT_TRUE(dump.ok()) << dump.status();
    ExpectResnetOpenxla(*dump, "openxla/");
    EXPECT_EQ(dump->files[1].source, path + "!openxla/ir.txt");
    EXPECT_EQ(dump->files[1].graphs[0].source.file, path + "!openxla/ir.txt");
    EXPECT_TRUE(dump->skipped.empty());
  }
}

INSTANTIATE_TEST_SUITE_P(
    All, LoadArchiveFormats,
    ::testing::Values(ArchiveCase{"dump.zip", "zip", ""}, ArchiveCase{"dump.tar", "tar", ""},
                      ArchiveCase{"dump.tar.gz", "tar", "gzip"},
                      ArchiveCase{"dump.tgz", "tar", "gzip"},
                      ArchiveCase{"dump.tar.xz", "tar", "xz"},
                      ArchiveCase{"dump.tar.bz2", "tar", "bzip2"},
                      // Detected by content: the name says nothing.
                      ArchiveCase{"dump.txt", "zip", ""}, ArchiveCase{"dump", "tar", "gzip"}),
    [](const ::testing::TestParamInfo<ArchiveCase>& info) {
      std::string name = info.param.file_name;
      for (char& ch : name) {
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      }
      return name;
    });

TEST(LoadArchive, PlainGzipFileIsNamedWithoutItsSuffix) {
  ScratchDir dir;
  std::string ir = ReadTestFile(ResnetDir("openxla") + "/ir.txt");
  WriteTestFile(dir.Join("ir.txt.gz"), Gzip(ir));
  absl::StatusOr<Dump> dump = LoadDump(dir.Join("ir.txt.gz"));
  ASSERT_TRUE(dump.ok()) << dump.status();
  ASSERT_THAT(Paths(*dump), ElementsAre("ir.txt"));
  EXPECT_EQ(dump->files[0].graphs.at(0).nodes.size(), 277u);

  // Inside a directory, next to a plain file, and under a name without suffix.
  WriteTestFile(dir.Join("d/sub/ir.txt.gz"), Gzip(ir));
  WriteTestFile(dir.Join("d/blob"), Gzip("Counter: xla::clone\n  Value: 2\n"));
  WriteTestFile(dir.Join("d/metrics.txt"), ReadTestFile(ResnetDir("openxla") + "/metrics.txt"));
  dump = LoadDump(dir.Join("d"));
  ASSERT_TRUE(dump.ok()) << dump.status();
  EXPECT_THAT(Paths(*dump), ElementsAre("blob", "metrics.txt", "sub/ir.txt"));
  EXPECT_EQ(dump->files[0].format, DumpFormat::kMetrics);
  EXPECT_EQ(dump->files[2].graphs.at(0).nodes.size(), 277u);
}

TEST(LoadArchive, ArchivesInsideDirectoriesAndArchivesAreOpened) {
  ScratchDir dir;
  std::string zip = MakeArchive("zip", "", ResnetEntries("openxla", "openxla/"));
  WriteTestFile(dir.Join("runs/openxla.zip"), zip);
  WriteTestFile(dir.Join("runs/notes.md"), "# runs\n");
  // A tar.gz that holds the zip and a gzipped file.
  std::string ir = ReadTestFile(ResnetDir("torchxla_trace_once") + "/ir.txt");
  WriteTestFile(dir.Join("runs/more.tar.gz"),
                MakeArchive("tar", "gzip",
                            {{"inner/openxla.zip", zip}, {"inner/trace_once/ir.txt.gz", Gzip(ir)}}));
  absl::StatusOr<Dump> dump = LoadDump(dir.path());
  ASSERT_TRUE(dump.ok()) << dump.status();
  EXPECT_THAT(Paths(*dump),
              ElementsAre("runs/more.tar.gz!inner/openxla.zip!openxla/fx_graph.txt",
                          "runs/more.tar.gz!inner/openxla.zip!openxla/ir.txt",
                          "runs/more.tar.gz!inner/openxla.zip!openxla/metrics.txt",
                          "runs/more.tar.gz!inner/trace_once/ir.txt",
                          "runs/openxla.zip!openxla/fx_graph.txt",
                          "runs/openxla.zip!openxla/ir.txt",
                          "runs/openxla.zip!openxla/metrics.txt"));
  EXPECT_EQ(dump->files[3].graphs.at(0).nodes.size(), 197u);
  EXPECT_EQ(dump->files[5].source, dir.Join("runs/openxla.zip") + "!openxla/ir.txt");
  ASSERT_EQ(dump->skipped.size(), 1u);
  EXPECT_EQ(dump->skipped[0].first, "runs/notes.md");

  // The same bytes handed over in memory load the same way.
  absl::StatusOr<Dump> mem = LoadDumpFromMemory("mem", {{"openxla.zip", zip}});
  ASSERT_TRUE(mem.ok()) << mem.status();
  ExpectResnetOpenxla(*mem, "openxla.zip!openxla/");
}

TEST(LoadArchive, PathTricksAreErrorsNamingTheEntry) {
  std::string metrics = "Counter: x\n  Value: 1\n";
  for (const char* format : {"zip", "tar"}) {
    for (const char* entry : {"../evil.txt", "ok/../../evil.txt", "/abs.txt", "a/..\\..\\b.txt"}) {
      ScratchDir dir;
      std::string path = dir.Join("tricks.bin");
      WriteTestFile(path, MakeArchive(format, "", {{"fine.txt", metrics}, {entry, metrics}}));
      absl::StatusOr<Dump> dump = LoadDump(path);
      ASSERT_FALSE(dump.ok()) << format << " " << entry;
      EXPECT_EQ(dump.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_THAT(std::string(dump.status().message()), HasSubstr(std::string("'") + entry + "'"))
          << format;
      EXPECT_THAT(std::string(dump.status().message()), HasSubstr(path));
    }
  }
}

TEST(LoadArchive, LinkEntriesAreSkippedWithAReason) {
  std::string metrics = "Counter: x\n  Value: 1\n";
  ScratchDir dir;
  std::string path = dir.Join("links.tar");
  WriteTestFile(path, MakeArchive("tar", "",
                                  {{"d/metrics.txt", metrics},
                                   {"d/sym.txt", "/etc/passwd", TestEntry::Type::kSymlink},
                                   {"d/hard.txt", "d/metrics.txt", TestEntry::Type::kHardlink},
                                   {"__MACOSX/d/._metrics.txt", "\x00\x05\x16\x07"},
                                   {"d/._metrics.txt", "\x00\x05\x16\x07"}}));
  absl::StatusOr<Dump> dump = LoadDump(path);
  ASSERT_TRUE(dump.ok()) << dump.status();
  EXPECT_THAT(Paths(*dump), ElementsAre("d/metrics.txt"));
  ASSERT_EQ(dump->skipped.size(), 2u);
  EXPECT_EQ(dump->skipped[0].first, "d/hard.txt");
  EXPECT_THAT(dump->skipped[0].second, HasSubstr("hard link"));
  EXPECT_EQ(dump->skipped[1].first, "d/sym.txt");
  EXPECT_THAT(dump->skipped[1].second, HasSubstr("symbolic link"));
}

TEST(LoadArchive, ParseErrorInsideAnArchiveNamesTheEntry) {
  ScratchDir dir;
  std::string path = dir.Join("bad.zip");
  WriteTestFile(path, MakeArchive("zip", "",
                                  {{"run/ir.txt", "IR {\n  %0 = f32[] aten::relu(%4)\n}\n"}}));
  absl::StatusOr<Dump> dump = LoadDump(path);
  ASSERT_FALSE(dump.ok());
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr(path + "!run/ir.txt:2:"));
}

TEST(LoadArchive, CorruptArchiveIsAnError) {
  std::string zip = MakeArchive("zip", "", ResnetEntries("openxla", "openxla/"));
  ScratchDir dir;
  std::string path = dir.Join("cut.zip");
  WriteTestFile(path, zip.substr(0, zip.size() / 2));
  absl::StatusOr<Dump> dump = LoadDump(path);
  ASSERT_FALSE(dump.ok());
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr("cut.zip"));

  std::string gz = Gzip(ReadTestFile(ResnetDir("openxla") + "/ir.txt"));
  WriteTestFile(dir.Join("cut.gz"), gz.substr(0, gz.size() / 2));
  EXPECT_FALSE(LoadDump(dir.Join("cut.gz")).ok());

  WriteTestFile(dir.Join("garbage.zip"), std::string("PK\x03\x04", 4) + std::string(600, '\x11'));
  EXPECT_FALSE(LoadDump(dir.Join("garbage.zip")).ok());
}

TEST(LoadArchive, LimitsAreEnforced) {
  std::string tar = MakeArchive("tar", "gzip", ResnetEntries("openxla", "openxla/"));
  ScratchDir dir;
  std::string path = dir.Join("dump.tgz");
  WriteTestFile(path, tar);

  LoadOptions entries;
  entries.max_archive_entries = 2;
  absl::StatusOr<Dump> dump = LoadDump(path, entries);
  ASSERT_FALSE(dump.ok());
  EXPECT_EQ(dump.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr("max_archive_entries"));

  LoadOptions bytes;
  bytes.max_archive_bytes = 20'000;
  dump = LoadDump(path, bytes);
  ASSERT_FALSE(dump.ok());
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr("max_archive_bytes"));

  LoadOptions file;
  file.max_file_bytes = 20'000;  // fx_graph.txt (16 KiB) fits, ir.txt (27 KiB) does not
  dump = LoadDump(path, file);
  ASSERT_FALSE(dump.ok());
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr("openxla/ir.txt"));
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr("max_file_bytes"));

  // A compressed stream does not declare its size: checked while inflating.
  WriteTestFile(dir.Join("big.gz"), Gzip(std::string(1 << 20, 'a')));
  dump = LoadDump(dir.Join("big.gz"), file);
  ASSERT_FALSE(dump.ok());
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr("max_file_bytes"));

  LoadOptions files;
  files.max_files = 2;
  dump = LoadDump(path, files);
  ASSERT_FALSE(dump.ok());
  EXPECT_THAT(std::string(dump.status().message()), HasSubstr("max_files"));
}

std::string Fixture(const std::string& name) {
  return std::string(GRAPHDIFF_TESTDATA_DIR) + "/fixtures/archives/" + name;
}

// Archives written by Python (make_archives.py), not by libarchive.
TEST(LoadArchive, FixturesFromAnotherWriter) {
  absl::StatusOr<Dump> zip = LoadDump(Fixture("torchxla_trace_once.zip"));
  ASSERT_TRUE(zip.ok()) << zip.status();
  ASSERT_THAT(Paths(*zip), ElementsAre("torchxla_trace_once/fx_graph.txt",
                                       "torchxla_trace_once/ir.txt",
                                       "torchxla_trace_once/metrics.txt"));
  EXPECT_EQ(zip->files[1].graphs.at(0).nodes.size(), 197u);

  absl::StatusOr<Dump> tgz = LoadDump(Fixture("openxla.tar.gz"));
  ASSERT_TRUE(tgz.ok()) << tgz.status();
  ExpectResnetOpenxla(*tgz, "openxla/");

  absl::StatusOr<Dump> gz = LoadDump(Fixture("ir.txt.gz"));
  ASSERT_TRUE(gz.ok()) << gz.status();
  ASSERT_THAT(Paths(*gz), ElementsAre("ir.txt"));
  EXPECT_EQ(gz->files[0].graphs.at(0).nodes.size(), 277u);

  absl::StatusOr<Dump> dotdot = LoadDump(Fixture("trick-dotdot.zip"));
  ASSERT_FALSE(dotdot.ok());
  EXPECT_THAT(std::string(dotdot.status().message()), HasSubstr("'../evil.txt'"));
  absl::StatusOr<Dump> absolute = LoadDump(Fixture("trick-absolute.tar"));
  ASSERT_FALSE(absolute.ok());
  EXPECT_THAT(std::string(absolute.status().message()), HasSubstr("'/abs.txt'"));

  absl::StatusOr<Dump> links = LoadDump(Fixture("links.tar"));
  ASSERT_TRUE(links.ok()) << links.status();
  EXPECT_THAT(Paths(*links), ElementsAre("d/metrics.txt"));
  using P = std::pair<std::string, std::string>;
  EXPECT_THAT(links->skipped,
              ElementsAre(P("d/again.txt", "hard link in archive, not followed"),
                          P("d/passwd", "symbolic link in archive, not followed")));
}

TEST(LoadArchive, NestingIsBounded) {
  std::string inner = "Counter: x\n  Value: 1\n";
  // Zips, not gzips: libarchive unwraps stacked compression filters itself.
  for (int i = 0; i < 8; ++i) inner = MakeArchive("zip", "", {{"level.zip", inner}});
  absl::StatusOr<Dump> dump = LoadDumpFromMemory("mem", {{"deep", inner}});
  ASSERT_TRUE(dump.ok()) << dump.status();
  EXPECT_TRUE(dump->files.empty());
  ASSERT_EQ(dump->skipped.size(), 1u);
  EXPECT_THAT(dump->skipped[0].second, HasSubstr("nested too deep"));
}

}  // namespace
}  // namespace graphdiff
