// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Hostile input (issue 13): one test per bug, each built from its
// reproducer, plus the text hygiene every output owes a reader. A fix that
// regresses shows here as an abort, a hang, a sanitizer report or a raw
// control character in an output.
#include <sys/resource.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/equivalence.h"
#include "graphdiff/gate.h"
#include "graphdiff/report.h"
#include "graphdiff/sanitize.h"
#include "graphdiff/stats.h"
#include "graphdiff/visual.h"
#include "gtest/gtest.h"
#include "load_test_helpers.h"
#include "nlohmann/json.hpp"
#include "testing/cli.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::CliResult;
using testing::RunCli;
using testing::WriteTempFile;
using testing_load::Gzip;
using testing_load::MakeArchive;
using testing_load::ScratchDir;
using testing_load::WriteTestFile;

// An op name holding invalid UTF-8 (the reproducer of bug 1).
const char kBadUtf8Ir[] = "IR {\n  %0 = f32[4]{0} aten::\xff(), ROOT=0\n}\n";
// An op name that would retitle and clear a terminal.
const char kEscapeIr[] =
    "IR {\n  %0 = f32[4]{0} aten::x\x1b]0;pwned\x07\x1b[2J\x9b" "31m(), ROOT=0\n}\n";

// No byte of `s` is a control character but newline and tab, and it is
// valid UTF-8: the promise of every output.
void ExpectClean(const std::string& s, const std::string& what) {
  EXPECT_TRUE(IsValidUtf8(s)) << what;
  for (unsigned char c : s) {
    if (c == '\n' || c == '\t') continue;
    ASSERT_FALSE(c < 0x20 || c == 0x7F) << what << ": raw control 0x" << std::hex << int(c)
                                        << " in:\n" << s;
  }
}

void ExpectValidJson(const std::string& s, const std::string& what) {
  EXPECT_TRUE(IsValidUtf8(s)) << what;
  EXPECT_TRUE(nlohmann::json::accept(s)) << what << ":\n" << s;
}

long PeakRssMiB() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss / 1024;
}

// Bug 1: invalid UTF-8 aborted every JSON writer.
TEST(Hardening, InvalidUtf8NeverAbortsAJsonWriter) {
  std::string path = WriteTempFile("bad_utf8.txt", kBadUtf8Ir);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"stats", path, "--format", "json"},
        {"lint", path, "--format", "json"},
        {"diff", path, path, "--format", "json"},
        {"snapshot", path}}) {
    CliResult r = RunCli(args);
    EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    ExpectValidJson(r.out, args[0]);
    EXPECT_THAT(r.out, HasSubstr("aten::\\\\xFF")) << args[0];
    // Reports say so; a baseline stores names as they read back.
    if (args[0] != "snapshot") {
      EXPECT_THAT(r.out, HasSubstr("\"escaped_invalid_utf8\": true")) << args[0];
    }
  }
  std::string baseline = ::testing::TempDir() + "bad_utf8_baseline.json";
  std::remove(baseline.c_str());
  CliResult update = RunCli({"check", path, "--baseline", baseline, "--update-baseline",
                             "--format", "json"});
  EXPECT_EQ(update.exit_code, 0) << update.err;
  ExpectValidJson(update.out, "check --format json");
  CliResult check = RunCli({"check", path, "--baseline", baseline, "--format", "json"});
  EXPECT_EQ(check.exit_code, 0) << check.err;
  ExpectValidJson(check.out, "check");
  // Names are stored as they read back: the dump matches its own baseline.
  EXPECT_THAT(check.out, HasSubstr("\"verdict\": \"PASS\""));
  EXPECT_THAT(check.out, Not(HasSubstr("\"status\": \"new\"")));

  // The library writers, with a Latin-1 archive-entry name and an encoded
  // lone surrogate as well.
  absl::StatusOr<Dump> dump =
      LoadDumpFromMemory("mem", {{"caf\xe9/ir\xed\xa0\x80.txt", kBadUtf8Ir}});
  ASSERT_TRUE(dump.ok()) << dump.status();
  absl::StatusOr<DiffResult> diff = DiffDumps(*dump, *dump);
  ASSERT_TRUE(diff.ok()) << diff.status();
  ExpectValidJson(RenderDiff(*diff, ReportFormat::kJson, {}), "RenderDiff");
  std::string baseline_json = BaselineToJson(SnapshotDump(*dump));
  ExpectValidJson(baseline_json, "BaselineToJson");
  EXPECT_THAT(baseline_json, HasSubstr("caf\\\\xE9/ir\\\\xED\\\\xA0\\\\x80.txt"));
}

