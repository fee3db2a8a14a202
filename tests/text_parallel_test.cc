// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// FX dumps of many graphs and HLO dumps of many modules cut into pieces and
// parsed piece by piece must give what the one-piece parse gives, for every
// number of pieces: graphs in order, names, source lines, record indexes,
// warnings (and their tally) and errors.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "graphdiff/parse.h"
#include "parse/fx_lexer.h"
#include "parse/fx_unwrap.h"
#include "parse/line_starts.h"
#include "parse/parse_parallel.h"
#include "testing/model_text.h"
#include "testing/streamed_parse.h"
#include "testing/task_runners.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

std::string Describe(const absl::StatusOr<ParsedText>& parsed) {
  if (!parsed.ok()) return "error: " + std::string(parsed.status().message());
  return testing::ModelText(*parsed);
}

using testing::ReverseRunner;

void ExpectSameForEveryCut(const std::string& text, const ParseOptions& options = {}) {
  const std::string whole = Describe(ParseText(text, "d.txt", options));
  for (size_t pieces = 2; pieces <= 24; ++pieces) {
    ASSERT_EQ(Describe(ParseTextParallel(text, "d.txt", options, ReverseRunner(pieces))), whole)
        << pieces << " pieces";
    // Streamed (`graphdiff stats`): pieces handed out a wave at a time.
    for (size_t wave : {1, 3}) {
      ASSERT_EQ(Describe(testing::ParseDetectedStreamed(
                    text, "d.txt", options, testing::StreamRunner(text, pieces, wave))),
                whole)
          << pieces << " pieces streamed, " << wave << " a wave";
    }
  }
}

std::string Read(const std::string& name) { return testing::ReadTestdata(name); }

const char* const kFxFiles[] = {
    "fixtures/fx/aot_graphs_v2_4.log",          // log prefixes, banners, classes
    "fixtures/fx/graph_code_v2_1.log",
    "fixtures/fx/invoke_subgraph_v2_6.py",      // nested subgraph classes
    "fixtures/fx/print_readable_v2_0.py",
    "fixtures/fx/torch_trace_v2_5.log",         // graphs in TORCH_TRACE records
    "generated/mlp/fx_aot_backward.txt",
    "generated/resnet18/fx_aot_forward.txt",
    "generated/resnet18/fx_symbolic_trace_readable.txt",
    "generated/tiny_gpt/fx_make_fx_pregrad.txt",
    "generated/transformer_block/fx_symbolic_trace.txt",
    "resnet18-xla5430/openxla/fx_graph.txt",
};

const char* const kHloFiles[] = {
    "fixtures/hlo/long_form_fusion.txt",
    "fixtures/hlo/short_form_sync_tensors.txt",
    "fixtures/hlo/two_modules.txt",
};

// The files one after another, each starting on a line of its own.
template <size_t N>
std::string Concatenate(const char* const (&names)[N]) {
  std::string text;
  for (const char* name : names) {
    text += Read(name);
    if (!text.empty() && text.back() != '\n') text += '\n';
  }
  return text;
}

// The line that starts at `offset`, as the FX parse reads it: without its
// log prefix.
std::string_view ParsedLineAt(std::string_view text, size_t offset) {
  std::string_view line = text.substr(offset, text.find('\n', offset) - offset);
  return line.substr(FxLogPrefixLength(line));
}

TEST(TextParallelTest, FxCutsFallWhereTheParseIsAtColumnZero) {
  const std::string text = Concatenate(kFxFiles);
  std::vector<size_t> cuts = FxCodeCuts(text, 8);
  ASSERT_GT(cuts.size(), 2u);
  EXPECT_EQ(cuts[0], 0u);
  for (size_t i = 1; i < cuts.size(); ++i) {
    EXPECT_GT(cuts[i], cuts[i - 1]);
    EXPECT_EQ(text[cuts[i] - 1], '\n');
    std::string_view line = ParsedLineAt(text, cuts[i]);
    ASSERT_FALSE(line.empty());
    EXPECT_TRUE(line[0] != ' ' && line[0] != '\t' && line[0] != '\r') << line;
  }
}

