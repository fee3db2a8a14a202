// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The terminal report: the verdict paragraph first, then the findings (most
// important first), then what each graph pair and metrics pair shows. Fits
// RenderOptions::width columns; long lists end with "... and N more".
#include <algorithm>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "fmt/format.h"
#include "graphdiff/report.h"
#include "report/formats.h"
#include "report/report_util.h"
#include "graphdiff/sanitize.h"

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

// Per finding: "as in 2." when an earlier finding already gave its hint,
// else the hint. One pass with the first giver of each hint: looking back
// from every finding was quadratic in a report of 10^4 findings.
std::vector<std::string> HintTexts(const std::vector<Finding>& findings) {
  absl::flat_hash_map<std::string_view, size_t> first;
  std::vector<std::string> out(findings.size());
  for (size_t i = 0; i < findings.size(); ++i) {
    if (findings[i].hint.empty()) continue;
    auto [at, added] = first.emplace(findings[i].hint, i);
    out[i] = added ? findings[i].hint : fmt::format("as in {}.", at->second + 1);
  }
  return out;
}

std::string OneLine(std::string_view text, size_t width) {
  return report::Clip(text, width) + "\n";
}

// The compact form: title, one line of evidence, the hint. The same finding
// in several graphs (the FX and the IR view of one change) is one entry; info
// findings are counted in one line when warnings tell the story.
void AppendFindingsBrief(std::string* out, const std::vector<Finding>& findings,
                         bool single_graph, const RenderOptions& o) {
  *out += Paint(fmt::format("Findings ({}: {})", findings.size(),
                            report::SeverityCounts(findings)),
                "1", o.color);
  *out += "\n";
  bool serious = !findings.empty() && findings[0].severity != Severity::kInfo;
  std::vector<std::vector<size_t>> groups;  // in order of first member
  // (id, title, hint) -> its group: a finding per graph of a dump of 10^4
  // graphs made comparing each with every group quadratic.
  absl::flat_hash_map<std::tuple<std::string_view, std::string_view, std::string_view>, size_t>
      group_of;
  std::map<std::string, size_t> info;  // id -> findings folded into the summary line
  std::vector<std::string> info_order;
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (serious && f.severity == Severity::kInfo) {
      if (info[f.id]++ == 0) info_order.push_back(f.id);
      continue;
    }
    auto [at, added] = group_of.emplace(std::make_tuple(std::string_view(f.id),
                                                        std::string_view(f.title),
                                                        std::string_view(f.hint)),
                                        groups.size());
    if (added) {
      groups.push_back({i});
    } else {
      groups[at->second].push_back(i);
    }
  }
  // --max-items 0 lists every entry, as it does in every other list.
  size_t shown = report::Shown(groups.size(), o.max_items);
  absl::flat_hash_map<std::string_view, size_t> hint_at;  // hint -> first entry giving it
  for (size_t n = 0; n < shown; ++n) {
    const Finding& f = findings[groups[n][0]];
    std::string head = fmt::format("{}. [{}] {}: ", n + 1, SeverityName(f.severity), f.id);
    std::string indent(std::min<size_t>(head.size(), 6), ' ');
    std::string title = f.title;
    if (groups[n].size() > 1) {
      for (size_t k : groups[n]) title += (k == groups[n][0] ? " (" : ", ") + findings[k].graph;
      title += ")";
    } else if (!f.graph.empty() && !single_graph && f.evidence.empty()) {
      title += " (" + f.graph + ")";  // the evidence line names the file otherwise
    }
    std::string wrapped = Wrap(head + title, o.width, "", indent);
    if (o.color) {
      std::string tag = fmt::format("[{}]", SeverityName(f.severity));
      size_t at = wrapped.find(tag);
      wrapped.replace(at, tag.size(), Paint(tag, report::SeverityColor(f.severity), true));
    }
    *out += wrapped;
    size_t total = f.evidence.size() + static_cast<size_t>(f.evidence_omitted);
    if (!f.evidence.empty()) {
      std::string more = total > 1 ? fmt::format(" (+{} more)", total - 1) : std::string();
      std::string line = indent + "e.g. " + report::EvidenceLine(f.evidence[0]);
      size_t room = o.width > more.size() ? o.width - more.size() : o.width;
      std::string clipped = OneLine(line, room);
      clipped.pop_back();
      *out += clipped + more + "\n";
    }
    if (!f.hint.empty()) {
      auto [at, added] = hint_at.emplace(f.hint, n);
      std::string hint = added ? f.hint : fmt::format("as in {}.", at->second + 1);
      *out += Wrap("hint: " + hint, o.width, indent, indent + "  ");
    }
  }
  if (shown < groups.size()) {
    *out += fmt::format("   ... and {} more (--verbose lists them)\n", groups.size() - shown);
  }
  if (!info.empty()) {
    size_t total = 0;
    std::string list;
    for (const std::string& id : info_order) {
      total += info[id];
      list += fmt::format("{}{} x{}", list.empty() ? "" : ", ", id, info[id]);
    }
    *out += Wrap(fmt::format("+ {} info finding{}: {} (--verbose lists them)", total,
                             total == 1 ? "" : "s", list),
                 o.width, "   ", "     ");
  }
}

