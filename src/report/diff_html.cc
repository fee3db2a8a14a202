// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The HTML report: one self-contained page. The server side (here) chooses
// what to draw, lays it out with Graphviz and embeds every node of every
// drawn pair as JSON; the inline script (html_assets.cc) adds clicks,
// details, search and expansion. Drawings are bounded
// (RenderOptions::max_drawn_nodes) so a 10^5-node pair opens at once; the
// rest of the graph is drawn on demand from the embedded data.
//
// Everything from a dump reaches the page escaped: text through XmlEscape
// (the terminal treatment, then the entities; see docs/hardening.md),
// embedded data as JSON with '<' written \u003c (no `</script>` can end it),
// SVG as Graphviz escapes its labels.
#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "fmt/format.h"
#include "graphdiff/report.h"
#include "graphdiff/sanitize.h"
#include "graphdiff/visual.h"
#include "nlohmann/json.hpp"
#include "report/report_util.h"
#include "report/visual_scene.h"

namespace graphdiff {
namespace {

using visual::Change;
using visual::PairScene;

// JSON safe inside <script>: invalid UTF-8 replaced, '<' escaped, and DEL
// escaped as every JSON output escapes it (util/json_text.h).
std::string ScriptJson(const nlohmann::json& j) {
  std::string text = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size() + 64);
  for (char c : text) {
    if (c == '<') {
      out += "\\u003c";
    } else if (c == '\x7f') {
      out += "\\u007f";
    } else {
      out += c;
    }
  }
  return out;
}

std::string Clip(std::string_view s, size_t max) {
  if (s.size() <= max) return std::string(s);
  return std::string(s.substr(0, max)) + "...";
}

// What the page needs at once about a side; its nodes (SideData) sit in a
// block of their own that the script parses on first use, so a 10^5-node
// pair costs nothing until someone clicks, searches or expands.
nlohmann::json SideMeta(const PairScene& s, int side, const GraphPairDiff& p) {
  return {{"source", side == 0 ? p.left_source : p.right_source},
          {"graph", side == 0 ? p.left_graph : p.right_graph},
          {"drawn", s.side[side].drawn}};
}

// Line `line` (1-based) of `text`, given the offsets of line starts.
std::string_view TextLine(std::string_view text, const std::vector<size_t>& starts,
                          uint32_t line) {
  if (line == 0 || line > starts.size()) return {};
  size_t begin = starts[line - 1];
  size_t end = line < starts.size() ? starts[line] - 1 : text.size();
  std::string_view out = text.substr(begin, end - begin);
  while (!out.empty() && (out.back() == '\r' || out.back() == '\n')) out.remove_suffix(1);
  while (!out.empty() && (out.front() == ' ' || out.front() == '\t')) out.remove_prefix(1);
  return out;
}

// The line starts of each dump text, each built once: the pairs of a file
// share its text, and a table per pair was quadratic in a file of many
// graphs. Keyed by the text's address and size (PairGraphs points into the
// caller's copy), so it is looked up, never iterated.
class LineStarts {
 public:
  const std::vector<size_t>& Of(std::string_view text) {
    std::vector<size_t>& starts = tables_[{text.data(), text.size()}];
    if (starts.empty() && !text.empty()) {
      starts.push_back(0);
      for (size_t i = 0; i + 1 < text.size(); ++i) {
        if (text[i] == '\n') starts.push_back(i + 1);
      }
    }
    return starts;
  }

