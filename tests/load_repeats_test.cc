// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Files of a dump that repeat an earlier file byte for byte take a copy of
// its parse (RepeatedFiles): the copy must be exactly what parsing the file
// under its own name gives, and only bytes proven equal may be copied.
#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/gate.h"
#include "graphdiff/report.h"
#include "gtest/gtest.h"
#include "load/repeated_files.h"
#include "load_test_helpers.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using testing_load::MakeArchive;
using testing_load::ScratchDir;
using testing_load::TestEntry;
using testing_load::WriteTestFile;

// Everything of a loaded file that a report could show.
std::string Describe(const DumpFile& f) {
  std::string out = fmt::format("{} | {} | {}\n", f.path, f.source, DumpFormatName(f.format));
  for (const Graph& g : f.graphs) {
    const GraphSource& s = g.source;
    out += fmt::format("{} | {} {}-{} #{} x{} name={} hash={} hashes={} frames={} partial={}\n{}\n",
                       g.name, s.file, s.first_line, s.last_line, s.record_index,
                       s.repeat_count, s.graph_name, s.graph_hash, fmt::join(s.hashes, ","),
                       fmt::join(s.frames, ";"), g.partial, EncodeGraph(g));
    for (const Node& n : g.nodes) out += fmt::format("{} ", n.line);
    out += "\n";
  }
  for (const MetricsReport& m : f.metrics) {
    out += fmt::format("metrics {} x{}\n", m.source, m.duplicates);
    for (const Counter& c : m.counters) out += fmt::format("{}={}@{} ", c.name, c.value, c.line);
    for (const Metric& x : m.metrics) out += fmt::format("{}:{} ", x.name, x.accumulator);
    out += "\n";
  }
  for (const Diagnostic& d : f.warnings) out += d.ToString() + "\n";
  return out;
}

const DumpFile* FileAt(const Dump& d, const std::string& path) {
  for (const DumpFile& f : d.files) {
    if (f.path == path) return &f;
  }
  return nullptr;
}

// Texts that parse with warnings, so that renaming their sources is tried.
const char kPartialIr[] =
    "IR {\n  %0 = f32[2]{0} xla::device_data(), location=f@a.py:1\n  ...\n"
    "  %5 = f32[2]{0} aten::relu(%3), location=f@a.py:2, ROOT=0\n}\n";
const char kTruncatedFx[] =
    "def forward(self, x):\n    relu = torch.relu(x)\n    add = relu + unknown_thing\n";
// A warning that quotes a parse error, which names the file (found by
// fuzz_end_to_end: the copy's warning named the original).
const char kQuotedError[] =
    "IR {\n  %0 = f32[2]{0} xla::device_data(), location=f@a.py:1\n}\n"
    "Metric:def forward(self, x\n";

