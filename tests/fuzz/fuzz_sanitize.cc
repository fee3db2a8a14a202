// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// The text-hygiene layer itself: every output clean, every function
// idempotent on its own output.
#include "fuzz_target.h"
#include "graphdiff/sanitize.h"

GRAPHDIFF_FUZZ_TARGET(sanitize) {
  using namespace graphdiff;
  std::string_view text = fuzz::AsText(data, size);
  std::string valid = ValidUtf8(text);
  if (!IsValidUtf8(valid) || ValidUtf8(valid) != valid) __builtin_trap();
  std::string term = TerminalSafe(text);
  fuzz::CheckCleanOutput(term, "TerminalSafe");
  if (TerminalSafe(term) != term) __builtin_trap();
  fuzz::CheckCleanOutput(MarkdownEscape(text), "MarkdownEscape");
  fuzz::CheckCleanOutput(MarkdownCodeBlock(text, "sh"), "MarkdownCodeBlock");
  fuzz::CheckCleanOutput(XmlEscape(text), "XmlEscape");
  return 0;
}
