// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The Markdown summary for $GITHUB_STEP_SUMMARY or a pull-request comment.
// Keys and titles come from dumps, so they are escaped: a graph named
// `<script>` or `a|b` must not break the page or the table.
#include "fmt/format.h"
#include "gate/gate_util.h"
#include "graphdiff/gate.h"
#include "graphdiff/sanitize.h"

namespace graphdiff {
namespace {

std::string Md(std::string_view s) { return MarkdownEscape(s); }

std::string_view Icon(GateVerdict v) {
  switch (v) {
    case GateVerdict::kPass: return "✅";
    case GateVerdict::kImproved: return "📉";
    case GateVerdict::kFail: return "❌";
  }
  return "";
}

std::string Cell(const UnitCheck& u, std::string_view metric) {
  for (const GateChange& c : u.changes) {
    if (c.metric != metric) continue;
    std::string s = c.old_value ? fmt::format("{} → {}", *c.old_value, c.new_value)
                                : fmt::format("{}", c.new_value);
    return c.breached ? "**" + s + "**" : s;
  }
  return u.is_missing ? "—" : "=";
}

}  // namespace

std::string RenderCheckMarkdown(const CheckResult& result) {
  using namespace gate_internal;
  std::string out = fmt::format("## graphdiff check: {} {}\n\n", Icon(result.verdict),
                                GateVerdictName(result.verdict));
  out += fmt::format("Dump {} against baseline {}: {}.\n\n", Md(result.dump),
                     Md(result.baseline_path), SummaryLine(result));
  out += "| verdict | unit | nodes | inputs | outputs | reasons |\n";
  out += "|---|---|---|---|---|---|\n";
  for (const UnitCheck& u : result.units) {
    std::string reasons;
    for (const std::string& r : u.reasons) reasons += (reasons.empty() ? "" : "<br>") + Md(r);
    bool graph = u.kind == GateUnitKind::kGraph;
    out += fmt::format("| {} {} | {} {} | {} | {} | {} | {} |\n", Icon(u.verdict),
                       GateVerdictName(u.verdict), GateUnitKindName(u.kind), Md(u.key),
                       graph ? Cell(u, "nodes") : "", graph ? Cell(u, "inputs") : "",
                       graph ? Cell(u, "outputs") : "", reasons);
  }
  for (const UnitCheck& u : result.units) {
    if (u.verdict != GateVerdict::kFail) continue;
    std::vector<const GateChange*> other = OtherChanges(u, 10);
    if (other.empty() && u.findings.empty() && u.diff_findings.empty()) continue;
    out += fmt::format("\n<details><summary>Why {} failed</summary>\n\n", Md(u.key));
    for (const FindingNote& f : u.diff_findings) {
      out += fmt::format("- **{}** ×{} (diff against the baseline graph): {}", Md(f.id), f.count,
                         Md(f.title));
      if (!f.hint.empty()) out += fmt::format(" — hint: {}", Md(f.hint));
      out += "\n";
    }
    for (const FindingNote& f : u.findings) {
      out += fmt::format("- **{}** ×{}: {}", Md(f.id), f.count, Md(f.title));
      if (!f.hint.empty()) out += fmt::format(" — hint: {}", Md(f.hint));
      out += "\n";
    }
    for (const GateChange* c : other) out += fmt::format("- {}\n", Md(ChangeText(*c)));
    out += "\n</details>\n";
  }
  if (!result.skipped.empty()) {
    out += fmt::format("\n**Skipped, not checked ({}):**\n\n", result.skipped.size());
    for (const auto& [file, reason] : result.skipped) {
      out += fmt::format("- {}: {}\n", Md(file), Md(reason));
    }
  }
  std::string advice = AdviceLine(result);
  if (!advice.empty()) {
    out += fmt::format("\n{}\n\n{}", advice, MarkdownCodeBlock(result.update_command, "sh"));
  }
  MakeTerminalSafe(&out);
  return out;
}

}  // namespace graphdiff
