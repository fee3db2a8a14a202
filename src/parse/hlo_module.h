// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The outline of HLO text: modules, their computations and each
// computation's instructions, as views into the text. Turning the ENTRY
// computation into a Graph is hlo_text.cc's job.
#ifndef GRAPHDIFF_SRC_PARSE_HLO_MODULE_H_
#define GRAPHDIFF_SRC_PARSE_HLO_MODULE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "graphdiff/graph.h"
#include "graphdiff/parse.h"
#include "parse/hlo_instruction.h"

namespace graphdiff {

struct HloComputationText {
  std::string_view name;  // without '%'
  bool entry = false;
  size_t offset = 0;  // of the header line
  uint32_t line = 0;
  std::vector<HloInstructionText> instructions;
};

struct HloModuleText {
  std::string_view name;
  size_t offset = 0;
  uint32_t first_line = 0;
  uint32_t last_line = 0;
  std::vector<HloComputationText> computations;
  // Instructions were left out (`...` lines) or a computation was cut short:
  // operands may name instructions the text does not hold.
  bool partial = false;
};

// Splits `text` into modules. Lines outside any computation that are not a
// module header become warnings. Syntax errors (malformed instruction,
// unbalanced brackets) fail with a positioned message. Elision lines (`...`)
// and a computation cut short (the text ends, or the next module starts,
// before its '}') are warnings that mark the module partial.
absl::Status OutlineHloText(std::string_view text, std::string_view source,
                            const ParseOptions& options,
                            std::vector<Diagnostic>* warnings,
                            std::vector<HloModuleText>* modules);

// The graphs ParseHloText makes of outlined modules (hlo_text.cc), with
// record indexes counted from 0.
absl::StatusOr<std::vector<Graph>> BuildHloGraphs(std::string_view text,
                                                  const std::vector<HloModuleText>& modules,
                                                  std::string_view source,
                                                  const ParseOptions& options,
                                                  std::vector<Diagnostic>* warnings);

// OutlineHloText of text[begin, end) alone, `begin` being the start of line
// `first_line` and of an `HloModule` line (or 0). Unless `last`, a
// computation still open at `end` fails (Aborted): the text goes on, and
// only the whole outline can tell how that computation ends. Offsets stay
// offsets into `text`.
absl::Status OutlineHloRange(std::string_view text, size_t begin, size_t end,
                             uint32_t first_line, bool last, std::string_view source,
                             const ParseOptions& options, std::vector<Diagnostic>* warnings,
                             std::vector<HloModuleText>* modules);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_HLO_MODULE_H_
