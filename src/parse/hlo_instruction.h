// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The syntax of one HLO instruction, split into views without interpreting
// it: `[ROOT] [%]name = shape opcode(args)[, key=value]*`. Both printers (long
// form with `%` and operand shapes, short form without) share this split.
#ifndef GRAPHDIFF_SRC_PARSE_HLO_INSTRUCTION_H_
#define GRAPHDIFF_SRC_PARSE_HLO_INSTRUCTION_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parse/hlo_scan.h"

namespace graphdiff {

// Views into the module text; offsets let errors point at the exact byte.
struct HloInstructionText {
  std::string_view name;  // without '%'
  bool root = false;
  size_t shape_offset = 0;  // where the shape starts (parsed later)
  std::string_view opcode;
  std::string_view args;  // between the parentheses
  size_t args_offset = 0;
  std::string_view attrs;  // after "), ", may be empty
  size_t attrs_offset = 0;
  size_t offset = 0;  // start of the instruction
  uint32_t line = 0;
};

// Splits the instruction text[begin, end). On failure fills `error`.
bool SplitHloInstruction(std::string_view text, size_t begin, size_t end,
                         HloInstructionText* out, HloScanError* error);

// One operand of a long- or short-form argument list: `f32[4]{0} %a`, `%a`,
// `a`, `/*index=5*/f32[] %b`. Returns the name without '%' (empty when the
// piece has no name) and its offset within `piece`.
std::string_view HloOperandName(std::string_view piece, size_t* name_offset);

// The fields of `metadata={op_type="..." op_name="..." source_file="..."
// source_line=32}` that graphdiff keeps, unquoted.
struct HloMetadata {
  std::string_view op_type;
  std::string_view op_name;
  std::string_view source_file;
  std::string_view source_line;
  bool escaped = false;  // some value contains a backslash escape
};
HloMetadata ParseHloMetadata(std::string_view braced);

// Removes backslash escapes from a quoted value's content.
std::string UnescapeHlo(std::string_view s);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_HLO_INSTRUCTION_H_
