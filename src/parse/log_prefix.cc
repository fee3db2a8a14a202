// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/log_prefix.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "parse/line_starts.h"
#include "parse/lines.h"
#include "parse/parse_parallel.h"

namespace graphdiff {
namespace {

constexpr size_t kNo = std::string_view::npos;
// Longest bracketed field a prefix may hold (`[2024-01-01 00:00:00,000]`).
constexpr size_t kMaxBracket = 64;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsSpace(char c) { return c == ' ' || c == '\t'; }

size_t Digits(std::string_view s, size_t p) {
  size_t n = 0;
  while (p + n < s.size() && IsDigit(s[p + n])) ++n;
  return n;
}

// `12:00:00`, `12:00:00.000123`, `00:00:00,000`, with an optional zone.
size_t MatchTime(std::string_view s, size_t p) {
  size_t n = Digits(s, p);
  if (n < 1 || n > 2) return kNo;
  p += n;
  for (int field = 0; field < 2; ++field) {
    if (p >= s.size() || s[p] != ':' || Digits(s, p + 1) != 2) return kNo;
    p += 3;
  }
  if (p < s.size() && (s[p] == '.' || s[p] == ',') && Digits(s, p + 1) > 0) {
    p += 1 + Digits(s, p + 1);
  }
  if (p < s.size() && s[p] == 'Z') {
    ++p;
  } else if (p < s.size() && (s[p] == '+' || s[p] == '-') && Digits(s, p + 1) == 2) {
    size_t q = p + 3;
    if (q < s.size() && s[q] == ':') ++q;
    if (Digits(s, q) == 2) p = q + 2;
  }
  return p;
}

// `2021-04-19`, `2021/04/19`, optionally `T` and a time.
size_t MatchDate(std::string_view s, size_t p) {
  if (Digits(s, p) != 4 || p + 4 >= s.size()) return kNo;
  char sep = s[p + 4];
  if (sep != '-' && sep != '/') return kNo;
  p += 5;
  for (int field = 0; field < 2; ++field) {
    size_t n = Digits(s, p);
    if (n < 1 || n > 2) return kNo;
    p += n;
    if (field == 0) {
      if (p >= s.size() || s[p] != sep) return kNo;
      ++p;
    }
  }
  if (p < s.size() && s[p] == 'T') {
    size_t t = MatchTime(s, p + 1);
    if (t != kNo) return t;
  }
  return p;
}

bool IsLevel(std::string_view w) {
  static constexpr std::string_view kLevels[] = {"DEBUG", "INFO",  "WARNING", "WARN",
                                                 "ERROR", "CRITICAL", "FATAL", "TRACE"};
  for (std::string_view l : kLevels) {
    if (w == l) return true;
  }
  return false;
}

// Python logging's default `LEVEL:logger:` (no spaces); end or kNo.
size_t MatchPythonHeader(std::string_view s, size_t p) {
  // Levels are at most 8 letters: look no further, so long lines cost nothing.
  size_t colon = s.substr(0, p + 9).find(':', p);
  if (colon == kNo || !IsLevel(s.substr(p, colon - p))) return kNo;
  size_t q = colon + 1;
  while (q < s.size() && (IsAlpha(s[q]) || IsDigit(s[q]) || s[q] == '_' || s[q] == '.' ||
                          s[q] == '-' || s[q] == '<' || s[q] == '>')) {
    ++q;
  }
  if (q >= s.size() || s[q] != ':') return kNo;
  return q + 1;
}

// glog: `I1230 12:00:00.000123    42 file.cc:45]`; torch also uses V and D.
size_t MatchGlog(std::string_view s, size_t p) {
  if (p >= s.size() || std::strchr("IWEFVD", s[p]) == nullptr || s[p] == '\0') return kNo;
  if (Digits(s, p + 1) != 4 || p + 5 >= s.size() || s[p + 5] != ' ') return kNo;
  size_t q = MatchTime(s, p + 6);
  if (q == kNo) return kNo;
  while (q < s.size() && IsSpace(s[q])) ++q;
  size_t n = Digits(s, q);
  if (n == 0) return kNo;
  q += n;
  if (q >= s.size() || s[q] != ' ') return kNo;
  size_t close = s.find(']', q + 1);
  if (close == kNo || close - q > 256) return kNo;
  std::string_view where = s.substr(q + 1, close - q - 1);
  if (where.find(' ') != kNo || where.find(':') == kNo) return kNo;
  return close + 1;
}

// torchrun's `[rank0]:` or `[default0]:` at the start of `s`: its length,
// or 0.
size_t TorchrunTagLength(std::string_view s) {
  if (s.size() < 4 || s[0] != '[') return 0;
  for (std::string_view tag : {std::string_view("rank"), std::string_view("default")}) {
    if (s.compare(1, tag.size(), tag) != 0) continue;
    const size_t n = Digits(s, 1 + tag.size());
    const size_t close = 1 + tag.size() + n;
    if (n > 0 && s.compare(close, 2, "]:") == 0) return close + 2;
  }
  return 0;
}

enum class Field { kNone, kAnchor, kOther };

// A bracketed field: a timestamp (anchor), or a rank, level or tag.
Field MatchBracket(std::string_view s, size_t p, size_t* end) {
  if (p >= s.size() || s[p] != '[') return Field::kNone;
  size_t close = s.find(']', p + 1);
  if (close == kNo || close - p > kMaxBracket) return Field::kNone;
  std::string_view c = s.substr(p + 1, close - p - 1);
  if (c.empty() || c.find('[') != kNo) return Field::kNone;
  *end = close + 1;
  if (*end < s.size() && s[*end] == ':') ++*end;  // `[rank0]:`
  size_t d = MatchDate(c, 0);
  if (d != kNo || MatchTime(c, 0) != kNo) return Field::kAnchor;
  // torchrun tags every line of a worker with `[rank0]:` or `[default0]:`.
  if (TorchrunTagLength(s.substr(p)) > 0) return Field::kAnchor;
  bool rank = IsDigit(c[0]);
  for (char ch : c) rank = rank && (IsDigit(ch) || ch == '/' || ch == ':' || ch == ',');
  if (rank) return Field::kOther;
  if (c.substr(0, 4) == "rank" && c.size() > 4 && Digits(c, 4) == c.size() - 4) {
    return Field::kOther;
  }
  if (IsLevel(c)) return Field::kOther;
  if (c.size() > 2 && c.substr(0, 2) == "__" && c.find(' ') == kNo) return Field::kOther;
  return Field::kNone;
}

size_t WordEnd(std::string_view s, size_t p) {
  while (p < s.size() && !IsSpace(s[p])) ++p;
  return p;
}

bool IsIpv4(std::string_view w) {
  size_t colon = w.find(':');
  if (colon != kNo) {
    if (Digits(w, colon + 1) != w.size() - colon - 1 || colon + 1 == w.size()) return false;
    w = w.substr(0, colon);
  }
  int parts = 0;
  size_t p = 0;
  while (true) {
    size_t n = Digits(w, p);
    if (n == 0 || n > 3) return false;
    ++parts;
    p += n;
    if (p == w.size()) return parts == 4;
    if (w[p] != '.') return false;
    ++p;
  }
}

bool IsHostWord(std::string_view w) {
  if (w.empty() || !(IsAlpha(w[0]) || IsDigit(w[0]))) return false;
  for (char c : w) {
    if (!(IsAlpha(c) || IsDigit(c) || c == '-' || c == '.' || c == '_')) return false;
  }
  return true;
}

// `torch._dynamo.output_graph:`: a dotted logger name and a colon.
bool IsLoggerName(std::string_view w) {
  if (w.size() < 3 || w.back() != ':') return false;
  w.remove_suffix(1);
  if (w.find('.') == kNo) return false;
  for (char c : w) {
    if (!(IsAlpha(c) || IsDigit(c) || c == '_' || c == '.')) return false;
  }
  return true;
}

// LogPrefixLength without a torchrun tag in front.
size_t UntaggedPrefixLength(std::string_view s);

}  // namespace

// torchrun tags each line a worker writes, and a worker that logs writes
// its own header after the tag: `[rank0]:V1205 10:00:00.123000 42
// torch/_dynamo/output_graph.py:1150] `, `[rank0]:[2024-04-30 17:13:04,191]
// [0/0] torch._dynamo.output_graph: [DEBUG] `. The tag is an anchor on its
// own (`[rank0]:Metric: CompileTime`), but a header right after it, with no
// space between them, was read as the dump's text.
size_t LogPrefixLength(std::string_view s) {
  if (s.empty() || !MayStartLogPrefix(s[0])) return 0;
  if (const size_t tag = TorchrunTagLength(s); tag > 0 && tag < s.size()) {
    if (const size_t header = UntaggedPrefixLength(s.substr(tag)); header > 0) {
      return tag + header;
    }
  }
  return UntaggedPrefixLength(s);
}

namespace {

size_t UntaggedPrefixLength(std::string_view s) {
  if (s.empty() || IsSpace(s[0])) return 0;
  bool anchored = false;
  size_t p = 0;
  if (size_t g = MatchGlog(s, 0); g != kNo) {
    anchored = true;
    p = g;
  } else if (size_t py = MatchPythonHeader(s, 0); py != kNo) {
    return py;  // the message follows the colon directly
  }
  bool first = p == 0;
  while (p < s.size()) {
    size_t q = p;
    if (!first) {
      while (q < s.size() && IsSpace(s[q])) ++q;
      if (q == p || q >= s.size()) break;
    }
    size_t end = kNo;
    if (size_t d = MatchDate(s, q); d != kNo && (d == s.size() || IsSpace(s[d]))) {
      anchored = true;
      end = d;
    } else if (size_t t = MatchTime(s, q); t != kNo && (t == s.size() || IsSpace(s[t]))) {
      anchored = true;
      end = t;
    } else if (size_t b = 0; MatchBracket(s, q, &b) != Field::kNone) {
      if (MatchBracket(s, q, &b) == Field::kAnchor) anchored = true;
      end = b;
    } else if (anchored) {
      size_t w = WordEnd(s, q);
      std::string_view word = s.substr(q, w - q);
      if (size_t py = MatchPythonHeader(s, q); py != kNo) {
        p = py;
        break;
      }
      bool field = IsIpv4(word) || Digits(word, 0) == word.size() || IsLevel(word) ||
                   (word.size() > 1 && word.back() == ':' &&
                    IsLevel(word.substr(0, word.size() - 1))) ||
                   word == "-" || IsLoggerName(word);
      if (!field && IsHostWord(word)) {
        // A host name only counts before a rank or an address, or as a
        // `name - ` field of Python's `%(asctime)s - %(name)s - ...`.
        size_t n = w;
        while (n < s.size() && IsSpace(s[n])) ++n;
        size_t b2 = 0;
        field = (n > w && MatchBracket(s, n, &b2) == Field::kOther) ||
                (n > w && IsIpv4(s.substr(n, WordEnd(s, n) - n))) ||
                s.substr(w, 3) == " - ";
      }
      if (field) end = w;
    }
    if (end == kNo) break;
    p = end;
    first = false;
  }
  if (!anchored) return 0;
  if (p < s.size() && IsSpace(s[p])) ++p;
  return p;
}

// `[3] ` alone is too weak to call a prefix on one line; on nearly every line
// of a file it is a rank tag. Length of it, or 0.
size_t RankTagLength(std::string_view line) {
  if (line.size() < 4 || line[0] != '[') return 0;
  size_t n = Digits(line, 1);
  if (n == 0 || n > 5 || 1 + n >= line.size() || line[1 + n] != ']') return 0;
  size_t p = 2 + n;
  if (p < line.size() && line[p] == ':') ++p;
  if (p < line.size() && IsSpace(line[p])) ++p;
  return p;
}

// The line starting at `start`, without its line break.
std::string_view LineAt(std::string_view text, size_t start) {
  const void* nl = std::memchr(text.data() + start, '\n', text.size() - start);
  size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text.data())
                  : text.size();
  std::string_view line = text.substr(start, end - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

}  // namespace

void LogPrefixCount::AddCandidate(std::string_view line) {
  for (size_t k = 0; k < kSeen; ++k) {
    if (seen_[k].size() == line.size() && seen_[k] == line) {
      tagged += seen_tagged_[k];
      return;
    }
  }
  if (LogPrefixLength(line) > 0) {
    any = true;
    return;
  }
  const bool tag = RankTagLength(line) > 0;
  tagged += tag;
  seen_[next_seen_] = line;
  seen_tagged_[next_seen_] = tag;
  next_seen_ = (next_seen_ + 1) % kSeen;
}

LogPrefixCount CountLogPrefixes(std::string_view piece) {
  LogPrefixCount out;
  ForEachUnindentedLine(piece, [&](size_t start) {
    if (MayStartLogPrefix(piece[start])) out.AddLine(LineAt(piece, start));
    return !out.any;
  });
  return out;
}

LogPrefixSurvey ConcludeSurvey(std::string_view text, const LogPrefixCount& count) {
  LogPrefixSurvey out;
  out.any = count.any;
  // Without a tagged line there is no share of them to count.
  if (out.any || count.tagged == 0) return out;
  LineReader lines(text);
  std::string_view line;
  RankTagTally tally;
  while (lines.Next(&line)) tally.Add(line);
  out.rank_tags = tally.NearlyAll();
  return out;
}

// One pass: whether any line has a log prefix, and else whether at least
// 90% of the non-blank lines start with a rank tag.
LogPrefixSurvey SurveyLogPrefixes(std::string_view text, const TaskRunner* runner) {
  // Pieces start at a line, any line, so no line is in two.
  std::vector<size_t> bounds =
      runner == nullptr ? std::vector<size_t>{0}
                        : LineCuts(text, PieceCount(text, *runner),
                                   +[](std::string_view, std::string_view) { return true; });
  bounds.push_back(text.size());
  std::vector<LogPrefixCount> parts(bounds.size() - 1);
  auto survey = [&](size_t p) {
    parts[p] = CountLogPrefixes(text.substr(bounds[p], bounds[p + 1] - bounds[p]));
  };
  if (parts.size() > 1) {
    runner->run(parts.size(), survey);
  } else {
    survey(0);
  }
  LogPrefixCount count;
  for (const LogPrefixCount& part : parts) count.Add(part);
  return ConcludeSurvey(text, count);
}

void RankTagTally::Add(std::string_view line) {
  // A loop, not find_first_not_of: that costs one memchr per byte.
  size_t k = 0;
  while (k < line.size() && IsSpace(line[k])) ++k;
  AddIndented(line, k);
}

void RankTagTally::AddIndented(std::string_view line, size_t blanks) {
  if (blanks >= line.size()) return;
  ++lines;
  tagged += blanks == 0 && RankTagLength(line) > 0;
}

std::string_view StripLogPrefixes(std::string_view text, std::string* storage,
                                  size_t* stripped_lines, const TaskRunner* runner) {
  *stripped_lines = 0;
  const LogPrefixSurvey survey = SurveyLogPrefixes(text, runner);
  const bool rank_tags = survey.rank_tags;
  if (!survey.any && !rank_tags) return text;
  storage->clear();
  storage->reserve(text.size());
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == kNo ? text.size() : nl + 1;
    std::string_view l = text.substr(pos, end - pos);
    // memchr for the one byte that may come before the newline:
    // find_first_of("\r\n") costs a memchr per byte of the line.
    const void* cr = std::memchr(l.data(), '\r', l.size());
    std::string_view bare = l.substr(
        0, cr ? static_cast<size_t>(static_cast<const char*>(cr) - l.data())
              : (nl == kNo ? l.size() : l.size() - 1));
    size_t cut = rank_tags ? RankTagLength(bare) : LogPrefixLength(bare);
    if (cut > 0) ++*stripped_lines;
    storage->append(l.substr(cut));
    pos = end;
  }
  return *storage;
}

}  // namespace graphdiff
