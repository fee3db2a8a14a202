// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The tokenizer for the Python subset torch.fx prints. It reads physical
// lines whose log prefixes were already stripped (so a statement may span
// lines that each carried a prefix) and hands out one logical line at a time:
// the tokens up to a newline at bracket depth 0, as Python itself would.
// Token texts are views into the original dump, never copies.
#ifndef GRAPHDIFF_SRC_PARSE_FX_LEXER_H_
#define GRAPHDIFF_SRC_PARSE_FX_LEXER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parse/lines.h"
#include "parse/log_prefix.h"

namespace graphdiff {

// One physical line of the dump with its log prefix removed. A graph's
// lines are all held while it parses (1.8 million for a 10^6-node graph), so
// the whole line is derived from the code part rather than stored: 32 bytes
// a line instead of 48.
struct FxLine {
  std::string_view text;    // the code part (after the prefix)
  uint32_t number = 0;      // 1-based line number in the whole dump
  uint32_t prefix_len = 0;  // bytes of the line before `text`
  // FxIndent(text) and FxIsBlank(text), asked of every line several times.
  uint32_t indent = 0;
  bool blank = false;

  // The whole line as written, for error carets.
  std::string_view full() const {
    return std::string_view(text.data() - prefix_len, text.size() + prefix_len);
  }
};

enum class FxTok : uint8_t {
  kName,     // identifiers and keywords (`def`, `None`, `self`)
  kNumber,   // 1, 1e-05, 0.1, 0x1f, and the names inf / nan
  kString,   // '...' or "..." with escapes; text keeps the quotes
  kOp,       // operators and punctuation, longest match: `//=`, `**`, `(`
  kComment,  // `# ...` to the end of the line
  kNewline,  // end of a logical line
  kEnd,      // no more lines
};

struct FxToken {
  FxTok kind = FxTok::kEnd;
  bool space_before = false;  // whitespace or a line break precedes it
  uint32_t line = 0;          // index into the FxLine vector
  uint32_t col = 0;           // 0-based byte column within FxLine::text
  std::string_view text;
};

// Whether `t` is the operator `op` (`,`, `[`, `->`): the builder and the
// expression parser ask this of most tokens, so it compares in place.
inline bool IsOpTok(const FxToken& t, std::string_view op) {
  if (t.kind != FxTok::kOp || t.text.size() != op.size() || t.text[0] != op[0]) return false;
  for (size_t i = 1; i < op.size(); ++i) {
    if (t.text[i] != op[i]) return false;
  }
  return true;
}

// Where and why tokenizing failed.
struct FxLexError {
  uint32_t line = 0;  // index into the FxLine vector
  uint32_t col = 0;
  std::string message;
};

// What splitting an FX text's lines counted of them: the lines with a
// general log prefix (FxLinePrefixLength), which StripLogPrefixes would have
// taken off, for its warning; and the bare rank tags, which the FX parse
// does not take off itself: a text that has them on nearly every line is
// read again from a copy without them (see ParseFxInPlace in detect.cc).
struct FxLineTally {
  size_t logged = 0;
  RankTagTally rank_tags;

  void Add(const FxLineTally& other) {
    logged += other.logged;
    rank_tags.Add(other.rank_tags);
  }
};

// The lines of an FX text, split as they are first asked for (log prefixes
// removed, CRLF tolerated), numbered from `first_line`. Lines before a point
// the parse has passed can be dropped: a dump of thousands of graphs holds
// one graph's lines at a time, not 32 bytes for every line of the file
// (39 MB of memory touched once for 10^6 nodes in 4,386 graphs). Indexes
// stay those of the whole text.
class FxLines {
 public:
  explicit FxLines(std::string_view text, uint32_t first_line = 1);

  // Whether line i exists, splitting the text up to it. Lines already
  // returned by operator[] stay where they are until DropBefore, unless
  // this splits more: hold indexes, not references, across it.
  bool Has(size_t i) const { return i < end() || SplitTo(i); }
  // Line i; Has(i) must have said it exists, and it must not be dropped.
  const FxLine& operator[](size_t i) const { return lines_[i - base_]; }
  // One past the last line split so far (all of them once Has failed).
  size_t end() const { return base_ + lines_.size(); }
  // The first line not dropped.
  size_t begin() const { return base_; }
  // Lines before i will not be asked for again.
  void DropBefore(size_t i);

