// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// A save file cut into pieces and parsed piece by piece must give what the
// whole-file parse gives, for every number of pieces: graphs, their sources
// (lines, record indexes, folded repeats, hashes, names) and warnings.
#include <string>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/gate.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "parse/parse_parallel.h"
#include "testing/streamed_parse.h"
#include "testing/task_runners.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

// Everything of a parse that a report could show.
std::string Describe(const absl::StatusOr<std::vector<Graph>>& graphs,
                     const std::vector<Diagnostic>& warnings) {
  if (!graphs.ok()) return "error: " + std::string(graphs.status().message());
  std::string out;
  for (const Graph& g : *graphs) {
    const GraphSource& s = g.source;
    out += fmt::format("{} | {} {}-{} #{} x{} name={} hash={} hashes={} frames={}\n{}\n", g.name,
                       s.file, s.first_line, s.last_line, s.record_index, s.repeat_count,
                       s.graph_name, s.graph_hash, fmt::join(s.hashes, ","),
                       fmt::join(s.frames, ";"), EncodeGraph(g));
    for (const Node& n : g.nodes) out += fmt::format("{} ", n.line);
    out += "\n";
  }
  for (const Diagnostic& d : warnings) out += d.ToString() + "\n";
  return out;
}

using testing::ReverseRunner;

void ExpectSameForEveryCut(const std::string& text, const ParseOptions& options = {}) {
  std::vector<Diagnostic> whole_warnings;
  std::string whole = Describe(ParseSaveFile(text, "s.txt", options, &whole_warnings),
                               whole_warnings);
  for (size_t pieces = 2; pieces <= 24; ++pieces) {
    std::vector<Diagnostic> warnings;
    std::string cut = Describe(
        ParseSaveFileParallel(text, "s.txt", options, &warnings, ReverseRunner(pieces)), warnings);
    ASSERT_EQ(cut, whole) << pieces << " pieces";
    // Streamed (`graphdiff stats`): pieces handed out a wave at a time.
    for (size_t wave : {1, 2, 5}) {
      testing::StreamedGraphs taken;
      std::vector<Diagnostic> streamed_warnings;
      absl::StatusOr<std::vector<Graph>> rest =
          ParseSaveFileStreamed(text, "s.txt", options, &streamed_warnings,
                                testing::StreamRunner(text, pieces, wave), taken.stream);
      absl::StatusOr<std::vector<Graph>> all =
          rest.ok() ? absl::StatusOr<std::vector<Graph>>(taken.With(*std::move(rest)))
                    : rest.status();
      ASSERT_EQ(Describe(all, streamed_warnings), whole)
          << pieces << " pieces streamed, " << wave << " a wave";
    }
  }
}

std::string Read(const std::string& name) { return testing::ReadTestdata(name); }

// The first record of a save file: up to the second record header.
std::string FirstRecord(const std::string& text) {
  size_t next = text.find("\n[ScheduleSyncTensorsGraph]", 1);
  return next == std::string::npos ? text : text.substr(0, next + 1);
}

TEST(ParseParallelTest, CutsFallOnRecordHeaders) {
  std::string text = Read("generated/resnet18/ltc_save.txt");
  std::vector<size_t> cuts = SaveFileCuts(text, 4);
  ASSERT_GT(cuts.size(), 2u);
  EXPECT_EQ(cuts[0], 0u);
  for (size_t i = 1; i < cuts.size(); ++i) {
    EXPECT_GT(cuts[i], cuts[i - 1]);
    EXPECT_EQ(text[cuts[i] - 1], '\n');
    EXPECT_EQ(text.substr(cuts[i], 27), "[ScheduleSyncTensorsGraph]\n");
  }
}

TEST(ParseParallelTest, BareIrBlocksAreCutAfterAClosedBlock) {
  std::string text = Read("fixtures/ir/bare_blocks.txt");
  std::vector<size_t> cuts = SaveFileCuts(text, 8);
  ASSERT_GT(cuts.size(), 1u);
  for (size_t i = 1; i < cuts.size(); ++i) EXPECT_EQ(text.substr(cuts[i], 4), "IR {");
  ExpectSameForEveryCut(text);
}

