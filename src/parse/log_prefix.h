// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Log prefixes: dumps are often copied out of logs where every line carries
// a timestamp, a host, a rank or a logger name. Every parser sees the text
// with those prefixes removed, so a metrics report or an IR block logged
// through glog or Python logging reads like the bare dump. Line numbers are
// kept (each line stays a line); columns shift by the prefix length, except
// in FX dumps, which the FX parser reads in place, taking each line's prefix
// off itself (FxLinePrefixLength): their columns are the file's.
#ifndef GRAPHDIFF_SRC_PARSE_LOG_PREFIX_H_
#define GRAPHDIFF_SRC_PARSE_LOG_PREFIX_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace graphdiff {

struct TaskRunner;

// Length of the log prefix that starts `line`, including the one separator
// after it; 0 when the line has none. A prefix needs an anchor, something
// graph text never starts with: a date or time (`2021-04-19 13:28:12`,
// `[2024-01-01 00:00:00,000]`), a glog header (`I1230 12:00:00.000123 42
// file.cc:45]`) or a Python logging header (`INFO:root:`). After the anchor
// it takes hosts (`10.164.0.25`, `host-3` before a rank), ranks (`[0]`,
// `[0/0]`, `[rank1]`), thread ids, levels (`INFO`, `[DEBUG]`) and logger
// names (`torch._dynamo.output_graph:`). torchrun's `[rank0]:` and
// `[default0]:` tags are anchors too.
size_t LogPrefixLength(std::string_view line);

// Whether a log prefix or a rank tag may start with `c`: a bracket (a tag,
// a bracketed time or rank), a digit (a date or time), or the first letter
// of a glog header (`I1205`) or a Python level (`INFO:`, `CRITICAL:`,
// `TRACE:`). A save file's `## BEGIN_GRAPH`, `Hashes:` and `}` lines are
// then passed over without a look.
inline bool MayStartLogPrefix(char c) {
  switch (c) {
    case '[': case 'I': case 'W': case 'E': case 'F': case 'V': case 'D': case 'C': case 'T':
      return true;
    default:
      return c >= '0' && c <= '9';
  }
}

// `text` with every line's log prefix removed. A file whose lines nearly all
// (90%) start with a bare rank tag (`[3] `) has those removed instead. Returns `text` itself (no
// copy) when no line has one; otherwise the stripped copy lives in
// `*storage`. `*stripped_lines` receives the number of lines changed.
// With a runner, a large text is surveyed (SurveyLogPrefixes) on its threads.
std::string_view StripLogPrefixes(std::string_view text, std::string* storage,
                                  size_t* stripped_lines, const TaskRunner* runner = nullptr);

// The count behind a text's choice of bare rank tags: its non-blank lines
// and those that start with a rank tag (`[3] `). Tags are taken off when
// at least 90% of the lines have one and no line has a log prefix.
struct RankTagTally {
  size_t lines = 0;
  size_t tagged = 0;

  void Add(std::string_view line);
  // Add(line) for a line that starts with `blanks` spaces and tabs, counted
  // already.
  void AddIndented(std::string_view line, size_t blanks);
  void Add(const RankTagTally& other) {
    lines += other.lines;
    tagged += other.tagged;
  }
  // Whether nearly every line is tagged.
  bool NearlyAll() const { return tagged > 0 && tagged * 10 >= lines * 9; }
};

// What StripLogPrefixes sees in a text before it copies it: whether any
// line has a log prefix (it stops at the first), and else whether it takes
// bare rank tags off nearly every line. A parser that takes LogPrefixLength
// off each line itself (the FX parser: FxLines) reads a log in place unless
// it holds rank tags.
struct LogPrefixSurvey {
  bool any = false;
  bool rank_tags = false;
};
// With a runner, a text of more than one piece (TaskRunner::pieces,
// min_piece_bytes) is surveyed in pieces on its threads: the first pass over
// a file of graphs, which the parse waited for on one core.
LogPrefixSurvey SurveyLogPrefixes(std::string_view text, const TaskRunner* runner = nullptr);

// The survey of a text in pieces of whole lines, for a parse that surveys
// each piece as it reads it: what one piece holds (whether a line has a
// log prefix, stopping at the first; how many lines start with a bare rank
// tag), summed over the pieces, and what SurveyLogPrefixes concludes from
// the sum for the whole text.
struct LogPrefixCount {
  bool any = false;
  size_t tagged = 0;

  void Add(const LogPrefixCount& other) {
    any = any || other.any;
    tagged += other.tagged;
  }
  // Counts one line, without its line break: the survey of a parser that
  // reads every line anyway costs it no pass of its own over the text. An
  // indented line has no prefix; most others are passed over on their first
  // byte.
  void AddLine(std::string_view line) {
    if (!line.empty() && MayStartLogPrefix(line[0])) AddCandidate(line);
  }

 private:
  void AddCandidate(std::string_view line);
  // The last few lines looked at that had no prefix, and whether each had
  // a rank tag: a save file's records repeat their header lines
  // (`[ScheduleSyncTensorsGraph]`, `IR {`), each looked into once. Views
  // into the text being counted.
  static constexpr size_t kSeen = 4;
  std::string_view seen_[kSeen];
  bool seen_tagged_[kSeen] = {};
  size_t next_seen_ = 0;
};
LogPrefixCount CountLogPrefixes(std::string_view piece);
LogPrefixSurvey ConcludeSurvey(std::string_view text, const LogPrefixCount& count);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_LOG_PREFIX_H_
