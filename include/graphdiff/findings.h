// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Findings: the explanations graphdiff draws from an alignment or a single
// dump — extra outputs, dead expand-of-constant nodes, clones, op
// substitutions, lifted inputs, counter deltas, dead code, duplicated
// subgraphs, size deltas. Each has a stable id (for gates and suppressions),
// a severity, a count, evidence pointing into the dumps, an explanation and,
// where one exists, a hint. Findings that explain each other are linked.
#ifndef GRAPHDIFF_FINDINGS_H_
#define GRAPHDIFF_FINDINGS_H_

#include "graphdiff/export.h"
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphdiff/align.h"
#include "graphdiff/dump.h"
#include "graphdiff/graph.h"
#include "graphdiff/metrics.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// Which dump of a comparison: LEFT (the baseline) or RIGHT (the candidate).
enum class Side : uint8_t { kLeft, kRight };
std::string_view SideName(Side side);  // "left", "right"
// Inverse of SideName; false when `name` is not one.
bool ParseSide(std::string_view name, Side* out);
// Evidence of a single-dump finding names no side: "" then, as in JSON.
std::string_view SideName(std::optional<Side> side);

enum class Severity : uint8_t { kInfo, kWarning, kError };
std::string_view SeverityName(Severity s);  // "info", "warning", "error"
// Inverse of SeverityName; false when `name` is not one.
bool ParseSeverity(std::string_view name, Severity* out);

// One place in a dump that supports a finding.
struct Evidence {
  // The dump the evidence is in; none for single-dump (lint) findings.
  std::optional<Side> side;
  std::string source;  // dump file (path inside the dump)
  uint32_t line = 0;   // 1-based line in that file; 0 when not a node
  std::string node;    // node name as the dump writes it ("%17", "getitem_1")
  std::string op;      // canonical op
  std::string note;    // what this piece of evidence shows
};

// One finding. `id` is one of FindingIds(); docs/findings.md says when each
// fires and when it does not. Swapping the dumps mirrors every finding
// (extra-outputs <-> removed-outputs, lifted-inputs <-> removed-inputs,
// clones <-> clones-removed, X <-> X-removed for dead code, dead constant
// expands and duplicates). `graph` names the graph (pair) it is about.
struct Finding {
  std::string id;
  Severity severity = Severity::kInfo;
  std::string title;        // one line: "80 extra outputs on the right"
  int64_t count = 0;        // how many instances
  std::string graph;        // "ir.txt" or "ir.txt <-> ir.txt"; "" for dump-wide
  std::string explanation;  // why it matters, in plain words
  std::string hint;         // what to try; may be empty
  std::vector<Evidence> evidence;
  // Evidence beyond the cap (DiffOptions::max_evidence) is counted, not kept.
  int64_t evidence_omitted = 0;
  std::vector<std::string> related;  // ids of findings this one explains or is explained by
};

// Every finding id, in story order: causes before their consequences.
const std::vector<std::string_view>& FindingIds();

// Most important first: severity (error first); then the finding family in
// story order (FindingIds()); then count (largest first), id and graph. The
// order every report uses.
void SortFindings(std::vector<Finding>* findings);

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_FINDINGS_H_
