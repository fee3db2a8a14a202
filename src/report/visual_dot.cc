// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The drawn region as DOT, and its layout through Graphviz's C API (cgraph
// reads the DOT, gvc lays it out with `dot` and renders SVG). `--format dot`
// writes the same statements the HTML report lays out.
#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "fmt/format.h"
#include "graphdiff/report.h"
#include "graphdiff/visual.h"
#include "report/report_util.h"
#include "report/visual_scene.h"

namespace graphdiff {
namespace visual {
namespace {

std::mutex& GraphvizMutex() {
  static std::mutex m;
  return m;
}

// Graphviz reports through a global callback: collect while a layout runs
// (under the mutex) so errors become a Status, not stderr noise.
std::string* g_graphviz_errors = nullptr;
int CollectGraphvizError(char* message) {
  if (g_graphviz_errors != nullptr && g_graphviz_errors->size() < 4096) *g_graphviz_errors += message;
  return 0;
}

// Type text is the most telling detail after the op ("f32[0]" marks the
// empty batch-norm statistics), but multi-output tuples can be long.
std::string ShortType(const Graph& g, const Node& n) {
  std::string t = FormatResults(g, n);
  if (t.size() > 36) t = t.substr(0, 33) + "...";
  return t;
}

}  // namespace

std::string DotQuote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out += '"';
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7F) {
      out += '?';
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

void AppendSideDot(const PairScene& s, int side, std::string_view prefix,
                   std::string_view svg_prefix, std::string* out) {
  const SideScene& sc = s.side[side];
  const Graph& g = *sc.graph;
  std::vector<uint8_t> drawn(g.nodes.size(), 0);
  for (uint32_t n : sc.drawn) drawn[n] = 1;
  // Nodes with neighbours outside the drawing are dashed: there is more to expand.
  std::vector<uint8_t> open(g.nodes.size(), 0);
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    for (const ValueRef& v : g.nodes[i].operands) {
      if (v.node >= g.nodes.size()) continue;
      if (drawn[i] && !drawn[v.node]) open[i] = 1;
      if (!drawn[i] && drawn[v.node]) open[v.node] = 1;
    }
  }
  const Graph& other = *s.side[1 - side].graph;
  for (uint32_t n : sc.drawn) {
    const Node& node = g.nodes[n];
    std::string label = NodeLabel(g, n) + "\n" + std::string(g.str(node.name));
    std::string type = ShortType(g, node);
    if (type != "?") label += "\n" + type;
    if (sc.partners[n].size() > 1) label += fmt::format("\n=> {} nodes", sc.partners[n].size());
    std::string attrs = fmt::format("id={}, label={}, fillcolor=\"{}\"",
                                    DotQuote(fmt::format("{}{}", svg_prefix, n)), DotQuote(label),
                                    ChangeColor(sc.change[n], side));
    std::string style = "rounded,filled";
    if (open[n]) style += ",dashed";
    attrs += fmt::format(", style=\"{}\"", style);
    if (sc.output[n] == kOnlyOutput) {
      attrs += fmt::format(", color=\"{}\", penwidth=3, peripheries=2, xlabel={}",
                           kOnlyOutputColor,
                           DotQuote(side == 0 ? "removed output" : "extra output"));
    } else if (sc.output[n] == kOutput) {
      attrs += ", peripheries=2";
    }
    if (!sc.partners[n].empty()) {
      std::string names;
      for (size_t i = 0; i < sc.partners[n].size() && i < 4; ++i) {
        names += (i ? ", " : "") + std::string(other.str(other.nodes[sc.partners[n][i]].name));
      }
      attrs += ", tooltip=" + DotQuote(fmt::format("{} <-> {}", g.str(node.name), names));
    }
    *out += fmt::format("  {}{} [{}];\n", prefix, n, attrs);
  }
  for (uint32_t n : sc.drawn) {
    for (const ValueRef& v : g.nodes[n].operands) {
      if (v.node < g.nodes.size() && drawn[v.node]) {
        *out += fmt::format("  {}{} -> {}{};\n", prefix, v.node, prefix, n);
      }
    }
  }
  std::vector<uint8_t> clustered(g.nodes.size(), 0);
  for (size_t k = 0; k < s.finding_groups[side].size(); ++k) {
    const PairScene::FindingGroup& fg = s.finding_groups[side][k];
    std::string members;
    size_t count = 0;
    for (uint32_t m : fg.nodes) {
      if (!drawn[m] || clustered[m]) continue;
      clustered[m] = 1;
      ++count;
      members += fmt::format(" {}{};", prefix, m);
    }
    if (count < 2) continue;
    *out += fmt::format(
        "  subgraph cluster_{}f{} {{ label={}; fontsize=14; style=\"rounded,filled\"; "
        "color=\"{}\"; fillcolor=\"#f3e5f5\";{} }}\n",
        prefix, k, DotQuote(fg.title), kOnlyOutputColor, members);
    // Many small dead ends side by side would make the drawing one long row:
    // invisible edges stack them into a block about as wide as it is tall.
    std::vector<uint8_t> member(g.nodes.size(), 0);
    std::vector<uint8_t> read(g.nodes.size(), 0);
    for (uint32_t m : fg.nodes) member[m] = drawn[m];
    for (uint32_t m : fg.nodes) {
      for (const ValueRef& v : g.nodes[m].operands) {
        if (v.node < g.nodes.size() && member[v.node]) read[v.node] = 1;
      }
    }
    std::vector<uint32_t> ends;
    std::vector<uint32_t> heads;
    for (uint32_t m : fg.nodes) {
      if (!member[m] || read[m]) continue;
      ends.push_back(m);
      uint32_t head = m;
      for (const ValueRef& v : g.nodes[m].operands) {
        if (v.node < g.nodes.size() && member[v.node]) {
          head = v.node;
          break;
        }
      }
      heads.push_back(head);
    }
    size_t width = 4;
    while (width * width < ends.size()) ++width;
    for (size_t i = 0; i + width < ends.size(); ++i) {
      *out += fmt::format("  {}{} -> {}{} [style=invis];\n", prefix, ends[i], prefix,
                          heads[i + width]);
    }
  }
  // A one-to-many substitution: the many drawn as one dashed box, labelled
  // with what they replace.
  for (size_t k = 0; k < s.groups.size(); ++k) {
    auto [one_side, one] = s.groups[k];
    if (one_side == side) continue;
    std::string members;
    for (uint32_t m : s.side[one_side].partners[one]) {
      if (!drawn[m] || clustered[m]) continue;
      clustered[m] = 1;
      members += fmt::format(" {}{};", prefix, m);
    }
    if (members.empty()) continue;
    std::string label = fmt::format("substitutes {} {}", other.str(other.nodes[one].op),
                                    other.str(other.nodes[one].name));
    *out += fmt::format(
        "  subgraph cluster_{}sub{} {{ label={}; style=\"dashed,rounded\"; color=\"#e65100\";{} "
        "}}\n",
        prefix, k, DotQuote(label), members);
  }
}

absl::StatusOr<std::string> LayoutSvg(const std::string& dot) {
  std::lock_guard<std::mutex> lock(GraphvizMutex());
  static GVC_t* gvc = gvContext();
  std::string errors;
  g_graphviz_errors = &errors;
  agseterr(AGERR);
  agseterrf(CollectGraphvizError);
  Agraph_t* g = agmemread(dot.c_str());
  if (g == nullptr) {
    g_graphviz_errors = nullptr;
    return absl::InvalidArgumentError("graphviz could not read the drawing: " + errors);
  }
  std::string svg;
  absl::Status st = absl::OkStatus();
  if (gvLayout(gvc, g, "dot") != 0) {
    st = absl::InternalError("graphviz layout failed: " + errors);
  } else {
    char* data = nullptr;
    unsigned int length = 0;
    if (gvRenderData(gvc, g, "svg", &data, &length) != 0 || data == nullptr) {
      st = absl::InternalError("graphviz could not render SVG: " + errors);
    } else {
      svg.assign(data, length);
    }
    if (data != nullptr) gvFreeRenderData(data);
    gvFreeLayout(gvc, g);
  }
  agclose(g);
  g_graphviz_errors = nullptr;
  if (!st.ok()) return st;
  return svg;
}

}  // namespace visual

