// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The IR block parser behind ParseIrText, exposed to the save-file parser so
// records are parsed in place, with line numbers that refer to the file.
#ifndef GRAPHDIFF_SRC_PARSE_IR_TEXT_H_
#define GRAPHDIFF_SRC_PARSE_IR_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <memory>
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

// What IR blocks parsed one after another from one text into one shared
// pool keep for the next block: strings, attribute tails and result types
// already read. A save file of 10^5 small records built and freed these
// tables once a record, and parsed every record's types again. Its entries
// are views into that text and ids in that pool: a cache serves one text
// and one pool for its whole life.
class IrBlockCache {
 public:
  struct Tables;
  IrBlockCache();
  ~IrBlockCache();
  IrBlockCache(IrBlockCache&&) noexcept;
  IrBlockCache& operator=(IrBlockCache&&) noexcept;
  Tables& tables() { return *tables_; }

 private:
  std::unique_ptr<Tables> tables_;
};

// Parses the `IR { ... }` block whose `IR {` line starts at byte `begin` of
// `text`; that line has number `begin_line`. Everything after the closing
// brace is left to the caller. Errors and warnings cite `source` and point
// into `text`. With `shared_pool`, the graph's strings are that pool's
// (StringPool::Share), left for the caller to seal (ShrinkToFit) once its
// last graph is made; with `cache` too, what earlier blocks of `text` read
// into that pool is reused (IrBlockCache).
absl::StatusOr<Graph> ParseIrBlock(std::string_view text, size_t begin,
                                   uint32_t begin_line, std::string_view source,
                                   const ParseOptions& options,
                                   std::vector<Diagnostic>* warnings,
                                   IrBlockEnd* end, StringPool* shared_pool = nullptr,
                                   IrBlockCache* cache = nullptr);

// True when `line` opens an IR block: `IR {`, possibly indented.
bool IsIrBlockStart(std::string_view line);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_IR_TEXT_H_
