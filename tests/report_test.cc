// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Reports: golden files for the three formats on the ResNet-18 case
// (GRAPHDIFF_UPDATE_GOLDENS=1 rewrites them), the JSON round trip, and the
// text and Markdown rules (width, caps, colour, escaping).
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "gmock/gmock.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/report.h"
#include "graphdiff/visual.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "report/formats.h"
#include "testing/testdata.h"
#include "util/json_text.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

DiffResult ResNet() {
  absl::StatusOr<Dump> l = LoadDump(testing::TestdataPath("resnet18-xla5430/torchxla_trace_once"));
  absl::StatusOr<Dump> r = LoadDump(testing::TestdataPath("resnet18-xla5430/openxla"));
  EXPECT_TRUE(l.ok()) << l.status();
  EXPECT_TRUE(r.ok()) << r.status();
  if (!l.ok() || !r.ok()) return {};
  absl::StatusOr<DiffResult> d = DiffDumps(*l, *r);
  EXPECT_TRUE(d.ok()) << d.status();
  if (!d.ok()) return {};
  // LoadDump keeps the root as named (absolute here); goldens name it as a
  // user in testdata/ would.
  d->left_root = "resnet18-xla5430/torchxla_trace_once";
  d->right_root = "resnet18-xla5430/openxla";
  return *std::move(d);
}

void CheckGolden(const std::string& name, const std::string& actual) {
  std::string path = testing::TestdataPath("golden/" + name);
  const char* update = std::getenv("GRAPHDIFF_UPDATE_GOLDENS");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream f(path, std::ios::binary);
    f << actual;
    ASSERT_TRUE(f.good()) << "cannot write " << path;
    return;
  }
  std::string expected = testing::ReadTestdata("golden/" + name);
  EXPECT_EQ(actual, expected) << "golden " << name
                              << " differs; rerun with GRAPHDIFF_UPDATE_GOLDENS=1 if the "
                                 "change is intended";
}

TEST(ReportGolden, ResNet18Text) {
  std::string text = RenderDiff(ResNet(), ReportFormat::kText);
  CheckGolden("resnet18.txt", text);
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) EXPECT_LE(line.size(), 80u) << line;
  EXPECT_THAT(text, Not(HasSubstr(GRAPHDIFF_TESTDATA_DIR)));
}

TEST(ReportGolden, ResNet18TextVerbose) {
  RenderOptions o;
  o.verbose = true;
  std::string text = RenderDiff(ResNet(), ReportFormat::kText, o);
  CheckGolden("resnet18-verbose.txt", text);
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) EXPECT_LE(line.size(), 80u) << line;
}

TEST(ReportGolden, ResNet18Json) {
  std::string json = RenderDiff(ResNet(), ReportFormat::kJson);
  CheckGolden("resnet18.json", json);
  EXPECT_THAT(json, Not(HasSubstr(GRAPHDIFF_TESTDATA_DIR)));
}

TEST(ReportGolden, ResNet18Markdown) {
  std::string md = RenderDiff(ResNet(), ReportFormat::kMarkdown);
  CheckGolden("resnet18.md", md);
  EXPECT_THAT(md, Not(HasSubstr(GRAPHDIFF_TESTDATA_DIR)));
}

void ExpectSameFinding(const Finding& a, const Finding& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.severity, b.severity);
  EXPECT_EQ(a.title, b.title);
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.graph, b.graph);
  EXPECT_EQ(a.explanation, b.explanation);
  EXPECT_EQ(a.hint, b.hint);
  EXPECT_EQ(a.related, b.related);
  EXPECT_EQ(a.evidence_omitted, b.evidence_omitted);
  ASSERT_EQ(a.evidence.size(), b.evidence.size());
  for (size_t i = 0; i < a.evidence.size(); ++i) {
    EXPECT_EQ(a.evidence[i].side, b.evidence[i].side);
    EXPECT_EQ(a.evidence[i].source, b.evidence[i].source);
    EXPECT_EQ(a.evidence[i].line, b.evidence[i].line);
    EXPECT_EQ(a.evidence[i].node, b.evidence[i].node);
    EXPECT_EQ(a.evidence[i].op, b.evidence[i].op);
    EXPECT_EQ(a.evidence[i].note, b.evidence[i].note);
  }
}

