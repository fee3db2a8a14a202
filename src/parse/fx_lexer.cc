// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/fx_lexer.h"

#include <cstring>

#include "parse/name_scan.h"

namespace graphdiff {
namespace {

// Deeper nesting than this is not something torch.fx prints; refusing it
// also bounds the recursion of the expression parser.
constexpr size_t kMaxDepth = 200;

char OpenerOf(char close) {
  return close == ')' ? '(' : close == ']' ? '[' : '{';
}

// Length of the operator at the start of `s` (longest match), 0 if none:
// `**=` `//=` `>>=` `<<=` `...`, then `**` `//` `<<` `>>` `<=` `>=` `==` `!=`
// `->` and the augmented `X=`, then single characters. One switch on the
// first byte instead of scanning the operator tables.
size_t OperatorLength(std::string_view s) {
  const char c1 = s.size() > 1 ? s[1] : '\0';
  const char c2 = s.size() > 2 ? s[2] : '\0';
  switch (s[0]) {
    case ',': case '(': case ')': case '[': case ']': case '{': case '}':
    case ';': case '~':
      return 1;
    case '.':
      return c1 == '.' && c2 == '.' ? 3 : 1;
    case '*': case '/': case '<': case '>':
      if (c1 == s[0]) return c2 == '=' ? 3 : 2;  // ** // << >> and their X=
      return c1 == '=' ? 2 : 1;
    case '-':
      return c1 == '>' || c1 == '=' ? 2 : 1;
    case '!':
      return c1 == '=' ? 2 : 0;
    case '=': case '+': case '%': case '@': case '&': case '|': case '^': case ':':
      return c1 == '=' ? 2 : 1;
    default:
      return 0;
  }
}

// Length of the number at the start of `s` (which starts with a digit, or
// '.' followed by a digit).
size_t NumberLength(std::string_view s) {
  size_t i = 0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'b' ||
                                      s[1] == 'B' || s[1] == 'o' || s[1] == 'O')) {
    return NameEnd(s.data(), 2, s.size());
  }
  while (i < s.size() && (IsDigitByte(s[i]) || s[i] == '_')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && (IsDigitByte(s[i]) || s[i] == '_')) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (j < s.size() && IsDigitByte(s[j])) {
      while (j < s.size() && IsDigitByte(s[j])) ++j;
      i = j;
    }
  }
  if (i < s.size() && (s[i] == 'j' || s[i] == 'J')) ++i;
  return i;
}

// A continuation line that starts a new definition means the statement
// before it was cut off: report the unclosed bracket instead of swallowing
// the next graph.
bool StartsNewBlock(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  std::string_view t = text.substr(i);
  return t.substr(0, 4) == "def " || t.substr(0, 6) == "class " ||
         t.substr(0, 5) == "=====";
}

}  // namespace

bool FxIsBlank(std::string_view text) {
  for (char c : text) {
    if (c != ' ' && c != '\t' && c != '\f') return false;
  }
  return true;
}

bool FxIsStatementKeyword(std::string_view w) {
  // Every statement starts with a name: compare only the keywords of its
  // length.
  switch (w.size()) {
    case 2: return w == "if";
    case 3: return w == "del" || w == "for" || w == "try" || w == "def";
    case 4: return w == "pass" || w == "from" || w == "elif" || w == "else" || w == "with";
    case 5:
      return w == "while" || w == "raise" || w == "class" || w == "break" || w == "yield" ||
             w == "async" || w == "await";
    case 6: return w == "assert" || w == "import" || w == "except" || w == "global";
    case 7: return w == "finally";
    case 8: return w == "nonlocal" || w == "continue";
    default: return false;
  }
}

