// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Parsers: dump text plus a source name in, graphs and metrics out.
//
// Every parser is pure (no file I/O), so tests and fuzzers never touch the
// disk. Syntax errors come back as an InvalidArgument status whose message is
// `source:line:col: message`, the offending line and a caret. Lines a parser
// does not understand but can skip become warnings in the result.
#ifndef GRAPHDIFF_PARSE_H_
#define GRAPHDIFF_PARSE_H_

#include "graphdiff/export.h"
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphdiff/graph.h"
#include "graphdiff/metrics.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// What a piece of text is, decided from its content, never from its name.
enum class DumpFormat : uint8_t {
  kUnknown,
  kIrText,    // one `IR { ... }` block
  kSaveFile,  // `[ScheduleSyncTensorsGraph]` records (IR or HLO bodies)
  kFxCode,    // Python printed by torch.fx, possibly inside logs
  kMetrics,   // metrics_report()
  kHloText,   // `HloModule ...`
};
std::string_view DumpFormatName(DumpFormat format);

// Looks at the text (the first few KiB suffice) and says what it is.
DumpFormat DetectFormat(std::string_view text);

// A non-fatal problem: a skipped line, a tolerated oddity. Line 0 means the
// whole file. Past ParseOptions::max_warnings, the last kept diagnostic
// stands for all the rest: its `count` says how many warnings it covers, so
// no skipped line goes uncounted.
struct Diagnostic {
  std::string source;
  uint32_t line = 0;
  uint32_t column = 0;
  std::string message;
  uint32_t count = 1;
  // "source:line:col: warning: message" ("source: warning: ..." for line 0).
  std::string ToString() const;
};

// Limits that keep hostile input from exhausting memory. Defaults suit real
// dumps with room to spare.
struct ParseOptions {
  size_t max_nodes_per_graph = 50'000'000;
  size_t max_graphs = 1'000'000;
  size_t max_warnings = 100;  // further warnings are counted in the last one
};

// Everything one text yielded.
struct ParsedText {
  DumpFormat format = DumpFormat::kUnknown;
  std::vector<Graph> graphs;
  std::vector<MetricsReport> metrics;
  std::vector<Diagnostic> warnings;  // at most ParseOptions::max_warnings
};

// Detects the format and dispatches. Unknown content is an error.
absl::StatusOr<ParsedText> ParseText(std::string_view text,
                                     std::string_view source,
                                     const ParseOptions& options = {});

// Lazy-tensor IR text, XLA (`f32[4]{0}`) or LTC (`[Float[4]]`) flavour: one
// `IR { ... }` block. Line numbers count from `first_line`.
absl::StatusOr<Graph> ParseIrText(std::string_view text, std::string_view source,
                                  const ParseOptions& options = {},
                                  std::vector<Diagnostic>* warnings = nullptr);

// A save file of `[ScheduleSyncTensorsGraph]` records (or bare `IR {}` blocks
// one after another). Identical consecutive records become one graph with
// GraphSource::repeat_count > 1.
absl::StatusOr<std::vector<Graph>> ParseSaveFile(
    std::string_view text, std::string_view source,
    const ParseOptions& options = {},
    std::vector<Diagnostic>* warnings = nullptr);

// FX Python code in any of its printed forms; a log may hold many graphs.
absl::StatusOr<std::vector<Graph>> ParseFxCode(
    std::string_view text, std::string_view source,
    const ParseOptions& options = {},
    std::vector<Diagnostic>* warnings = nullptr);

// A metrics report.
absl::StatusOr<MetricsReport> ParseMetrics(
    std::string_view text, std::string_view source,
    std::vector<Diagnostic>* warnings = nullptr);

// HLO module text (long or short printer form); the ENTRY computation becomes
// the graph, other computations are summarised as attributes of their callers.
absl::StatusOr<std::vector<Graph>> ParseHloText(
    std::string_view text, std::string_view source,
    const ParseOptions& options = {},
    std::vector<Diagnostic>* warnings = nullptr);

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_PARSE_H_