TEST(ReportJson, RoundTripKeepsStructsAndSchemaInStep) {
  DiffResult r = ResNet();
  ASSERT_FALSE(r.pairs.empty());
  std::string j = DiffResultToJson(r);
  absl::StatusOr<DiffResult> back = DiffResultFromJson(j);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(DiffResultToJson(*back), j);
  EXPECT_EQ(back->left_root, r.left_root);
  EXPECT_EQ(back->identical(), r.identical());
  ASSERT_EQ(back->pairs.size(), r.pairs.size());
  for (size_t i = 0; i < r.pairs.size(); ++i) {
    const GraphPairDiff& a = r.pairs[i];
    const GraphPairDiff& b = back->pairs[i];
    EXPECT_EQ(a.left_source, b.left_source);
    EXPECT_EQ(a.how, b.how);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.right_nodes, b.right_nodes);
    EXPECT_EQ(a.op_delta, b.op_delta);
    EXPECT_EQ(a.right_only, b.right_only);
    EXPECT_EQ(a.right_only_outputs, b.right_only_outputs);
    ASSERT_EQ(a.pairs.size(), b.pairs.size());
    for (size_t k = 0; k < a.pairs.size(); ++k) {
      EXPECT_EQ(a.pairs[k].left, b.pairs[k].left);
      EXPECT_EQ(a.pairs[k].reasons, b.pairs[k].reasons);
      EXPECT_EQ(a.pairs[k].matcher, b.pairs[k].matcher);
      EXPECT_EQ(a.pairs[k].detail, b.pairs[k].detail);
    }
    EXPECT_TRUE(b.alignment.pairs.empty());  // documented: not serialised
  }
  ASSERT_EQ(back->metrics.size(), r.metrics.size());
  for (size_t i = 0; i < r.metrics.size(); ++i) {
    ASSERT_EQ(back->metrics[i].counters.size(), r.metrics[i].counters.size());
    for (size_t k = 0; k < r.metrics[i].counters.size(); ++k) {
      EXPECT_EQ(back->metrics[i].counters[k].left, r.metrics[i].counters[k].left);
      EXPECT_EQ(back->metrics[i].counters[k].right, r.metrics[i].counters[k].right);
    }
  }
  ASSERT_EQ(back->findings.size(), r.findings.size());
  for (size_t i = 0; i < r.findings.size(); ++i) ExpectSameFinding(r.findings[i], back->findings[i]);
}

// The pairs and their node rows are written straight into the text, not
// built as JSON values; the text must be what the value tree dumps, byte for
// byte: with no pairs, pairs that have no rows, op deltas or one-sided
// nodes and pairs that have them, reasons, and strings that need escaping
// (quotes, backslashes, control characters, UTF-8, a name that looks like
// the key the rows are spliced at). Rows that are not valid UTF-8 go
// through the tree, which escapes them.
TEST(ReportJson, RowsWrittenDirectlyAreWhatTheTreeDumps) {
  DiffResult r = ResNet();
  ASSERT_FALSE(r.pairs.empty());
  const std::string tree = DumpJson(DiffResultToJsonValue(r));
  EXPECT_EQ(DiffResultToJson(r), tree);
  GraphPairDiff odd = r.pairs.front();
  odd.left_graph = "\n      \"pairs\": []";
  PairRow row;
  row.left = "a\"b\\c\n\t\x01\x1f\x7f";
  row.right = "\xce\xbb \xe2\x86\x92 \"pairs\": []";
  row.reasons = odd.pairs.empty() ? 1u : odd.pairs.front().reasons | 1u;
  row.detail = "\b\f\r";
  odd.pairs.insert(odd.pairs.begin(), row);
  r.pairs.insert(r.pairs.begin() + 1, odd);
  odd.op_delta["aten::\"q\"\n"] = -3;
  odd.left_only.push_back("x\\y \xce\xbb");
  odd.right_only_outputs.push_back("%1.0\t");
  odd.left_partial = true;
  r.pairs.insert(r.pairs.begin() + 1, odd);
  GraphPairDiff empty = r.pairs.front();
  empty.pairs.clear();
  empty.op_delta.clear();
  empty.left_only.clear();
  empty.right_only.clear();
  r.pairs.insert(r.pairs.begin(), empty);
  r.pairs.push_back(empty);
  EXPECT_EQ(DiffResultToJson(r), DumpJson(DiffResultToJsonValue(r)));
  // No pair at all.
  DiffResult none = r;
  none.pairs.clear();
  EXPECT_EQ(DiffResultToJson(none), DumpJson(DiffResultToJsonValue(none)));
  // A pair's name that is not valid UTF-8 takes the tree too.
  DiffResult bad_name = r;
  bad_name.pairs[0].left_graph = "g\xfe";
  EXPECT_EQ(DiffResultToJson(bad_name), DumpJson(DiffResultToJsonValue(bad_name)));
  // DEL is escaped on both paths, never written raw.
  EXPECT_EQ(DiffResultToJson(r).find('\x7f'), std::string::npos);
  EXPECT_THAT(DiffResultToJson(r), HasSubstr("\\u001f\\u007f"));
  r.pairs[2].pairs[0].left_op = "\xff not UTF-8";
  const std::string escaped = DiffResultToJson(r);
  EXPECT_EQ(escaped, DumpJson(DiffResultToJsonValue(r)));
  EXPECT_THAT(escaped, HasSubstr("\"escaped_invalid_utf8\": true"));
}