TEST(LoadRepeats, ARepeatedFileIsItsParseUnderItsOwnName) {
  // Every testdata file twice, under a/ and b/, in one dump; b's files must
  // be what a dump of b's file alone gives, sharing a's string pools.
  std::vector<std::pair<std::string, std::string>> texts;
  for (const std::string& rel : testing::ListDumpFiles()) {
    texts.emplace_back(rel, testing::ReadTestdata(rel));
  }
  texts.emplace_back("extra/partial_ir.txt", kPartialIr);
  texts.emplace_back("extra/truncated_fx.txt", kTruncatedFx);
  texts.emplace_back("extra/quoted_error.txt", kQuotedError);
  std::vector<std::pair<std::string, std::string>> both;
  std::vector<std::string> loadable;
  for (const auto& [rel, text] : texts) {
    // Files that fail to load alone (hostile fixtures) would fail the dump.
    if (!LoadDumpFromMemory("r", {{"b/" + rel, text}}).ok()) continue;
    loadable.push_back(rel);
    both.emplace_back("a/" + rel, text);
    both.emplace_back("b/" + rel, text);
  }
  ASSERT_GT(loadable.size(), 50u);
  absl::StatusOr<Dump> dump = LoadDumpFromMemory("r", both);
  ASSERT_TRUE(dump.ok()) << dump.status();
  size_t shared = 0;
  for (size_t i = 0; i < loadable.size(); ++i) {
    const std::string& rel = loadable[i];
    const std::string& text = both[2 * i].second;
    absl::StatusOr<Dump> alone = LoadDumpFromMemory("r", {{"b/" + rel, text}});
    ASSERT_TRUE(alone.ok()) << alone.status();
    const DumpFile* a = FileAt(*dump, "a/" + rel);
    const DumpFile* b = FileAt(*dump, "b/" + rel);
    const DumpFile* solo = FileAt(*alone, "b/" + rel);
    // Archives are not files of the dump: their entries are, by path.
    if (solo == nullptr) continue;
    ASSERT_NE(b, nullptr) << rel;
    ASSERT_NE(a, nullptr) << rel;
    EXPECT_EQ(Describe(*b), Describe(*solo)) << rel;
    ASSERT_EQ(a->graphs.size(), b->graphs.size()) << rel;
    for (size_t g = 0; g < a->graphs.size(); ++g) {
      EXPECT_EQ(a->graphs[g].strings.identity(), b->graphs[g].strings.identity()) << rel;
    }
    shared += !a->graphs.empty();
  }
  EXPECT_GT(shared, 40u);
}

TEST(LoadRepeats, OnlyEqualBytesAreCopies) {
  ScratchDir dir;
  const std::string ir = testing::ReadTestdata("resnet18-xla5430/openxla/ir.txt");
  std::string changed = ir;
  // The same length, one op renamed: the hash could not tell by size.
  size_t at = changed.find("aten::relu");
  ASSERT_NE(at, std::string::npos);
  changed.replace(at, 10, "aten::tanh");
  WriteTestFile(dir.Join("x.txt"), ir);
  WriteTestFile(dir.Join("y.txt"), ir);
  WriteTestFile(dir.Join("z.txt"), changed);
  for (unsigned threads : {1u, 2u}) {
    LoadOptions options;
    options.threads = threads;
    absl::StatusOr<Dump> dump = LoadDump(dir.path(), options);
    ASSERT_TRUE(dump.ok()) << dump.status();
    ASSERT_EQ(dump->files.size(), 3u);
    const Graph& x = dump->files[0].graphs.at(0);
    const Graph& y = dump->files[1].graphs.at(0);
    const Graph& z = dump->files[2].graphs.at(0);
    EXPECT_EQ(x.strings.identity(), y.strings.identity());
    EXPECT_NE(x.strings.identity(), z.strings.identity());
    EXPECT_EQ(y.source.file, dir.Join("y.txt"));
    EXPECT_NE(EncodeGraph(x), EncodeGraph(z));
  }
}

TEST(LoadRepeats, ArchiveEntriesRepeatToo) {
  const std::string ir = testing::ReadTestdata("resnet18-xla5430/openxla/ir.txt");
  std::string tar = MakeArchive("tar", "gzip",
                                {{"run/rank0/ir.txt", ir}, {"run/rank1/ir.txt", ir}});
  absl::StatusOr<Dump> dump = LoadDumpFromMemory("d", {{"ranks.tar.gz", tar}});
  ASSERT_TRUE(dump.ok()) << dump.status();
  ASSERT_EQ(dump->files.size(), 2u);
  EXPECT_EQ(dump->files[0].graphs.at(0).strings.identity(),
            dump->files[1].graphs.at(0).strings.identity());
  EXPECT_EQ(dump->files[1].graphs.at(0).source.file, "d/ranks.tar.gz!run/rank1/ir.txt");
}

