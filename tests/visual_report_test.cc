// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The visual formats without a browser: what the HTML page holds, that the
// DOT lays out, that dump text cannot inject markup, and that the Model
// Explorer mapping is the alignment.
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/report.h"
#include "graphdiff/visual.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "report/visual_scene.h"
#include "testing/cli.h"
#include "testing/graph_builder.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

struct ResNetCase {
  Dump left;
  Dump right;
  DiffResult result;
  std::vector<PairGraphs> graphs;
};

const ResNetCase& ResNet() {
  static const ResNetCase* c = [] {
    auto* out = new ResNetCase;
    out->left = *LoadDump(testing::TestdataPath("resnet18-xla5430/torchxla_trace_once"));
    out->right = *LoadDump(testing::TestdataPath("resnet18-xla5430/openxla"));
    out->result = *DiffDumps(out->left, out->right);
    absl::StatusOr<std::vector<PairGraphs>> g = FindPairGraphs(out->result, out->left, out->right);
    EXPECT_TRUE(g.ok()) << g.status();
    if (g.ok()) out->graphs = *g;
    return out;
  }();
  return *c;
}

RenderOptions WithGraphs(const ResNetCase& c) {
  RenderOptions o;
  o.graphs = &c.graphs;
  return o;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

size_t Differing(const DiffResult& r) {
  size_t n = 0;
  for (const GraphPairDiff& p : r.pairs) n += p.identical() ? 0 : 1;
  return n;
}

const GraphPairDiff* IrPair(const DiffResult& r, size_t* index) {
  for (size_t i = 0; i < r.pairs.size(); ++i) {
    if (r.pairs[i].kind == GraphKind::kIr) {
      *index = i;
      return &r.pairs[i];
    }
  }
  return nullptr;
}

TEST(VisualHtml, ResNetPageHoldsFindingsDrawingsAndData) {
  const ResNetCase& c = ResNet();
  RenderOptions o = WithGraphs(c);
  std::string html = RenderDiff(c.result, ReportFormat::kHtml, o);
  EXPECT_THAT(html, HasSubstr("<!DOCTYPE html>"));
  EXPECT_EQ(Count(html, "<li class=\"gd-finding"), c.result.findings.size());
  // Every differing pair is drawn on both sides.
  size_t differing = Differing(c.result);
  ASSERT_GT(differing, 0u);
  EXPECT_EQ(Count(html, "<div class=\"gd-svg\""), 2 * differing);
  // The 80 extra outputs are outlined: Graphviz draws them with the colour.
  size_t ir = 0;
  const GraphPairDiff* p = IrPair(c.result, &ir);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->right_only_outputs.size(), 80u);
  EXPECT_THAT(html, HasSubstr("extra output"));
  // Self-contained: no fetched resources.
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, Not(HasSubstr(" src=")));
  EXPECT_THAT(html, Not(HasSubstr("https://")));
  EXPECT_THAT(html, Not(HasSubstr("<!DOCTYPE svg")));
}

TEST(VisualHtml, WithoutGraphsListsFindingsOnly) {
  const ResNetCase& c = ResNet();
  std::string html = RenderDiffHtml(c.result);
  EXPECT_EQ(Count(html, "<li class=\"gd-finding"), c.result.findings.size());
  EXPECT_EQ(Count(html, "<div class=\"gd-svg\""), 0u);
  EXPECT_THAT(html, HasSubstr("graphs not given"));
}