std::string RenderDiffDot(const DiffResult& result, const RenderOptions& options) {
  std::string out = fmt::format("// graphdiff: {}\n", report::VerdictHead(result));
  if (options.graphs == nullptr) {
    return out + "// no graphs were given to draw (RenderOptions::graphs)\n";
  }
  const visual::PairFindings findings(result, options.graphs);
  const std::vector<std::string> labels = report::PairLabels(result);
  for (size_t i = 0; i < result.pairs.size() && i < options.graphs->size(); ++i) {
    const GraphPairDiff& p = result.pairs[i];
    if (p.identical() || !visual::Drawable(p, (*options.graphs)[i])) continue;
    visual::PairScene s = visual::BuildScene(result, i, (*options.graphs)[i], findings,
                                             options.max_drawn_nodes);
    out += fmt::format("digraph {} {{\n", visual::DotQuote(fmt::format("pair{}", i)));
    out += fmt::format(
        "  graph [fontname=\"Helvetica\", label={}, labelloc=t];\n"
        "  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n"
        "  edge [color=\"#757575\", arrowsize=0.6];\n",
        visual::DotQuote(labels[i]));
    for (int side = 0; side < 2; ++side) {
      const visual::SideScene& sc = s.side[side];
      out += fmt::format("  subgraph cluster_{} {{\n  label={};\n", side == 0 ? "left" : "right",
                         visual::DotQuote(fmt::format(
                             "{}: {} ({} of {} nodes of the changed region)",
                             side == 0 ? "left" : "right",
                             side == 0 ? p.left_source : p.right_source, sc.drawn.size(),
                             sc.region_size)));
      visual::AppendSideDot(s, side, side == 0 ? "L" : "R", side == 0 ? "L" : "R", &out);
      out += "  }\n";
    }
    out += "}\n";
  }
  return out;
}

}  // namespace graphdiff