// JSON may hold DEL (0x7F) raw in a string; no output of ours does (a
// fuzzer found a graph name carrying it into `stats --format json`). Every
// writer of JSON, the ones that print it themselves included, escapes it as
// \u007f, which reads back as DEL; the HTML report shows dump text with the
// terminal treatment (it printed control bytes and DEL raw), its drawings
// too.
TEST(Hardening, NoJsonWriterPrintsDelRaw) {
  const std::string left_ir = "IR {\n  %0 = f32[4]{0} aten::a\x7f" "b(), ROOT=0\n}\n";
  const std::string right_ir = "IR {\n  %0 = f32[4]{0} aten::c\x7f" "d(), ROOT=0\n}\n";
  const std::string path = WriteTempFile("del.txt", left_ir);
  const std::string other = WriteTempFile("del_other.txt", right_ir);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"stats", path, "--format", "json"},
        {"lint", path, "--format", "json"},
        {"diff", path, other, "--format", "json"},
        {"diff", path, other, "--format", "html"},
        {"snapshot", path}}) {
    CliResult r = RunCli(args);
    EXPECT_NE(r.exit_code, 2) << args[0] << ": " << r.err;
    ExpectClean(r.out, args[0] + " " + args.back());
    EXPECT_THAT(r.out, HasSubstr("\\u007f")) << args[0] << " " << args.back();
  }
  absl::StatusOr<Dump> left = LoadDumpFromMemory("l", {{"ir.txt", left_ir}});
  absl::StatusOr<Dump> right = LoadDumpFromMemory("r", {{"ir.txt", right_ir}});
  ASSERT_TRUE(left.ok() && right.ok());
  absl::StatusOr<DiffResult> diff = DiffDumps(*left, *right);
  ASSERT_TRUE(diff.ok()) << diff.status();
  const std::string json = RenderDiff(*diff, ReportFormat::kJson, {});
  ExpectClean(json, "RenderDiff json");
  nlohmann::json back = nlohmann::json::parse(json);
  EXPECT_THAT(back.dump(), HasSubstr("aten::a\x7f" "b"));  // the same name, read back
  absl::StatusOr<std::vector<PairGraphs>> graphs = FindPairGraphs(*diff, *left, *right);
  ASSERT_TRUE(graphs.ok()) << graphs.status();
  RenderOptions options;
  options.graphs = &*graphs;
  const std::string html = RenderDiff(*diff, ReportFormat::kHtml, options);
  ExpectClean(html, "RenderDiff html with drawings");
  EXPECT_THAT(html, HasSubstr("aten::a\\x7Fb"));  // shown as the terminal shows it
  absl::StatusOr<std::vector<ReportFile>> files = RenderModelExplorer(*diff, options);
  ASSERT_TRUE(files.ok()) << files.status();
  bool named = false;
  for (const ReportFile& f : *files) {
    ExpectClean(f.content, f.path);
    named = named || f.content.find("\\u007f") != std::string::npos;
  }
  EXPECT_TRUE(named);
}

