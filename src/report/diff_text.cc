// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The terminal report: the verdict paragraph first, then the findings (most
// important first), then what each graph pair and metrics pair shows. Fits
// RenderOptions::width columns; long lists end with "... and N more".
#include <string>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/report.h"
#include "report/formats.h"
#include "report/report_util.h"

namespace graphdiff {
namespace {

using report::Paint;
using report::Wrap;

void AppendMore(std::string* out, size_t total, size_t shown, std::string_view indent) {
  if (total > shown) *out += fmt::format("{}... and {} more\n", indent, total - shown);
}

void AppendList(std::string* out, std::string_view heading, const std::vector<std::string>& items,
                const RenderOptions& o) {
  if (items.empty()) return;
  size_t shown = report::Shown(items.size(), o.max_items);
  std::string joined;
  for (size_t i = 0; i < shown; ++i) joined += (i ? ", " : "") + items[i];
  if (shown < items.size()) joined += fmt::format(", ... and {} more", items.size() - shown);
  *out += Wrap(fmt::format("{} ({}): {}", heading, items.size(), joined), o.width, "    ",
               "      ");
}

void AppendFindings(std::string* out, const std::vector<Finding>& findings,
                    const RenderOptions& o) {
  *out += Paint(fmt::format("Findings ({}: {})", findings.size(),
                            report::SeverityCounts(findings)),
                "1", o.color);
  *out += "\n";
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    std::string head = fmt::format("{}. [{}] {}: ", i + 1, SeverityName(f.severity), f.id);
    std::string indent(std::min<size_t>(head.size(), 6), ' ');
    std::string wrapped = Wrap(head + f.title, o.width, "", indent);
    if (o.color) {
      // Colour only the severity tag; wrapping was measured without escapes.
      std::string tag = fmt::format("[{}]", SeverityName(f.severity));
      size_t at = wrapped.find(tag);
      wrapped.replace(at, tag.size(), Paint(tag, report::SeverityColor(f.severity), true));
    }
    *out += wrapped;
    if (!f.graph.empty()) *out += Wrap("graph: " + f.graph, o.width, indent, indent + "  ");
    if (!f.explanation.empty()) *out += Wrap(f.explanation, o.width, indent, indent);
    if (!f.hint.empty()) *out += Wrap("hint: " + f.hint, o.width, indent, indent + "  ");
    size_t total = f.evidence.size() + static_cast<size_t>(f.evidence_omitted);
    if (total > 0) {
      *out += fmt::format("{}evidence ({}):\n", indent, total);
      size_t shown = report::Shown(f.evidence.size(), o.max_items);
      for (size_t k = 0; k < shown; ++k) {
        *out += Wrap(report::EvidenceLine(f.evidence[k]), o.width, indent + "  ",
                     indent + "    ");
      }
      AppendMore(out, total, shown, indent + "  ");
    }
    if (!f.related.empty()) {
      std::string rel;
      for (size_t k = 0; k < f.related.size(); ++k) rel += (k ? ", " : "") + f.related[k];
      *out += Wrap("related: " + rel, o.width, indent, indent + "  ");
    }
  }
}

void AppendPair(std::string* out, const GraphPairDiff& p, const RenderOptions& o) {
  std::string_view state = p.identical() ? "same" : "different";
  std::string head = Wrap(fmt::format("{} [{}, paired by {}]: {}", report::PairName(p),
                                      report::KindName(p.kind), p.how, state),
                          o.width, "  ", "    ");
  if (o.color) {
    // Colour after wrapping so escapes never count toward the width.
    size_t at = head.rfind(state);
    head.replace(at, state.size(), Paint(state, p.identical() ? "32" : "31", true));
  }
  *out += head;
  *out += Wrap(fmt::format("nodes {} -> {}; matched {} ({} changed); left-only {}, "
                           "right-only {}",
                           p.left_nodes, p.right_nodes, p.matched, p.changed, p.left_only.size(),
                           p.right_only.size()),
               o.width, "    ", "      ");
  *out += Wrap(fmt::format("inputs {} -> {}; outputs {} -> {} ({} matched)", p.left_inputs,
                           p.right_inputs, p.left_outputs, p.right_outputs, p.matched_outputs),
               o.width, "    ", "      ");
  if (!p.op_delta.empty()) {
    std::vector<std::string> ops;
    for (const auto& [op, n] : p.op_delta) ops.push_back(fmt::format("{:+} {}", n, op));
    AppendList(out, "op counts", ops, o);
  }
  std::vector<std::string> changed;
  for (const PairRow& row : p.pairs) {
    if (row.reasons == 0) continue;
    std::string reasons;
    for (const std::string& r : ChangeReasonNames(row.reasons)) {
      reasons += (reasons.empty() ? "" : "+") + r;
    }
    changed.push_back(fmt::format("{} {} -> {} {} [{}{}{}]", row.left, row.left_op, row.right,
                                  row.right_op, reasons, row.detail.empty() ? "" : ": ",
                                  row.detail));
  }
  if (!changed.empty()) {
    *out += fmt::format("    changed pairs ({}):\n", changed.size());
    size_t shown = report::Shown(changed.size(), o.max_items);
    for (size_t i = 0; i < shown; ++i) *out += Wrap(changed[i], o.width, "      ", "        ");
    AppendMore(out, changed.size(), shown, "      ");
  }
  AppendList(out, "left-only nodes", p.left_only, o);
  AppendList(out, "right-only nodes", p.right_only, o);
  AppendList(out, "left-only outputs", p.left_only_outputs, o);
  AppendList(out, "right-only outputs", p.right_only_outputs, o);
}

std::string Value(const std::optional<int64_t>& v) {
  return v ? std::to_string(*v) : std::string("absent");
}

}  // namespace