TEST(ReportJson, KeyOrderAndRejections) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(DiffResultToJson(ResNet()));
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"schema_version", "summary", "pairs", "unpaired",
                                            "metrics", "findings", "skipped", "warnings"}));
  nlohmann::json bad = nlohmann::json::parse(j.dump());
  bad["schema_version"] = kReportSchemaVersion + 1;
  EXPECT_FALSE(DiffResultFromJson(bad.dump()).ok());
  bad["schema_version"] = 0;
  EXPECT_FALSE(DiffResultFromJson(bad.dump()).ok());
  bad = nlohmann::json::parse(j.dump());
  bad["findings"][0]["severity"] = "fatal";
  absl::StatusOr<DiffResult> r = DiffResultFromJson(bad.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("severity"));
  bad = nlohmann::json::parse(j.dump());
  bad["pairs"][0]["pairs"][0]["reasons"] = {"gremlins"};
  EXPECT_FALSE(DiffResultFromJson(bad.dump()).ok());
  EXPECT_FALSE(FindingsFromJson("{}").ok());
  absl::StatusOr<DiffResult> truncated = DiffResultFromJson(j.dump().substr(0, 40));
  ASSERT_FALSE(truncated.ok());
  EXPECT_THAT(std::string(truncated.status().message()), HasSubstr("not valid JSON"));
}

DiffResult Hostile() {
  DiffResult r;
  r.left_root = "a";
  r.right_root = "b";
  GraphPairDiff p;
  p.left_source = p.right_source = "ir|<x>.txt";
  p.right_only = {"%1"};
  p.right_outputs = 1;
  p.right_only_outputs = {"%1"};
  r.pairs.push_back(p);
  Finding f;
  f.id = "extra-outputs";
  f.severity = Severity::kWarning;
  f.count = 30;
  f.title = "a *bold* [link](http://x) <script>alert(1)</script> | pipe";
  f.graph = "ir|<x>.txt";
  f.explanation = std::string(300, 'w') + " short words after a very long one";
  for (int i = 0; i < 30; ++i) {
    f.evidence.push_back({Side::kRight, "ir.txt", static_cast<uint32_t>(i + 1),
                          "%" + std::to_string(i), "aten::relu", "`tick` _under_"});
  }
  r.findings.push_back(f);
  return r;
}

TEST(ReportMarkdown, EscapesDumpText) {
  RenderOptions o;
  o.max_items = 20;
  std::string md = RenderDiffMarkdown(Hostile(), o);
  EXPECT_THAT(md, Not(HasSubstr("<script>")));
  EXPECT_THAT(md, HasSubstr("&lt;script&gt;"));
  EXPECT_THAT(md, HasSubstr("\\*bold\\*"));
  EXPECT_THAT(md, HasSubstr("ir\\|&lt;x&gt;.txt"));
  EXPECT_THAT(md, HasSubstr("\\`tick\\` \\_under\\_"));
  EXPECT_THAT(md, HasSubstr("- ... and 10 more"));
}