// Bug 2: a number out of range threw out_of_range, which nothing caught.
TEST(Hardening, NumberOutOfRangeIsAnError) {
  absl::StatusOr<Budget> budget = ParseBudget(R"({"default": {"nodes": 1e400}})", "b.json");
  ASSERT_FALSE(budget.ok());
  EXPECT_THAT(std::string(budget.status().message()), HasSubstr("b.json"));
  absl::StatusOr<Baseline> baseline = ParseBaseline(
      R"({"schema": "graphdiff-baseline", "schema_version": 1, "graphs": [{"key": "k", "nodes": 1e400}]})",
      "base.json");
  EXPECT_FALSE(baseline.ok());
  // An integer past int64 is refused, not wrapped to a negative count.
  baseline = ParseBaseline(
      R"({"schema": "graphdiff-baseline", "schema_version": 1, "graphs": [{"key": "k", "nodes": 18446744073709551615}]})",
      "base.json");
  ASSERT_FALSE(baseline.ok());
  EXPECT_THAT(std::string(baseline.status().message()), HasSubstr("out of range"));
  OpEquivalence eq = OpEquivalence::BuiltIn();
  absl::Status st = eq.AddJson(R"({"classes": {"x": [1e400]}})", "eq.json");
  EXPECT_FALSE(st.ok());
  std::string equiv = WriteTempFile("eq_range.json", R"([["aten::a", 1e400]])");
  CliResult r = RunCli({"diff", "resnet18-xla5430/openxla", "resnet18-xla5430/openxla",
                        "--equiv", equiv});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

// Bug 3: a deeply nested value overflowed the stack (dump() in messages).
TEST(Hardening, DeepNestingIsRefusedWithoutRecursion) {
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  absl::StatusOr<Budget> budget = ParseBudget("{\"default\": {\"nodes\": " + deep + "}}", "b.json");
  ASSERT_FALSE(budget.ok());
  EXPECT_THAT(std::string(budget.status().message()), HasSubstr("nested more than"));
  OpEquivalence eq = OpEquivalence::BuiltIn();
  absl::Status st = eq.AddJson("{\"classes\": {\"x\": " + deep + "}}", "eq.json");
  ASSERT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("nested more than"));
  EXPECT_FALSE(ParseBaseline(deep, "base.json").ok());
  // A value quoted in a message is bounded, however big it is.
  std::string wide = "[" + std::string(1 << 20, '1') + "]";
  budget = ParseBudget("{\"default\": {\"nodes\": [\"+0\", " + wide + "]}}", "b.json");
  ASSERT_FALSE(budget.ok());
  EXPECT_LT(budget.status().message().size(), 2000u);
}

// A ustar header for one regular file of `declared` bytes.
std::string TarHeader(const std::string& name, uint64_t declared) {
  std::string h(512, '\0');
  h.replace(0, name.size(), name);
  h.replace(100, 7, "0000644");
  h.replace(108, 7, "0000000");
  h.replace(116, 7, "0000000");
  char size[13];
  std::snprintf(size, sizeof(size), "%011llo", static_cast<unsigned long long>(declared));
  h.replace(124, 11, size);
  h.replace(136, 11, "00000000000");
  h[156] = '0';
  h.replace(257, 6, std::string("ustar\0", 6));
  h.replace(263, 2, "00");
  h.replace(148, 8, "        ");
  unsigned sum = 0;
  for (unsigned char c : h) sum += c;
  char chk[8];
  std::snprintf(chk, sizeof(chk), "%06o", sum);
  h.replace(148, 7, std::string(chk, 6) + '\0');
  return h;
}

// Bug 4: an entry's declared size was allocated before any byte arrived.
TEST(Hardening, LyingEntrySizeAllocatesNothingUpFront) {
  ScratchDir dir;
  std::string tar = TarHeader("ir.txt", 8053063680ull) + std::string(1024, 'a');
  WriteTestFile(dir.Join("liar.tar"), tar);
  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<Dump> dump = LoadDump(dir.Join("liar.tar"));
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(dump.ok());  // truncated archive
  EXPECT_LT(seconds, 5.0);
  EXPECT_LT(PeakRssMiB(), 1024);
}

// `members` gzip members of `block` concatenated: a stream that expands
// to members * block.size() bytes from a few bytes per member.
std::string GzipMembers(const std::string& block, size_t members) {
  std::string one = Gzip(block);
  std::string out;
  out.reserve(one.size() * members);
  for (size_t i = 0; i < members; ++i) out += one;
  return out;
}