// A TORCH_LOGS log has no `def forward(` or `class` at column 0: its graphs
// follow a prefixed `TRACED GRAPH` line, with banner, class and code
// indented. It is cut there, and every piece parses alone with no banner
// left waiting, so the pieces are joined instead of the text parsed whole.
TEST(TextParallelTest, ALogOfManyGraphsIsCutBetweenThem) {
  for (const char* name : {"fixtures/fx/aot_graphs_v2_4.log", "fixtures/fx/graph_code_v2_1.log",
                           "fixtures/fx/torch_trace_v2_5.log"}) {
    SCOPED_TRACE(name);
    std::string log;
    for (int i = 0; i < 16; ++i) log += Read(name);
    std::vector<size_t> cuts = FxCodeCuts(log, 8);
    ASSERT_EQ(cuts.size(), 8u);
    cuts.push_back(log.size());
    size_t graphs = 0;
    for (size_t p = 0; p + 1 < cuts.size(); ++p) {
      const std::string_view piece_text =
          std::string_view(log).substr(cuts[p], cuts[p + 1] - cuts[p]);
      const uint32_t first_line = static_cast<uint32_t>(
          std::count(log.begin(), log.begin() + static_cast<ptrdiff_t>(cuts[p]), '\n') + 1);
      FxPiece piece;
      ASSERT_TRUE(ParseFxPiece(piece_text, first_line, "d.txt", {}, nullptr, &piece).ok()) << p;
      EXPECT_TRUE(piece.banner.empty()) << p;
      EXPECT_FALSE(piece.graphs.empty()) << p;
      graphs += piece.graphs.size();
    }
    absl::StatusOr<ParsedText> whole = ParseText(log, "d.txt");
    ASSERT_TRUE(whole.ok());
    EXPECT_EQ(graphs, whole->graphs.size());
    ExpectSameForEveryCut(log);
  }
}

// Column-0 lines the parse does not read as a fresh start: a continuation
// inside brackets (the piece before fails, the text parses whole), a
// comment that ends a column-0 def, and a banner's graph after it.
TEST(TextParallelTest, ColumnZeroLinesInsideStatementsAndAfterBanners) {
  const std::string graph = "def forward(self, x):\n    y = x\n    return y\n";
  ExpectSameForEveryCut(graph +
                        "def forward(self, x):\n    y = torch.cat([x,\nx])\n    return y\n" +
                        graph);
  ExpectSameForEveryCut(graph + "def forward(self, x):\n    y = x\n# a note\n    return y\n" +
                        graph);
  const std::string banner_then_class =
      "===== Forward graph 3 =====\nclass GraphModule(torch.nn.Module):\n"
      "    def forward(self, x):\n        return x\n";
  const std::string text = graph + banner_then_class + graph + banner_then_class;
  for (size_t cut : FxCodeCuts(text, 12)) {
    EXPECT_NE(ParsedLineAt(text, cut).substr(0, 6), "class ") << cut;
  }
  ExpectSameForEveryCut(text);
}

TEST(TextParallelTest, NoCutAfterABackslashContinuation) {
  const std::string graph = "def forward(self, x):\n    y = x\n    return y\n";
  const std::string text = graph + graph + "z = 1 + \\\n" + graph;
  std::vector<size_t> cuts = FxCodeCuts(text, 3);
  for (size_t cut : cuts) EXPECT_NE(cut, text.size() - graph.size());
}

TEST(TextParallelTest, HloCutsFallOnModules) {
  const std::string text = Concatenate(kHloFiles);
  std::vector<size_t> cuts = HloTextCuts(text, 8);
  ASSERT_GT(cuts.size(), 2u);
  for (size_t i = 1; i < cuts.size(); ++i) {
    EXPECT_EQ(text[cuts[i] - 1], '\n');
    EXPECT_EQ(text.substr(cuts[i], 10), "HloModule ");
  }
}