 private:
  absl::flat_hash_map<std::pair<const char*, size_t>, std::vector<size_t>> tables_;
};

// One side's nodes as compact arrays, the order the script reads them:
// [name, op, raw op, kind, type, line, change, output mark, operands, attrs,
// frame, dump line (only when the dump's text was given)]. `starts`: the
// text's line starts, empty without text.
nlohmann::json SideData(const PairScene& s, int side, const GraphPairDiff& p,
                        std::string_view text, const std::vector<size_t>& starts) {
  const visual::SideScene& sc = s.side[side];
  const Graph& g = *sc.graph;
  nlohmann::json nodes = nlohmann::json::array();
  nlohmann::json partners = nlohmann::json::array();
  nlohmann::json changes = nlohmann::json::object();
  for (uint32_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    nlohmann::json operands = nlohmann::json::array();
    for (const ValueRef& v : n.operands) {
      if (v.output == 0) {
        operands.push_back(v.node);
      } else {
        operands.push_back(nlohmann::json::array({v.node, v.output}));
      }
    }
    nlohmann::json attrs = nlohmann::json::array();
    for (const Attr& a : n.attrs) {
      attrs.push_back(nlohmann::json::array({g.str(a.key), Clip(g.str(a.value), 240)}));
    }
    nodes.push_back(nlohmann::json::array(
        {g.str(n.name), g.str(n.op), n.raw_op == n.op ? std::string_view() : g.str(n.raw_op),
         NodeKindName(n.kind),
         Clip(FormatResults(g, n), 200), n.line, static_cast<int>(sc.change[i]),
         static_cast<int>(sc.output[i]), std::move(operands), std::move(attrs),
         Clip(g.str(n.frame), 200)}));
    if (!starts.empty()) nodes.back().push_back(Clip(TextLine(text, starts, n.line), 400));
    const std::vector<uint32_t>& ps = sc.partners[i];
    if (ps.empty()) {
      partners.push_back(-1);
    } else if (ps.size() == 1) {
      partners.push_back(ps[0]);
    } else {
      partners.push_back(ps);
    }
    if (sc.change[i] == Change::kChanged && sc.pair_row[i] != 0) {
      const PairRow& row = p.pairs[sc.pair_row[i] - 1];
      std::string reasons;
      for (const std::string& r : ChangeReasonNames(row.reasons)) {
        reasons += (reasons.empty() ? "" : ", ") + r;
      }
      changes[std::to_string(i)] =
          nlohmann::json::array({reasons, Clip(row.detail, 400), MatcherName(row.matcher)});
    }
  }
  nlohmann::json out;
  out["n"] = std::move(nodes);
  out["p"] = std::move(partners);
  out["c"] = std::move(changes);
  return out;
}

// Graphviz's SVG without its XML prolog, sized by the page: the natural
// width goes to a CSS variable the zoom button uses.
std::string InlineSvg(const std::string& svg, std::string* natural_width) {
  size_t start = svg.find("<svg");
  if (start == std::string::npos) return "";
  std::string out = svg.substr(start);
  size_t tag_end = out.find('>');
  for (std::string_view attr : {"width=\"", "height=\""}) {
    size_t at = out.find(attr);
    if (at == std::string::npos || at > tag_end) continue;
    size_t end = out.find('"', at + attr.size());
    if (end == std::string::npos) continue;
    if (attr[0] == 'w') *natural_width = out.substr(at + attr.size(), end - at - attr.size());
    out.erase(at, end + 1 - at);
    tag_end = out.find('>');
  }
  return out;
}

struct SideCounts {
  size_t by_change[3] = {0, 0, 0};
  size_t only_output_nodes = 0;
  size_t only_outputs = 0;  // output positions: a multi-output node may return several
};

SideCounts CountDrawn(const PairScene& s, int side, const GraphPairDiff& p) {
  const visual::SideScene& sc = s.side[side];
  SideCounts c;
  std::vector<uint8_t> drawn(sc.change.size(), 0);
  for (uint32_t n : sc.drawn) {
    drawn[n] = 1;
    ++c.by_change[static_cast<int>(sc.change[n])];
    if (sc.output[n] == visual::kOnlyOutput) ++c.only_output_nodes;
  }
  const Graph& g = *sc.graph;
  for (uint32_t pos : side == 0 ? p.alignment.left_only_outputs : p.alignment.right_only_outputs) {
    if (drawn[g.outputs[pos].node]) ++c.only_outputs;
  }
  return c;
}

void AppendSide(const PairScene& s, int side, const GraphPairDiff& p, bool layout,
                std::string* out) {
  const visual::SideScene& sc = s.side[side];
  const char* name = side == 0 ? "left" : "right";
  const char letter = side == 0 ? 'L' : 'R';
  SideCounts c = CountDrawn(s, side, p);
  *out += fmt::format("<div class=\"gd-side\" data-side=\"{}\">\n<h3>{}: {}</h3>\n", letter,
                      name, XmlEscape(side == 0 ? p.left_source : p.right_source));
  *out += fmt::format(
      "<p class=\"gd-counts\">drawn: <b class=\"gd-drawn-count\">{}</b> of {} nodes in the changed "
      "region ({} in the graph){}<br>",
      sc.drawn.size(), sc.region_size, sc.graph->nodes.size(),
      sc.truncated ? "; <b>more is a click away</b> (search, findings, or expand a dashed node)"
                   : "");
  *out += fmt::format(
      "<span class=\"gd-sw\" style=\"background:{}\"></span>{} {} &nbsp; "
      "<span class=\"gd-sw\" style=\"background:{}\"></span>{} changed &nbsp; "
      "<span class=\"gd-sw\" style=\"background:#fff\"></span>{} same",
      visual::ChangeColor(Change::kOnly, side), c.by_change[2],
      visual::ChangeName(Change::kOnly, side), visual::ChangeColor(Change::kChanged, side),
      c.by_change[1], c.by_change[0]);
  if (c.only_outputs > 0) {
    *out += fmt::format(
        " &nbsp; <span class=\"gd-sw gd-sw-out\"></span><b>{} {}</b>{}", c.only_outputs,
        side == 0 ? "removed outputs" : "extra outputs",
        c.only_output_nodes == c.only_outputs
            ? std::string()
            : fmt::format(" (returned by {} nodes)", c.only_output_nodes));
  }
  *out += "</p>\n";
  std::string why_not;
  if (layout) {
    std::string dot = "digraph side {\n"
                      "  graph [fontname=\"Helvetica\", nodesep=0.15, ranksep=0.3];\n"
                      "  node [shape=box, fontname=\"Helvetica\", fontsize=10, "
                      "margin=\"0.06,0.03\", height=0.3];\n"
                      "  edge [color=\"#757575\", arrowsize=0.5];\n";
    visual::AppendSideDot(s, side, "n", fmt::format("gd-{}-{}-", s.pair, letter), &dot);
    dot += "}\n";
    absl::StatusOr<std::string> svg = visual::LayoutSvg(dot);
    if (svg.ok()) {
      std::string width;
      std::string inline_svg = InlineSvg(*svg, &width);
      *out += fmt::format(
          "<div class=\"gd-zoombar\"><button class=\"gd-zoom\" type=\"button\">zoom 1:1 / fit"
          "</button></div>\n<div class=\"gd-svg\" style=\"--w:{}\">{}</div>\n</div>\n",
          XmlEscape(width), inline_svg);
      return;
    }
    why_not = "Graphviz failed: " + std::string(svg.status().message());
  } else {
    why_not = "not laid out with Graphviz: more differing pairs than RenderOptions::max_laid_out_pairs";
  }
  // The same region, drawn by the page's own layout when asked.
  *out += fmt::format(
      "<p class=\"gd-warn\">{}.</p><div class=\"gd-svg gd-lazy\"><button type=\"button\" "
      "class=\"gd-draw\" data-p=\"{}\" data-s=\"{}\">draw these {} nodes here</button></div>\n"
      "</div>\n",
      XmlEscape(why_not), s.pair, side, sc.drawn.size());
}

void AppendPair(const DiffResult& r, const PairScene& s, const std::string& label, bool layout,
                std::string* out) {
  const GraphPairDiff& p = r.pairs[s.pair];
  *out += fmt::format("<section class=\"gd-pair\" id=\"pair-{}\" data-pair=\"{}\">\n", s.pair,
                      s.pair);
  *out += fmt::format("<h2>{} <small>({})</small></h2>\n", XmlEscape(label),
                      report::KindName(p.kind));
  *out += fmt::format(
      "<p>left {} nodes, {} outputs; right {} nodes, {} outputs; {} matched pairs of which {} "
      "changed; {} removed, {} added; {} outputs only on the left, {} only on the right.</p>\n",
      p.left_nodes, p.left_outputs, p.right_nodes, p.right_outputs, p.matched, p.changed,
      p.left_only.size(), p.right_only.size(), p.left_only_outputs.size(),
      p.right_only_outputs.size());
  *out += "<div class=\"gd-sides\">\n";
  AppendSide(s, 0, p, layout, out);
  AppendSide(s, 1, p, layout, out);
  *out += "</div>\n";
  *out += fmt::format(
      "<div class=\"gd-expanded\" id=\"gx-{}\" hidden><h3>Expanded view <button type=\"button\" "
      "class=\"gd-xclear\" data-pair=\"{}\">clear</button></h3><div class=\"gd-sides\">"
      "<div class=\"gd-xside\" data-side=\"L\"></div><div class=\"gd-xside\" data-side=\"R\">"
      "</div></div></div>\n",
      s.pair, s.pair);
  *out += "</section>\n";
}

// Per finding, evidence -> (pair, side, node) for the script's links; the
// first drawn pair that resolves an item wins. Evidence that names no node
// of a drawn pair stays text.
using EvidenceLinks = std::vector<std::map<uint32_t, std::array<int64_t, 3>>>;

void AddLinks(const PairScene& s, EvidenceLinks* links) {
  for (int k = 0; k < 2; ++k) {
    for (const PairScene::FindingEvidence& fe : s.evidence[k]) {
      for (const auto& [e, node] : fe.items) {
        (*links)[fe.finding].emplace(
            e, std::array<int64_t, 3>{static_cast<int64_t>(s.pair), k, node});
      }
    }
  }
}

void AppendFindings(const DiffResult& r, const EvidenceLinks& evidence_links,
                    nlohmann::json* data, std::string* out) {
  *out += fmt::format("<section id=\"findings\"><h2>Findings ({})</h2>\n",
                      r.findings.empty() ? "none" : report::SeverityCounts(r.findings));
  *out += "<ol class=\"gd-findings\">\n";
  nlohmann::json findings = nlohmann::json::array();
  for (size_t i = 0; i < r.findings.size(); ++i) {
    const Finding& f = r.findings[i];
    nlohmann::json ev = nlohmann::json::array();
    std::string links;
    size_t linked = 0;
    const std::map<uint32_t, std::array<int64_t, 3>>& linked_at = evidence_links[i];
    for (uint32_t k = 0; k < f.evidence.size(); ++k) {
      const Evidence& e = f.evidence[k];
      auto at = linked_at.find(k);
      std::string text =
          e.side ? fmt::format("{} {}", SideName(*e.side), e.node) : e.node;
      if (!e.op.empty()) text += " " + e.op;
      if (!e.note.empty() && e.node.empty()) text += " " + e.note;
      if (at != linked_at.end()) {
        const std::array<int64_t, 3>& where = at->second;
        ev.push_back(where);
        ++linked;
        if (linked <= 200) {
          links += fmt::format(
              "<a href=\"#\" class=\"gd-ev\" data-p=\"{}\" data-s=\"{}\" data-i=\"{}\">{}</a> ",
              where[0], where[1], where[2], XmlEscape(text));
        }
      } else if (!text.empty() && links.size() < 20000) {
        links += "<span class=\"gd-evt\">" + XmlEscape(text) + "</span> ";
      }
    }
    if (linked > 200) links += fmt::format("<i>and {} more nodes</i>", linked - 200);
    if (f.evidence_omitted > 0) {
      links += fmt::format(" <i>({} evidence items not kept)</i>", f.evidence_omitted);
    }
    findings.push_back({{"id", f.id}, {"ev", std::move(ev)}});
    *out += fmt::format(
        "<li class=\"gd-finding gd-{}\" id=\"finding-{}\"><span class=\"gd-sev\">{}</span> "
        "<b>{}</b> <code>{}</code> <small>{}</small>",
        SeverityName(f.severity), i, SeverityName(f.severity), XmlEscape(f.title), XmlEscape(f.id),
        XmlEscape(f.graph));
    if (linked > 0) {
      *out += fmt::format(
          " <button type=\"button\" class=\"gd-show\" data-f=\"{}\">show {} in the drawings"
          "</button> <span class=\"gd-shown\"></span>",
          i, linked);
    }
    // Compact by default: the drawings must be in view soon after the list.
    if (!f.explanation.empty() || !f.hint.empty() || !links.empty()) {
      *out += fmt::format("<details><summary>why, and {} evidence item{}</summary>",
                          f.evidence.size(), f.evidence.size() == 1 ? "" : "s");
      if (!f.explanation.empty()) *out += "<p>" + XmlEscape(f.explanation) + "</p>";
      if (!f.hint.empty()) *out += "<p class=\"gd-hint\">Hint: " + XmlEscape(f.hint) + "</p>";
      if (!links.empty()) *out += "<div class=\"gd-evs\">" + links + "</div>";
      *out += "</details>";
    }
    *out += "</li>\n";
  }
  *out += "</ol></section>\n";
  (*data)["findings"] = std::move(findings);
}

void AppendMetrics(const DiffResult& r, std::string* out) {
  bool any = false;
  for (const MetricsPairDiff& m : r.metrics) {
    if (m.identical()) continue;
    if (!any) *out += "<section id=\"metrics\"><h2>Counters that moved</h2>\n";
    any = true;
    *out += "<h3>" + XmlEscape(report::MetricsName(m)) +
            "</h3><table class=\"gd-table\"><tr><th>counter</th><th>left</th><th>right</th></tr>\n";
    for (const CounterValues& c : m.counters) {
      if (c.left == c.right) continue;
      *out += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td></tr>\n", XmlEscape(c.name),
                          c.left ? std::to_string(*c.left) : "-",
                          c.right ? std::to_string(*c.right) : "-");
    }
    *out += "</table>\n";
  }
  if (any) *out += "</section>\n";
}

}  // namespace