TEST(ReportText, CapsListsAndColoursOnlyWhenAsked) {
  RenderOptions o;
  o.max_items = 5;
  // The default report shows one evidence line and counts the rest.
  std::string compact = RenderDiffText(Hostile(), o);
  EXPECT_THAT(compact, HasSubstr("e.g. right ir.txt:1 %0 aten::relu"));
  EXPECT_THAT(compact, HasSubstr("(+29 more)"));
  o.verbose = true;
  std::string text = RenderDiffText(Hostile(), o);
  EXPECT_THAT(text, HasSubstr("... and 25 more"));
  EXPECT_THAT(text, Not(HasSubstr("\x1b[")));
  o.color = true;
  std::string colored = RenderDiffText(Hostile(), o);
  EXPECT_THAT(colored, HasSubstr("\x1b[33m[warning]\x1b[0m"));
  o.max_items = 0;
  text = RenderDiffText(Hostile(), o);
  EXPECT_THAT(text, Not(HasSubstr("more\n")));
}

// Columns as a terminal shows them: one per code point.
size_t Columns(const std::string& line) {
  size_t n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// Names whose control bytes are shown escaped (`\x01`, four columns each)
// still wrap within the width: the words are measured as shown.
TEST(ReportText, EscapedNamesStayWithinTheWidth) {
  const std::string ctl = "\x01\x02";  // 2 bytes, 8 columns once escaped
  DiffResult r = Hostile();
  r.pairs[0].left_source = r.pairs[0].right_source = "ir" + ctl + ".txt";
  Finding& f = r.findings[0];
  f.title.clear();
  f.explanation.clear();
  for (int i = 0; i < 12; ++i) {
    f.title += "op" + ctl + " ";
    f.explanation += "w" + ctl + ctl + " ";
  }
  f.hint = f.explanation;
  for (Evidence& e : f.evidence) {
    e.node = "%" + ctl + ctl;
    e.note = f.explanation;
  }
  for (size_t width : {40u, 60u, 80u}) {
    RenderOptions o;
    o.width = width;
    for (bool verbose : {false, true}) {
      o.verbose = verbose;
      // A --stat row keeps its name and numbers whole: checked from 60 on.
      std::vector<std::string> texts = {RenderDiffText(r, o)};
      if (width >= 60) texts.push_back(RenderDiffStat(r, o));
      for (const std::string& text : texts) {
        EXPECT_THAT(text, Not(HasSubstr("\x01"))) << text;  // escaped, not raw
        EXPECT_THAT(text, HasSubstr("\\x01"));
        size_t start = 0;
        while (start < text.size()) {
          size_t end = text.find('\n', start);
          std::string line = text.substr(start, end - start);
          start = end + 1;
          std::string word = line.substr(line.find_first_not_of(' ') == std::string::npos
                                             ? 0
                                             : line.find_first_not_of(' '));
          if (word.find(' ') == std::string::npos) continue;  // one unbreakable word
          EXPECT_LE(Columns(line), width) << "width " << width << ": " << line;
        }
      }
    }
  }
}

TEST(ReportText, SameVerdict) {
  DiffResult r;
  r.left_root = "a";
  r.right_root = "b";
  GraphPairDiff p;
  p.left_source = p.right_source = "ir.txt";
  r.pairs.push_back(p);
  ASSERT_TRUE(r.identical());
  std::string text = RenderDiffText(r);
  EXPECT_THAT(text, HasSubstr("Same up to numbering and order: 1 graph pair"));
  EXPECT_THAT(text, Not(HasSubstr("Findings")));
}

// Pairs of one file of many graphs read alike by their file: their graph
// names tell them apart, in text, --stat and Markdown. A pair whose file
// holds its only graph keeps the file alone.
TEST(ReportText, PairsOfOneFileAreToldApartByTheirGraphs) {
  DiffResult r;
  r.left_root = "a";
  r.right_root = "b";
  auto pair = [&](std::string file, std::string left, std::string right) {
    GraphPairDiff p;
    p.left_source = p.right_source = std::move(file);
    p.left_graph = std::move(left);
    p.right_graph = std::move(right);
    p.kind = GraphKind::kFx;
    p.left_nodes = p.right_nodes = p.matched = 7;
    p.changed = 1;
    r.pairs.push_back(std::move(p));
  };
  pair("trace.log", "aot_forward_graph [1/0]", "aot_forward_graph [1/0]");
  pair("trace.log", "aot_backward_graph [1/0]", "aot_backward_graph [1/2]");
  pair("fx_graph.txt", "forward", "forward");
  RenderOptions o;
  o.all = true;
  const std::string text = RenderDiffText(r, o);
  EXPECT_THAT(text, HasSubstr("trace.log (aot_forward_graph [1/0]) [FX]"));
  EXPECT_THAT(text, HasSubstr("trace.log (aot_backward_graph [1/0] <-> aot_backward_graph [1/2])"));
  EXPECT_THAT(text, HasSubstr("  fx_graph.txt [FX]"));
  // --stat clips long names from the left, Markdown escapes them.
  const std::string stat = RenderDiffStat(r, o);
  EXPECT_THAT(stat, HasSubstr(" trace.log (aot_forward_graph [1/0]) "));
  EXPECT_THAT(stat, HasSubstr("aot_backward_graph [1/2]) |"));
  EXPECT_THAT(stat, HasSubstr(" fx_graph.txt "));
  const std::string md = RenderDiffMarkdown(r, o);
  EXPECT_THAT(md, HasSubstr("| trace.log (aot\\_forward\\_graph \\[1/0\\]) |"));
  EXPECT_THAT(md, HasSubstr("| fx\\_graph.txt |"));
  const std::string html = RenderDiffHtml(r, o);
  EXPECT_THAT(html, HasSubstr("<li>trace.log (aot_forward_graph [1/0]): 1 changed"));
  for (const std::string* t : {&text, &stat, &md, &html}) {
    EXPECT_THAT(*t, Not(HasSubstr("forward)")));
  }
  o.verbose = true;
  EXPECT_THAT(RenderDiffText(r, o), HasSubstr("trace.log (aot_forward_graph [1/0]) [FX, paired by"));
}

Finding Made(std::string id, std::string title, std::string hint, std::string graph,
             Severity severity = Severity::kWarning) {
  Finding f;
  f.id = std::move(id);
  f.severity = severity;
  f.title = std::move(title);
  f.hint = std::move(hint);
  f.graph = std::move(graph);
  return f;
}

// The brief list folds findings of one id, title and hint into the entry of
// the first (in finding order, naming every graph), and says a hint once:
// later entries and, in --verbose, later findings point back at the first
// that gave it. Kept so on a dump of thousands of graphs, where each graph's
// finding used to be compared with every entry before it.
TEST(ReportText, FoldsSameFindingsAndRefersBackToHintsInFindingOrder) {
  DiffResult r;
  r.left_root = "a";
  r.right_root = "b";
  for (int i = 0; i < 2; ++i) {
    GraphPairDiff p;
    p.left_source = p.right_source = "ir.txt";
    p.changed = 1;
    r.pairs.push_back(p);
  }
  r.findings = {Made("x", "T", "H1", "g1"), Made("y", "U", "H2", "g1"),
                Made("x", "T", "H1", "g2"), Made("z", "V", "H1", "g3"),
                Made("x", "T", "H3", "g4"), Made("y", "U", "H2", "g5"),
                Made("i", "I", "", "g1", Severity::kInfo)};
  RenderOptions o;
  o.max_items = 0;
  std::string brief = RenderDiffText(r, o);
  EXPECT_THAT(brief, HasSubstr("1. [warning] x: T (g1, g2)\n      hint: H1\n"
                               "2. [warning] y: U (g1, g5)\n      hint: H2\n"
                               "3. [warning] z: V (g3)\n      hint: as in 1.\n"
                               "4. [warning] x: T (g4)\n      hint: H3\n"
                               "   + 1 info finding: i x1"))
      << brief;
  o.verbose = true;
  std::string verbose = RenderDiffText(r, o);
  for (const char* hint : {"hint: H1\n", "hint: H2\n", "hint: as in 1.\n", "hint: H3\n",
                           "hint: as in 2.\n"}) {
    EXPECT_THAT(verbose, HasSubstr(hint));
  }
  EXPECT_EQ(Count(verbose, "hint: as in 1."), 2u) << verbose;
  EXPECT_EQ(Count(verbose, "hint: H1"), 1u);

  // Thousands: one entry per title, in order, each hint after the first
  // pointing at entry 1; the same again for every title's second graph.
  r.findings.clear();
  for (int k = 0; k < 3000; ++k) r.findings.push_back(Made("x", fmt::format("T{}", k), "H", fmt::format("a#{}", k)));
  for (int k = 0; k < 3000; ++k) r.findings.push_back(Made("x", fmt::format("T{}", k), "H", fmt::format("b#{}", k)));
  o.verbose = false;
  brief = RenderDiffText(r, o);
  EXPECT_EQ(Count(brief, "hint: as in 1.\n"), 2999u);
  EXPECT_THAT(brief, HasSubstr("1. [warning] x: T0 (a#0, b#0)\n      hint: H\n"));
  EXPECT_THAT(brief, HasSubstr("\n3000. [warning] x: T2999 (a#2999, b#2999)\n"));
  o.max_items = 8;
  brief = RenderDiffText(r, o);
  EXPECT_THAT(brief, HasSubstr("   ... and 2992 more (--verbose lists them)\n"));
}

// Version 1 said "same" where version 2 says "identical"; results kept from
// then still read, and read back the same.
TEST(ReportJson, ReadsVersionOneSpellingOfSameness) {
  const DiffResult r = ResNet();
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(DiffResultToJson(r));
  EXPECT_EQ(j["schema_version"], 2);
  ASSERT_TRUE(j["summary"].contains("identical"));
  EXPECT_FALSE(j["summary"].contains("same"));
  ASSERT_FALSE(j["metrics"].empty());
  for (const auto& m : j["metrics"]) EXPECT_TRUE(m.contains("identical") && !m.contains("same"));
  for (const auto& p : j["pairs"]) EXPECT_TRUE(p.contains("identical") && !p.contains("same"));
  nlohmann::ordered_json old = j;
  old["schema_version"] = 1;
  old["summary"]["same"] = old["summary"]["identical"];
  old["summary"].erase("identical");
  for (auto& m : old["metrics"]) {
    m["same"] = m["identical"];
    m.erase("identical");
  }
  absl::StatusOr<DiffResult> back = DiffResultFromJson(old.dump());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->identical(), r.identical());
  EXPECT_EQ(DiffResultToJson(*back), DiffResultToJson(r));
}

