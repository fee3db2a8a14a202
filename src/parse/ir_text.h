// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The IR block parser behind ParseIrText, exposed to the save-file parser so
// records are parsed in place, with line numbers that refer to the file.
#ifndef GRAPHDIFF_SRC_PARSE_IR_TEXT_H_
#define GRAPHDIFF_SRC_PARSE_IR_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "graphdiff/graph.h"
#include "graphdiff/parse.h"

namespace graphdiff {

// Where a parsed IR block ended: the byte just past the closing `}` line and
// that line's number. On error, `truncated` says the text ended inside the
// block (a dump cut short), as opposed to a malformed line.
struct IrBlockEnd {
  size_t offset = 0;
  uint32_t line = 0;
  bool truncated = false;
};

// Parses the `IR { ... }` block whose `IR {` line starts at byte `begin` of
// `text`; that line has number `begin_line`. Everything after the closing
// brace is left to the caller. Errors and warnings cite `source` and point
// into `text`. With `shared_pool`, the graph's strings are that pool's
// (StringPool::Share), left for the caller to seal (ShrinkToFit) once its
// last graph is made.
absl::StatusOr<Graph> ParseIrBlock(std::string_view text, size_t begin,
                                   uint32_t begin_line, std::string_view source,
                                   const ParseOptions& options,
                                   std::vector<Diagnostic>* warnings,
                                   IrBlockEnd* end, StringPool* shared_pool = nullptr);

// True when `line` opens an IR block: `IR {`, possibly indented.
bool IsIrBlockStart(std::string_view line);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_IR_TEXT_H_
