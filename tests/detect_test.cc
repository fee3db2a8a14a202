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