TEST(ReportLint, AllFormats) {
  LintReport r{"dump", Hostile().findings, {}};
  EXPECT_THAT(RenderLint(r, ReportFormat::kText), HasSubstr("graphdiff lint: dump"));
  nlohmann::json j = nlohmann::json::parse(RenderLint(r, ReportFormat::kJson));
  EXPECT_EQ(j["schema_version"], 2);
  absl::StatusOr<std::vector<Finding>> back = FindingsFromJson(j["findings"].dump());
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 1u);
  ExpectSameFinding((*back)[0], r.findings[0]);
  EXPECT_THAT(RenderLint(r, ReportFormat::kMarkdown), HasSubstr("## graphdiff lint: dump"));
  EXPECT_THAT(RenderLint({"x", {}, {}}, ReportFormat::kText), HasSubstr("No findings."));
}

TEST(ReportFormatName, Parses) {
  EXPECT_EQ(*ParseReportFormat("md"), ReportFormat::kMarkdown);
  EXPECT_EQ(*ParseReportFormat("json"), ReportFormat::kJson);
  EXPECT_EQ(*ParseReportFormat("html"), ReportFormat::kHtml);
  EXPECT_EQ(*ParseReportFormat("dot"), ReportFormat::kDot);
  EXPECT_FALSE(ParseReportFormat("pdf").ok());
}

}  // namespace
}  // namespace graphdiff
