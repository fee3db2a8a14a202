// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Format detection, read once per file: what Detect reports, and that a log
// holding an FX graph beside its IR yields both graphs whether the loader
// passes its detection on (ParseDetected) or ParseText detects again.
#include <string>
#include <utility>
#include <vector>

#include "graphdiff/dump.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "parse/parse_parallel.h"

namespace graphdiff {
namespace {

const char kIr[] =
    "IR {\n"
    "  %0 = f32[2] xla::device_data(), device=CPU:0\n"
    "  %1 = f32[2] aten::relu(%0), ROOT=0\n"
    "}\n";

const char kFx[] =
    "def forward(self, x):\n"
    "    relu = torch.relu(x);  x = None\n"
    "    return (relu,)\n";

// IR nodes enough to push the text past the 256 KiB detection reads.
std::string LongIr(size_t nodes) {
  std::string out = "IR {\n  %0 = f32[2] xla::device_data(), device=CPU:0\n";
  for (size_t i = 1; i < nodes; ++i) {
    out += "  %" + std::to_string(i) + " = f32[2] aten::relu(%" + std::to_string(i - 1) + ")\n";
  }
  out += "  %" + std::to_string(nodes) + " = f32[2] aten::relu(%" + std::to_string(nodes - 1) +
         "), ROOT=0\n}\n";
  return out;
}

std::vector<GraphKind> Kinds(const std::vector<Graph>& graphs) {
  std::vector<GraphKind> kinds;
  for (const Graph& g : graphs) kinds.push_back(g.kind);
  return kinds;
}

TEST(Detect, ReportsFormatForwardAndWhether) {
  const std::string log = std::string(kFx) + kIr;
  Detection d = Detect(log);
  EXPECT_EQ(d.format, DumpFormat::kIrText);
  EXPECT_TRUE(d.fx_forward);
  EXPECT_TRUE(d.whole);
  EXPECT_EQ(DetectFormat(log), DumpFormat::kIrText);

  d = Detect(kIr);
  EXPECT_FALSE(d.fx_forward);
  EXPECT_TRUE(d.whole);

  const std::string long_ir = LongIr(20000);
  ASSERT_GT(long_ir.size(), 256u * 1024);
  d = Detect(long_ir);
  EXPECT_EQ(d.format, DumpFormat::kIrText);
  EXPECT_FALSE(d.whole);

  EXPECT_FALSE(d.binary);
  EXPECT_EQ(Detect("").format, DumpFormat::kUnknown);
  d = Detect(std::string("\0\1\2", 3));
  EXPECT_EQ(d.format, DumpFormat::kUnknown);
  EXPECT_TRUE(d.binary);
  EXPECT_FALSE(Detect("hello\n").binary);
}

// A TORCH_TRACE log of a big model records every input before its first
// graph, which then lies past the head detection reads.
// Binary is judged sixteen bytes at a time: it must agree with the rule read
// byte by byte (a NUL in the first 8 KiB, or more than one byte in twenty a
// control character other than a line break, tab or form feed) wherever
// the bytes sit, at the threshold, in the tail past the last whole step,
// and past 8 KiB where nothing counts.
TEST(Detect, BinaryAgreesWithTheRuleByteByByte) {
  auto by_bytes = [](std::string_view text) {
    const std::string_view h = text.substr(0, 8192);
    size_t control = 0;
    for (char c : h) {
      const unsigned char u = static_cast<unsigned char>(c);
      if (u == 0) return true;
      if (u < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f') ++control;
    }
    return control * 20 > h.size();
  };
  uint64_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(seed >> 33);
  };
  const char odd[] = {'\x01', '\x1b', '\x1f', '\x7f', '\x80', '\xff', '\n', '\r', '\t', '\f',
                      '\x0b', ' ', '\0'};
  int binary = 0, text = 0;
  for (size_t size : {size_t{1}, size_t{15}, size_t{16}, size_t{17}, size_t{200}, size_t{8191},
                      size_t{8192}, size_t{8200}, size_t{20000}}) {
    for (uint32_t per_mille : {0u, 10u, 45u, 50u, 55u, 120u}) {
      for (int round = 0; round < 4; ++round) {
        std::string s(size, 'a');
        for (char& c : s) {
          if (next() % 1000 < per_mille) c = odd[next() % (sizeof(odd) - (round == 0 ? 0 : 1))];
        }
        const bool want = by_bytes(s);
        EXPECT_EQ(Detect(s).binary, want) << "size " << size << " per mille " << per_mille;
        (want ? binary : text) += 1;
      }
    }
  }
  EXPECT_GT(binary, 20);  // both answers were asked for
  EXPECT_GT(text, 20);
  // A NUL past the first 8 KiB counts for nothing.
  std::string late(9000, 'a');
  late[8192] = '\0';
  EXPECT_FALSE(Detect(late).binary);
  late[8191] = '\0';
  EXPECT_TRUE(Detect(late).binary);
}

// "def forward(" is searched across the head at once: a line holds it
// wherever it sits on the line, with any line ending, once or twice on a
// line, and a line that starts as another format's does is that format's.
TEST(Detect, ForwardIsFoundOnTheLineThatHoldsIt) {
  EXPECT_EQ(Detect("x = 1\r\n  # def forward(self):\r\nreturn\r\n").format, DumpFormat::kFxCode);
  EXPECT_TRUE(Detect("a\nb def forward(x) def forward(y)\n").fx_forward);
  EXPECT_FALSE(Detect("def forward\n(self)\ndef  forward(\n").fx_forward);
  EXPECT_TRUE(Detect("def forward(").fx_forward);  // no line break at the end
  // Metrics lines that mention it are metrics, as before the search moved.
  const Detection metrics = Detect("Metric: def forward(\n  TotalSamples: 1\n");
  EXPECT_EQ(metrics.format, DumpFormat::kMetrics);
  EXPECT_TRUE(metrics.fx_forward);
  const std::string ir_then_fx = std::string(kIr) + "\n" + kFx;
  const Detection both = Detect(ir_then_fx);
  EXPECT_EQ(both.format, DumpFormat::kIrText);
  EXPECT_TRUE(both.fx_forward);
  EXPECT_FALSE(Detect(kIr).fx_forward);
}

TEST(Detect, TorchTraceLogWithALongPreamble) {
  std::string preamble;
  for (int i = 0; preamble.size() <= 300 * 1024; ++i) {
    preamble += "V1205 10:00:00.000100 4242 torch/_subclasses/meta_utils.py:453] [0/0] "
                "{\"describe_tensor\": {\"id\": " + std::to_string(i) +
                ", \"ndim\": 2, \"dtype\": \"torch.float32\", \"size\": [4096, 4096], "
                "\"is_leaf\": true, \"stride\": [4096, 1]}, \"frame_id\": 0, "
                "\"frame_compile_id\": 0, \"attempt\": 0}\n";
  }
  const std::string log =
      preamble +
      "V1205 10:00:01.000000 4242 torch/_dynamo/output_graph.py:1345] [0/0] "
      "{\"dynamo_output_graph\": {}, \"frame_id\": 0, \"frame_compile_id\": 0, "
      "\"attempt\": 0, \"has_payload\": \"5d41402abc4b2a76b9719d911017c592\"}\n"
      "\tclass GraphModule(torch.nn.Module):\n"
      "\t    def forward(self, L_x_: \"f32[4096, 4096][4096, 1]cpu\"):\n"
      "\t        relu: \"f32[4096, 4096][4096, 1]cpu\" = torch.relu(L_x_)\n"
      "\t        return (relu,)\n";
  Detection d = Detect(log);
  EXPECT_FALSE(d.whole);
  EXPECT_EQ(d.format, DumpFormat::kFxCode);
  absl::StatusOr<ParsedText> parsed = ParseText(log, "trace.log");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_EQ(parsed->graphs.size(), 1u);
  EXPECT_EQ(parsed->graphs[0].name, "dynamo_output_graph [0/0]");
  // Read whole, a trace with no graph is no dump; nor is a long JSON log
  // whose records belong to no compile.
  EXPECT_EQ(Detect(preamble.substr(0, preamble.find('\n') + 1)).format, DumpFormat::kUnknown);
  std::string json_log;
  while (json_log.size() <= 300 * 1024) json_log += "{\"level\": \"info\", \"step\": 1}\n";
  d = Detect(json_log);
  EXPECT_FALSE(d.whole);
  EXPECT_EQ(d.format, DumpFormat::kUnknown);
}

// The FX graph of an IR log comes out beside the IR graph, in file order,
// from a short log (detection read it all) and from a long one (the parser
// looks again), through ParseText and through the loader.
TEST(Detect, FxGraphBesideIrComesOutEveryWay) {
  const std::vector<std::string> logs = {std::string(kFx) + kIr,
                                         std::string(kFx) + LongIr(20000)};
  for (const std::string& log : logs) {
    absl::StatusOr<ParsedText> parsed = ParseText(log, "dynamo.log");
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    EXPECT_EQ(parsed->format, DumpFormat::kIrText);
    EXPECT_EQ(Kinds(parsed->graphs), (std::vector<GraphKind>{GraphKind::kFx, GraphKind::kIr}))
        << log.size() << " bytes";

    absl::StatusOr<ParsedText> detected =
        ParseDetected(log, Detect(log), "dynamo.log", ParseOptions(), nullptr);
    ASSERT_TRUE(detected.ok()) << detected.status();
    EXPECT_EQ(Kinds(detected->graphs), Kinds(parsed->graphs));

    absl::StatusOr<Dump> dump = LoadDumpFromMemory("run", {{"dynamo.log", log}});
    ASSERT_TRUE(dump.ok()) << dump.status();
    ASSERT_EQ(dump->files.size(), 1u);
    EXPECT_EQ(Kinds(dump->files[0].graphs), Kinds(parsed->graphs));
  }
  // An IR log without FX code holds the IR graph alone.
  absl::StatusOr<ParsedText> ir = ParseText(kIr, "ir.txt");
  ASSERT_TRUE(ir.ok()) << ir.status();
  EXPECT_EQ(Kinds(ir->graphs), std::vector<GraphKind>{GraphKind::kIr});
}

}  // namespace
}  // namespace graphdiff
