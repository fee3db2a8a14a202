// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <iterator>
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

bool IsAscii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

// `    {op:<width}  {count:>7}`: a graph of module calls has an op a node, and
// formatting a million such lines through a format string was a tenth of
// `graphdiff stats` on it. fmt pads by display width, which only differs
// from the byte count for non-ASCII text: that is left to fmt.
void AppendOpLine(std::string_view op, size_t width, uint64_t count, std::string* out) {
  if (!IsAscii(op)) {
    fmt::format_to(std::back_inserter(*out), "    {:<{}}  {:>7}\n", op, width, count);
    return;
  }
  const fmt::format_int digits(count);
  out->append(4, ' ');
  out->append(op);
  out->append(width - op.size() + 2 + (digits.size() < 7 ? 7 - digits.size() : 0), ' ');
  out->append(digits.data(), digits.size());
  out->push_back('\n');
}

}  // namespace

void AppendGraphStatsText(const GraphStats& g, size_t top_ops, std::string* out) {
  // Written in place, not through a string a line: a dump of symbolic_trace
  // graphs lists a million module ops, tens of megabytes of report.
  const size_t start = out->size();
  auto to = std::back_inserter(*out);
  fmt::format_to(to, "{}", g.source);
  if (!g.name.empty()) fmt::format_to(to, " [{}]", g.name);
  if (g.repeat_count > 1) fmt::format_to(to, " (x{} identical records)", g.repeat_count);
  fmt::format_to(to, " ({} graph)\n", GraphKindName(g.kind));
  fmt::format_to(to, "  nodes {}  inputs {}  outputs {}  constants {}  multi-output {}\n",
                 g.nodes, g.inputs, g.outputs, g.constants, g.multi_output_nodes);
  fmt::format_to(to, "  parameter bytes {}", Bytes(g.parameter_bytes));
  if (g.inputs_unknown_size) {
    fmt::format_to(to, " (+{} inputs of unknown size)", g.inputs_unknown_size);
  }
  *out += "\n";
  if (!g.dtypes.empty()) {
    *out += "  dtypes";
    for (const auto& [dt, n] : g.dtypes) fmt::format_to(to, "  {} {}", dt, n);
    *out += "\n";
  }
  // Most frequent first, then by name, so the eye lands on what dominates.
  std::vector<const std::pair<const std::string, uint64_t>*> ops;
  ops.reserve(g.ops.size());
  for (const auto& op : g.ops) ops.push_back(&op);
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto* a, const auto* b) { return a->second > b->second; });
  size_t shown = top_ops == 0 ? ops.size() : std::min(top_ops, ops.size());
  size_t width = 0;
  for (size_t i = 0; i < shown; ++i) width = std::max(width, ops[i]->first.size());
  *out += "  ops:\n";
  for (size_t i = 0; i < shown; ++i) AppendOpLine(ops[i]->first, width, ops[i]->second, out);
  if (shown < ops.size()) fmt::format_to(to, "    ... {} more ops\n", ops.size() - shown);
  MakeTerminalSafeFrom(out, start);
}

std::string RenderStatsText(const StatsReport& report, size_t top_ops) {
  std::string out;
  for (const GraphStats& g : report.graphs) AppendGraphStatsText(g, top_ops, &out);
  const size_t tail = out.size();
  auto to = std::back_inserter(out);
  for (const MetricsReport& m : report.metrics) {
    fmt::format_to(to, "{} (metrics: {} counters, {} metrics)\n", m.source,
                   m.counters.size(), m.metrics.size());
    std::map<std::string, int64_t> counters;
    for (const Counter& c : m.counters) counters[c.name] = c.value;
    size_t width = 0;
    for (const auto& [name, v] : counters) width = std::max(width, name.size());
    for (const auto& [name, v] : counters) {
      fmt::format_to(to, "    {:<{}}  {:>10}\n", name, width, v);
    }
  }
  for (const auto& [path, reason] : report.skipped) {
    fmt::format_to(to, "{}: skipped: {}\n", path, reason);
  }
  MakeTerminalSafeFrom(&out, tail);
  return out;
}

}  // namespace graphdiff
