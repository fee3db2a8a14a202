// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The terminal report: verdict first, then one block per unit that did not
// simply pass, with the limit each breach broke and what explains it.
#include <algorithm>
#include <string>
#include <vector>

#include "fmt/format.h"
#include "gate/gate_util.h"
#include "graphdiff/gate.h"
#include "graphdiff/sanitize.h"

namespace graphdiff {

std::string RenderCheckText(const CheckResult& result) {
  using namespace gate_internal;
  std::string out = fmt::format("graphdiff check: {} ({})\n", GateVerdictName(result.verdict),
                                SummaryLine(result));
  out += fmt::format("  dump: {}\n  baseline: {}\n", result.dump, result.baseline_path);
  std::vector<std::string> hints;  // printed so far, across units
  for (const UnitCheck& u : result.units) {
    std::string tag;
    if (u.is_new) tag = " [new]";
    if (u.is_missing) tag = " [missing]";
    if (!u.is_new && !u.is_missing && u.baseline_key != u.key) {
      tag = fmt::format(" [was {}, matched by {}]", u.baseline_key, u.matched_by);
    }
    out += fmt::format("\n{:<8} {} {}{}\n", GateVerdictName(u.verdict), GateUnitKindName(u.kind),
                       u.key, tag);
    for (const std::string& r : u.reasons) out += fmt::format("    {}\n", r);
    if (u.verdict == GateVerdict::kPass && !u.is_new) continue;
    std::vector<const GateChange*> other = OtherChanges(u, 8);
    if (!other.empty()) {
      out += "    other changes:";
      for (const GateChange* c : other) out += fmt::format("\n      {}", ChangeText(*c));
      out += "\n";
    }
    auto hint = [&](const std::string& h) {
      if (h.empty()) return;
      // The same hint twice says nothing new: point back to it.
      if (std::find(hints.begin(), hints.end(), h) != hints.end()) {
        out += "      hint: as above\n";
        return;
      }
      hints.push_back(h);
      out += fmt::format("      hint: {}\n", h);
    };
    if (!u.diff_findings.empty()) out += "    explained by the diff against the baseline graph:\n";
    for (const FindingNote& f : u.diff_findings) {
      out += fmt::format("    {} (x{}): {}\n", f.id, f.count, f.title);
      hint(f.hint);
    }
    for (const FindingNote& f : u.findings) {
      out += fmt::format("    finding {} (x{}): {}\n", f.id, f.count, f.title);
      hint(f.hint);
    }
  }
  if (!result.skipped.empty()) {
    out += fmt::format("\nSkipped, not checked ({}):\n", result.skipped.size());
    for (const auto& [file, reason] : result.skipped) {
      out += fmt::format("  {}: {}\n", file, reason);
    }
  }
  std::string advice = AdviceLine(result);
  if (!advice.empty()) out += fmt::format("\n{}\n  {}\n", advice, result.update_command);
  MakeTerminalSafe(&out);
  return out;
}

}  // namespace graphdiff
