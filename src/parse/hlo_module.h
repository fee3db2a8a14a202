// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The outline of HLO text: modules, their computations and each
// computation's instructions, as views into the text. Turning the ENTRY
// computation into a Graph is hlo_text.cc's job.
#ifndef GRAPHDIFF_SRC_PARSE_HLO_MODULE_H_
#define GRAPHDIFF_SRC_PARSE_HLO_MODULE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
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
  // The index in `modules` of an earlier module this one repeats byte for
  // byte, up to the next `HloModule` line; its computations are then not
  // outlined (kNotRepeat: outlined as usual).
  static constexpr size_t kNotRepeat = static_cast<size_t>(-1);
  size_t repeat_of = kNotRepeat;
};

// Takes each module as soon as its last computation is outlined.
using HloModuleSink = std::function<void(const HloModuleText&)>;
// Whether the module at an index of `modules` was made into a graph with no
// warning, so that a repeat of its text can be a copy of that graph.
using HloRepeatable = std::function<bool(size_t module)>;

// Splits text[begin, end) into modules, `begin` being the start of line
// `first_line` and of an `HloModule` line (or 0). Lines outside any
// computation that are not a module header become warnings. Syntax errors
// (malformed instruction, unbalanced brackets) fail with a positioned
// message. Elision lines (`...`) and a computation cut short (the text ends,
// or the next module starts, before its '}') are warnings that mark the
// module partial. Unless `last`, a computation still open at `end` fails
// (Aborted): the text goes on, and only the whole outline can tell how that
// computation ends. Offsets stay offsets into `text`. Each module is handed
// to `sink` when complete and its computations dropped after: `modules`
// keeps headers only, so that a dump of 10^5 modules is never all outlined
// at once. With `repeatable`, a module whose text repeats, byte for byte, one
// of the last few modules that outlined without a warning and that
// `repeatable` vouches for is handed over as such a repeat (repeat_of), its
// text skipped unread: a dump that prints one module again and again is
// compared at memory speed instead of parsed again.
absl::Status OutlineHloRange(std::string_view text, size_t begin, size_t end,
                             uint32_t first_line, bool last, std::string_view source,
                             const ParseOptions& options, std::vector<Diagnostic>* warnings,
                             std::vector<HloModuleText>* modules, const HloModuleSink& sink,
                             const HloRepeatable* repeatable = nullptr);

// ParseHloText of text[begin, end) (see OutlineHloRange), each module's graph
// built as it is outlined. Outline warnings go to `outline_warnings` and
// build warnings to `build_warnings`: reading every module before building
// any, as a reader would, puts all outline warnings first. An outline
// error wins over a build error for the same reason. Record indexes count
// from 0.
absl::StatusOr<std::vector<Graph>> ParseHloRange(std::string_view text, size_t begin,
                                                 size_t end, uint32_t first_line, bool last,
                                                 std::string_view source,
                                                 const ParseOptions& options,
                                                 std::vector<Diagnostic>* outline_warnings,
                                                 std::vector<Diagnostic>* build_warnings);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_HLO_MODULE_H_
