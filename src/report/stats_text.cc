// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <map>

#include "fmt/format.h"
#include "graphdiff/stats.h"
#include "graphdiff/sanitize.h"

namespace graphdiff {
namespace {

std::string Bytes(uint64_t b) {
  if (b >= (1ull << 30)) return fmt::format("{:.2f} GiB", b / double(1ull << 30));
  if (b >= (1ull << 20)) return fmt::format("{:.2f} MiB", b / double(1ull << 20));
  if (b >= (1ull << 10)) return fmt::format("{:.2f} KiB", b / double(1ull << 10));
  return fmt::format("{} B", b);
}

}  // namespace

std::string RenderStatsText(const StatsReport& report, size_t top_ops) {
  std::string out;
  for (const GraphStats& g : report.graphs) {
    std::string title = g.source;
    if (!g.name.empty()) title += fmt::format(" [{}]", g.name);
    if (g.repeat_count > 1) title += fmt::format(" (x{} identical records)", g.repeat_count);
    out += fmt::format("{} ({} graph)\n", title, GraphKindName(g.kind));
    out += fmt::format("  nodes {}  inputs {}  outputs {}  constants {}  multi-output {}\n",
                       g.nodes, g.inputs, g.outputs, g.constants, g.multi_output_nodes);
    out += fmt::format("  parameter bytes {}", Bytes(g.parameter_bytes));
    if (g.inputs_unknown_size) {
      out += fmt::format(" (+{} inputs of unknown size)", g.inputs_unknown_size);
    }
    out += "\n";
    if (!g.dtypes.empty()) {
      out += "  dtypes";
      for (const auto& [dt, n] : g.dtypes) out += fmt::format("  {} {}", dt, n);
      out += "\n";
    }
    // Most frequent first, then by name, so the eye lands on what dominates.
    std::vector<std::pair<std::string, uint64_t>> ops(g.ops.begin(), g.ops.end());
    std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) {
      return a.second > b.second;
    });
    size_t shown = top_ops == 0 ? ops.size() : std::min(top_ops, ops.size());
    size_t width = 0;
    for (size_t i = 0; i < shown; ++i) width = std::max(width, ops[i].first.size());
    out += "  ops:\n";
    for (size_t i = 0; i < shown; ++i) {
      out += fmt::format("    {:<{}}  {:>7}\n", ops[i].first, width, ops[i].second);
    }
    if (shown < ops.size()) out += fmt::format("    ... {} more ops\n", ops.size() - shown);
  }
  for (const MetricsReport& m : report.metrics) {
    out += fmt::format("{} (metrics: {} counters, {} metrics)\n", m.source,
                       m.counters.size(), m.metrics.size());
    std::map<std::string, int64_t> counters;
    for (const Counter& c : m.counters) counters[c.name] = c.value;
    size_t width = 0;
    for (const auto& [name, v] : counters) width = std::max(width, name.size());
    for (const auto& [name, v] : counters) {
      out += fmt::format("    {:<{}}  {:>10}\n", name, width, v);
    }
  }
  for (const auto& [path, reason] : report.skipped) {
    out += fmt::format("{}: skipped: {}\n", path, reason);
  }
  return TerminalSafe(out);
}

}  // namespace graphdiff
