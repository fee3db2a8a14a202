// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// `graphdiff stats` makes the report of a large file's graphs as the load
// hands them out (StatsTaker) and holds it as each graph's own first fields
// and a shared copy of the rest. The report written must be the report of
// all the graphs at once, byte for byte, however the graphs repeat one
// another and whatever their names hold.
#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "graphdiff/dump.h"
#include "graphdiff/parse.h"
#include "graphdiff/stats.h"
#include "gtest/gtest.h"
#include "output_stream.h"
#include "stats_taker.h"
#include "testing/cli.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

// Graphs unlike one another, from testdata.
std::vector<Graph> DistinctGraphs() {
  std::vector<Graph> out;
  for (const char* name :
       {"generated/mlp/fx_aot_backward.txt", "generated/mlp/fx_symbolic_trace.txt",
        "generated/transformer_block/fx_aot_forward.txt", "generated/mlp/ir_eager.txt",
        "generated/transformer_block/ltc_save.txt"}) {
    absl::StatusOr<ParsedText> parsed = ParseText(testing::ReadTestdata(name), name);
    EXPECT_TRUE(parsed.ok()) << name << ": " << parsed.status();
    if (!parsed.ok()) continue;
    for (Graph& g : parsed->graphs) out.push_back(std::move(g));
  }
  return out;
}

// The report StatsTaker writes of `graphs`, handed out in batches of the
// given sizes (the last one marked last), after `voided` graphs taken and
// then voided by a restart.
std::string TakenReport(const std::vector<Graph>& graphs, const std::vector<size_t>& batches,
                        size_t voided, bool json, size_t* held) {
  cli::StatsTaker taker("dump", json, /*top=*/0);
  // The load's threads, as LoadDump lends them: here, in reverse order.
  const TakenGraphs::Runner run = [](size_t n, const std::function<void(size_t)>& task) {
    for (size_t i = n; i-- > 0;) task(i);
  };
  auto take = [&](size_t begin, size_t end, bool last) {
    std::vector<Graph> batch(graphs.begin() + begin, graphs.begin() + end);
    TakenGraphs taken{"f.txt", "dump/f.txt", &batch, /*restart=*/false, last, run};
    taker.Take(taken);
  };
  if (voided > 0) {
    take(0, voided, false);
    TakenGraphs restart{"f.txt", "dump/f.txt", nullptr, /*restart=*/true, false, run};
    taker.Take(restart);
  }
  size_t begin = 0;
  for (size_t i = 0; i < batches.size(); ++i) {
    take(begin, begin + batches[i], i + 1 == batches.size());
    begin += batches[i];
  }
  EXPECT_EQ(begin, graphs.size());
  EXPECT_EQ(taker.graphs(), graphs.size());
  *held = taker.held_bytes();
  Dump dump;
  dump.root = "dump";
  DumpFile file;
  file.path = "f.txt";
  file.source = "dump/f.txt";
  dump.files.push_back(file);
  const std::string path = ::testing::TempDir() + "/stats_taker_report.txt";
  absl::StatusOr<cli::OutputStream> out = cli::OutputStream::Open(path);
  EXPECT_TRUE(out.ok());
  if (!out.ok()) return "";
  std::string text;
  std::optional<StatsJsonWriter> writer;
  if (json) writer.emplace(&text);
  EXPECT_TRUE(taker.Write(dump, writer ? &*writer : nullptr, &text, &*out).ok());
  if (writer) {
    writer->Finish(StatsReport());
  } else {
    text += RenderStatsText(StatsReport());
  }
  EXPECT_TRUE(out->Write(text).ok());
  EXPECT_TRUE(out->Close().ok());
  return testing::Slurp(path);
}

TEST(StatsTaker, AReportTakenInPiecesIsTheWholeReport) {
  const std::vector<Graph> distinct = DistinctGraphs();
  ASSERT_GE(distinct.size(), 5u);
  // A log's graphs repeat a few graphs under their own names, some of which
  // look like the fields the report splits at, break a line or are not
  // UTF-8.
  const std::vector<std::string> odd_names = {
      "\"repeat_count\": 7", "two\nlines", "bad \xff byte", "", "[graph 3] (fx graph)"};
  std::vector<Graph> graphs;
  for (size_t i = 0; i < 3000; ++i) {
    Graph g = distinct[(i * 7) % distinct.size()];
    g.name = i % 97 < odd_names.size() ? odd_names[i % 97] : "graph " + std::to_string(i);
    g.source.record_index = static_cast<uint32_t>(i);
    g.source.repeat_count = static_cast<uint32_t>(1 + i % 3);
    graphs.push_back(std::move(g));
  }
  StatsReport whole;
  const std::string label = cli::DisplayPath("dump", "f.txt");
  for (const Graph& g : graphs) {
    GraphStats st = ComputeStats(g);
    st.source = label;
    whole.graphs.push_back(std::move(st));
  }
  for (const bool json : {false, true}) {
    SCOPED_TRACE(json ? "json" : "text");
    const std::string expected = json ? StatsToJson(whole) : RenderStatsText(whole);
    for (const std::vector<size_t>& batches :
         {std::vector<size_t>{3000}, std::vector<size_t>{1, 999, 2000},
          std::vector<size_t>{700, 700, 700, 900}}) {
      for (const size_t voided : {size_t{0}, size_t{50}}) {
        size_t held = 0;
        const std::string report = TakenReport(graphs, batches, voided, json, &held);
        ASSERT_TRUE(report == expected)
            << batches.size() << " batches, " << voided << " voided: differs at byte "
            << std::mismatch(report.begin(), report.end(), expected.begin(), expected.end())
                       .first -
                   report.begin();
        // Held: each graph's own fields, and what the graphs share once.
        EXPECT_LT(held, expected.size() / 4) << batches.size() << " batches";
      }
    }
  }
}

}  // namespace
}  // namespace graphdiff
