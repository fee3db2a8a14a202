// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Unwrapping FX dumps: logs put a prefix on every line (two styles), print
// banners (`===== Forward graph 0 =====`, `TRACED GRAPH`) and wrap code in
// `class GraphModule(torch.nn.Module):` (or `<lambda>`, `joint_helper`,
// nested `subgraph_0`). These helpers strip that without losing line
// numbers; ParseFxCode (in fx_unwrap.cc) splits the dump into graphs.
#ifndef GRAPHDIFF_SRC_PARSE_FX_UNWRAP_H_
#define GRAPHDIFF_SRC_PARSE_FX_UNWRAP_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "parse/fx_lexer.h"

namespace graphdiff {

// Length of the log prefix of `line`: `[2024-04-30 17:13:04,191] [0/0]
// torch._dynamo.output_graph.__graph_code: [DEBUG] ` or glog style `V0120
// 22:19:37.029000 2343082 torch/_dynamo/output_graph.py:1983] [0/0]
// [__graph_code] ` (an optional `[rank0]:` first), including one space
// after it; 0 when the line has none.
size_t FxLogPrefixLength(std::string_view line);

// Splits `text` into lines with prefixes removed (CRLF tolerated).
std::vector<FxLine> SplitFxLines(std::string_view text);

// `===== NAME =====` -> NAME; empty when the line is not a banner.
std::string_view FxBannerName(std::string_view line);

// `[path ]class NAME(...):` -> NAME (`GraphModule`, `<lambda>`); empty when
// the line does not declare a class.
std::string_view FxClassName(std::string_view line);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_FX_UNWRAP_H_