TEST(LoadRepeats, ADiffOfRepeatedFilesIsTheDiffOfTheirParses) {
  // Pairs of copies share pools, so the differ's memo takes them up: the
  // result must be the one of files parsed each on its own.
  const std::string l = testing::ReadTestdata("resnet18-xla5430/openxla/ir.txt");
  const std::string r = testing::ReadTestdata("resnet18-xla5430/torchxla_trace_once/ir.txt");
  std::vector<std::pair<std::string, std::string>> left, right;
  for (int i = 0; i < 4; ++i) {
    left.emplace_back(fmt::format("rank{}/ir.txt", i), l);
    right.emplace_back(fmt::format("rank{}/ir.txt", i), r);
  }
  absl::StatusOr<Dump> dl = LoadDumpFromMemory("left", left);
  absl::StatusOr<Dump> dr = LoadDumpFromMemory("right", right);
  ASSERT_TRUE(dl.ok() && dr.ok());
  absl::StatusOr<DiffResult> together = DiffDumps(*dl, *dr);
  ASSERT_TRUE(together.ok()) << together.status();
  ASSERT_EQ(together->pairs.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    const std::string name = fmt::format("rank{}/ir.txt", i);
    absl::StatusOr<Dump> one_l = LoadDumpFromMemory("left", {{name, l}});
    absl::StatusOr<Dump> one_r = LoadDumpFromMemory("right", {{name, r}});
    ASSERT_TRUE(one_l.ok() && one_r.ok());
    absl::StatusOr<DiffResult> alone = DiffDumps(*one_l, *one_r);
    ASSERT_TRUE(alone.ok()) << alone.status();
    std::vector<Finding> mine;
    for (const Finding& f : together->findings) {
      if (f.graph.find(name) != std::string::npos) mine.push_back(f);
    }
    EXPECT_EQ(DiffResultToJson(*alone), [&] {
      DiffResult part = *alone;
      part.pairs = {together->pairs[i]};
      part.findings = mine;
      return DiffResultToJson(part);
    }()) << name;
  }
}

TEST(LoadDumpPair, EachSideIsItsLoadAndEqualFilesAreParsedOnce) {
  ScratchDir dir;
  const std::string left = testing_load::ResnetDir("openxla");
  const std::string right = dir.Join("rerun");
  for (const char* name : {"fx_graph.txt", "ir.txt", "metrics.txt"}) {
    WriteTestFile(right + "/" + name, testing_load::ReadTestFile(left + "/" + name));
  }
  // One file the rerun changed, one only it has.
  WriteTestFile(right + "/ir.txt",
                testing::ReadTestdata("resnet18-xla5430/torchxla_trace_once/ir.txt"));
  WriteTestFile(right + "/extra/ir.txt", testing_load::ReadTestFile(left + "/ir.txt"));
  for (unsigned threads : {1u, 2u, 3u}) {
    LoadOptions options;
    options.threads = threads;
    DumpPair pair = LoadDumpPair(left, right, options);
    ASSERT_TRUE(pair.left.ok()) << pair.left.status();
    ASSERT_TRUE(pair.right.ok()) << pair.right.status();
    absl::StatusOr<Dump> alone[2] = {LoadDump(left, options), LoadDump(right, options)};
    const Dump* together[2] = {&*pair.left, &*pair.right};
    for (int s = 0; s < 2; ++s) {
      ASSERT_TRUE(alone[s].ok());
      EXPECT_EQ(together[s]->root, alone[s]->root);
      EXPECT_EQ(together[s]->skipped, alone[s]->skipped);
      ASSERT_EQ(together[s]->files.size(), alone[s]->files.size());
      for (size_t f = 0; f < alone[s]->files.size(); ++f) {
        EXPECT_EQ(Describe(together[s]->files[f]), Describe(alone[s]->files[f]));
      }
    }
    // The unchanged FX graph and the moved IR are the left side's, shared.
    auto pool = [](const Dump& d, const std::string& path) {
      const DumpFile* f = FileAt(d, path);
      return f == nullptr || f->graphs.empty() ? nullptr : f->graphs[0].strings.identity();
    };
    EXPECT_EQ(pool(*pair.left, "fx_graph.txt"), pool(*pair.right, "fx_graph.txt"));
    EXPECT_EQ(pool(*pair.left, "ir.txt"), pool(*pair.right, "extra/ir.txt"));
    EXPECT_NE(pool(*pair.left, "ir.txt"), pool(*pair.right, "ir.txt"));
    ASSERT_NE(pool(*pair.left, "ir.txt"), nullptr);
  }
}

