// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The Markdown report, for pull-request comments and $GITHUB_STEP_SUMMARY.
// Dump text (node names, ops, notes) is escaped so it can neither break the
// tables nor inject markup.
#include <string>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/report.h"
#include "report/formats.h"
#include "report/report_util.h"
#include "graphdiff/sanitize.h"

namespace graphdiff {
namespace {

std::string Md(std::string_view s) { return MarkdownEscape(s); }

void AppendMore(std::string* out, size_t total, size_t shown) {
  if (total > shown) *out += fmt::format("- ... and {} more\n", total - shown);
}

void AppendFindings(std::string* out, const std::vector<Finding>& findings,
                    const RenderOptions& o) {
  *out += fmt::format("### Findings ({})\n\n", report::SeverityCounts(findings));
  *out += "| # | severity | id | graph | finding |\n|---|---|---|---|---|\n";
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    *out += fmt::format("| {} | {} | {} | {} | {} |\n", i + 1, SeverityName(f.severity),
                        Md(f.id), Md(f.graph), Md(f.title));
  }
  *out += "\n";
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    *out += fmt::format("<details><summary>{}. {}: {}</summary>\n\n", i + 1, Md(f.id),
                        Md(f.title));
    if (!f.explanation.empty()) *out += Md(f.explanation) + "\n\n";
    if (!f.hint.empty()) *out += "**Hint:** " + Md(f.hint) + "\n\n";
    size_t total = f.evidence.size() + static_cast<size_t>(f.evidence_omitted);
    if (total > 0) {
      *out += fmt::format("Evidence ({}):\n\n", total);
      size_t shown = report::Shown(f.evidence.size(), o.max_items);
      for (size_t k = 0; k < shown; ++k) {
        *out += "- " + Md(report::EvidenceLine(f.evidence[k])) + "\n";
      }
      AppendMore(out, total, shown);
      *out += "\n";
    }
    if (!f.related.empty()) {
      std::string rel;
      for (size_t k = 0; k < f.related.size(); ++k) rel += (k ? ", " : "") + Md(f.related[k]);
      *out += "Related: " + rel + "\n\n";
    }
    *out += "</details>\n\n";
  }
}

}  // namespace

std::string RenderDiffMarkdown(const DiffResult& r, const RenderOptions& o) {
  std::string out;
  out += fmt::format("## graphdiff: {} → {}\n\n", Md(r.left_root), Md(r.right_root));
  out += fmt::format("**{}**\n\n", Md(report::Verdict(r)));
  if (!r.findings.empty()) AppendFindings(&out, r.findings, o);
  if (!r.pairs.empty()) {
    out += fmt::format("### Graph pairs ({})\n\n", r.pairs.size());
    out += "| graph | kind | paired by | result | nodes | matched (changed) | left-only | "
           "right-only | inputs | outputs |\n|---|---|---|---|---|---|---|---|---|---|\n";
    const std::vector<std::string> labels = report::PairLabels(r);
    for (size_t i = 0; i < r.pairs.size(); ++i) {
      const GraphPairDiff& p = r.pairs[i];
      out += fmt::format("| {} | {} | {} | {} | {} → {} | {} ({}) | {} | {} | {} → {} | {} → {} |\n",
                         Md(labels[i]), report::KindName(p.kind), PairRuleName(p.how),
                         p.identical() ? "same" : "different", p.left_nodes, p.right_nodes,
                         p.matched, p.changed, p.left_only.size(), p.right_only.size(),
                         p.left_inputs, p.right_inputs, p.left_outputs, p.right_outputs);
    }
    out += "\n";
    for (size_t k = 0; k < r.pairs.size(); ++k) {
      const GraphPairDiff& p = r.pairs[k];
      if (p.op_delta.empty()) continue;
      std::vector<std::string> ops;
      for (const auto& [op, n] : p.op_delta) ops.push_back(fmt::format("{:+} {}", n, Md(op)));
      size_t shown = report::Shown(ops.size(), o.max_items);
      std::string joined;
      for (size_t i = 0; i < shown; ++i) joined += (i ? ", " : "") + ops[i];
      if (shown < ops.size()) joined += fmt::format(", ... and {} more", ops.size() - shown);
      out += fmt::format("- {} op counts: {}\n", Md(labels[k]), joined);
    }
    out += "\n";
  }
  if (!r.metrics.empty()) {
    out += fmt::format("### Metrics ({})\n\n", r.metrics.size());
    out += "| report | counter | left | right |\n|---|---|---|---|\n";
    for (const MetricsPairDiff& m : r.metrics) {
      for (const CounterValues& c : m.counters) {
        if (c.left == c.right) continue;
        out += fmt::format("| {} | {} | {} | {} |\n", Md(report::MetricsName(m)), Md(c.name),
                           c.left ? std::to_string(*c.left) : "absent",
                           c.right ? std::to_string(*c.right) : "absent");
      }
    }
    out += "\n";
  }
  if (!r.unpaired.empty()) {
    out += fmt::format("### Unpaired ({})\n\n", r.unpaired.size());
    size_t shown = report::Shown(r.unpaired.size(), o.max_items);
    for (size_t i = 0; i < shown; ++i) {
      const UnpairedItem& u = r.unpaired[i];
      out += fmt::format("- {} only: {} {}{}{}\n", SideName(u.side), UnpairedKindName(u.what),
                         Md(u.source),
                         u.graph.empty() ? "" : " ", Md(u.graph));
    }
    AppendMore(&out, r.unpaired.size(), shown);
    out += "\n";
  }
  if (!r.skipped.empty()) {
    out += fmt::format("### Skipped, not compared ({})\n\n", r.skipped.size());
    size_t shown = report::Shown(r.skipped.size(), o.max_items);
    for (size_t i = 0; i < shown; ++i) {
      const SkippedFile& f = r.skipped[i];
      out += fmt::format("- {}: {}: {}\n", SideName(f.side), Md(f.path), Md(f.reason));
    }
    AppendMore(&out, r.skipped.size(), shown);
    out += "\n";
  }
  if (!r.warnings.empty()) {
    out += fmt::format("### Reading warnings ({})\n\n", r.warnings.size());
    size_t shown = report::Shown(r.warnings.size(), o.max_items);
    for (size_t i = 0; i < shown; ++i) {
      const ReadingWarning& w = r.warnings[i];
      out += fmt::format("- {}: {}\n", SideName(w.side), Md(w.diagnostic.ToString()));
    }
    AppendMore(&out, r.warnings.size(), shown);
    out += "\n";
  }
  MakeTerminalSafe(&out);
  return out;
}

std::string RenderLintMarkdown(const LintReport& r, const RenderOptions& o) {
  std::string out = fmt::format("## graphdiff lint: {}\n\n", Md(r.root));
  if (r.findings.empty()) return TerminalSafe(out + "No findings.\n");
  AppendFindings(&out, r.findings, o);
  MakeTerminalSafe(&out);
  return out;
}

}  // namespace graphdiff