std::string RenderDiffText(const DiffResult& r, const RenderOptions& o) {
  std::string out;
  out += Paint(fmt::format("graphdiff: {} -> {}", r.left_root, r.right_root), "1", o.color);
  out += "\n\n";
  std::string verdict = report::Verdict(r);
  out += Wrap(verdict, o.width, "", "");
  if (o.color) {
    // Highlight the leading verdict word only.
    size_t end = out.find(':', out.find("\n\n") + 2);
    size_t start = out.find("\n\n") + 2;
    if (end != std::string::npos) {
      out.replace(start, end - start,
                  Paint(out.substr(start, end - start), r.same() ? "1;32" : "1;31", true));
    }
  }
  out += "\n";
  if (!r.findings.empty()) {
    AppendFindings(&out, r.findings, o);
    out += "\n";
  }
  out += Paint(fmt::format("Graph pairs ({})", r.pairs.size()), "1", o.color) + "\n";
  for (const GraphPairDiff& p : r.pairs) AppendPair(&out, p, o);
  if (!r.metrics.empty()) {
    out += "\n" + Paint(fmt::format("Metrics ({})", r.metrics.size()), "1", o.color) + "\n";
    for (const MetricsPairDiff& m : r.metrics) {
      std::vector<std::string> moved;
      for (const CounterValues& c : m.counters) {
        if (c.left != c.right) {
          moved.push_back(fmt::format("{} {} -> {}", c.name, Value(c.left), Value(c.right)));
        }
      }
      out += Wrap(fmt::format("{} [paired by {}]: {} of {} counters changed",
                              report::MetricsName(m), m.how, moved.size(), m.counters.size()),
                  o.width, "  ", "    ");
      size_t shown = report::Shown(moved.size(), o.max_items);
      for (size_t i = 0; i < shown; ++i) out += Wrap(moved[i], o.width, "    ", "      ");
      AppendMore(&out, moved.size(), shown, "    ");
    }
  }
  if (!r.unpaired.empty()) {
    out += "\n" + Paint(fmt::format("Unpaired ({})", r.unpaired.size()), "1", o.color) + "\n";
    size_t shown = report::Shown(r.unpaired.size(), o.max_items);
    for (size_t i = 0; i < shown; ++i) {
      const UnpairedItem& u = r.unpaired[i];
      out += Wrap(fmt::format("{} only: {} {}{}{}", u.side, u.what, u.source,
                              u.graph.empty() ? "" : " ", u.graph),
                  o.width, "  ", "    ");
    }
    AppendMore(&out, r.unpaired.size(), shown, "  ");
  }
  return out;
}

std::string RenderLintText(const LintReport& r, const RenderOptions& o) {
  std::string out = Paint(fmt::format("graphdiff lint: {}", r.root), "1", o.color) + "\n\n";
  if (r.findings.empty()) return out + "No findings.\n";
  AppendFindings(&out, r.findings, o);
  return out;
}

}  // namespace graphdiff