namespace {

// A name that may be the target or the value of a name-freeing statement:
// the expression parser reads it as a plain name (see OnlyFreesNames in
// fx_code.cc), not a keyword it refuses or a number.
bool PlainName(std::string_view name) {
  return name != "lambda" && name != "not" && name != "yield" && name != "await" &&
         name != "Ellipsis" && name != "inf" && name != "nan";
}

// True when p[0, n) is nothing but `a = b = None` (blanks around): the
// statement FX prints after nearly every node to free names. It makes no
// node and no warning, so the tokens it would need are not made.
bool FreesNamesToEnd(const char* p, size_t n) {
  size_t i = 0;
  auto blanks = [&] {
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\f' || p[i] == '\r')) ++i;
  };
  size_t targets = 0;
  for (;;) {
    blanks();
    if (i >= n || !IsNameStartByte(static_cast<unsigned char>(p[i]))) return false;
    const size_t begin = i;
    i = NameEnd(p, i + 1, n);
    const std::string_view name(p + begin, i - begin);
    blanks();
    if (i >= n) return targets > 0 && name == "None";
    if (p[i] != '=' || (i + 1 < n && p[i + 1] == '=') || !PlainName(name)) return false;
    if (targets == 0 && (name == "return" || FxIsStatementKeyword(name))) return false;
    ++targets;
    ++i;
  }
}

}  // namespace

uint32_t FxIndent(std::string_view text) {
  const char* p = text.data();
  const size_t n = text.size();
  size_t i = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  // Eight spaces a step: every line is split by this, and a byte loop over
  // its indent was a sixteenth of the small typed graphs' parse.
  constexpr uint64_t kSpaces = 0x2020202020202020ull;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    if (w != kSpaces) {
      i += static_cast<size_t>(__builtin_ctzll(w ^ kSpaces)) / 8;  // the first other byte
      break;
    }
  }
#endif
  while (i < n && (p[i] == ' ' || p[i] == '\t')) ++i;
  return static_cast<uint32_t>(i);
}

std::string_view FxLeadingName(std::string_view code) {
  return code.substr(0, NameEnd(code.data(), 0, code.size()));
}

bool FxIsProjection(std::string_view code) {
  const size_t n = code.size();
  auto name_end = [&](size_t i) { return NameEnd(code.data(), i, n); };
  size_t i = name_end(0);
  if (i == 0) return false;
  if (i < n && code[i] == ':') {  // `getitem: "f32[8]" = bn[0]`
    // A quoted annotation is passed in one step: its spaces each stopped
    // the search for " = ", on every typed line of a graph.
    if (i + 2 < n && code[i + 1] == ' ' && code[i + 2] == '"') {
      const void* close = std::memchr(code.data() + i + 3, '"', n - i - 3);
      if (close == nullptr) return false;
      i = static_cast<size_t>(static_cast<const char*>(close) - code.data());
    }
    i = code.find(" = ", i);
    if (i == std::string_view::npos) return false;
  }
  if (code.substr(i, 3) != " = ") return false;
  const size_t value = i + 3;
  i = name_end(value);
  if (i == value || i >= n || code[i] != '[') return false;
  const size_t digits = ++i;
  while (i < n && IsDigitByte(static_cast<unsigned char>(code[i]))) ++i;
  if (i == digits || i >= n || code[i] != ']') return false;
  ++i;
  while (i < n && code[i] == ' ') ++i;
  return i == n || code[i] == ';' || code[i] == '#';
}

bool FxMakesNoNode(std::string_view code) {
  const size_t n = code.size();
  size_t i = NameEnd(code.data(), 0, n);
  if (i == 0) return false;
  if (code.substr(0, i) == "return") return true;
  if (code.substr(i, 3) != " = ") return FxIsProjection(code);
  const size_t value = i + 3;
  i = NameEnd(code.data(), value, n);
  if (i == value) return false;
  if (i < n && code[i] == '[') return FxIsProjection(code);
  while (i < n && code[i] == ' ') ++i;
  return i == n || code[i] == ';' || code[i] == '#';
}

