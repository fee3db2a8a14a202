// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// JUnit XML for CI test reporters: one <testcase> per unit, a <failure> with
// the reasons for each failed one. Everything from a dump is XML-escaped and
// characters XML 1.0 forbids are replaced, so a hostile name cannot break
// the file.
#include "fmt/format.h"
#include "gate/gate_util.h"
#include "graphdiff/gate.h"
#include "graphdiff/sanitize.h"

namespace graphdiff {
namespace {

std::string Xml(std::string_view s) { return XmlEscape(s); }

}  // namespace

std::string RenderCheckJunit(const CheckResult& result) {
  using namespace gate_internal;
  int failed = result.failed();
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"graphdiff check\" tests=\"{}\" failures=\"{}\">\n",
                     result.units.size(), failed);
  out += fmt::format(
      "  <testsuite name=\"graphdiff check {}\" tests=\"{}\" failures=\"{}\" errors=\"0\" "
      "skipped=\"0\">\n",
      Xml(result.dump), result.units.size(), failed);
  for (const UnitCheck& u : result.units) {
    out += fmt::format("    <testcase classname=\"graphdiff.check.{}\" name=\"{}\"",
                       GateUnitKindName(u.kind), Xml(u.key));
    std::string body;
    for (const std::string& r : u.reasons) body += r + "\n";
    if (u.verdict == GateVerdict::kFail) {
      for (const GateChange* c : OtherChanges(u, 10)) body += "other: " + ChangeText(*c) + "\n";
      for (const FindingNote& f : u.diff_findings) {
        body += fmt::format("diff {} (x{}): {}\n", f.id, f.count, f.title);
        if (!f.hint.empty()) body += fmt::format("  hint: {}\n", f.hint);
      }
      for (const FindingNote& f : u.findings) {
        body += fmt::format("finding {} (x{}): {}\n", f.id, f.count, f.title);
        if (!f.hint.empty()) body += fmt::format("  hint: {}\n", f.hint);
      }
      std::string message = u.reasons.empty() ? "FAIL" : u.reasons.front();
      if (u.reasons.size() > 1) message += fmt::format(" (and {} more)", u.reasons.size() - 1);
      out += fmt::format(">\n      <failure type=\"FAIL\" message=\"{}\">{}</failure>\n    </testcase>\n",
                         Xml(message), Xml(body));
    } else if (!body.empty()) {
      out += fmt::format(">\n      <system-out>{}: {}</system-out>\n    </testcase>\n",
                         GateVerdictName(u.verdict), Xml(body));
    } else {
      out += "/>\n";
    }
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace graphdiff