// Bug 5: bombs ran to the 8 GiB entry limit; zeros then read as empty and
// a diff of two of them said Same.
TEST(Hardening, DecompressionBombsStopEarly) {
  ScratchDir dir;
  std::string line = "  %0 = f32[4]{0} aten::add(), ROOT=0\n";
  std::string text;
  while (text.size() < (1 << 20)) text += line;
  WriteTestFile(dir.Join("text.gz"), GzipMembers(text, 2048));  // 2 GiB of text
  // 64 MiB of zeros in a tar entry; the whole stream would be 2 GiB.
  std::string zeros_tar = MakeArchive("tar", "gzip", {{"ir.txt", std::string(64 << 20, '\0')}});
  WriteTestFile(dir.Join("zeros.tgz"), zeros_tar + GzipMembers(std::string(1 << 20, '\0'), 2048));
  for (const char* name : {"text.gz", "zeros.tgz"}) {
    auto start = std::chrono::steady_clock::now();
    absl::StatusOr<Dump> dump = LoadDump(dir.Join(name));
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_FALSE(dump.ok()) << name;
    EXPECT_EQ(dump.status().code(), absl::StatusCode::kResourceExhausted);
    EXPECT_THAT(std::string(dump.status().message()), HasSubstr("max_compression_ratio"));
    EXPECT_LT(seconds, 1.0) << name;
  }
  CliResult r = RunCli({"diff", dir.Join("zeros.tgz"), dir.Join("zeros.tgz")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--max-compression-ratio"));
  // Bare zeros read as an empty tar (two zero blocks end one): nothing to
  // compare is trouble, never Same, and libarchive stops at the end marker.
  WriteTestFile(dir.Join("zeros.gz"), GzipMembers(std::string(1 << 20, '\0'), 2048));
  r = RunCli({"diff", dir.Join("zeros.gz"), dir.Join("zeros.gz")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("holds no files"));
  EXPECT_LT(PeakRssMiB(), 1024);

  // Nesting cannot multiply ratios: a zip of bombs each too small to be
  // called one still trips the load-wide limit.
  std::vector<testing_load::TestEntry> inner;
  for (int i = 0; i < 8; ++i) {
    inner.push_back({"part" + std::to_string(i) + ".gz", GzipMembers(text, 20)});
  }
  WriteTestFile(dir.Join("nested.zip"), MakeArchive("zip", "", inner));
  LoadOptions raised;
  raised.max_compression_ratio = 200;
  absl::StatusOr<Dump> nested = LoadDump(dir.Join("nested.zip"), raised);
  ASSERT_FALSE(nested.ok());
  EXPECT_THAT(std::string(nested.status().message()), HasSubstr("max_compression_ratio"));

  // The limit is an option: 0 lifts it.
  WriteTestFile(dir.Join("small.gz"), GzipMembers(text, 40));
  LoadOptions unlimited;
  unlimited.max_compression_ratio = 0;
  EXPECT_TRUE(LoadDump(dir.Join("small.gz"), unlimited).ok());
  EXPECT_FALSE(LoadDump(dir.Join("small.gz")).ok());
}

// Bug 6: --budget, --baseline and --equiv were read without bound.
TEST(Hardening, UserFilesAreBoundedRegularFiles) {
  std::string dump = "resnet18-xla5430/openxla";
  ScratchDir dir;
  std::string fifo = dir.Join("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string baseline = WriteTempFile("bounded_baseline.json", "");
  ASSERT_EQ(RunCli({"snapshot", dump, "-o", baseline}).exit_code, 0);
  for (const std::string& bad : {std::string("/dev/zero"), fifo}) {
    CliResult budget = RunCli({"check", dump, "--baseline", baseline, "--budget", bad});
    EXPECT_EQ(budget.exit_code, 2);
    EXPECT_THAT(budget.err, HasSubstr("not a regular file"));
    CliResult base = RunCli({"check", dump, "--baseline", bad});
    EXPECT_EQ(base.exit_code, 2);
    EXPECT_THAT(base.err, HasSubstr("not a regular file"));
    CliResult equiv = RunCli({"diff", dump, dump, "--equiv", bad});
    EXPECT_EQ(equiv.exit_code, 2);
    EXPECT_THAT(equiv.err, HasSubstr("not a regular file"));
  }
  CliResult small = RunCli({"check", dump, "--baseline", baseline, "--max-input-bytes", "100"});
  EXPECT_EQ(small.exit_code, 2);
  EXPECT_THAT(small.err, HasSubstr("--max-input-bytes"));
  EXPECT_EQ(RunCli({"check", dump, "--baseline", baseline, "--max-input-bytes", "64M"}).exit_code,
            0);
}

// Bug 7: two entries of one name made the output depend on thread timing.
TEST(Hardening, DuplicateEntryNamesAreDeterministic) {
  std::string first = "IR {\n  %0 = f32[4]{0} aten::first(), ROOT=0\n}\n";
  std::string second = "IR {\n  %0 = f32[4]{0} aten::second(), ROOT=0\n}\n";
  ScratchDir dir;
  WriteTestFile(dir.Join("dup.tar"),
                MakeArchive("tar", "", {{"ir.txt", first}, {"ir.txt", second}, {"./ir.txt", second}}));
  std::string expected;
  for (int run = 0; run < 5; ++run) {
    absl::StatusOr<Dump> dump = LoadDump(dir.Join("dup.tar"));
    ASSERT_TRUE(dump.ok()) << dump.status();
    ASSERT_EQ(dump->files.size(), 1u);
    ASSERT_EQ(dump->files[0].graphs.size(), 1u);
    const Graph& g = dump->files[0].graphs[0];
    EXPECT_EQ(g.str(g.nodes[0].op), "aten::first");
    ASSERT_EQ(dump->skipped.size(), 2u);
    EXPECT_THAT(dump->skipped[0].second, HasSubstr("duplicate entry name"));
    std::string json = BaselineToJson(SnapshotDump(*dump));
    if (run == 0) expected = json;
    EXPECT_EQ(json, expected);
  }
}

GateUnit Unit(int64_t nodes) {
  GateUnit u;
  u.kind = GateUnitKind::kGraph;
  u.key = "ir.txt";
  u.file = "ir.txt";
  u.graph_kind = "ir";
  u.values["nodes"] = nodes;
  return u;
}

// Bug 8: deltas at the int64 edges overflowed (growth of 2^64-1 read "-1").
TEST(Hardening, GateArithmeticIsExactAtInt64Edges) {
  Baseline before, after;
  before.units.push_back(Unit(std::numeric_limits<int64_t>::min()));
  after.units.push_back(Unit(std::numeric_limits<int64_t>::max()));
  CheckResult grew = CheckAgainstBaseline(before, after, DefaultBudget(), {}, "b.json");
  EXPECT_EQ(grew.verdict, GateVerdict::kFail);
  EXPECT_THAT(RenderCheckText(grew), HasSubstr("(+18446744073709551615)"));
  EXPECT_THAT(RenderCheckCsv(grew), HasSubstr(",18446744073709551615,"));
  nlohmann::json j = nlohmann::json::parse(RenderCheckJson(grew));
  EXPECT_EQ(j["units"][0]["changes"][0]["delta"].get<uint64_t>(),
            std::numeric_limits<uint64_t>::max());
  CheckResult shrank = CheckAgainstBaseline(after, before, DefaultBudget(), {}, "b.json");
  EXPECT_EQ(shrank.verdict, GateVerdict::kImproved);
  EXPECT_THAT(RenderCheckText(shrank), HasSubstr("(-18446744073709551615)"));
  EXPECT_THAT(RenderCheckMarkdown(shrank), HasSubstr("-18446744073709551615"));
}

// Bug 9: parameter_bytes wrapped: c128[2^60] showed "0 B"; f64[2^60] went
// into a baseline as INT64_MIN.
TEST(Hardening, ParameterBytesSaturate) {
  for (const char* type : {"c128", "f64"}) {
    std::string ir = std::string("IR {\n  %0 = ") + type +
                     "[1152921504606846976]{0} xla::device_data(), device=CPU:0\n"
                     "  %1 = f32[4]{0} aten::add(%0), ROOT=0\n}\n";
    absl::StatusOr<Dump> dump = LoadDumpFromMemory("mem", {{"ir.txt", ir}});
    ASSERT_TRUE(dump.ok()) << dump.status();
    ASSERT_EQ(dump->files.size(), 1u);
    GraphStats s = ComputeStats(dump->files[0].graphs[0]);
    EXPECT_GE(s.parameter_bytes, uint64_t{1} << 63) << type;
    Baseline b = SnapshotDump(*dump);
    ASSERT_FALSE(b.units.empty());
    EXPECT_EQ(b.units[0].values["parameter_bytes"], std::numeric_limits<int64_t>::max()) << type;
    StatsReport report;
    report.graphs.push_back(s);
    EXPECT_THAT(RenderStatsText(report, 0), Not(HasSubstr("parameter bytes 0 B")));
  }
}

// Dump text reaches the terminal with its control characters visible,
// colour or not; only the renderers' own colour sequences stay.
TEST(Hardening, TerminalOutputHasNoRawControlCharacters) {
  std::string path = WriteTempFile("escape.txt", kEscapeIr);
  std::string other = WriteTempFile("escape_other.txt", kBadUtf8Ir);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"stats", path},
        {"lint", path, "--color", "never"},
        {"diff", path, other, "--color", "never", "--verbose"},
        {"diff", path, other, "--stat"},
        {"diff", path, other, "--brief"},
        {"diff", path, other, "--format", "markdown"},
        {"lint", path, "--format", "markdown"}}) {
    CliResult r = RunCli(args);
    EXPECT_NE(r.exit_code, 2) << args[0] << ": " << r.err;
    ExpectClean(r.out, args[0] + " " + args.back());
    EXPECT_THAT(r.out, Not(HasSubstr("\xc2\x9b"))) << args.back();
  }
  CliResult color = RunCli({"diff", path, other, "--color", "always", "--verbose"});
  EXPECT_THAT(color.out, HasSubstr("\x1b[1m"));      // our own colour stays
  EXPECT_THAT(color.out, Not(HasSubstr("\x1b]0;")));  // the dump's title change does not
  EXPECT_THAT(color.out, Not(HasSubstr("\x1b[2J")));
  EXPECT_THAT(color.out, HasSubstr("\\x1B]0;pwned\\x07"));
  // Messages to stderr quote paths: visible there too.
  CliResult missing = RunCli({"stats", std::string("/nonexistent/\x1b[2J")});
  EXPECT_EQ(missing.exit_code, 2);
  ExpectClean(missing.err, "stderr");
}

// JUnit stays well-formed XML, Markdown escapes everything not plain text,
// and no path can close the update command's code fence.
TEST(Hardening, JunitAndMarkdownEscapeEverything) {
  GateUnit u = Unit(10);
  u.key = "ir\xff\x01<&>\"'\xef\xbf\xbe\xef\xbf\xbf.txt";
  Baseline before, after;
  before.units.push_back(u);
  u.values["nodes"] = 20;
  after.units.push_back(u);
  after.dump = "evil```\n# heading\x1b[2J";
  CheckResult r = CheckAgainstBaseline(before, after, DefaultBudget(), {}, "b```.json");
  std::string xml = RenderCheckJunit(r);
  ExpectClean(xml, "junit");
  EXPECT_THAT(xml, Not(HasSubstr("\xef\xbf\xbe")));
  EXPECT_THAT(xml, Not(HasSubstr("\xef\xbf\xbf")));
  EXPECT_THAT(xml, HasSubstr("ir\\xFF\\x01&lt;&amp;&gt;&quot;&apos;\\u{FFFE}\\u{FFFF}.txt"));
  std::string md = RenderCheckMarkdown(r);
  ExpectClean(md, "markdown");
  EXPECT_THAT(md, HasSubstr("````sh\n"));  // longer than the ``` in the paths
  EXPECT_THAT(md, HasSubstr("\n````\n"));
  EXPECT_EQ(MarkdownEscape("a|b\nc<d>"), "a\\|b c&lt;d&gt;");
  EXPECT_EQ(MarkdownCodeBlock("x `` y", "sh"), "```sh\nx `` y\n```\n");
}

TEST(Hardening, SanitizerRecognisesEveryInvalidForm) {
  bool changed = false;
  EXPECT_EQ(ValidUtf8("ok \xc3\xa9", &changed), "ok \xc3\xa9");
  EXPECT_FALSE(changed);
  EXPECT_EQ(ValidUtf8("\xc0\xaf", &changed), "\\xC0\\xAF");  // overlong '/'
  EXPECT_TRUE(changed);
  EXPECT_EQ(ValidUtf8("\xed\xa0\x80"), "\\xED\\xA0\\x80");  // lone surrogate
  EXPECT_EQ(ValidUtf8("\xf4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // past U+10FFFF
  EXPECT_EQ(ValidUtf8("\xe2\x82"), "\\xE2\\x82");  // truncated
  EXPECT_EQ(TerminalSafe("a\tb\nc\rd\x7f\xc2\x85\xe2\x80\xae"),
            "a\tb\nc\\x0Dd\\x7F\\u{0085}\\u{202E}");
  EXPECT_EQ(TerminalSafe("\x1b[1;31mred\x1b[0m", true), "\x1b[1;31mred\x1b[0m");
  EXPECT_EQ(TerminalSafe("\x1b[1;31mred", false), "\\x1B[1;31mred");
}

// MakeTerminalSafe checks sixteen bytes, then a word, at a time: every byte
// TerminalSafe changes must be caught wherever it sits in a block, in the
// first block or a later one or the tail, and plain text kept as it is.
TEST(Hardening, InPlaceSanitizerMatchesTerminalSafe) {
  const std::string plain = "  ops:\n    aten::add      12\n\tx ~ y !\n";
  std::string kept = plain;
  MakeTerminalSafe(&kept);
  EXPECT_EQ(kept, plain);
  for (const char* bad : {"\x01", "\x1b", "\x7f", "\x80", "\xc2\x85", "\xe2\x80\xae", "\xff",
                          "\r", "\x1f", "\xc3\xa9"}) {
    for (size_t at = 0; at <= 41; ++at) {
      std::string s = std::string(at, 'a') + bad + std::string(41 - at, 'b') + "\n";
      std::string in_place = s;
      MakeTerminalSafe(&in_place);
      EXPECT_EQ(in_place, TerminalSafe(s)) << "byte at " << at;
      std::string sgr = s + "\x1b[1mbold\x1b[0m";
      MakeTerminalSafe(&sgr, /*keep_sgr=*/true);
      EXPECT_EQ(sgr, TerminalSafe(s + "\x1b[1mbold\x1b[0m", true)) << "byte at " << at;
    }
  }
}

// Runs of plain text are copied whole: what surrounds each escape, at the
// start, the end and between two escapes, must come out unchanged.
TEST(Hardening, TerminalSafeKeepsPlainRunsAroundEscapes) {
  EXPECT_EQ(TerminalSafe(""), "");
  EXPECT_EQ(TerminalSafe("plain text ~!\n\t"), "plain text ~!\n\t");
  EXPECT_EQ(TerminalSafe("\x01head"), "\\x01head");
  EXPECT_EQ(TerminalSafe("tail\x01"), "tail\\x01");
  EXPECT_EQ(TerminalSafe("a\x01\x02" "b\xc3\xa9" "c\xff" "d"),
            "a\\x01\\x02" "b\xc3\xa9" "c\\xFF" "d");
  EXPECT_EQ(TerminalSafe("x \x1b[31mred\x1b[0m y", true), "x \x1b[31mred\x1b[0m y");
  std::string big;
  std::string want;
  for (int i = 0; i < 1000; ++i) {
    big += "node_" + std::to_string(i) + "\r";
    want += "node_" + std::to_string(i) + "\\x0D";
  }
  EXPECT_EQ(TerminalSafe(big), want);
}

}  // namespace
}  // namespace graphdiff
