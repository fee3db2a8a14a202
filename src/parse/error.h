// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The one place parse errors and warnings are formatted, so every parser
// reports `source:line:col: message`, the line, and a caret under the column.
#ifndef GRAPHDIFF_SRC_PARSE_ERROR_H_
#define GRAPHDIFF_SRC_PARSE_ERROR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "graphdiff/parse.h"

namespace graphdiff {

// A position in a text: 1-based line and column.
struct TextPos {
  uint32_t line = 1;
  uint32_t column = 1;
};

// Computes the position of byte `offset` in `text` (slow: counts newlines;
// fine for errors, which happen once).
TextPos LocateOffset(std::string_view text, size_t offset);

// The full line of `text` that contains byte `offset`, without its newline.
std::string_view LineAt(std::string_view text, size_t offset);

// "source:line:col: message\n<line>\n<spaces>^". Long lines are clipped
// around the column so a 10 MB line does not end up in an error message;
// control bytes are shown as '?'.
std::string FormatParseMessage(std::string_view source, uint32_t line,
                               uint32_t column, std::string_view message,
                               std::string_view line_text);

// An InvalidArgument status for a syntax error where the caller already knows
// the line number and the line's text; `column` is 1-based.
absl::Status ParseErrorAt(std::string_view source, uint32_t line,
                          uint32_t column, std::string_view line_text,
                          std::string_view message);

// An InvalidArgument status for a syntax error at byte `offset` of `text`.
absl::Status ParseError(std::string_view source, std::string_view text,
                        size_t offset, std::string_view message);

// Appends a warning, respecting options.max_warnings; `warnings` may be null.
void AddWarning(std::vector<Diagnostic>* warnings, size_t max_warnings,
                std::string_view source, uint32_t line, uint32_t column,
                std::string_view message);
// A parse error of `source` (ParseError's text) as a warning, "what: the
// error", at the error's own line and column: its text without the leading
// `source:line:col:`, which the warning's fields carry. A file repeated in a
// dump takes a copy of the first one's warnings under its own name
// (RepeatedFiles): a path inside the text would still name the first. Text
// that does not start so is quoted whole, at line 1.
void AddParseErrorAsWarning(std::vector<Diagnostic>* warnings, size_t max_warnings,
                            std::string_view source, std::string_view what,
                            std::string_view error);
// Whether no warning was added to `warnings` (null: none are kept) since
// it held `mark` of them, as far as the list can tell: at the limit a
// warning is only tallied, or dropped when none are allowed, so the answer
// is then no.
bool NoWarningSince(const std::vector<Diagnostic>* warnings, size_t max_warnings,
                    size_t mark);
// Appends a warning another list kept under the same limit, as AddWarning
// would have, its tally of further warnings included. False when that cannot
// be told: a tally arriving while this list still has room to show the
// warnings it stands for.
bool MergeWarning(std::vector<Diagnostic>* warnings, size_t max_warnings, Diagnostic d);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_ERROR_H_
