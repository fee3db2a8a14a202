// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The short forms: `--stat` (one line per differing pair, a bar of node
// changes, like `git diff --stat`) and `--brief` (one line).
#include <algorithm>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/report.h"
#include "report/report_util.h"
#include "graphdiff/sanitize.h"

namespace graphdiff {
namespace {

struct StatRow {
  std::string name;
  std::string numbers;
  size_t plus = 0;    // right-only nodes
  size_t minus = 0;   // left-only nodes
  size_t tilde = 0;   // changed pairs
};

std::string Plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

std::string RenderDiffStat(const DiffResult& r, const RenderOptions& o) {
  std::vector<StatRow> rows;
  size_t same = 0;
  const std::vector<std::string> labels = report::PairLabels(r);
  for (size_t i = 0; i < r.pairs.size(); ++i) {
    const GraphPairDiff& p = r.pairs[i];
    if (p.identical() && !o.all) {
      ++same;
      continue;
    }
    same += p.identical();
    StatRow row;
    row.name = TerminalSafe(labels[i]);
    row.numbers = fmt::format("nodes {} -> {}", p.left_nodes, p.right_nodes);
    if (p.left_outputs != p.right_outputs) {
      row.numbers += fmt::format(", outputs {} -> {}", p.left_outputs, p.right_outputs);
    }
    if (p.left_partial || p.right_partial) row.numbers += " (partial)";
    row.plus = p.right_only.size();
    row.minus = p.left_only.size();
    row.tilde = p.changed;
    rows.push_back(std::move(row));
  }
  size_t metrics_changed = 0;
  for (const MetricsPairDiff& m : r.metrics) {
    size_t moved = 0;
    for (const CounterValues& c : m.counters) moved += c.left != c.right;
    if (moved == 0 && !o.all) continue;
    metrics_changed += moved > 0;
    StatRow row;
    row.name = TerminalSafe(report::MetricsName(m));
    row.numbers = fmt::format("{} of {} counters changed", moved, m.counters.size());
    rows.push_back(std::move(row));
  }
  size_t name_width = 0, numbers_width = 0, biggest = 0;
  for (const StatRow& row : rows) {
    name_width = std::max(name_width, report::DisplayWidth(row.name));
    numbers_width = std::max(numbers_width, row.numbers.size());
    biggest = std::max(biggest, row.plus + row.minus + row.tilde);
  }
  // Long names give way to the bar, as git does.
  name_width = std::min<size_t>(name_width, std::max<size_t>(o.width / 2, 20));
  std::string out;
  for (const StatRow& row : rows) {
    // Names are measured as shown (escapes included) and cut from the
    // front, at a code point, so the file name stays.
    std::string name = row.name;
    size_t shown = report::DisplayWidth(name);
    if (shown > name_width) {
      size_t drop = shown - name_width + 3, at = 0;
      while (drop > 0 && at < name.size()) {
        ++at;
        while (at < name.size() && (static_cast<unsigned char>(name[at]) & 0xC0) == 0x80) ++at;
        --drop;
      }
      name = "..." + name.substr(at);
      shown = name_width;
    }
    std::string line = fmt::format(" {}{} | {:<{}}", name, std::string(name_width - shown, ' '),
                                   row.numbers, numbers_width);
    size_t total = row.plus + row.minus + row.tilde;
    std::string counts = fmt::format(" +{} -{} ~{} ", row.plus, row.minus, row.tilde);
    // Counts and bar only where they fit: the width holds.
    if (total > 0 && report::DisplayWidth(line) + counts.size() <= o.width) {
      size_t used = report::DisplayWidth(line);
      size_t room = o.width > used + counts.size() + 1 ? o.width - used - counts.size() - 1 : 0;
      size_t bar = biggest <= room ? total : (total * room + biggest - 1) / biggest;
      auto part = [&](size_t n) { return total == 0 ? 0 : (n * bar + total - 1) / total; };
      line += counts + std::string(std::min(bar, part(row.plus)), '+') +
              std::string(std::min(bar, part(row.minus)), '-') +
              std::string(std::min(bar, part(row.tilde)), '~');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  size_t differ = r.pairs.size() - same;
  if (o.all) {
    differ = 0;
    for (const GraphPairDiff& p : r.pairs) differ += !p.identical();
    same = r.pairs.size() - differ;
  }
  std::string summary = fmt::format("{} {}, {} same; {} changed",
                                    Plural(differ, "graph pair", "graph pairs"),
                                    differ == 1 ? "differs" : "differ", same,
                                    Plural(metrics_changed, "metrics report", "metrics reports"));
  if (!r.unpaired.empty()) summary += fmt::format("; {} unpaired", r.unpaired.size());
  if (!r.skipped.empty()) {
    summary += fmt::format("; {} skipped", Plural(r.skipped.size(), "file", "files"));
  }
  out += report::Wrap(summary, o.width, " ", "   ");
  MakeTerminalSafe(&out);
  return out;
}

std::string RenderDiffBrief(const DiffResult& r) {
  std::string out = report::VerdictHead(r);
  if (!r.findings.empty()) {
    out += fmt::format(" Top finding: {} ({}).", r.findings[0].title, r.findings[0].id);
  }
  if (!r.skipped.empty()) {
    out += fmt::format(" {} skipped.", Plural(r.skipped.size(), "file", "files"));
  }
  return TerminalSafe(out + "\n");
}

}  // namespace graphdiff