void AppendFindings(std::string* out, const std::vector<Finding>& findings,
                    const RenderOptions& o) {
  *out += Paint(fmt::format("Findings ({}: {})", findings.size(),
                            report::SeverityCounts(findings)),
                "1", o.color);
  *out += "\n";
  std::vector<std::string> hints = HintTexts(findings);
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
    if (!f.hint.empty()) {
      *out += Wrap("hint: " + hints[i], o.width, indent, indent + "  ");
    }
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

std::string PartialNote(const GraphPairDiff& p) {
  if (p.left_partial && p.right_partial) return " (both partial)";
  if (p.left_partial) return " (left partial)";
  if (p.right_partial) return " (right partial)";
  return "";
}

// One line per pair: nodes (+right-only -left-only ~changed), outputs, inputs.
std::string PairOneLiner(const GraphPairDiff& p, const std::string& label) {
  std::string line = fmt::format("{} [{}]{}: ", label, report::KindName(p.kind),
                                 PartialNote(p));
  if (p.identical()) return line + fmt::format("same ({} nodes)", p.left_nodes);
  // On the basis of `nodes`, which leaves get_attr nodes out: a module-level
  // trace against its aten trace once read `nodes 70->91 (+122 -0 ~70)`,
  // 102 of the 122 make_fx's parameter fetches.
  const uint64_t added = p.right_only.size() - std::min<uint64_t>(p.right_only_get_attrs,
                                                                  p.right_only.size());
  const uint64_t removed = p.left_only.size() - std::min<uint64_t>(p.left_only_get_attrs,
                                                                   p.left_only.size());
  line += fmt::format("nodes {}->{} (+{} -{} ~{})", p.left_nodes, p.right_nodes, added,
                      removed, p.changed);
  if (p.left_only_get_attrs + p.right_only_get_attrs > 0) {
    line += fmt::format(", get_attr +{} -{}", p.right_only_get_attrs, p.left_only_get_attrs);
  }
  if (p.left_outputs != p.right_outputs) {
    line += fmt::format(", outputs {}->{}", p.left_outputs, p.right_outputs);
  }
  if (p.left_inputs != p.right_inputs) {
    line += fmt::format(", inputs {}->{}", p.left_inputs, p.right_inputs);
  }
  return line;
}

void AppendPair(std::string* out, const GraphPairDiff& p, const std::string& label,
                const RenderOptions& o) {
  std::string_view state = p.identical() ? "same" : "different";
  std::string head = Wrap(fmt::format("{} [{}, paired by {}]{}: {}", label,
                                      report::KindName(p.kind), PairRuleName(p.how), PartialNote(p),
                                      state),
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

// Unpaired items, skipped files and reading warnings: everything the
// comparison did not cover, so nothing is dropped silently.
void AppendUncovered(std::string* out, const DiffResult& r, const RenderOptions& o) {
  if (!r.unpaired.empty()) {
    *out += "\n" + Paint(fmt::format("Unpaired ({})", r.unpaired.size()), "1", o.color) + "\n";
    size_t shown = report::Shown(r.unpaired.size(), o.max_items);
    for (size_t i = 0; i < shown; ++i) {
      const UnpairedItem& u = r.unpaired[i];
      *out += Wrap(fmt::format("{} only: {} {}{}{}", SideName(u.side), UnpairedKindName(u.what),
                               u.source,
                               u.graph.empty() ? "" : " ", u.graph),
                   o.width, "  ", "    ");
    }
    AppendMore(out, r.unpaired.size(), shown, "  ");
  }
  if (!r.skipped.empty()) {
    *out += "\n" + Paint(fmt::format("Skipped, not compared ({})", r.skipped.size()), "1",
                         o.color) + "\n";
    size_t shown = report::Shown(r.skipped.size(), o.verbose ? 0 : o.max_items);
    for (size_t i = 0; i < shown; ++i) {
      const SkippedFile& f = r.skipped[i];
      *out += Wrap(fmt::format("{}: {}: {}", SideName(f.side), f.path, f.reason), o.width, "  ",
                   "    ");
    }
    AppendMore(out, r.skipped.size(), shown, "  ");
  }
  if (!r.warnings.empty()) {
    uint64_t total = 0;
    std::vector<std::string> files;
    for (const ReadingWarning& w : r.warnings) {
      total += w.diagnostic.count;
      if (files.empty() || files.back() != w.diagnostic.source) {
        files.push_back(w.diagnostic.source);
      }
    }
    std::sort(files.begin(), files.end());
    files.erase(std::unique(files.begin(), files.end()), files.end());
    *out += "\n" + Paint(fmt::format("Reading warnings ({} in {} file{})", total, files.size(),
                                     files.size() == 1 ? "" : "s"),
                         "1", o.color) + "\n";
    size_t limit = o.verbose ? 0 : std::min<size_t>(o.max_items == 0 ? 3 : o.max_items, 3);
    size_t shown = report::Shown(r.warnings.size(), limit);
    for (size_t i = 0; i < shown; ++i) {
      const ReadingWarning& w = r.warnings[i];
      *out += Wrap(fmt::format("{}: {}", SideName(w.side), w.diagnostic.ToString()), o.width, "  ",
                   "    ");
    }
    if (shown < r.warnings.size()) {
      *out += fmt::format("  ... and {} more (--verbose lists them)\n",
                          r.warnings.size() - shown);
    }
  }
}

void AppendMetrics(std::string* out, const DiffResult& r, const RenderOptions& o) {
  if (r.metrics.empty()) return;
  *out += "\n" + Paint(fmt::format("Metrics ({})", r.metrics.size()), "1", o.color) + "\n";
  for (const MetricsPairDiff& m : r.metrics) {
    std::vector<std::string> moved;
    for (const CounterValues& c : m.counters) {
      if (c.left != c.right) {
        moved.push_back(fmt::format("{} {} -> {}", c.name, Value(c.left), Value(c.right)));
      }
    }
    std::string head = fmt::format("{} [paired by {}]: {} of {} counters changed",
                                   report::MetricsName(m), PairRuleName(m.how), moved.size(),
                                   m.counters.size());
    if (!o.verbose) {
      // One line: the first few moves.
      size_t shown = report::Shown(moved.size(), std::min<size_t>(3, std::max<size_t>(
                                                                       o.max_items, 1)));
      std::string list;
      for (size_t i = 0; i < shown; ++i) list += (i ? ", " : ": ") + moved[i];
      if (shown < moved.size()) list += fmt::format(", +{} more", moved.size() - shown);
      *out += Wrap(head + list, o.width, "  ", "    ");
      continue;
    }
    *out += Wrap(head, o.width, "  ", "    ");
    size_t shown = report::Shown(moved.size(), o.max_items);
    for (size_t i = 0; i < shown; ++i) *out += Wrap(moved[i], o.width, "    ", "      ");
    AppendMore(out, moved.size(), shown, "    ");
  }
}

}  // namespace

std::string RenderDiffText(const DiffResult& r, const RenderOptions& o) {
  std::string out;
  out += Paint(Wrap(fmt::format("graphdiff: {} -> {}", r.left_root, r.right_root), o.width, "",
                    "  "),
               "1", o.color);
  out += "\n";
  std::string verdict = o.verbose ? report::Verdict(r) : report::VerdictHead(r);
  // The story's lead is said in the verdict itself, before any list: the
  // headline of the first finding's title (before its ": details").
  if (!o.verbose && !r.empty() && !r.findings.empty()) {
    std::string_view title = r.findings[0].title;
    verdict += fmt::format(" Most important: {}.", title.substr(0, title.find(": ")));
  }
  size_t verdict_at = out.size();
  out += Wrap(verdict, o.width, "", "");
  if (o.color) {
    // Highlight the leading verdict word only.
    size_t end = out.find(':', verdict_at);
    if (end != std::string::npos) {
      out.replace(verdict_at, end - verdict_at,
                  Paint(out.substr(verdict_at, end - verdict_at),
                        r.identical() ? "1;32" : "1;31", true));
    }
  }
  out += "\n";
  if (!r.findings.empty()) {
    if (o.verbose) {
      AppendFindings(&out, r.findings, o);
    } else {
      AppendFindingsBrief(&out, r.findings, r.pairs.size() + r.metrics.size() <= 1, o);
    }
    out += "\n";
  }
  size_t same = 0;
  for (const GraphPairDiff& p : r.pairs) same += p.identical();
  std::string heading = fmt::format("Graph pairs ({}", r.pairs.size());
  if (!r.pairs.empty()) {
    heading += fmt::format(": {} differ, {} same", r.pairs.size() - same, same);
    if (!o.verbose && same < r.pairs.size()) heading += "; nodes +added -removed ~changed";
  }
  out += Paint(Wrap(heading + ")", o.width, "", "  "), "1", o.color);
  const std::vector<std::string> labels = report::PairLabels(r);
  std::vector<size_t> listed;
  for (size_t i = 0; i < r.pairs.size(); ++i) {
    if (o.all || !r.pairs[i].identical()) listed.push_back(i);
  }
  size_t shown = o.verbose ? listed.size() : report::Shown(listed.size(), o.max_items);
  for (size_t i = 0; i < shown; ++i) {
    const GraphPairDiff& p = r.pairs[listed[i]];
    if (o.verbose) {
      AppendPair(&out, p, labels[listed[i]], o);
    } else {
      out += Wrap(PairOneLiner(p, labels[listed[i]]), o.width, "  ", "    ");
    }
  }
  if (shown < listed.size()) {
    out += fmt::format("  ... and {} more (--stat lists every pair)\n", listed.size() - shown);
  }
  if (!o.all && same > 0) {
    out += fmt::format("  ({} identical pair{} not listed; --all lists them)\n", same,
                       same == 1 ? "" : "s");
  }
  AppendMetrics(&out, r, o);
  AppendUncovered(&out, r, o);
  if (!o.verbose && !r.identical()) {
    out += "\nMore: --verbose, --stat, --format json.\n";
  }
  MakeTerminalSafe(&out, o.color);
  return out;
}

std::string RenderLintText(const LintReport& r, const RenderOptions& o) {
  std::string out = Paint(fmt::format("graphdiff lint: {}", r.root), "1", o.color) + "\n\n";
  if (r.findings.empty()) return TerminalSafe(out + "No findings.\n", o.color);
  AppendFindings(&out, r.findings, o);
  MakeTerminalSafe(&out, o.color);
  return out;
}

}  // namespace graphdiff
