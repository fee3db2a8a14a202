// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The FX statement parser and graph builder: one `def forward(...)` and its
// body become one Graph. Splitting a dump into such definitions (log
// prefixes, banners, class wrappers) is fx_unwrap.cc's job.
#ifndef GRAPHDIFF_SRC_PARSE_FX_CODE_H_
#define GRAPHDIFF_SRC_PARSE_FX_CODE_H_

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "graphdiff/graph.h"
#include "graphdiff/parse.h"
#include "parse/fx_lexer.h"

namespace graphdiff {

struct FxParseContext {
  std::string_view source;
  const ParseOptions* options = nullptr;
  std::vector<Diagnostic>* warnings = nullptr;
};

// What the parse of one definition builds besides its graph (tokens,
// expressions, the names bound, caches), kept for the next one: a dump of
// 10^5 small graphs grew them from empty 10^5 times, 15% of its parse's
// instructions in malloc and free. One per thread parsing definitions one
// after another, all into graphs that share one string pool
// (StringPool::Share): it keeps ids interned for one graph to use in the
// next (parsed type annotations).
class FxScratch {
 public:
  struct Rep;  // fx_code.cc
  FxScratch();
  ~FxScratch();
  FxScratch(const FxScratch&) = delete;
  FxScratch& operator=(const FxScratch&) = delete;
  Rep& rep() { return *rep_; }

 private:
  std::unique_ptr<Rep> rep_;
};

// Parses the definition whose `def` line is `lines[def_index]` and its body
// (the following lines indented deeper than the `def`) into `graph`: nodes,
// inputs, outputs, and source lines. The caller sets name and file.
// `*next_line` receives the index of the first line after the body. Lines
// of the body the parse has passed may be dropped (FxLines::DropBefore).
absl::Status ParseFxDefinition(FxLines& lines, size_t def_index,
                               const FxParseContext& context, Graph* graph,
                               size_t* next_line, FxScratch* scratch);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_FX_CODE_H_