TEST(VisualHtml, DrawingIsBoundedButEveryNodeIsEmbedded) {
  const ResNetCase& c = ResNet();
  RenderOptions o = WithGraphs(c);
  o.max_drawn_nodes = 20;
  std::string html = RenderDiffHtml(c.result, o);
  EXPECT_LE(Count(html, "class=\"node\""), 2 * 20 * Differing(c.result));
  EXPECT_THAT(html, HasSubstr("more is a click away"));
  size_t ir = 0;
  IrPair(c.result, &ir);
  // The drawn region is listed up front; every node sits in the pair's block.
  auto block = [&](const std::string& id) {
    size_t begin = html.find("id=\"" + id + "\">");
    EXPECT_NE(begin, std::string::npos) << id;
    if (begin == std::string::npos) return nlohmann::json();
    begin = html.find('>', begin) + 1;
    return nlohmann::json::parse(html.substr(begin, html.find("</script>", begin) - begin));
  };
  nlohmann::json data = block("gd-data");
  bool found = false;
  for (const auto& pd : data["pairs"]) {
    if (pd["pair"] != ir) continue;
    found = true;
    EXPECT_LE(pd["sides"][1]["drawn"].size(), 20u);
  }
  nlohmann::json nodes = block("gd-pair-" + std::to_string(ir));
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0]["n"].size(), c.graphs[ir].left->nodes.size());
  EXPECT_EQ(nodes[1]["n"].size(), c.graphs[ir].right->nodes.size());
  EXPECT_TRUE(found);
}

TEST(VisualHtml, ShowsEachNodesOwnDumpLineWhenGivenTheText) {
  const ResNetCase& c = ResNet();
  size_t ir = 0;
  ASSERT_NE(IrPair(c.result, &ir), nullptr);
  std::vector<PairGraphs> graphs = c.graphs;
  std::string left = testing::ReadTestdata("resnet18-xla5430/torchxla_trace_once/ir.txt");
  std::string right = testing::ReadTestdata("resnet18-xla5430/openxla/ir.txt");
  graphs[ir].left_text = left;
  graphs[ir].right_text = right;
  RenderOptions o;
  o.graphs = &graphs;
  std::string html = RenderDiffHtml(c.result, o);
  std::string id = "id=\"gd-pair-" + std::to_string(ir) + "\">";
  size_t begin = html.find(id);
  ASSERT_NE(begin, std::string::npos);
  begin += id.size();
  nlohmann::json nodes = nlohmann::json::parse(html.substr(begin, html.find("</script>", begin) - begin));
  for (int side = 0; side < 2; ++side) {
    const Graph& g = side == 0 ? *graphs[ir].left : *graphs[ir].right;
    ASSERT_EQ(nodes[side]["n"].size(), g.nodes.size());
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      const auto& n = nodes[side]["n"][i];
      ASSERT_EQ(n.size(), 12u);
      // IR lines start with the node's own name: "%17 = f32[...] aten::add(...)".
      EXPECT_EQ(n[11].get<std::string>().rfind(std::string(g.str(g.nodes[i].name)) + " = ", 0), 0u)
          << n[11];
    }
  }
}

TEST(VisualHtml, PairsBeyondTheLayoutCapAreDrawnOnDemand) {
  const ResNetCase& c = ResNet();
  RenderOptions o = WithGraphs(c);
  o.max_laid_out_pairs = 1;
  std::string html = RenderDiffHtml(c.result, o);
  ASSERT_EQ(Differing(c.result), 2u);
  EXPECT_EQ(Count(html, "<div class=\"gd-svg\" style="), 2u);  // the first pair, laid out
  EXPECT_EQ(Count(html, "class=\"gd-draw\""), 2u);
}

TEST(VisualHtml, DumpTextCannotInjectMarkup) {
  testing::GraphBuilder lb;
  uint32_t x = lb.Input("f32[4]");
  lb.Output(lb.Op("aten::relu", {x}, "f32[4]", {{"note", "</script><b>boom</b>"}}));
  testing::GraphBuilder rb;
  uint32_t y = rb.Input("f32[4]");
  uint32_t z = rb.Op("aten::relu", {y}, "f32[4]", {{"note", "</script><b>bang</b>"}});
  rb.Name(z, "<img onerror=x>");
  rb.Output(z);
  Graph l = lb.Build();
  Graph r = rb.Build();
  absl::StatusOr<DiffResult> d = DiffGraphs(l, r);
  ASSERT_TRUE(d.ok()) << d.status();
  std::vector<PairGraphs> graphs{{&l, &r, {}, {}}};
  RenderOptions o;
  o.graphs = &graphs;
  std::string html = RenderDiffHtml(*d, o);
  EXPECT_THAT(html, Not(HasSubstr("<b>boom")));
  EXPECT_THAT(html, Not(HasSubstr("<b>bang")));
  EXPECT_THAT(html, Not(HasSubstr("<img onerror")));
  // The data block, the pair's node block and the script, nothing else.
  EXPECT_EQ(Count(html, "</script>"), 3u);
}

