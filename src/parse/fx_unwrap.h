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
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "graphdiff/graph.h"
#include "graphdiff/parse.h"
#include "parse/fx_lexer.h"

namespace graphdiff {

// Length of the log prefix of `line`: `[2024-04-30 17:13:04,191] [0/0]
// torch._dynamo.output_graph.__graph_code: [DEBUG] ` or glog style `V0120
// 22:19:37.029000 2343082 torch/_dynamo/output_graph.py:1983] [0/0]
// [__graph_code] ` (an optional `[rank0]:` first), including one space
// after it; 0 when the line has none.
size_t FxLogPrefixLength(std::string_view line);

// Length of what the FX parse takes off the front of `line`: its general
// log prefix (LogPrefixLength, what StripLogPrefixes removes), then an FX
// log prefix after it. A dump logged through any prefix LogPrefixLength
// knows is read in place, as the stripped copy of it would read.
// `*logged`, when given, tells whether the general prefix was there.
size_t FxLinePrefixLength(std::string_view line, bool* logged = nullptr);

// `===== NAME =====` -> NAME; empty when the line is not a banner.
std::string_view FxBannerName(std::string_view line);

// A TORCH_TRACE record header, as the FX parse sees it once the log prefix
// is off: `{"aot_forward_graph": {}, "frame_id": 0, "frame_compile_id": 0,
// "attempt": 0, "has_payload": "..."}`. The record's payload follows it,
// each line led by a tab; a graph there is named after the record.
struct FxTraceRecord {
  // What the payload is: the record's first key (`dynamo_output_graph`,
  // `aot_backward_graph`, `inductor_post_grad_graph`), or the name of an
  // `artifact` or `graph_dump` record (`after_post_grad_graph`).
  std::string_view kind;
  // The compile the record belongs to, as torch writes its ids: `0/0`,
  // `1/2_1` (a second attempt), `!3/0/1` (compiled autograd); empty when
  // the record gives none.
  std::string compile_id;
  bool has_payload = false;
};
// The header `body` (a line at column 0 after its log prefix, compile-id
// tags such as `[0/0_1] ` allowed before it), or nullopt when it is not one.
std::optional<FxTraceRecord> FxTraceRecordHeader(std::string_view body);
// `aot_forward_graph [0/0]`: the name of a graph read from the record's
// payload.
std::string FxTraceGraphName(const FxTraceRecord& record);

// `[path ]class NAME(...):` -> NAME (`GraphModule`, `<lambda>`); empty when
// the line does not declare a class.
std::string_view FxClassName(std::string_view line);

// What ParseFxPiece leaves: the graphs of a stretch of the dump, its lines
// outside graph code, and a banner no graph has taken yet (it names the next
// top-level graph, which may be in the stretch after).
struct FxPiece {
  std::vector<Graph> graphs;
  // Bytes whose graphs `graphs` is sized for once the first is read: the
  // piece's text when 0. The first piece's list is kept for the whole text's.
  size_t span = 0;
  size_t outside = 0;
  FxLineTally tally;  // of the piece's lines
  std::string_view banner;
  // The number the line after the piece would have: where the next piece
  // starts, found without a pass of its own to count the lines.
  uint32_t next_line = 0;
};

// The loop of ParseFxCode over `text`, whose first line is `first_line`:
// graphs, their warnings and errors as the whole dump's parse gives them,
// from a stretch of it that starts where no class or banner is open.
absl::Status ParseFxPiece(std::string_view text, uint32_t first_line, std::string_view source,
                          const ParseOptions& options, std::vector<Diagnostic>* warnings,
                          FxPiece* piece);
// ParseFxCode, also giving what its lines hold (`tally` may be null): the
// lines with a general log prefix, what StripLogPrefixes would have taken
// off, for its warning, and the bare rank tags. Left unset on an error,
// which may come before the last line.
absl::StatusOr<std::vector<Graph>> ParseFxCodeCounted(std::string_view text,
                                                      std::string_view source,
                                                      const ParseOptions& options,
                                                      std::vector<Diagnostic>* warnings,
                                                      FxLineTally* tally);
// The checks and the closing warning of ParseFxCode around its pieces.
bool FxTextIsEmpty(std::string_view text);
absl::Status FxNoGraphError(std::string_view source, std::string_view text);
void AddFxOutsideWarning(std::vector<Diagnostic>* warnings, size_t max_warnings,
                         std::string_view source, size_t outside);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_FX_UNWRAP_H_
