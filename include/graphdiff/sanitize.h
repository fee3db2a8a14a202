// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Text hygiene: dump text (op names, paths, archive entry names, attribute
// values) is hostile input. Every report writer passes it through one of
// these functions before it reaches a terminal, a JSON consumer, a Markdown
// page or a JUnit parser, so that no output carries raw control characters
// and every machine format stays well-formed whatever a dump holds.
//
// Bytes that are not valid UTF-8 (stray continuation bytes, overlong forms,
// encoded surrogates, code points past U+10FFFF, truncated sequences) are
// written as the four characters `\xNN`, one escape per byte, so the reader
// still sees which bytes were there.
#ifndef GRAPHDIFF_SANITIZE_H_
#define GRAPHDIFF_SANITIZE_H_

#include <string>
#include <string_view>

#include "graphdiff/export.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// True when `s` is well-formed UTF-8 (RFC 3629: no surrogates, no overlongs).
bool IsValidUtf8(std::string_view s);

// `s` with every byte of an invalid sequence written as `\xNN`. `*changed`
// (when given) is set to whether anything was replaced.
std::string ValidUtf8(std::string_view s, bool* changed = nullptr);

// Text for a terminal: valid UTF-8, with C0 controls other than newline and
// tab, DEL, C1 controls (U+0080..U+009F) and the bidirectional overrides
// (U+202A..U+202E, U+2066..U+2069) written as `\xNN` or `\u{NNNN}`, so a name
// can neither move the cursor, retitle or clear the terminal, nor reorder
// what is shown. With `keep_sgr`, colour sequences (ESC [ digits ; ... m)
// pass: the renderers' own colouring.
std::string TerminalSafe(std::string_view s, bool keep_sgr = false);
// TerminalSafe in place, for a whole report: text that needs no change
// (nearly every report) is checked, not copied.
void MakeTerminalSafe(std::string* s, bool keep_sgr = false);
// MakeTerminalSafe of the bytes from `from` on, the earlier ones left as they
// are: for a report written out a piece at a time, each piece made safe as it
// is appended. `from` must not split a UTF-8 sequence (a line start is safe).
void MakeTerminalSafeFrom(std::string* s, size_t from, bool keep_sgr = false);

// One Markdown inline value: TerminalSafe without newlines (they become
// spaces, so a value never ends a table row), Markdown punctuation
// backslash-escaped and `<`, `>`, `&` HTML-escaped.
std::string MarkdownEscape(std::string_view s);

// A fenced Markdown code block holding `content` (made TerminalSafe): the
// fence is longer than any run of backticks inside, so nothing in the
// content can close it.
std::string MarkdownCodeBlock(std::string_view content, std::string_view language);

// XML 1.0 character data or attribute value (JUnit, HTML): `& < > " '`
// escaped, and what TerminalSafe makes visible made visible here too, with
// U+FFFE and U+FFFF (which XML forbids) written as `\u{FFFE}`, so the
// document stays well-formed and shows no raw control character.
std::string XmlEscape(std::string_view s);

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_SANITIZE_H_