TEST(VisualDot, ResNetDotLaysOutWithGraphviz) {
  const ResNetCase& c = ResNet();
  RenderOptions o = WithGraphs(c);
  std::string dot = RenderDiff(c.result, ReportFormat::kDot, o);
  EXPECT_THAT(dot, HasSubstr("subgraph cluster_left"));
  EXPECT_THAT(dot, HasSubstr("subgraph cluster_right"));
  EXPECT_THAT(dot, HasSubstr("extra output"));
  // Each digraph in the file lays out.
  size_t at = dot.find("digraph ");
  ASSERT_NE(at, std::string::npos);
  while (at != std::string::npos) {
    size_t next = dot.find("\ndigraph ", at);
    std::string one = dot.substr(at, next == std::string::npos ? std::string::npos : next + 1 - at);
    absl::StatusOr<std::string> svg = visual::LayoutSvg(one);
    EXPECT_TRUE(svg.ok()) << svg.status();
    if (svg.ok()) {
      EXPECT_THAT(*svg, HasSubstr("<svg"));
    }
    at = next == std::string::npos ? next : next + 1;
  }
}

TEST(VisualDot, GraphvizErrorIsAStatus) {
  absl::StatusOr<std::string> svg = visual::LayoutSvg("digraph { a -> ");
  EXPECT_FALSE(svg.ok());
}

TEST(VisualModelExplorer, MappingIsTheAlignment) {
  const ResNetCase& c = ResNet();
  RenderOptions o = WithGraphs(c);
  absl::StatusOr<std::vector<ReportFile>> files = RenderModelExplorer(c.result, o);
  ASSERT_TRUE(files.ok()) << files.status();
  std::map<std::string, std::string> by_path;
  for (const ReportFile& f : *files) by_path[f.path] = f.content;
  ASSERT_TRUE(by_path.count("index.json"));
  size_t ir = 0;
  const GraphPairDiff* p = IrPair(c.result, &ir);
  ASSERT_NE(p, nullptr);
  std::string stem = "pair" + std::to_string(ir);
  for (const char* suffix : {".left.json", ".right.json", ".left.nodedata.json",
                             ".right.nodedata.json", ".mapping.json"}) {
    ASSERT_TRUE(by_path.count(stem + suffix)) << stem + suffix;
  }
  nlohmann::json left = nlohmann::json::parse(by_path[stem + ".left.json"]);
  nlohmann::json right = nlohmann::json::parse(by_path[stem + ".right.json"]);
  const Graph& lg = *c.graphs[ir].left;
  const Graph& rg = *c.graphs[ir].right;
  ASSERT_EQ(left["graphs"][0]["nodes"].size(), lg.nodes.size());
  ASSERT_EQ(right["graphs"][0]["nodes"].size(), rg.nodes.size());
  // Edges name existing nodes.
  std::set<std::string> right_ids;
  for (const auto& n : right["graphs"][0]["nodes"]) right_ids.insert(n["id"].get<std::string>());
  for (const auto& n : right["graphs"][0]["nodes"]) {
    for (const auto& e : n["incomingEdges"]) EXPECT_TRUE(right_ids.count(e["sourceNodeId"]));
  }
  // Every aligned pair sits in one mapping entry; one-sided nodes in none.
  nlohmann::json mapping = nlohmann::json::parse(by_path[stem + ".mapping.json"]);
  std::map<std::string, size_t> left_entry;
  std::map<std::string, size_t> right_entry;
  const auto& entries = mapping["mappingEntries"];
  for (size_t k = 0; k < entries.size(); ++k) {
    for (const auto& id : entries[k]["leftNodeIds"]) {
      EXPECT_TRUE(left_entry.emplace(id.get<std::string>(), k).second) << id;
    }
    for (const auto& id : entries[k]["rightNodeIds"]) {
      EXPECT_TRUE(right_entry.emplace(id.get<std::string>(), k).second) << id;
    }
  }
  for (const NodePair& np : p->alignment.pairs) {
    std::string l(lg.str(lg.nodes[np.left].name));
    std::string r(rg.str(rg.nodes[np.right].name));
    ASSERT_TRUE(left_entry.count(l)) << l;
    ASSERT_TRUE(right_entry.count(r)) << r;
    EXPECT_EQ(left_entry[l], right_entry[r]) << l << " <-> " << r;
  }
  for (uint32_t i : p->alignment.right_only) {
    EXPECT_FALSE(right_entry.count(std::string(rg.str(rg.nodes[i].name))));
  }
  // The overlay colours every node; added nodes and extra outputs apart.
  nlohmann::json data = nlohmann::json::parse(by_path[stem + ".right.nodedata.json"]);
  EXPECT_EQ(data["results"].size(), rg.nodes.size());
  size_t extra = 0;
  for (const auto& [id, v] : data["results"].items()) extra += v["value"] == 3 ? 1 : 0;
  std::set<uint32_t> extra_nodes;
  for (uint32_t pos : p->alignment.right_only_outputs) extra_nodes.insert(rg.outputs[pos].node);
  EXPECT_EQ(extra, extra_nodes.size());
}

