// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "report/report_util.h"

#include <string>
#include <vector>

#include "fmt/format.h"

namespace graphdiff::report {

std::string Wrap(std::string_view text, size_t width, std::string_view first,
                 std::string_view rest) {
  std::string out;
  std::string line(first);
  size_t prefix = first.size();
  bool empty_line = true;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && text[i] == ' ') ++i;
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\n') ++j;
    if (j > i) {
      std::string_view word = text.substr(i, j - i);
      if (!empty_line && line.size() + 1 + word.size() > width) {
        out += line;
        out += '\n';
        line.assign(rest);
        prefix = rest.size();
        empty_line = true;
      }
      if (!empty_line) line += ' ';
      line += word;
      empty_line = false;
    }
    if (j < text.size() && text[j] == '\n') {
      out += line;
      out += '\n';
      line.assign(rest);
      prefix = rest.size();
      empty_line = true;
    }
    i = j + (j < text.size() && text[j] == '\n' ? 1 : 0);
  }
  if (!empty_line || line.size() > prefix || out.empty()) {
    out += line;
    out += '\n';
  }
  return out;
}

std::string Paint(std::string_view text, std::string_view code, bool color) {
  if (!color || code.empty()) return std::string(text);
  return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
}

std::string_view SeverityColor(Severity s) {
  switch (s) {
    case Severity::kError: return "1;31";
    case Severity::kWarning: return "33";
    case Severity::kInfo: return "36";
  }
  return "";
}

std::string EvidenceLine(const Evidence& e) {
  std::string out;
  auto add = [&out](std::string_view part) {
    if (part.empty()) return;
    if (!out.empty()) out += ' ';
    out += part;
  };
  add(SideName(e.side));
  add(e.line > 0 ? fmt::format("{}:{}", e.source, e.line) : e.source);
  add(e.node);
  add(e.op);
  if (!e.note.empty()) out += (out.empty() ? "" : ": ") + e.note;
  return out;
}

std::string PairName(const GraphPairDiff& p) {
  return p.left_source == p.right_source ? p.left_source
                                         : fmt::format("{} <-> {}", p.left_source, p.right_source);
}

std::string MetricsName(const MetricsPairDiff& m) {
  return m.left_source == m.right_source ? m.left_source
                                         : fmt::format("{} <-> {}", m.left_source, m.right_source);
}

std::string_view KindName(GraphKind kind) {
  switch (kind) {
    case GraphKind::kIr: return "IR";
    case GraphKind::kFx: return "FX";
    case GraphKind::kHlo: return "HLO";
  }
  return "?";
}

std::string SeverityCounts(const std::vector<Finding>& findings) {
  size_t n[3] = {0, 0, 0};
  for (const Finding& f : findings) ++n[static_cast<int>(f.severity)];
  std::vector<std::string> parts;
  if (n[2]) parts.push_back(fmt::format("{} error{}", n[2], n[2] == 1 ? "" : "s"));
  if (n[1]) parts.push_back(fmt::format("{} warning{}", n[1], n[1] == 1 ? "" : "s"));
  if (n[0]) parts.push_back(fmt::format("{} info", n[0]));
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
  return out.empty() ? "none" : out;
}

std::string VerdictHead(const DiffResult& r) {
  if (r.empty()) {
    return fmt::format(
        "Nothing compared: no graph pair and no metrics pair (left holds {} graph{} and {} "
        "metrics report{}, right {} and {}).",
        r.left_graphs, r.left_graphs == 1 ? "" : "s", r.left_metrics,
        r.left_metrics == 1 ? "" : "s", r.right_graphs, r.right_metrics);
  }
  size_t differ = 0;
  for (const GraphPairDiff& p : r.pairs) differ += !p.identical();
  size_t metrics_differ = 0;
  for (const MetricsPairDiff& m : r.metrics) metrics_differ += !m.identical();
  std::string out;
  if (r.identical()) {
    out = fmt::format(
        "Same up to numbering and order: {} graph pair{} and {} metrics report{} compared.",
        r.pairs.size(), r.pairs.size() == 1 ? "" : "s", r.metrics.size(),
        r.metrics.size() == 1 ? "" : "s");
  } else {
    out = fmt::format("Different: {} of {} graph pair{} differ", differ, r.pairs.size(),
                      r.pairs.size() == 1 ? "" : "s");
    if (!r.metrics.empty()) {
      out += fmt::format(", {} of {} metrics report{} changed", metrics_differ, r.metrics.size(),
                         r.metrics.size() == 1 ? "" : "s");
    }
    if (!r.unpaired.empty()) out += fmt::format(", {} unpaired", r.unpaired.size());
    out += ".";
  }
  size_t partial = 0;
  for (const GraphPairDiff& p : r.pairs) partial += p.left_partial || p.right_partial;
  if (partial > 0) {
    out += fmt::format(" {} pair{} involve{} a partial graph (elided or truncated in the dump): "
                       "counts there are what the dump holds.",
                       partial, partial == 1 ? "" : "s", partial == 1 ? "s" : "");
  }
  return out;
}

std::string Verdict(const DiffResult& r) {
  std::string out = VerdictHead(r);
  if (r.empty()) return out;
  if (r.findings.empty()) return out + (r.identical() ? "" : " No findings explain it.");
  // The story: the most important findings (already sorted), at most five,
  // and no info finding crowding out a list that has warnings.
  std::vector<std::string> items;
  for (const Finding& f : r.findings) {
    if (items.size() == 5) break;
    if (items.size() >= 3 && f.severity == Severity::kInfo &&
        r.findings[0].severity != Severity::kInfo) {
      break;
    }
    items.push_back(fmt::format("{} ({}{}{})", f.title, f.id, f.graph.empty() ? "" : ", ",
                                f.graph));
  }
  out += " Findings: ";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "; " : "") + items[i];
  if (items.size() < r.findings.size()) {
    out += fmt::format("; and {} more", r.findings.size() - items.size());
  }
  return out + ".";
}

}  // namespace graphdiff::report