std::string RenderDiffHtml(const DiffResult& result, const RenderOptions& options) {
  std::vector<size_t> drawn;
  std::vector<size_t> identical;
  std::vector<size_t> undrawn;
  for (size_t i = 0; i < result.pairs.size(); ++i) {
    const GraphPairDiff& p = result.pairs[i];
    if (p.identical()) {
      identical.push_back(i);
    } else if (options.graphs != nullptr && i < options.graphs->size() &&
               visual::Drawable(p, (*options.graphs)[i])) {
      drawn.push_back(i);
    } else {
      undrawn.push_back(i);
    }
  }
  // Each pair's scene is written out and dropped at once: kept until the
  // end, the scenes of a dump of 10^4 graphs held every node's state. The
  // findings list comes first on the page but needs the links the scenes
  // resolve, so the pairs' sections wait in their own string.
  EvidenceLinks links(result.findings.size());
  const std::vector<std::string> labels = report::PairLabels(result);
  std::string sections;
  nlohmann::json pairs = nlohmann::json::array();
  std::string node_blocks;
  {
    const visual::PairFindings findings(result, options.graphs);
    LineStarts lines;
    size_t laid_out = 0;
    for (size_t i : drawn) {
      const PairGraphs& g = (*options.graphs)[i];
      const PairScene s = visual::BuildScene(result, i, g, findings, options.max_drawn_nodes);
      AddLinks(s, &links);
      // Graphviz takes a while per drawing: dumps of hundreds of differing
      // graphs get the first ones laid out and the rest drawn on demand.
      AppendPair(result, s, labels[i], laid_out++ < options.max_laid_out_pairs, &sections);
      const GraphPairDiff& p = result.pairs[i];
      pairs.push_back({{"pair", i},
                       {"name", labels[i]},
                       {"sides", nlohmann::json::array({SideMeta(s, 0, p), SideMeta(s, 1, p)})}});
      node_blocks += fmt::format(
          "<script type=\"application/json\" id=\"gd-pair-{}\">{}</script>\n", i,
          ScriptJson(nlohmann::json::array(
              {SideData(s, 0, p, g.left_text, lines.Of(g.left_text)),
               SideData(s, 1, p, g.right_text, lines.Of(g.right_text))})));
    }
  }
  std::string out;
  out.reserve(std::max<size_t>(1 << 20, sections.size() + node_blocks.size() + (1 << 16)));
  out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<title>graphdiff: {} vs {}</title>\n", XmlEscape(result.left_root),
                     XmlEscape(result.right_root));
  out += "<style>\n";
  out += visual::kHtmlStyle;
  out += "</style></head>\n<body>\n<main>\n";
  out += fmt::format("<header><h1>graphdiff <small>{} &rarr; {}</small></h1>\n",
                     XmlEscape(result.left_root), XmlEscape(result.right_root));
  out += fmt::format("<p class=\"gd-verdict {}\">{}</p>\n",
                     result.identical() ? "gd-same" : "gd-differ",
                     XmlEscape(report::Verdict(result)));
  out += "<div class=\"gd-legend\">"
         "<span class=\"gd-sw\" style=\"background:#ef9a9a\"></span>removed (left only) "
         "<span class=\"gd-sw\" style=\"background:#a5d6a7\"></span>added (right only) "
         "<span class=\"gd-sw\" style=\"background:#ffe082\"></span>changed "
         "<span class=\"gd-sw\" style=\"background:#fff\"></span>same "
         "<span class=\"gd-sw gd-sw-out\"></span>output only on this side "
         "<span class=\"gd-sw gd-sw-sub\"></span>substitution group "
         "<span class=\"gd-sw gd-sw-open\"></span>more neighbours (click, then expand)"
         "</div>\n";
  out += "<div class=\"gd-search\"><input id=\"gd-q\" type=\"search\" placeholder=\"find nodes "
         "by name or op (e.g. %45, expand)\" autocomplete=\"off\"> <span id=\"gd-qcount\"></span>"
         "<div id=\"gd-qres\"></div></div>\n</header>\n";
  if (!drawn.empty()) {
    out += "<nav class=\"gd-nav\">Drawings:";
    for (size_t i : drawn) {
      out += fmt::format(" <a href=\"#pair-{}\">{}</a>", i,
                         XmlEscape(labels[i]));
    }
    out += "</nav>\n";
  }
  nlohmann::json data;
  AppendFindings(result, links, &data, &out);
  links = EvidenceLinks();
  out += sections;
  sections = std::string();
  if (!undrawn.empty()) {
    out += "<section><h2>Differing pairs not drawn</h2><ul>\n";
    for (size_t i : undrawn) {
      const GraphPairDiff& p = result.pairs[i];
      out += fmt::format("<li>{}: {} changed, {} removed, {} added (graphs not given)</li>\n",
                         XmlEscape(labels[i]), p.changed, p.left_only.size(),
                         p.right_only.size());
    }
    out += "</ul></section>\n";
  }
  if (!identical.empty()) {
    out += fmt::format("<section><h2>Identical pairs ({})</h2><ul>\n", identical.size());
    for (size_t i : identical) {
      out += "<li>" + XmlEscape(labels[i]) + "</li>\n";
    }
    out += "</ul></section>\n";
  }
  AppendMetrics(result, &out);
  out += "</main>\n<aside id=\"gd-details\"><p class=\"gd-muted\">Click a node, an evidence "
         "link or a search result to see both sides here.</p></aside>\n";
  out += "<pre id=\"gd-selftest\" hidden></pre>\n";
  data["pairs"] = std::move(pairs);
  out += "<script type=\"application/json\" id=\"gd-data\">" + ScriptJson(data) + "</script>\n";
  out += node_blocks;
  out += "<script>\n";
  out += visual::kHtmlScript;
  out += "</script>\n</body></html>\n";
  return out;
}

}  // namespace graphdiff