TEST(VisualModelExplorer, CliWritesTheDirectory) {
  std::string dir = testing::WriteTempFile("me-marker", "") + ".d";
  testing::CliResult r =
      testing::RunCli({"diff", "--format", "model-explorer", "-o", dir,
                       "resnet18-xla5430/torchxla_trace_once", "resnet18-xla5430/openxla"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  std::ifstream f(dir + "/index.json");
  ASSERT_TRUE(f.good());
  nlohmann::json index = nlohmann::json::parse(f);
  EXPECT_FALSE(index["pairs"].empty());
  testing::CliResult no_dir = testing::RunCli(
      {"diff", "--format", "model-explorer", "resnet18-xla5430/torchxla_trace_once",
       "resnet18-xla5430/openxla"});
  EXPECT_EQ(no_dir.exit_code, 2);
  EXPECT_THAT(no_dir.err, HasSubstr("-o DIRECTORY"));
}

TEST(VisualHtml, CliSameDumpsDrawNothingAndExitZero) {
  std::string html = testing::WriteTempFile("same.html", "");
  testing::CliResult r = testing::RunCli({"diff", "--format", "html", "-o", html,
                                          "resnet18-xla5430/openxla", "resnet18-xla5430/openxla"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::string page = testing::Slurp(html);
  EXPECT_THAT(page, HasSubstr("Identical pairs (2)"));
  EXPECT_EQ(Count(page, "<div class=\"gd-svg\""), 0u);
  testing::CliResult dot = testing::RunCli(
      {"diff", "--format", "dot", "resnet18-xla5430/openxla", "resnet18-xla5430/openxla"});
  EXPECT_EQ(dot.exit_code, 0) << dot.err;
  EXPECT_THAT(dot.out, Not(HasSubstr("digraph")));
}

TEST(VisualPairGraphs, OtherDumpsAreAnError) {
  const ResNetCase& c = ResNet();
  Dump empty;
  EXPECT_FALSE(FindPairGraphs(c.result, empty, c.right).ok());
  // A graph of the right path and name whose nodes are not the ones aligned.
  DiffResult other = c.result;
  ASSERT_FALSE(other.pairs.empty());
  ASSERT_FALSE(other.pairs[0].pairs.empty());
  other.pairs[0].pairs[0].left = "no-such-node";
  EXPECT_FALSE(FindPairGraphs(other, c.left, c.right).ok());
  // Read back from JSON: no alignment, nothing to draw from.
  absl::StatusOr<DiffResult> back = DiffResultFromJson(DiffResultToJson(c.result));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_FALSE(FindPairGraphs(*back, c.left, c.right).ok());
}

// One file per side holding `n` small IR blocks; block k has batch dim k on
// the left and k + 3 on the right, so every pair has a finding of its own
// while its node names ("%0" ... "%4") are those of every other block.
struct ManyBlocksCase {
  std::string left_text;
  std::string right_text;
  Dump left;
  Dump right;
  DiffResult result;
  std::vector<PairGraphs> graphs;
};

std::string IrBlocks(int n, int offset) {
  std::string out;
  for (int k = 0; k < n; ++k) {
    std::string t = "f32[" + std::to_string(k + offset) + "]{0}";
    out += "IR {\n";
    for (int i = 0; i < 5; ++i) {
      out += "  %" + std::to_string(i) + " = " + t;
      if (i < 2) {
        out += " xla::device_data(), xla_shape=" + t + ", device=CPU:0";
      } else {
        out += " aten::add(%" + std::to_string(i - 1) + ", %" + std::to_string(i - 2) +
               "), xla_shape=" + t;
      }
      out += i == 4 ? ", ROOT=0\n" : "\n";
    }
    out += "}\n";
  }
  return out;
}

const ManyBlocksCase& ManyBlocks() {
  static const ManyBlocksCase* c = [] {
    auto* out = new ManyBlocksCase;
    constexpr int kBlocks = 2000;
    out->left_text = IrBlocks(kBlocks, 0);
    out->right_text = IrBlocks(kBlocks, 3);
    absl::StatusOr<Dump> l = LoadDumpFromMemory("l", {{"ir.txt", out->left_text}});
    absl::StatusOr<Dump> r = LoadDumpFromMemory("r", {{"ir.txt", out->right_text}});
    EXPECT_TRUE(l.ok() && r.ok());
    if (!l.ok() || !r.ok()) return out;
    out->left = *std::move(l);
    out->right = *std::move(r);
    DiffOptions opts;
    opts.threads = 1;
    absl::StatusOr<DiffResult> d = DiffDumps(out->left, out->right, opts);
    EXPECT_TRUE(d.ok()) << d.status();
    if (!d.ok()) return out;
    out->result = *std::move(d);
    absl::StatusOr<std::vector<PairGraphs>> g =
        FindPairGraphs(out->result, out->left, out->right);
    EXPECT_TRUE(g.ok()) << g.status();
    if (g.ok()) out->graphs = *std::move(g);
    // As the CLI gives them: every pair of the file shares its text.
    for (PairGraphs& pg : out->graphs) {
      pg.left_text = out->left_text;
      pg.right_text = out->right_text;
    }
    return out;
  }();
  return *c;
}

// Each pair's scene resolves the evidence of its own findings only: names
// repeat across the graphs of one file, and resolving every finding on every
// pair both drew other pairs' evidence and kept pairs x findings lists.
TEST(VisualScene, EachPairOfAFileOfManyGraphsHoldsOnlyItsOwnEvidence) {
  const ManyBlocksCase& c = ManyBlocks();
  ASSERT_EQ(c.result.pairs.size(), 2000u);
  ASSERT_EQ(c.graphs.size(), c.result.pairs.size());
  ASSERT_GE(c.result.findings.size(), c.result.pairs.size());
  const visual::PairFindings findings(c.result, &c.graphs);
  size_t kept = 0;
  std::vector<uint8_t> resolved(c.result.findings.size(), 0);
  for (size_t i = 0; i < c.result.pairs.size(); ++i) {
    ASSERT_FALSE(c.result.pairs[i].identical()) << i;
    visual::PairScene s = visual::BuildScene(c.result, i, c.graphs[i], findings, 300);
    for (int k = 0; k < 2; ++k) {
      const Graph& g = *s.side[k].graph;
      std::string label = "ir.txt#" + std::to_string(g.source.record_index);
      kept += s.evidence[k].size();
      for (const visual::PairScene::FindingEvidence& fe : s.evidence[k]) {
        const Finding& f = c.result.findings[fe.finding];
        ASSERT_EQ(f.graph, label) << "pair " << i << " holds finding " << fe.finding;
        resolved[fe.finding] = 1;
        for (const auto& [e, node] : fe.items) {
          // The node the evidence names, not a namesake in another block.
          EXPECT_EQ(g.nodes[node].line, f.evidence[e].line) << "pair " << i;
        }
      }
    }
  }
  // Linear: a pair holds its own findings, a finding lives in one pair.
  EXPECT_LE(kept, 2 * c.result.findings.size());
  // And none is lost: every finding naming nodes is resolved somewhere.
  for (size_t f = 0; f < c.result.findings.size(); ++f) {
    bool names_nodes = false;
    for (const Evidence& e : c.result.findings[f].evidence) names_nodes |= !e.node.empty();
    if (names_nodes) {
      EXPECT_TRUE(resolved[f]) << c.result.findings[f].graph;
    }
  }
}

// The page's evidence links lead to the node the evidence names, in the pair
// the finding is about; before, every finding of the file linked to the
// first drawn pair, where its node names also resolve.
TEST(VisualHtml, EvidenceLinksOfAFileOfManyGraphsLeadToTheirOwnPair) {
  const ManyBlocksCase& c = ManyBlocks();
  RenderOptions o;
  o.graphs = &c.graphs;
  o.max_laid_out_pairs = 0;  // Graphviz adds nothing here
  std::string html = RenderDiffHtml(c.result, o);
  std::string id = "id=\"gd-data\">";
  size_t begin = html.find(id);
  ASSERT_NE(begin, std::string::npos);
  begin += id.size();
  nlohmann::json data =
      nlohmann::json::parse(html.substr(begin, html.find("</script>", begin) - begin));
  ASSERT_EQ(data["findings"].size(), c.result.findings.size());
  size_t links = 0;
  for (size_t f = 0; f < c.result.findings.size(); ++f) {
    const Finding& finding = c.result.findings[f];
    std::set<uint32_t> lines;
    for (const Evidence& e : finding.evidence) lines.insert(e.line);
    for (const auto& where : data["findings"][f]["ev"]) {
      ++links;
      size_t pair = where[0].get<size_t>();
      int side = where[1].get<int>();
      uint32_t node = where[2].get<uint32_t>();
      ASSERT_LT(pair, c.graphs.size());
      const Graph& g = side == 0 ? *c.graphs[pair].left : *c.graphs[pair].right;
      EXPECT_EQ(finding.graph, "ir.txt#" + std::to_string(g.source.record_index))
          << "finding " << f << " links to pair " << pair;
      ASSERT_LT(node, g.nodes.size());
      EXPECT_EQ(lines.count(g.nodes[node].line), 1u) << "finding " << f;
    }
  }
  EXPECT_GE(links, c.result.findings.size());
  // Each pair's block shows its own dump lines, from the one shared text.
  for (size_t pair : {size_t{0}, size_t{1234}, size_t{1999}}) {
    std::string pid = "id=\"gd-pair-" + std::to_string(pair) + "\">";
    size_t at = html.find(pid);
    ASSERT_NE(at, std::string::npos);
    at += pid.size();
    nlohmann::json nodes = nlohmann::json::parse(html.substr(at, html.find("</script>", at) - at));
    const Graph& g = *c.graphs[pair].right;
    ASSERT_EQ(nodes[1]["n"].size(), g.nodes.size());
    std::string type = "f32[" + std::to_string(g.source.record_index + 3) + "]{0}";
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      EXPECT_EQ(nodes[1]["n"][i][11].get<std::string>().rfind(
                    std::string(g.str(g.nodes[i].name)) + " = " + type, 0),
                0u)
          << nodes[1]["n"][i][11];
    }
  }
}

}  // namespace
}  // namespace graphdiff