// Lines of every kind a cut search must weigh: indented code, blank and
// blank-looking lines, CRLF, column-0 lines of each format, banners and
// backslash continuations before them, log prefixes, `HloModule` indented
// or inside a line. Lengths vary so lines cross the scan's 16-byte steps.
std::string RandomCutText(std::mt19937& rng) {
  static const char* const kLines[] = {
      "    x = torch.relu(y)",  "        z = a + b;  a = None", "", "   ", "\t\tq = 1",
      "def forward(self, x):",  "class GraphModule(torch.nn.Module):", "===== graph =====",
      "y = x + \\",           "\r", "  HloModule m, entry=e", "HloModule m2",
      "  %a = f32[2] add(%b, %c) // HloModule inside", "ENTRY %e {", "}",
      "[rank0]:    w = v", "I1207 12:00:00.000000 1 log.py:1] def forward(self):",
      "\f", "x", "#", "[ScheduleSyncTensorsGraph]", "IR {", "  %0 = f32[] prim::Constant()",
      "[ScheduleSyncTensorsGraph] TensorsGraphInfo:"};
  std::uniform_int_distribution<size_t> pick(0, std::size(kLines) - 1);
  std::uniform_int_distribution<size_t> pad(0, 40);
  std::string text;
  const size_t lines = std::uniform_int_distribution<size_t>(0, 200)(rng);
  for (size_t i = 0; i < lines; ++i) {
    std::string line = kLines[pick(rng)];
    if (!line.empty() && line[0] == ' ' && rng() % 2) line += std::string(pad(rng), 'a');
    text += line;
    if (rng() % 8 == 0) text += '\r';
    text += '\n';
  }
  if (rng() % 2 && !text.empty()) text.pop_back();  // no final line break
  return text;
}

TEST(TextParallelTest, SkippingToLikelyLinesFindsTheLineByLineCuts) {
  std::mt19937 rng(7);
  for (int round = 0; round < 3000; ++round) {
    const std::string text = RandomCutText(rng);
    for (size_t pieces : {2, 3, 7, 40}) {
      // Each format's rule, with its skip and line by line.
      for (const CutLine& rule : {FxCutRule(), HloCutRule(), SaveFileCutRule()}) {
        ASSERT_NE(rule.skip, nullptr);
        ASSERT_EQ(LineCuts(text, pieces, rule), LineCuts(text, pieces, CutLine(rule.is_cut)))
            << pieces << " pieces of\n" << text;
      }
      // Any rule that cuts only at column 0 may skip the indented lines.
      auto unindented = +[](std::string_view line, std::string_view previous) {
        return !line.empty() && line[0] != ' ' && line[0] != '\t' &&
               (previous.empty() || previous.back() != ';');
      };
      ASSERT_EQ(LineCuts(text, pieces, CutLine(unindented, NextUnindentedLine)),
                LineCuts(text, pieces, CutLine(unindented)))
          << pieces << " pieces of\n" << text;
    }
  }
}

TEST(TextParallelTest, NextUnindentedLineAcrossTheScansSteps) {
  for (size_t indent = 0; indent < 40; ++indent) {
    for (size_t first = 0; first < 20; ++first) {
      std::string text(first, 'a');
      text += '\n';
      const size_t second = text.size();
      text += std::string(indent, ' ') + "b\n";
      const size_t third = text.size();
      text += "c";
      EXPECT_EQ(NextUnindentedLine(text, 0), first == 0 ? (indent == 0 ? second : third) : 0);
      EXPECT_EQ(NextUnindentedLine(text, second), indent == 0 ? second : third);
      EXPECT_EQ(NextUnindentedLine(text, third), third);
      EXPECT_EQ(NextUnindentedLine(text, text.size()), text.size());
    }
  }
  EXPECT_EQ(NextUnindentedLine(std::string(100, ' '), 0), 100u);
  EXPECT_EQ(NextUnindentedLine(std::string(100, '\n'), 0), 100u);
}

TEST(TextParallelTest, EveryFxDumpOfTestdataParsesTheSameInPieces) {
  for (const char* name : kFxFiles) {
    SCOPED_TRACE(name);
    ExpectSameForEveryCut(Read(name));
  }
  const std::string all = Concatenate(kFxFiles);
  ExpectSameForEveryCut(all);
  absl::StatusOr<ParsedText> parsed = ParseText(all, "d.txt");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->format, DumpFormat::kFxCode);
  EXPECT_GT(parsed->graphs.size(), 12u);
}

TEST(TextParallelTest, EveryHloDumpOfTestdataParsesTheSameInPieces) {
  for (const char* name : kHloFiles) {
    SCOPED_TRACE(name);
    ExpectSameForEveryCut(Read(name));
  }
  std::string all = Concatenate(kHloFiles);
  all += all;
  ExpectSameForEveryCut(all);
  absl::StatusOr<ParsedText> parsed = ParseText(all, "d.txt");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->format, DumpFormat::kHloText);
  EXPECT_EQ(parsed->graphs.size(), 8u);
}