bool FxLexer::NextLogicalLine(std::vector<FxToken>* code,
                              std::vector<FxToken>* comments,
                              FxLexError* error) {
  code->clear();
  comments->clear();
  semicolons_.clear();
  struct Open {
    char close;
    uint32_t line, col;
  };
  Open stack[kMaxDepth];
  size_t depth = 0;
  bool space = true;
  auto fail = [&](uint32_t line, uint32_t col, std::string message) {
    error->line = line;
    error->col = col;
    error->message = std::move(message);
    return false;
  };
  while (lines_.Has(line_)) {
    const uint32_t li = static_cast<uint32_t>(line_);
    const FxLine& line = lines_[line_];
    std::string_view s = line.text;
    // The indent is blanks the loop below would pass one at a time: it was
    // counted when the line was split.
    size_t i = line.indent;
    // The text was last read when its lines were split, out of cache by
    // now in a big graph: ask for the lines ahead while this one is read.
    if (line_ + 4 < lines_.end()) __builtin_prefetch(lines_[line_ + 4].text.data());
    ++line_;
    if (depth > 0 && StartsNewBlock(s)) {
      return fail(stack[depth - 1].line, stack[depth - 1].col,
                  std::string("'") + OpenerOf(stack[depth - 1].close) +
                      "' is never closed");
    }
    bool continued = false;
    space = true;
    const char* const p = s.data();
    const size_t n = s.size();
    while (i < n) {
      const unsigned char c = static_cast<unsigned char>(p[i]);
      if (IsNameStartByte(c)) {
        // Names are most tokens: scanned first, without the checks below.
        const size_t j = NameEnd(p, i + 1, n);
        if (j < n && (p[j] == '\'' || p[j] == '"') && j - i <= 2) goto general;
        FxToken& tok = code->emplace_back();
        tok.space_before = space;
        tok.line = li;
        tok.col = static_cast<uint32_t>(i);
        tok.text = std::string_view(p + i, j - i);
        tok.kind = (tok.text == "inf" || tok.text == "nan") ? FxTok::kNumber : FxTok::kName;
        // One space after a name (`x = y`, `a, b`) is taken here rather
        // than by another turn of the loop.
        space = j < n && p[j] == ' ';
        i = j + space;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
        space = true;
        ++i;
        continue;
      }
      // The one-byte punctuation between names (`.`, `,`, brackets, `=`),
      // as the general path below would read it; anything unusual (a
      // bracket that does not match, `..`, `==`) is left to that path.
      {
        const char next = i + 1 < n ? p[i + 1] : '\0';
        bool punct = false;
        switch (c) {
          case ',':
            punct = true;
            break;
          case '.':
            punct = IsNameStartByte(static_cast<unsigned char>(next));
            break;
          case '=':
            punct = next != '=';
            break;
          case '(': case '[':
            if (depth < kMaxDepth) {
              stack[depth++] = {c == '(' ? ')' : ']', li, static_cast<uint32_t>(i)};
              punct = true;
            }
            break;
          case ')': case ']':
            if (depth > 0 && stack[depth - 1].close == static_cast<char>(c)) {
              --depth;
              punct = true;
            }
            break;
          default:
            break;
        }
        if (punct) {
          FxToken& tok = code->emplace_back();
          tok.kind = FxTok::kOp;
          tok.space_before = space;
          tok.line = li;
          tok.col = static_cast<uint32_t>(i);
          tok.text = std::string_view(p + i, 1);
          // As after a name: `, ` and ` = ` are most of the spaces.
          space = i + 1 < n && p[i + 1] == ' ';
          i += 1 + space;
          continue;
        }
      }
    general:
      // Tokens are filled in place (see the names above): copying a local
      // whose fields were just stored stalls on store forwarding.
      const bool space_before = space;
      space = false;
      if (c == '#') {
        FxToken& tok = comments->emplace_back();
        tok.space_before = space_before;
        tok.line = li;
        tok.col = static_cast<uint32_t>(i);
        tok.kind = FxTok::kComment;
        tok.text = s.substr(i);
        break;
      }
      FxTok kind = FxTok::kEnd;
      if (c == '\\' && i + 1 == s.size()) {  // explicit line continuation
        continued = true;
        break;
      }
      size_t len = 0;
      if (IsNameStartByte(c)) {
        len = NameEnd(p, i + 1, n) - i;
        // String prefixes: r'..', b"..", f'..', rb'..'.
        if (i + len < s.size() && (s[i + len] == '\'' || s[i + len] == '"') &&
            len <= 2) {
          bool prefix = true;
          for (size_t k = 0; k < len; ++k) {
            char p = s[i + k] | 0x20;
            if (p != 'r' && p != 'b' && p != 'u' && p != 'f') prefix = false;
          }
          if (prefix) goto string_literal;
        }
        std::string_view name = s.substr(i, len);
        kind = (name == "inf" || name == "nan") ? FxTok::kNumber : FxTok::kName;
      } else if (IsDigitByte(c) || (c == '.' && i + 1 < s.size() && IsDigitByte(s[i + 1]))) {
        kind = FxTok::kNumber;
        len = NumberLength(s.substr(i));
      } else if (c == '\'' || c == '"') {
      string_literal:
        size_t q = i + len;  // the opening quote
        const char quote = s[q];
        bool triple = q + 2 < s.size() && s[q + 1] == quote && s[q + 2] == quote;
        size_t j = q + (triple ? 3 : 1);
        bool closed = false;
        if (!triple) {
          // Most strings are type annotations (`"f32[8, 4][4, 1]cpu"`) or a
          // getattr's part (`"0"`, four to a call in a symbolic_trace of
          // nested Sequentials) with no escape. The first bytes are looked
          // at here, and a longer string's closing quote is found in one
          // step; bytes are walked one at a time only when a backslash
          // comes before it.
          constexpr size_t kShort = 16;
          const size_t stop = std::min(n, j + kShort);
          size_t k = j;
          while (k < stop && p[k] != quote && p[k] != '\\') ++k;
          if (k < stop) {
            if (p[k] == quote) {
              j = k + 1;
              closed = true;
            }
          } else if (const void* end = std::memchr(p + k, quote, n - k); end != nullptr) {
            const size_t e = static_cast<size_t>(static_cast<const char*>(end) - p);
            if (std::memchr(p + k, '\\', e - k) == nullptr) {
              j = e + 1;
              closed = true;
            }
          }
        }
        while (!closed && j < s.size()) {
          if (s[j] == '\\') {
            j += 2;
            continue;
          }
          if (s[j] == quote) {
            if (!triple) {
              ++j;
              closed = true;
              break;
            }
            if (j + 2 < s.size() && s[j + 1] == quote && s[j + 2] == quote) {
              j += 3;
              closed = true;
              break;
            }
          }
          ++j;
        }
        if (!closed) return fail(li, static_cast<uint32_t>(i), "unterminated string");
        kind = FxTok::kString;
        len = j - i;
      } else if ((len = OperatorLength(s.substr(i))) > 0) {
        kind = FxTok::kOp;
        if (c == '(' || c == '[' || c == '{') {
          if (depth == kMaxDepth) {
            return fail(li, static_cast<uint32_t>(i), "brackets nested too deeply");
          }
          stack[depth++] = {c == '(' ? ')' : c == '[' ? ']' : '}', li,
                            static_cast<uint32_t>(i)};
        } else if (c == ')' || c == ']' || c == '}') {
          if (depth == 0 || stack[depth - 1].close != static_cast<char>(c)) {
            return fail(li, static_cast<uint32_t>(i),
                        std::string("unbalanced '") + static_cast<char>(c) + "'");
          }
          --depth;
        } else if (c == ';' && depth == 0) {
          semicolons_.push_back(static_cast<uint32_t>(code->size()));
          if (FreesNamesToEnd(p + i + 1, n - i - 1)) {
            FxToken& tok = code->emplace_back();
            tok.kind = FxTok::kOp;
            tok.space_before = space_before;
            tok.line = li;
            tok.col = static_cast<uint32_t>(i);
            tok.text = s.substr(i, 1);
            i = n;
            continue;
          }
        }
      } else {
        return fail(li, static_cast<uint32_t>(i),
                    c < 0x20 || c >= 0x7f ? "unexpected byte in code"
                                          : std::string("unexpected character '") +
                                                static_cast<char>(c) + "'");
      }
      FxToken& tok = code->emplace_back();
      tok.kind = kind;
      tok.space_before = space_before;
      tok.line = li;
      tok.col = static_cast<uint32_t>(i);
      tok.text = s.substr(i, len);
      i += len;
    }
    if (depth == 0 && !continued) {
      FxToken& nl = code->emplace_back();
      nl.kind = FxTok::kNewline;
      nl.line = li;
      nl.col = static_cast<uint32_t>(s.size());
      return true;
    }
  }
  if (depth > 0) {
    const Open& o = stack[depth - 1];
    return fail(o.line, o.col,
                std::string("'") + OpenerOf(o.close) +
                    "' is never closed (truncated statement?)");
  }
  if (code->empty() && comments->empty()) return true;  // caller checks done()
  FxToken nl;
  nl.kind = FxTok::kNewline;
  nl.line = static_cast<uint32_t>(lines_.end() - 1);
  code->push_back(nl);
  return true;
}

}  // namespace graphdiff