  // Calls f(const FxLine&) for line i and each line after it, in order,
  // until f returns false or the text ends. The first kKeptAhead lines from
  // i are split and kept, as operator[] gives them; lines past those are
  // made one at a time and not kept. A graph's body is counted before it
  // is parsed, and keeping all its lines for that held 32 bytes a line of
  // fresh memory for the whole parse (59 MB for a graph of 10^6 nodes),
  // while the parse drops the lines behind it.
  template <typename F>
  void ForEachFrom(size_t i, F f) const {
    const size_t kept_end = i + kKeptAhead;
    size_t j = i;
    for (; j < kept_end && Has(j); ++j) {
      if (!f((*this)[j])) return;
    }
    if (j < kept_end) return;  // the text ended
    for (; j < end(); ++j) {    // split before, further ahead
      if (!f((*this)[j])) return;
    }
    LineReader ahead = reader_;  // at end()
    std::string_view text;
    FxLine line;
    while (ahead.Next(&text)) {
      Fill(text, ahead.line_number(), &line, nullptr);
      if (!f(line)) return;
    }
  }
  static constexpr size_t kKeptAhead = 16384;

  // What the lines split so far hold (all of them once Has failed).
  const FxLineTally& tally() const { return tally_; }
  // The number of the line after the last one split.
  uint32_t next_line() const { return reader_.next_line(); }

 private:
  bool SplitTo(size_t i) const;
  // `*line` for `text`, one physical line numbered `number`: its log prefix
  // split off, its indent counted, whether it is blank; counted in `*tally`
  // when that is not null.
  static void Fill(std::string_view text, uint32_t number, FxLine* line, FxLineTally* tally);

  // Splitting is not a change anyone sees: the lines are the text's.
  mutable LineReader reader_;
  mutable std::vector<FxLine> lines_;
  size_t base_ = 0;  // index of lines_[0]
  mutable FxLineTally tally_;
};

class FxLexer {
 public:
  explicit FxLexer(const FxLines& lines) : lines_(lines) {}

  // Reads the logical line starting at physical line `line_index()`:
  // code tokens go to `code` (ending with one kNewline), comments (own-line
  // or trailing, also inside brackets) to `comments`. Both are cleared
  // first. Returns false with `error` set on unterminated strings,
  // unbalanced brackets or bytes Python does not allow outside strings.
  bool NextLogicalLine(std::vector<FxToken>* code,
                       std::vector<FxToken>* comments, FxLexError* error);
  // Indexes into `code` of the `;` tokens outside brackets of the logical
  // line last read: where its simple statements end.
  const std::vector<uint32_t>& semicolons() const { return semicolons_; }

  size_t line_index() const { return line_; }
  void set_line_index(size_t line) { line_ = line; }
  bool done() const { return !lines_.Has(line_); }

 private:
  const FxLines& lines_;
  size_t line_ = 0;
  std::vector<uint32_t> semicolons_;
};

// True for the keywords that start a statement FX code never holds (`if`,
// `import`, `del`, ...).
bool FxIsStatementKeyword(std::string_view word);
// True for a line (code part) that holds nothing but spaces and tabs.
bool FxIsBlank(std::string_view text);
// Leading spaces and tabs (a tab counts as one column, as FX never mixes).
uint32_t FxIndent(std::string_view text);
// The name (letters, digits, `_`) a line of code (after its indent) starts
// with; empty when it starts with anything else.
std::string_view FxLeadingName(std::string_view code);
// Whether a line of code (after its indent) reads `name = value[3]`, after an
// optional type annotation: FX takes one output of a multi-output node so,
// a binding rather than a node. A guess from the text alone, for reserving
// room: a line it misreads costs a vector growth, never a wrong graph.
bool FxIsProjection(std::string_view code);
// Whether a line of code makes no node, as far as the text alone tells: a
// projection, an alias (`input_1 = input`, symbolic_trace's first line) or
// the `return`. The same kind of guess as FxIsProjection: room for nodes
// past an eighth of a graph is given back by moving every node once more.
bool FxMakesNoNode(std::string_view code);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_FX_LEXER_H_