TEST(TextParallelTest, WarningsAndTheirTallyMatch) {
  // Lines outside graph code and modules warn; the limit folds the rest into
  // a tally wherever the cuts fall.
  std::string fx, hlo;
  const std::string fx_graph = Read("generated/mlp/fx_aot_forward.txt");
  const std::string hlo_module = Read("fixtures/hlo/short_form_sync_tensors.txt");
  for (int i = 0; i < 10; ++i) {
    fx += "import torch  # log line " + std::to_string(i) + "\n" + fx_graph;
    hlo += "log line " + std::to_string(i) + "\n" + hlo_module;
  }
  ParseOptions options;
  for (size_t max : {0, 1, 3, 100}) {
    options.max_warnings = max;
    SCOPED_TRACE(max);
    ExpectSameForEveryCut(fx, options);
    ExpectSameForEveryCut(hlo, options);
  }
}

TEST(TextParallelTest, ErrorsLimitsAndOpenStateAreTheWholeTextOnes) {
  const std::string fx_graph = Read("generated/mlp/fx_aot_forward.txt");
  const std::string hlo_module = Read("fixtures/hlo/short_form_sync_tensors.txt");
  // An error in a middle graph or module.
  ExpectSameForEveryCut(fx_graph + fx_graph + "def forward(self, x):\n    y = (x\n" + fx_graph);
  ExpectSameForEveryCut(hlo_module + hlo_module + "HloModule bad\nENTRY e {\n  %a = nonsense\n}\n" +
                        hlo_module);
  // A computation left open before the next module: kept, with a warning
  // only the whole text can word.
  ExpectSameForEveryCut(hlo_module + "HloModule cut\nENTRY e {\n  ROOT %p = f32[] parameter(0)\n" +
                        hlo_module);
  // A banner names the first graph of the next piece.
  ExpectSameForEveryCut(fx_graph + "===== Forward graph 7 =====\nsome log line\n" + fx_graph +
                        fx_graph);
  // The graph limit.
  ParseOptions options;
  options.max_graphs = 2;
  ExpectSameForEveryCut(fx_graph + fx_graph + fx_graph + fx_graph, options);
  ExpectSameForEveryCut(hlo_module + hlo_module + hlo_module, options);
}

TEST(TextParallelTest, AStreamedFxParseHandsOutAWaveAtATime) {
  const std::string text = Concatenate(kFxFiles);
  size_t batches = 0, restarts = 0;
  absl::StatusOr<ParsedText> streamed = testing::ParseDetectedStreamed(
      text, "d.txt", {}, testing::StreamRunner(text, 8, 2), &batches, &restarts);
  ASSERT_EQ(Describe(streamed), Describe(ParseText(text, "d.txt")));
  EXPECT_EQ(restarts, 0u);
  EXPECT_GE(batches, 3u);
}

TEST(TextParallelTest, AStreamedFxParseOfRankTaggedLinesStartsAgain) {
  // Tags on nearly every line are known only once the parse has read them
  // all: the graphs handed out, read with the tags, are dropped, and the
  // text is read again without them. The `def` lines are left untagged, so
  // that the text can be cut there.
  std::string text;
  for (int i = 0; i < 3; ++i) {
    const std::string graph = Read("generated/resnet18/fx_aot_forward.txt");
    size_t start = 0;
    while (start < graph.size()) {
      const size_t end = std::min(graph.find('\n', start), graph.size());
      const std::string line = graph.substr(start, end - start);
      text += (line.rfind("def ", 0) == 0 ? "" : "[1] ") + line + "\n";
      start = end + 1;
    }
  }
  size_t batches = 0, restarts = 0;
  absl::StatusOr<ParsedText> streamed = testing::ParseDetectedStreamed(
      text, "d.txt", {}, testing::StreamRunner(text, 6, 1), &batches, &restarts);
  ASSERT_EQ(Describe(streamed), Describe(ParseText(text, "d.txt")));
  ASSERT_TRUE(streamed.ok());
  EXPECT_EQ(streamed->graphs.size(), 3u);
  EXPECT_EQ(restarts, 1u);
}

TEST(TextParallelTest, ParseTextParallelOnThreads) {
  std::string text;
  for (int i = 0; i < 4; ++i) text += Concatenate(kFxFiles);
  const TaskRunner runner = testing::ThreadRunner(6);
  EXPECT_EQ(Describe(ParseTextParallel(text, "d.txt", {}, runner)),
            Describe(ParseText(text, "d.txt")));
}

}  // namespace
}  // namespace graphdiff
