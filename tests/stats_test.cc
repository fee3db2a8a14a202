// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/stats.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/testdata.h"
#include "util/json_text.h"

namespace graphdiff {
namespace {

using testing::ReadTestdata;

GraphStats StatsOf(const std::string& file) {
  absl::StatusOr<ParsedText> parsed = ParseText(ReadTestdata(file), file);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok() || parsed->graphs.size() != 1) {
    ADD_FAILURE() << file << ": expected exactly one graph";
    return {};
  }
  return ComputeStats(parsed->graphs[0]);
}

// The measured facts of testdata/resnet18-xla5430/README.md.
TEST(Stats, ResNet18IrFacts) {
  GraphStats aot = StatsOf("resnet18-xla5430/openxla/ir.txt");
  EXPECT_EQ(aot.kind, GraphKind::kIr);
  EXPECT_EQ(aot.nodes, 277u);
  EXPECT_EQ(aot.outputs, 81u);
  EXPECT_EQ(aot.inputs, 103u);
  EXPECT_EQ(aot.ops["xla::device_data"], 103u);
  EXPECT_EQ(aot.ops["prim::Constant"], 48u);
  EXPECT_EQ(aot.ops["aten::expand"], 48u);
  EXPECT_EQ(aot.ops["aten::native_batch_norm"], 20u);
  EXPECT_EQ(aot.constants, 48u);

  GraphStats eager = StatsOf("resnet18-xla5430/torchxla_trace_once/ir.txt");
  EXPECT_EQ(eager.nodes, 197u);
  EXPECT_EQ(eager.outputs, 1u);
  EXPECT_EQ(eager.inputs, 103u);
  EXPECT_EQ(eager.ops["prim::Constant"], 8u);
  EXPECT_EQ(eager.ops["aten::expand"], 8u);
  EXPECT_EQ(eager.ops["aten::native_batch_norm"], 20u);
  // Same parameters on both sides: the inputs weigh the same.
  EXPECT_EQ(aot.parameter_bytes, eager.parameter_bytes);
  EXPECT_GT(aot.parameter_bytes, 11u * 1000 * 1000 * 4);  // ResNet-18: 11.7M params
}

TEST(Stats, ResNet18FxFacts) {
  GraphStats aot = StatsOf("resnet18-xla5430/openxla/fx_graph.txt");
  EXPECT_EQ(aot.kind, GraphKind::kFx);
  EXPECT_EQ(aot.inputs, 103u);
  EXPECT_EQ(aot.outputs, 81u);
  EXPECT_EQ(aot.ops["aten::_native_batch_norm_legit_no_training"], 20u);
  EXPECT_EQ(aot.ops.count("aten::getitem"), 0u);  // projections are not nodes

  GraphStats eager = StatsOf("resnet18-xla5430/torchxla_trace_once/fx_graph.txt");
  EXPECT_EQ(eager.inputs, 1u);
  EXPECT_EQ(eager.outputs, 1u);
  EXPECT_EQ(eager.ops["aten::add_"], 8u);
  EXPECT_EQ(eager.ops["aten::flatten"], 1u);
}

void ExpectGraphFacts(const GraphStats& s, const nlohmann::json& expected) {
  if (expected.contains("nodes")) {
    EXPECT_EQ(s.nodes, expected["nodes"].get<uint64_t>());
  }
  if (expected.contains("inputs")) {
    EXPECT_EQ(s.inputs, expected["inputs"].get<uint64_t>());
  }
  if (expected.contains("outputs")) {
    // A `None` in an FX return is not a value; the parser drops it (with a
    // warning) and Python counted it.
    uint64_t nones = expected.value("output_nones", uint64_t{0});
    EXPECT_EQ(s.outputs, expected["outputs"].get<uint64_t>() - nones);
  }
  if (expected.contains("ops")) {
    for (const auto& [op, n] : expected["ops"].items()) {
      EXPECT_EQ(s.ops.count(op) ? s.ops.at(op) : 0, n.get<uint64_t>()) << op;
    }
  }
}

// Every generated dump against the independent count that
// tools/gen_testdata.py made in Python from the same PyTorch objects.
TEST(Stats, GeneratedDumpsMatchPythonFacts) {
  std::string facts_text = ReadTestdata("generated/facts.json");
  ASSERT_FALSE(facts_text.empty());
  nlohmann::json facts = nlohmann::json::parse(facts_text);
  ASSERT_FALSE(facts.empty());
  size_t graphs_checked = 0, reports_checked = 0;
  for (const auto& [file, expected] : facts.items()) {
    SCOPED_TRACE(file);
    absl::StatusOr<ParsedText> parsed =
        ParseText(ReadTestdata("generated/" + file), file);
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    if (expected.contains("counters")) {  // a metrics report
      ASSERT_EQ(parsed->metrics.size(), 1u);
      const MetricsReport& m = parsed->metrics[0];
      for (const auto& [name, value] : expected["counters"].items()) {
        const Counter* c = m.FindCounter(name);
        ASSERT_NE(c, nullptr) << name;
        EXPECT_EQ(c->value, value.get<int64_t>()) << name;
      }
      for (const auto& [name, samples] : expected["metric_samples"].items()) {
        const Metric* x = m.FindMetric(name);
        ASSERT_NE(x, nullptr) << name;
        EXPECT_EQ(x->total_samples, samples.get<int64_t>()) << name;
      }
      ++reports_checked;
    } else if (expected.contains("records")) {  // a save file
      // Identical consecutive records fold into one graph with a repeat count.
      std::vector<std::pair<nlohmann::json, uint32_t>> folded;
      for (const auto& rec : expected["records"]) {
        if (!folded.empty() &&
            folded.back().first["hash_set_index"] == rec["hash_set_index"]) {
          ++folded.back().second;
        } else {
          folded.emplace_back(rec, 1);
        }
      }
      ASSERT_EQ(parsed->graphs.size(), folded.size());
      for (size_t i = 0; i < folded.size(); ++i) {
        SCOPED_TRACE(i);
        ExpectGraphFacts(ComputeStats(parsed->graphs[i]), folded[i].first);
        EXPECT_EQ(parsed->graphs[i].source.repeat_count, folded[i].second);
        ++graphs_checked;
      }
    } else {
      ASSERT_FALSE(parsed->graphs.empty());
      ExpectGraphFacts(ComputeStats(parsed->graphs[0]), expected);
      ++graphs_checked;
    }
  }
  EXPECT_GT(graphs_checked, 20u);
  EXPECT_GT(reports_checked, 5u);
}

TEST(Stats, JsonHasDocumentedShape) {
  StatsReport report;
  report.graphs.push_back(StatsOf("resnet18-xla5430/openxla/ir.txt"));
  MetricsReport m;
  m.source = "metrics.txt";
  m.counters.push_back(Counter{"xla::clone", 103, 1});
  report.metrics.push_back(m);
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(StatsToJson(report));
  EXPECT_EQ(j["schema_version"], 1);
  ASSERT_EQ(j["graphs"].size(), 1u);
  EXPECT_EQ(j["graphs"][0]["kind"], "ir");
  EXPECT_EQ(j["graphs"][0]["nodes"], 277);
  EXPECT_EQ(j["graphs"][0]["inputs"], 103);
  EXPECT_EQ(j["graphs"][0]["outputs"], 81);
  EXPECT_EQ(j["graphs"][0]["ops"]["aten::expand"], 48);
  EXPECT_EQ(j["metrics"][0]["counters"]["xla::clone"], 103);
}

// The op histogram's columns: names padded to the longest, counts right
// aligned in seven places (wider when they need it), most frequent first;
// a non-ASCII name pads by its display width as fmt counts it.
TEST(Stats, TextOpColumnsLineUp) {
  StatsReport report;
  GraphStats g;
  g.source = "a.txt";
  g.nodes = 12345681;
  g.ops = {{"aten::add", 3}, {"aten::convolution", 12345678}, {"module::caf\xc3\xa9", 1},
           {"zz", 3}};
  report.graphs.push_back(g);
  const std::string text = RenderStatsText(report);
  EXPECT_NE(text.find("  ops:\n"
                      "    aten::convolution  12345678\n"
                      "    aten::add                3\n"
                      "    zz                       3\n"
                      "    module::caf\xc3\xa9             1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(RenderStatsText(report, 1).find("    aten::convolution  12345678\n    ... 3 more ops\n"),
            std::string::npos);
}

// A graph's first lines: where it came from and what kind, its counts,
// its parameter bytes in the largest unit they reach, and its dtypes.
TEST(Stats, TextHeaderLines) {
  GraphStats g;
  g.source = "log.txt";
  g.name = "Forward graph 3";
  g.kind = GraphKind::kFx;
  g.repeat_count = 4;
  g.nodes = 11;
  g.inputs = 5;
  g.outputs = 3;
  g.constants = 1;
  g.multi_output_nodes = 2;
  g.inputs_unknown_size = 2;
  g.dtypes = {{"f32", 13}, {"pred", 1}};
  const std::pair<uint64_t, std::string> sizes[] = {
      {0, "0 B"},
      {1023, "1023 B"},
      {1024, "1.00 KiB"},
      {(uint64_t{5} << 20) + (uint64_t{1} << 19), "5.50 MiB"},
      {uint64_t{3} << 30, "3.00 GiB"},
      {~uint64_t{0}, "17179869184.00 GiB"}};
  for (const auto& [bytes, shown] : sizes) {
    g.parameter_bytes = bytes;
    std::string text;
    AppendGraphStatsText(g, 0, &text);
    EXPECT_EQ(text,
              "log.txt [Forward graph 3] (x4 identical records) (fx graph)\n"
              "  nodes 11  inputs 5  outputs 3  constants 1  multi-output 2\n"
              "  parameter bytes " + shown + " (+2 inputs of unknown size)\n"
              "  dtypes  f32 13  pred 1\n"
              "  ops:\n");
  }
  g = GraphStats();
  g.source = "ir.txt";
  std::string text;
  AppendGraphStatsText(g, 0, &text);
  EXPECT_EQ(text,
            "ir.txt (ir graph)\n"
            "  nodes 0  inputs 0  outputs 0  constants 0  multi-output 0\n"
            "  parameter bytes 0 B\n"
            "  ops:\n");
}

// Three graphs (the first plain; a terminal escape in the second's source
// and an op; bytes that are not UTF-8 in the second's and third's names and
// the third's op), a metrics report and a skipped file.
StatsReport HostileStatsReport() {
  StatsReport report;
  for (int i = 0; i < 3; ++i) {
    GraphStats g;
    g.source = i == 1 ? "evil\x1b]0;title\x07.txt" : "g" + std::to_string(i) + ".txt";
    g.name = i == 1 ? "bad \xff name" : i == 2 ? "caf\xc3\xa9 \xff" : "";
    g.nodes = 10 + i;
    g.ops = {{"aten::add", 3u + i},
             {i == 1 ? "aten::mm\x1b[2J" : i == 2 ? "aten::\xc3" : "aten::mm", 1}};
    g.dtypes = {{"f32", 4}};
    report.graphs.push_back(g);
  }
  MetricsReport m;
  m.source = "metrics.txt";
  m.counters.push_back({"xla::clone", 103});
  report.metrics.push_back(m);
  report.skipped.emplace_back("notes.txt", "not a recognised dump");
  return report;
}

// A report written a graph at a time (AppendGraphStatsText), then the
// metrics and skipped files, is RenderStatsText's: each piece made
// terminal-safe as it is added, as the whole report was.
TEST(Stats, TextAGraphAtATimeIsTheWholeText) {
  const StatsReport whole = HostileStatsReport();
  for (size_t top : {size_t{0}, size_t{1}}) {
    std::string pieces;
    for (const GraphStats& g : whole.graphs) AppendGraphStatsText(g, top, &pieces);
    StatsReport rest = whole;
    rest.graphs.clear();
    pieces += RenderStatsText(rest, top);
    EXPECT_EQ(pieces, RenderStatsText(whole, top));
    EXPECT_EQ(pieces.find('\x1b'), std::string::npos) << pieces;
  }
}

// The text of a graph written straight from it (no GraphStats maps) is the
// text of its ComputeStats: on real dumps of every kind, with and without a
// cap on the ops, and on a graph whose ops include an empty one and a
// literal "?" (two ids, one line), a name that is not ASCII and a dtype value
// past the known ones.
// So is its JSON (StatsJsonWriter::AddGraph), under a plain source name and
// one that JSON must escape.
TEST(Stats, TextOfAGraphIsTheTextOfItsStats) {
  auto expect_same = [](const Graph& g, const std::string& what) {
    for (size_t top : {size_t{0}, size_t{2}}) {
      GraphStats s = ComputeStats(g);
      s.source = "shown.txt";
      std::string from_stats = "before\n", from_graph = "before\n";
      AppendGraphStatsText(s, top, &from_stats);
      AppendGraphStatsText(g, "shown.txt", top, &from_graph);
      EXPECT_EQ(from_graph, from_stats) << what << " top " << top;
    }
    for (const std::string source : {"shown.txt", "shown \"q\".txt", "shown \xff.txt"}) {
      GraphStats s = ComputeStats(g);
      s.source = source;
      std::string from_stats, from_graph, from_text, made;
      StatsJsonWriter by_stats(&from_stats), by_graph(&from_graph), by_text(&from_text);
      bool escaped = false;
      for (int twice = 0; twice < 2; ++twice) {
        by_stats.AddGraph(s);
        by_graph.AddGraph(g, source);
        // Made apart and added later (`stats` while a dump loads).
        StatsJsonWriter::AppendGraphText(g, source, &made, &escaped);
      }
      by_text.AddGraphText(made.substr(0, made.size() / 2), 1, escaped);
      by_text.AddGraphText(made.substr(made.size() / 2), 1, false);
      by_stats.Finish({});
      by_graph.Finish({});
      by_text.Finish({});
      EXPECT_EQ(from_graph, from_stats) << what << " from " << source;
      EXPECT_EQ(from_text, from_stats) << what << " from " << source;
    }
  };
  for (const char* file :
       {"resnet18-xla5430/openxla/ir.txt", "fixtures/hlo/two_modules.txt",
        "generated/tiny_gpt/fx_aot_forward.txt", "generated/tiny_gpt/fx_symbolic_trace.txt",
        "generated/multi_output/fx_make_fx.txt"}) {
    if (!std::filesystem::exists(testing::TestdataPath(file))) {
      ADD_FAILURE() << "missing testdata " << file;
      continue;
    }
    absl::StatusOr<ParsedText> parsed = ParseText(ReadTestdata(file), file);
    ASSERT_TRUE(parsed.ok()) << file << ": " << parsed.status();
    ASSERT_FALSE(parsed->graphs.empty()) << file;
    for (const Graph& g : parsed->graphs) expect_same(g, file);
  }
  Graph g;
  g.kind = GraphKind::kFx;
  g.name = "hand";
  const char* ops[] = {"", "?", "aten::add", "aten::\xc3\xa9t\xc3\xa9", "aten::add", "?", ""};
  for (size_t i = 0; i < std::size(ops); ++i) {
    Node n;
    n.name = g.intern("n" + std::to_string(i));
    n.op = g.intern(ops[i]);
    n.kind = i == 0 ? NodeKind::kInput : NodeKind::kOp;
    g.nodes.push_back(n);
  }
  g.inputs.push_back(0);
  TensorType known, past;
  known.dtype = DType::kF32;
  past.dtype = static_cast<DType>(static_cast<int>(DType::kToken) + 7);
  g.SetResults(g.nodes[1], std::vector<TensorType>{known, past});
  g.SetResults(g.nodes[2], std::vector<TensorType>{known});
  expect_same(g, "hand-built graph");
  const GraphStats s = ComputeStats(g);
  EXPECT_EQ(s.ops.at("?"), 4u);  // the empty op and the literal one
  EXPECT_EQ(s.ops.at("aten::add"), 2u);
  EXPECT_EQ(s.dtypes.at("f32"), 2u);
}

// The JSON writer prints a graph whose strings are valid UTF-8 itself, not
// through nlohmann: its bytes must be those DumpJson gives the document
// built with nlohmann, with histograms empty and not, numbers past 32 bits,
// and strings that need escaping (quotes, backslashes, control characters,
// DEL) or hold UTF-8.
TEST(Stats, JsonWrittenDirectlyIsDumpJsonOfTheDocument) {
  StatsReport report;
  nlohmann::ordered_json graphs = nlohmann::ordered_json::array();
  for (int i = 0; i < 3; ++i) {
    GraphStats g;
    g.source = "dir/save " + std::to_string(i) + ".txt";
    g.name = i == 0 ? "" : i == 1 ? "q\"\\ \x01\x1f\x7f caf\xc3\xa9\n" : "graph 2";
    g.kind = i == 2 ? GraphKind::kFx : GraphKind::kIr;
    g.record_index = 7u * i;
    g.repeat_count = 1 + i;
    g.nodes = 10 + i;
    g.inputs = 3;
    g.outputs = 2;
    g.constants = i;
    g.multi_output_nodes = 1;
    g.parameter_bytes = (uint64_t{1} << 40) + i;
    g.inputs_unknown_size = 5;
    if (i > 0) g.ops = {{"aten::add", 3}, {"module::layer1.0 ~x", 1u + i}, {"a\"\t\x7f", 9}};
    if (i == 2) g.dtypes = {{"f32", 4}, {"s64", 2}};
    report.graphs.push_back(g);
    // The schema's fields in its order (docs/json-schema.md).
    nlohmann::ordered_json j = {{"source", g.source},
                                {"name", g.name},
                                {"kind", std::string(GraphKindName(g.kind))}};
    const std::pair<const char*, uint64_t> numbers[] = {
        {"record_index", g.record_index}, {"repeat_count", g.repeat_count},
        {"nodes", g.nodes}, {"inputs", g.inputs}, {"outputs", g.outputs},
        {"constants", g.constants}, {"multi_output_nodes", g.multi_output_nodes},
        {"parameter_bytes", g.parameter_bytes},
        {"inputs_unknown_size", g.inputs_unknown_size}};
    for (const auto& [key, value] : numbers) j[key] = value;
    for (const auto* histogram : {&g.ops, &g.dtypes}) {
      nlohmann::ordered_json& object = j[histogram == &g.ops ? "ops" : "dtypes"];
      object = nlohmann::ordered_json::object();
      for (const auto& [name, n] : *histogram) object[name] = n;
    }
    graphs.push_back(j);
  }
  nlohmann::ordered_json doc;
  doc["schema_version"] = 1;
  doc["graphs"] = graphs;
  doc["metrics"] = nlohmann::ordered_json::array();
  doc["skipped"] = nlohmann::ordered_json::array();
  EXPECT_EQ(StatsToJson(report), DumpJson(doc));
}

// Op lines: most frequent first, ties by name, for a handful of ops and for
// more than the short sort takes; long names and sources overflow no
// buffer.
TEST(Stats, OpLinesByCountThenName) {
  for (size_t n : {size_t{5}, size_t{40}}) {
    GraphStats g;
    g.source = std::string(700, 's');
    g.name = std::string(600, 'n');
    std::vector<std::pair<uint64_t, std::string>> expected;
    for (size_t i = 0; i < n; ++i) {
      const std::string op = "op" + std::string(i < 10 ? "0" : "") + std::to_string(i);
      const uint64_t count = (i * 7) % 4;
      g.ops[op] = count;
      expected.emplace_back(count, op);
    }
    std::stable_sort(expected.begin(), expected.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    std::string text;
    AppendGraphStatsText(g, 0, &text);
    EXPECT_EQ(text.rfind(g.source + " [" + g.name + "] (ir graph)\n", 0), 0u);
    size_t at = text.find("  ops:\n");
    ASSERT_NE(at, std::string::npos);
    for (const auto& [count, op] : expected) {
      const size_t line = text.find("    " + op + " ", at);
      ASSERT_NE(line, std::string::npos) << op;
      EXPECT_GT(line, at) << op << " out of order among " << n;
      at = line;
    }
  }
}

// Ops sort by name byte for byte however long a prefix they share: module
// paths by the thousand, names that are prefixes of others, that end inside
// or just past an eight-byte chunk, that hold NUL and high bytes, runs of
// ties both short and long, and names that nest sorts past their limit.
// ComputeStats' map holds them in std::string's order with the counts of
// equal names (an empty op and "?") added up; the text lists them by count,
// then by that order.
TEST(Stats, OpsSortByNamePastLongSharedPrefixes) {
  std::vector<std::string> names = {"", "?", "m", "module::", "module::\x01", "module::a"};
  const std::string kShared = "module::features_c653.";
  for (int i = 0; i < 3000; ++i) {
    const std::string digits = std::to_string(i * 7919 % 3001);
    names.push_back(kShared + digits + ".conv." + std::to_string(i % 3));
    names.push_back(kShared + digits);
    names.push_back(kShared.substr(0, 8 + i % 16) + digits);
    names.push_back(std::string("module::") + std::string(1, static_cast<char>(i % 256)) +
                    std::string(i % 9, '\0') + "x");
  }
  // Names that part from the rest one chunk later each: more sorts deep
  // than SortFrom nests.
  for (int k = 59; k >= 0; --k) {
    names.push_back("module::" + std::string(8 * k, 'a') + "b" + std::string(9, 'c'));
  }
  Graph g;
  std::map<std::string, uint64_t> want;
  for (size_t i = 0; i < names.size(); ++i) {
    Node& n = g.nodes.emplace_back();
    n.name = g.intern("n" + std::to_string(i));
    n.op = g.intern(names[i]);
    ++want[names[i].empty() ? "?" : names[i]];
    if (i % 5 == 0) {  // some ops twice, so counts differ
      Node& again = g.nodes.emplace_back();
      again.name = g.intern("again" + std::to_string(i));
      again.op = g.intern(names[i]);
      ++want[names[i].empty() ? "?" : names[i]];
    }
  }
  const GraphStats s = ComputeStats(g);
  EXPECT_EQ(s.ops, want);
  std::vector<std::pair<std::string, uint64_t>> by_count(want.begin(), want.end());
  std::stable_sort(by_count.begin(), by_count.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  AppendGraphStatsText(g, "f", 0, &text);
  size_t at = text.find("  ops:\n");
  ASSERT_NE(at, std::string::npos);
  // The text makes names terminal safe; the printable ones are checked in
  // order.
  size_t checked = 0;
  for (const auto& [op, count] : by_count) {
    if (!std::all_of(op.begin(), op.end(), [](char c) { return c >= 0x20 && c < 0x7f; })) {
      continue;
    }
    const size_t line = text.find("    " + op + " ", at);
    ASSERT_NE(line, std::string::npos) << op;
    ASSERT_GT(line, at) << op;
    at = line;
    ++checked;
  }
  EXPECT_GT(checked, 8000u);
}

// A big graph's text handed out as it is made is its text made at once:
// with and without a cap on the ops, with ops that are not ASCII or hold
// control bytes (made terminal-safe) between runs of plain ones, and more
// than a hand-out's worth of lines, each piece ending at a line's end.
TEST(Stats, StreamedTextIsTheTextMadeAtOnce) {
  Graph g;
  for (int i = 0; i < 120000; ++i) {
    Node& n = g.nodes.emplace_back();
    n.name = g.intern("n" + std::to_string(i));
    std::string op = "module::features_c" + std::to_string(i % 50021) + ".block.0.0";
    if (i % 7919 == 0) op += "\xce\xbb";   // not ASCII
    if (i % 12007 == 0) op += "\x1b[31m";  // an escape sequence
    n.op = g.intern(op);
  }
  for (size_t top : {size_t{0}, size_t{40000}}) {
    std::string whole = "before\n";
    AppendGraphStatsText(g, "f.py", top, &whole);
    std::string handed, out = "before\n";
    size_t pieces = 0;
    StreamGraphStatsText(g, "f.py", top, &out, [&](std::string* made) {
      ASSERT_FALSE(made->empty());
      EXPECT_EQ(made->back(), '\n');
      handed += *made;
      made->clear();
      ++pieces;
    });
    EXPECT_GT(pieces, 0u) << top;
    EXPECT_EQ(handed + out, whole) << top;
    EXPECT_EQ(whole.find('\x1b'), std::string::npos);
  }
}

// StatsJsonWriter's pieces, however they are handed out, are StatsToJson's
// bytes: with no graph, with one plain graph, and with strings that are not
// valid UTF-8 (escaped, and said so once at the top level), with and without
// metrics and skipped files.
TEST(Stats, JsonAGraphAtATimeIsTheWholeJson) {
  const StatsReport whole = HostileStatsReport();
  auto in_pieces = [](const StatsReport& report) {
    std::string all, piece;
    StatsJsonWriter writer(&piece);
    for (const GraphStats& g : report.graphs) {
      writer.AddGraph(g);
      all += piece;
      piece.clear();
    }
    StatsReport rest = report;
    rest.graphs.clear();
    writer.Finish(rest);
    return all + piece;
  };
  for (size_t graphs : {size_t{0}, size_t{1}, size_t{3}}) {
    StatsReport report = whole;
    report.graphs.resize(graphs);
    const std::string json = StatsToJson(report);
    EXPECT_EQ(in_pieces(report), json);
    nlohmann::json j = nlohmann::json::parse(json);
    EXPECT_EQ(j["graphs"].size(), graphs);
    EXPECT_EQ(j["metrics"][0]["counters"]["xla::clone"], 103);
    EXPECT_EQ(j.contains("escaped_invalid_utf8"), graphs > 1) << json;
    if (graphs == 3) {
      EXPECT_EQ(j["graphs"][1]["name"], "bad \\xFF name");
      EXPECT_EQ(j["graphs"][1]["source"], "evil\x1b]0;title\x07.txt");
      EXPECT_TRUE(j["graphs"][2]["ops"].contains("aten::\\xC3"));
    }
  }
  StatsReport nothing;
  EXPECT_EQ(in_pieces(nothing), StatsToJson(nothing));
  EXPECT_EQ(StatsToJson(nothing),
            "{\n  \"schema_version\": 1,\n  \"graphs\": [],\n  \"metrics\": [],\n"
            "  \"skipped\": []\n}\n");
}

}  // namespace
}  // namespace graphdiff