TEST(ParseParallelTest, EverySaveFileOfTestdataParsesTheSameInPieces) {
  for (const char* name :
       {"generated/mlp/ltc_save.txt", "generated/multi_output/ltc_save.txt",
        "generated/resnet18/ltc_save.txt", "generated/transformer_block/ltc_save.txt",
        "fixtures/ir/ltc_real_save.txt", "fixtures/ir/xla_hlo_sharding.txt",
        "fixtures/ir/xla_new_root_hashes.txt", "fixtures/ir/xla_old_hashes.txt"}) {
    SCOPED_TRACE(name);
    ExpectSameForEveryCut(Read(name));
  }
}

TEST(ParseParallelTest, RepeatsFoldAcrossCuts) {
  // Runs of identical records: wherever the cuts fall, a run is one graph
  // with its repeat count, as in the whole-file parse.
  std::string a = FirstRecord(Read("fixtures/ir/xla_new_root_hashes.txt"));
  std::string b = FirstRecord(Read("fixtures/ir/xla_hlo_sharding.txt"));
  std::string text;
  for (int i = 0; i < 5; ++i) text += a;
  for (int i = 0; i < 3; ++i) text += b;
  text += a;
  ExpectSameForEveryCut(text);
  absl::StatusOr<std::vector<Graph>> whole = ParseSaveFile(text, "s.txt");
  ASSERT_TRUE(whole.ok());
  ASSERT_EQ(whole->size(), 3u);  // the runs did fold
  EXPECT_EQ((*whole)[0].source.repeat_count, 5u);
  EXPECT_EQ((*whole)[1].source.repeat_count, 3u);
}

TEST(ParseParallelTest, AFoldedRecordSaysNoWarning) {
  // The record warns when parsed; its repeats are folded unparsed, so they
  // must not warn, wherever a cut puts one first in its piece.
  std::string record =
      "[ScheduleSyncTensorsGraph]\nTensorsGraphInfo:\n  step (/home/user/train.py:3)\n\n"
      "## BEGIN_GRAPH\nIR {\n  %0 = f32[4]{0} xla::device_data(), device=TPU:0\n"
      "  %1 = f32[4]{0} aten::abs(%0), bogus, ROOT=0\n}\n\n## END_GRAPH\n\n";
  std::string other = FirstRecord(Read("fixtures/ir/xla_new_root_hashes.txt"));
  std::string text;
  for (int i = 0; i < 4; ++i) text += record;
  text += other;
  for (int i = 0; i < 4; ++i) text += record;
  std::vector<Diagnostic> warnings;
  ASSERT_TRUE(ParseSaveFile(text, "s.txt", {}, &warnings).ok());
  ASSERT_EQ(warnings.size(), 2u);  // one per run, not one per record
  for (size_t max : {1, 2, 100}) {
    ParseOptions options;
    options.max_warnings = max;
    SCOPED_TRACE(max);
    ExpectSameForEveryCut(text, options);
  }
}

TEST(ParseParallelTest, WarningsAndTheirTallyMatch) {
  std::string record = Read("fixtures/ir/xla_new_root_hashes.txt");
  std::string text;
  for (int i = 0; i < 12; ++i) {
    text += fmt::format("stray line {}\n", i);
    text += record;
  }
  ParseOptions options;
  for (size_t max : {0, 1, 3, 100}) {
    options.max_warnings = max;
    SCOPED_TRACE(max);
    ExpectSameForEveryCut(text, options);
  }
}

TEST(ParseParallelTest, WarningsThatNameALineNameTheRightOne) {
  // A piece is parsed before the line it starts at is known when another
  // piece of its wave comes first: its warnings' words must still name the
  // file's lines ("the IR block opened on line 5").
  std::string record = Read("fixtures/ir/xla_new_root_hashes.txt");
  std::string text;
  for (int i = 0; i < 12; ++i) {
    text += record;
    text += "[ScheduleSyncTensorsGraph]\nIR {\n  %0 = f32[4]{0} xla::device_data()\n";
    if (i % 4 == 1) text += fmt::format("  %1 = f32[4]{{0}} aten::relu(%0), ROOT=0\n");
  }
  text += record;
  std::vector<Diagnostic> warnings;
  ASSERT_TRUE(ParseSaveFile(text, "s.txt", {}, &warnings).ok());
  ASSERT_FALSE(warnings.empty());
  EXPECT_NE(warnings.back().message.find("opened on line"), std::string::npos)
      << warnings.back().message;
  ExpectSameForEveryCut(text);
}

