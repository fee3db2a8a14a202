// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "report/report_util.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "fmt/format.h"
#include "graphdiff/sanitize.h"
#include "util/labels.h"

namespace graphdiff::report {

namespace {

// Length of the colour sequence (ESC [ digits ; ... m) at s[i], or 0.
size_t SgrLength(std::string_view s, size_t i) {
  if (i + 1 >= s.size() || s[i] != '\x1b' || s[i + 1] != '[') return 0;
  size_t j = i + 2;
  while (j < s.size() && ((s[j] >= '0' && s[j] <= '9') || s[j] == ';')) ++j;
  return j < s.size() && s[j] == 'm' ? j + 1 - i : 0;
}

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

size_t DisplayWidth(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size();) {
    if (size_t sgr = SgrLength(s, i)) {
      i += sgr;
      continue;
    }
    n += !IsContinuationByte(s[i]);
    ++i;
  }
  return n;
}

std::string Clip(std::string_view text, size_t width) {
  std::string safe = TerminalSafe(text, /*keep_sgr=*/true);
  if (width <= 4 || DisplayWidth(safe) <= width) return safe;
  std::string out;
  size_t columns = 0;
  for (size_t i = 0; i < safe.size();) {
    if (size_t sgr = SgrLength(safe, i)) {
      out.append(safe, i, sgr);
      i += sgr;
      continue;
    }
    size_t j = i + 1;
    while (j < safe.size() && IsContinuationByte(safe[j])) ++j;
    if (columns + 1 > width - 3) break;
    out.append(safe, i, j - i);
    ++columns;
    i = j;
  }
  return out + "...";
}

std::string Wrap(std::string_view text, size_t width, std::string_view first,
                 std::string_view rest) {
  std::string out;
  std::string line(first);
  size_t columns = DisplayWidth(first);
  size_t prefix = line.size();
  bool empty_line = true;
  auto break_line = [&] {
    out += line;
    out += '\n';
    line.assign(rest);
    columns = DisplayWidth(rest);
    prefix = rest.size();
    empty_line = true;
  };
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\n') ++j;
    if (j > i) {
      // Measured as it will be shown: escaping a control byte or an invalid
      // one makes it four columns wide.
      std::string word = TerminalSafe(text.substr(i, j - i), /*keep_sgr=*/true);
      size_t word_columns = DisplayWidth(word);
      if (!empty_line && columns + 1 + word_columns > width) break_line();
      if (!empty_line) {
        line += ' ';
        ++columns;
      }
      line += word;
      columns += word_columns;
      empty_line = false;
    }
    if (j < text.size() && text[j] == '\n') break_line();
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

std::string PairName(const GraphPairDiff& p) { return SidesLabel(p.left_source, p.right_source); }

std::vector<std::string> PairLabels(const DiffResult& r) {
  std::vector<std::string> out;
  out.reserve(r.pairs.size());
  absl::flat_hash_map<std::string, size_t> uses;
  for (const GraphPairDiff& p : r.pairs) out.push_back(PairName(p));
  for (const std::string& name : out) ++uses[name];
  for (size_t i = 0; i < out.size(); ++i) {
    const GraphPairDiff& p = r.pairs[i];
    // `uses` holds copies: out[i] is read before it grows, as every later one.
    if (uses[out[i]] < 2 || (p.left_graph.empty() && p.right_graph.empty())) continue;
    out[i] += " (" + SidesLabel(p.left_graph, p.right_graph) + ")";
  }
  return out;
}

std::string MetricsName(const MetricsPairDiff& m) {
  return SidesLabel(m.left_source, m.right_source);
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