TEST(LoadDumpPair, ASideThatFailsLeavesTheOtherLoaded) {
  ScratchDir dir;
  const std::string good = testing_load::ResnetDir("openxla");
  DumpPair missing = LoadDumpPair(dir.Join("nothing"), good);
  EXPECT_EQ(missing.left.status().code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(missing.right.ok()) << missing.right.status();
  EXPECT_EQ(missing.right->files.size(), 3u);
  // A file that does not parse fails its side only, with LoadDump's error.
  WriteTestFile(dir.Join("broken/ir.txt"),
                "IR {\n  %0 = f32[] prim::Constant(), value=0\n  %1 = f32[] aten::relu(%7)\n}\n");
  DumpPair broken = LoadDumpPair(good, dir.Join("broken"));
  ASSERT_TRUE(broken.left.ok()) << broken.left.status();
  absl::StatusOr<Dump> alone = LoadDump(dir.Join("broken"));
  ASSERT_FALSE(alone.ok());
  EXPECT_EQ(broken.right.status(), alone.status());
}

using Kind = RepeatedFiles::Claim::Kind;

// A park that declines: the file is parsed.
std::function<void()> NoPark() { return {}; }

// "abcdef" parsed into `parsed` from `path` on disk, as the original.
void AddOriginalOnDisk(RepeatedFiles& repeated, const std::string& path, DumpFile* parsed) {
  WriteTestFile(path, "abcdef");
  const uint64_t hash = RepeatedFiles::Hash("abcdef");
  ASSERT_EQ(repeated.Decide(hash, "abcdef", NoPark).kind, Kind::kOriginal);
  RepeatedFiles::Origin origin;
  origin.disk = path;
  repeated.Done(hash, parsed, std::move(origin));
}

TEST(RepeatedFiles, AFileChangedOnDiskIsNoLongerAnOriginal) {
  ScratchDir dir;
  const std::string path = dir.Join("f.txt");
  DumpFile parsed;
  RepeatedFiles repeated(0);
  AddOriginalOnDisk(repeated, path, &parsed);
  const uint64_t hash = RepeatedFiles::Hash("abcdef");
  WriteTestFile(path, "abcxyz");
  // Read again at the first repeat: the bytes on disk no longer match.
  EXPECT_EQ(repeated.Decide(hash, "abcdef", NoPark).kind, Kind::kParse);
}

// The first repeat is compared with the file on disk, block by block; the
// second reads its bytes whole and keeps them for the rest, which are
// compared with those.
TEST(RepeatedFiles, TheFirstRepeatReadsTheDiskAndTheSecondKeepsItsBytes) {
  ScratchDir dir;
  const uint64_t hash = RepeatedFiles::Hash("abcdef");
  {
    const std::string path = dir.Join("f.txt");
    DumpFile parsed;
    RepeatedFiles repeated(0);
    AddOriginalOnDisk(repeated, path, &parsed);
    EXPECT_EQ(repeated.Decide(hash, "abcdef", NoPark).kind, Kind::kCopy);
    // Nothing was kept by the first: the second reads the disk again.
    WriteTestFile(path, "abcxyz");
    EXPECT_EQ(repeated.Decide(hash, "abcdef", NoPark).kind, Kind::kParse);
  }
  {
    const std::string path = dir.Join("g.txt");
    DumpFile parsed;
    RepeatedFiles repeated(0);
    AddOriginalOnDisk(repeated, path, &parsed);
    EXPECT_EQ(repeated.Decide(hash, "abcdef", NoPark).kind, Kind::kCopy);
    EXPECT_EQ(repeated.Decide(hash, "abcdef", NoPark).kind, Kind::kCopy);
    // Kept at the second: what the disk holds now is not read again.
    WriteTestFile(path, "abcxyz");
    EXPECT_EQ(repeated.Decide(hash, "abcdef", NoPark).kind, Kind::kCopy);
    EXPECT_EQ(repeated.Decide(hash, "abcdeg", NoPark).kind, Kind::kParse);
  }
}

TEST(RepeatedFiles, ACopyIsOfEqualBytesOnly) {
  ScratchDir dir;
  DumpFile parsed;
  RepeatedFiles repeated(0);
  AddOriginalOnDisk(repeated, dir.Join("f.txt"), &parsed);
  const uint64_t hash = RepeatedFiles::Hash("abcdef");
  RepeatedFiles::Claim copy = repeated.Decide(hash, "abcdef", NoPark);
  EXPECT_EQ(copy.kind, Kind::kCopy);
  EXPECT_EQ(copy.file, &parsed);
  // The same hash, other bytes: a collision is no repeat.
  EXPECT_EQ(repeated.Decide(hash, "abcdeg", NoPark).kind, Kind::kParse);
  EXPECT_EQ(repeated.Decide(hash, "abcdefg", NoPark).kind, Kind::kParse);
}

TEST(RepeatedFiles, FilesParkedWithAnOriginalComeBackWhenItEnds) {
  RepeatedFiles repeated(1 << 20);
  const std::string text = "some graph";
  const uint64_t hash = RepeatedFiles::Hash(text);
  ASSERT_EQ(repeated.Decide(hash, text, NoPark).kind, Kind::kOriginal);
  int back = 0;
  auto park = [&] { return std::function<void()>([&] { ++back; }); };
  EXPECT_EQ(repeated.Decide(hash, text, park).kind, Kind::kParked);
  EXPECT_EQ(repeated.Decide(hash, text, park).kind, Kind::kParked);
  // A park that declines leaves the file to be parsed.
  EXPECT_EQ(repeated.Decide(hash, text, NoPark).kind, Kind::kParse);
  EXPECT_EQ(back, 0);
  DumpFile parsed;
  RepeatedFiles::Origin origin;
  origin.borrowed = text;
  repeated.Done(hash, &parsed, std::move(origin));
  EXPECT_EQ(back, 2);
  EXPECT_EQ(repeated.Decide(hash, text, park).file, &parsed);

  // An original that fails sends its parked files to parse on their own.
  const std::string other = "another graph";
  const uint64_t other_hash = RepeatedFiles::Hash(other);
  {
    OriginalClaim claim(&repeated, other_hash);
    ASSERT_EQ(repeated.Decide(other_hash, other, NoPark).kind, Kind::kOriginal);
    EXPECT_EQ(repeated.Decide(other_hash, other, park).kind, Kind::kParked);
  }
  EXPECT_EQ(back, 3);
  EXPECT_EQ(repeated.Decide(other_hash, other, park).kind, Kind::kParse);
}

TEST(RepeatedFiles, KeptBytesStayWithinTheirBudget) {
  RepeatedFiles repeated(10);
  DumpFile first, second;
  auto owned = [](std::string_view s) {
    RepeatedFiles::Origin o;
    char* p = o.owned.Reserve(s.size());
    std::copy(s.begin(), s.end(), p);
    o.owned.Commit(s.size());
    return o;
  };
  const uint64_t h1 = RepeatedFiles::Hash("12345678");
  const uint64_t h2 = RepeatedFiles::Hash("abcdefgh");
  EXPECT_TRUE(repeated.CanKeep(8));
  ASSERT_EQ(repeated.Decide(h1, "12345678", NoPark).kind, Kind::kOriginal);
  repeated.Done(h1, &first, owned("12345678"));
  EXPECT_FALSE(repeated.CanKeep(8));
  ASSERT_EQ(repeated.Decide(h2, "abcdefgh", NoPark).kind, Kind::kOriginal);
  repeated.Done(h2, &second, owned("abcdefgh"));
  EXPECT_EQ(repeated.Decide(h1, "12345678", NoPark).file, &first);
  EXPECT_EQ(repeated.Decide(h2, "abcdefgh", NoPark).kind, Kind::kParse);
}

}  // namespace
}  // namespace graphdiff