TEST(ParseParallelTest, ErrorsAndLimitsAreTheWholeFileOnes) {
  std::string record = Read("fixtures/ir/xla_new_root_hashes.txt");
  std::string text = record + record + "[ScheduleSyncTensorsGraph]\nIR {\n  %0 = nonsense\n}\n" +
                     record;
  ExpectSameForEveryCut(text);
  // A last record cut short is a warning after other graphs.
  std::string truncated = record + "[ScheduleSyncTensorsGraph]\n## BEGIN_GRAPH\nIR {\n"
                                   "  %0 = f32[4]{0} xla::device_data()\n";
  ExpectSameForEveryCut(truncated);
  ParseOptions options;
  options.max_graphs = 2;
  std::string many;
  for (int i = 0; i < 4; ++i) many += record;
  ExpectSameForEveryCut(many, options);
}

// Distinct records one after another: the testdata save files.
std::string ManyRecords() {
  std::string text;
  for (const char* name : {"generated/mlp/ltc_save.txt", "generated/resnet18/ltc_save.txt",
                           "generated/multi_output/ltc_save.txt",
                           "generated/transformer_block/ltc_save.txt"}) {
    text += Read(name);
  }
  return text;
}

TEST(ParseParallelTest, AStreamedParseHandsOutAWaveAtATime) {
  const std::string text = ManyRecords();
  ASSERT_GE(SaveFileCuts(text, 6).size(), 6u);
  std::vector<Diagnostic> warnings;
  absl::StatusOr<std::vector<Graph>> whole = ParseSaveFile(text, "s.txt", {}, &warnings);
  ASSERT_TRUE(whole.ok());
  testing::StreamedGraphs taken;
  absl::StatusOr<std::vector<Graph>> rest = ParseSaveFileStreamed(
      text, "s.txt", {}, &warnings, testing::StreamRunner(text, 6, 2), taken.stream);
  ASSERT_TRUE(rest.ok());
  EXPECT_TRUE(rest->empty());  // every graph went to the stream
  EXPECT_EQ(taken.restarts, 0u);
  EXPECT_EQ(taken.batches, 3u);  // six pieces, two a wave
  EXPECT_EQ(taken.graphs.size(), whole->size());
}

TEST(ParseParallelTest, AStreamThatCannotGoOnStartsAgain) {
  // A record header with no body before a `Graph Hash:` line: the
  // whole-file parse gives the hash to the record before, which a piece
  // starting at that header cannot reach. Where a cut falls there after
  // earlier waves were handed out, the stream is told to drop them and the
  // text is parsed whole.
  const std::string records = ManyRecords();
  const size_t middle = records.find("[ScheduleSyncTensorsGraph]", records.size() / 2);
  ASSERT_NE(middle, std::string::npos);
  const std::string text = records.substr(0, middle) +
                           "[ScheduleSyncTensorsGraph]\nGraph Hash: 0123abcd\n\n" +
                           records.substr(middle);
  std::vector<Diagnostic> whole_warnings;
  const std::string whole =
      Describe(ParseSaveFile(text, "s.txt", {}, &whole_warnings), whole_warnings);
  size_t restarts = 0;
  for (size_t pieces = 2; pieces <= 16; ++pieces) {
    testing::StreamedGraphs taken;
    std::vector<Diagnostic> warnings;
    absl::StatusOr<std::vector<Graph>> rest = ParseSaveFileStreamed(
        text, "s.txt", {}, &warnings, testing::StreamRunner(text, pieces, 1), taken.stream);
    ASSERT_TRUE(rest.ok());
    if (taken.restarts > 0) {
      ++restarts;
      EXPECT_TRUE(taken.graphs.empty());
    }
    ASSERT_EQ(Describe(taken.With(*std::move(rest)), warnings), whole) << pieces << " pieces";
  }
  EXPECT_GT(restarts, 0u);
}

TEST(ParseParallelTest, ParseTextParallelOnThreads) {
  std::string text;
  for (const char* name : {"generated/mlp/ltc_save.txt", "generated/resnet18/ltc_save.txt",
                           "generated/multi_output/ltc_save.txt"}) {
    text += Read(name);
  }
  const TaskRunner runner = testing::ThreadRunner(6);
  absl::StatusOr<ParsedText> whole = ParseText(text, "s.txt");
  absl::StatusOr<ParsedText> cut = ParseTextParallel(text, "s.txt", {}, runner);
  ASSERT_TRUE(whole.ok() && cut.ok());
  EXPECT_EQ(Describe(cut->graphs, cut->warnings), Describe(whole->graphs, whole->warnings));
  EXPECT_GT(whole->graphs.size(), 10u);
}

}  // namespace
}  // namespace graphdiff
