// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/fx_expr.h"

namespace graphdiff {
namespace {

// Recursion guard for chains the lexer's bracket limit does not bound
// (`- - - - x`, long `a ** b ** c`).
constexpr int kMaxRecursion = 500;

// The index past the `]` of the list at toks[i] == `[` whose elements each
// match `element` (which moves `*i` past one and says whether it matched),
// separated by commas, a trailing one allowed: `[]`, `[8]`, `[8, 4,]`. 0 when
// it is not such a list.
template <typename Element>
size_t FlatListEnd(const std::vector<FxToken>& toks, size_t i, Element element) {
  if (!IsOpTok(toks[i], "[")) return 0;
  ++i;
  while (!IsOpTok(toks[i], "]")) {
    if (!element(&i)) return 0;
    if (IsOpTok(toks[i], ",")) {
      ++i;
    } else if (!IsOpTok(toks[i], "]")) {
      return 0;
    }
  }
  return i + 1;
}

// A name that stands for a value in an expression: not a word Python gives
// meaning to inside one.
bool IsPlainName(std::string_view w) {
  static constexpr std::string_view kWords[] = {"and",  "or",   "not",  "in",    "is",
                                                "if",   "else", "for",  "lambda", "None",
                                                "True", "False", "await", "yield"};
  for (std::string_view k : kWords) {
    if (w == k) return false;
  }
  return true;
}

}  // namespace

bool FxExprParser::IsOp(std::string_view op) const {
  // Operators are one to three bytes: compare them inline, not via memcmp.
  const FxToken& t = toks_[pos_];
  if (t.kind != FxTok::kOp || t.text.size() != op.size() || t.text[0] != op[0]) return false;
  for (size_t i = 1; i < op.size(); ++i) {
    if (t.text[i] != op[i]) return false;
  }
  return true;
}

bool FxExprParser::IsName(std::string_view name) const {
  const FxToken& t = toks_[pos_];
  return t.kind == FxTok::kName && t.text == name;
}

uint32_t FxExprParser::Add(FxExprKind kind, uint32_t first, std::string_view text) {
  // Filled in place: copying a local whose fields were just stored stalls
  // on store forwarding, a measurable share of parsing.
  FxExpr& e = arena_.emplace_back();
  e.kind = kind;
  e.first = first;
  e.last = static_cast<uint32_t>(pos_);
  e.text = text;
  return static_cast<uint32_t>(arena_.size() - 1);
}

uint32_t FxExprParser::Fail(std::string message) {
  if (error_.empty()) {
    error_token_ = pos_;
    error_ = std::move(message);
  }
  return kFxNone;
}

uint32_t FxExprParser::Unsupported(std::string message) {
  unsupported_ = true;
  return Fail(std::move(message));
}

uint32_t FxExprParser::ParseExpr(size_t* pos) {
  pos_ = *pos;
  depth_ = 0;
  uint32_t e = Test();
  *pos = pos_;
  return e;
}

uint32_t FxExprParser::ParseAnnotation(size_t* pos) {
  // `f32[8, s0]`, `f32[8, 4][4, 1]`, `i64[]`: a name and groups of numbers
  // and names, the type of every annotated line of a torch 2.0 graph, which
  // the precedence descent built into a subscript only for its token range.
  // Taken when ParseExpr would end where it ends, with a kSubscript.
  size_t i = *pos;
  if (toks_[i].kind != FxTok::kName || !IsPlainName(toks_[i].text) ||
      !IsOpTok(toks_[i + 1], "[")) {
    return ParseExpr(pos);
  }
  // A number or a plain name, each group: `[8, s0]`.
  auto element = [this](size_t* k) {
    const FxToken& t = toks_[(*k)++];
    return t.kind == FxTok::kNumber || (t.kind == FxTok::kName && IsPlainName(t.text));
  };
  ++i;
  while (IsOpTok(toks_[i], "[")) {
    i = FlatListEnd(toks_, i, element);
    if (i == 0) return ParseExpr(pos);
  }
  const FxToken& next = toks_[i];
  if (next.kind != FxTok::kNewline && !IsOpTok(next, "=") && !IsOpTok(next, ",") &&
      !IsOpTok(next, ")") && !IsOpTok(next, ";")) {
    return ParseExpr(pos);
  }
  pos_ = i;
  const uint32_t e = Add(FxExprKind::kSubscript, static_cast<uint32_t>(*pos));
  *pos = i;
  return e;
}

uint32_t FxExprParser::ParseExprList(size_t* pos) {
  pos_ = *pos;
  depth_ = 0;
  const uint32_t first = static_cast<uint32_t>(pos_);
  uint32_t e = Test();
  if (e == kFxNone || !IsOp(",")) {
    *pos = pos_;
    return e;
  }
  uint32_t tail = e;
  while (IsOp(",")) {
    ++pos_;
    const FxToken& t = toks_[pos_];
    if (t.kind == FxTok::kNewline || (t.kind == FxTok::kOp &&
                                      (t.text == "=" || t.text == ";" || t.text == ":"))) {
      break;
    }
    uint32_t next = Test();
    if (next == kFxNone) return kFxNone;
    arena_[tail].next = next;
    tail = next;
  }
  uint32_t tuple = Add(FxExprKind::kTuple, first);
  arena_[tuple].a = e;
  *pos = pos_;
  return tuple;
}

// True for a token no expression level continues with, so that a lone atom
// before it is the whole expression.
static bool EndsExpression(const FxToken& t) {
  if (t.kind == FxTok::kNewline) return true;
  if (t.kind != FxTok::kOp || t.text.size() != 1) return false;
  switch (t.text[0]) {
    case ',': case ')': case ']': case '}': case ';': case '=': case ':':
      return true;
    default:
      return false;
  }
}

// Tokens an AtomExpr starts with that no outer level treats first: names
// other than the keywords Test and NotTest look for, literals, brackets.
static bool StartsPrimary(const FxToken& t) {
  switch (t.kind) {
    case FxTok::kName:
      return t.text != "lambda" && t.text != "not";
    case FxTok::kNumber:
    case FxTok::kString:
      return true;
    case FxTok::kOp:
      return t.text.size() == 1 && (t.text[0] == '(' || t.text[0] == '[' || t.text[0] == '{');
    default:
      return false;
  }
}

uint32_t FxExprParser::Test() {
  if (++depth_ > kMaxRecursion) return Fail("expression nested too deeply");
  // Most expressions FX prints are one name or literal (arguments, targets,
  // `None`), a call or an attribute chain, each followed by the end of the
  // expression. They are parsed where the ten precedence levels would end
  // up, Atom or AtomExpr at this position and depth, which build the same
  // nodes and fail the same way. Anything else (`x + 1`) is parsed again
  // below.
  if (StartsPrimary(toks_[pos_])) {
    if (toks_[pos_].kind != FxTok::kOp && EndsExpression(toks_[pos_ + 1])) {
      uint32_t e = Atom();
      --depth_;
      return e;
    }
    const size_t start = pos_;
    const size_t mark = arena_.size();
    uint32_t e = AtomExpr();
    if (e == kFxNone || EndsExpression(toks_[pos_])) {
      --depth_;
      return e;
    }
    pos_ = start;
    arena_.resize(mark);
  }
  if (IsName("lambda")) return Unsupported("lambda is not supported in FX code");
  uint32_t e = OrTest();
  if (e != kFxNone && IsName("if")) {
    return Unsupported("conditional expressions are not supported in FX code");
  }
  --depth_;
  return e;
}

uint32_t FxExprParser::OrTest() {
  const uint32_t first = static_cast<uint32_t>(pos_);
  uint32_t lhs = AndTest();
  int chain = 0;
  while (lhs != kFxNone && IsName("or")) {
    // Builders recurse into operands: bound left-deep chains too.
    if (++chain > kMaxRecursion) return Fail("expression nested too deeply");
    std::string_view op = toks_[pos_++].text;
    uint32_t rhs = AndTest();
    if (rhs == kFxNone) return kFxNone;
    uint32_t e = Add(FxExprKind::kBinary, first, op);
    arena_[e].a = lhs;
    arena_[e].b = rhs;
    lhs = e;
  }
  return lhs;
}

uint32_t FxExprParser::AndTest() {
  const uint32_t first = static_cast<uint32_t>(pos_);
  uint32_t lhs = NotTest();
  int chain = 0;
  while (lhs != kFxNone && IsName("and")) {
    // Builders recurse into operands: bound left-deep chains too.
    if (++chain > kMaxRecursion) return Fail("expression nested too deeply");
    std::string_view op = toks_[pos_++].text;
    uint32_t rhs = NotTest();
    if (rhs == kFxNone) return kFxNone;
    uint32_t e = Add(FxExprKind::kBinary, first, op);
    arena_[e].a = lhs;
    arena_[e].b = rhs;
    lhs = e;
  }
  return lhs;
}

uint32_t FxExprParser::NotTest() {
  if (IsName("not")) {
    if (++depth_ > kMaxRecursion) return Fail("expression nested too deeply");
    const uint32_t first = static_cast<uint32_t>(pos_++);
    uint32_t x = NotTest();
    --depth_;
    if (x == kFxNone) return kFxNone;
    uint32_t e = Add(FxExprKind::kUnary, first, "not");
    arena_[e].a = x;
    return e;
  }
  return Comparison();
}

uint32_t FxExprParser::Comparison() {
  const uint32_t first = static_cast<uint32_t>(pos_);
  uint32_t lhs = BinaryLevel(1);
  int chain = 0;
  while (lhs != kFxNone) {
    // Builders recurse into operands: bound left-deep chains too.
    if (++chain > kMaxRecursion) return Fail("expression nested too deeply");
    const FxToken& t = toks_[pos_];
    std::string_view op;
    if (t.kind == FxTok::kOp && (t.text == "<" || t.text == ">" || t.text == "==" ||
                                 t.text == ">=" || t.text == "<=" || t.text == "!=")) {
      op = t.text;
      ++pos_;
    } else if (t.kind == FxTok::kName && (t.text == "in" || t.text == "is")) {
      op = t.text;
      ++pos_;
      if (IsName("not")) {
        op = op == "in" ? "not in" : "is not";
        ++pos_;
      }
    } else if (t.kind == FxTok::kName && t.text == "not" &&
               toks_[pos_ + 1].kind == FxTok::kName && toks_[pos_ + 1].text == "in") {
      op = "not in";
      pos_ += 2;
    } else {
      break;
    }
    uint32_t rhs = BinaryLevel(1);
    if (rhs == kFxNone) return kFxNone;
    uint32_t e = Add(FxExprKind::kBinary, first, op);
    arena_[e].a = lhs;
    arena_[e].b = rhs;
    lhs = e;
  }
  return lhs;
}

// Binding power of a binary operator token (0: not one). Tighter binds
// higher: | ^ & << >> + - * / // % @, as in Python.
static int BinaryPrecedence(const FxToken& t) {
  if (t.kind != FxTok::kOp) return 0;
  const std::string_view s = t.text;
  if (s.size() == 1) {
    switch (s[0]) {
      case '|': return 1;
      case '^': return 2;
      case '&': return 3;
      case '+': case '-': return 5;
      case '*': case '/': case '%': case '@': return 6;
      default: return 0;
    }
  }
  if (s.size() == 2 && s[0] == s[1]) {
    if (s[0] == '<' || s[0] == '>') return 4;
    if (s[0] == '/') return 6;
  }
  return 0;
}

// Precedence climbing: one call per operand instead of one per level.
uint32_t FxExprParser::BinaryLevel(int min_prec) {
  const uint32_t first = static_cast<uint32_t>(pos_);
  uint32_t lhs = Factor();
  int chain = 0;
  while (lhs != kFxNone) {
    // Builders recurse into operands: bound left-deep chains too.
    if (++chain > kMaxRecursion) return Fail("expression nested too deeply");
    const int prec = BinaryPrecedence(toks_[pos_]);
    if (prec == 0 || prec < min_prec) break;
    if (++depth_ > kMaxRecursion) return Fail("expression nested too deeply");
    std::string_view op = toks_[pos_++].text;
    uint32_t rhs = BinaryLevel(prec + 1);
    --depth_;
    if (rhs == kFxNone) return kFxNone;
    uint32_t e = Add(FxExprKind::kBinary, first, op);
    arena_[e].a = lhs;
    arena_[e].b = rhs;
    lhs = e;
  }
  return lhs;
}

uint32_t FxExprParser::Factor() {
  if (IsOp("-") || IsOp("+") || IsOp("~")) {
    if (++depth_ > kMaxRecursion) return Fail("expression nested too deeply");
    const uint32_t first = static_cast<uint32_t>(pos_);
    std::string_view op = toks_[pos_++].text;
    uint32_t x = Factor();
    --depth_;
    if (x == kFxNone) return kFxNone;
    uint32_t e = Add(FxExprKind::kUnary, first, op);
    arena_[e].a = x;
    return e;
  }
  return Power();
}

uint32_t FxExprParser::Power() {
  const uint32_t first = static_cast<uint32_t>(pos_);
  uint32_t base = AtomExpr();
  if (base == kFxNone || !IsOp("**")) return base;
  if (++depth_ > kMaxRecursion) return Fail("expression nested too deeply");
  std::string_view op = toks_[pos_++].text;
  uint32_t exp = Factor();  // right-associative, binds unary minus
  --depth_;
  if (exp == kFxNone) return kFxNone;
  uint32_t e = Add(FxExprKind::kBinary, first, op);
  arena_[e].a = base;
  arena_[e].b = exp;
  return e;
}

// A symbolic_trace of nested Sequentials calls each layer through getattr,
// four deep in EfficientNet: `getattr(getattr(getattr(self.features, "1"),
// "0").block, "2")(x)`. Its tree (a call, a name and a string a level, the
// descent through each argument list) was most of parsing such a line, and
// the builder wants only the path. Taken only for exactly this shape:
//   chain := `self` (`.` name)*  |  `getattr` `(` chain `,` string `)` (`.` name)*
// followed by `(`; anything else (a trailing comma, adjacent strings, a
// root other than `self`, no call) takes the general descent.
uint32_t FxExprParser::ModuleCallee() {
  auto is_name = [this](size_t i, std::string_view w) {
    return toks_[i].kind == FxTok::kName && toks_[i].text == w;
  };
  size_t i = pos_;
  size_t opens = 0;
  while (is_name(i, "getattr") && IsOpTok(toks_[i + 1], "(")) {
    i += 2;
    ++opens;
  }
  if (opens == 0 || !is_name(i, "self")) return kFxNone;
  ++i;
  // Every token list ends with a newline: a token past an operator exists.
  auto names = [&] {
    while (IsOpTok(toks_[i], ".") && toks_[i + 1].kind == FxTok::kName) i += 2;
  };
  names();
  for (size_t k = 0; k < opens; ++k) {
    if (!IsOpTok(toks_[i], ",") || toks_[i + 1].kind != FxTok::kString ||
        !IsOpTok(toks_[i + 2], ")")) {
      return kFxNone;
    }
    i += 3;
    names();
  }
  if (!IsOpTok(toks_[i], "(")) return kFxNone;
  const uint32_t first = static_cast<uint32_t>(pos_);
  pos_ = i;
  return Add(FxExprKind::kModulePath, first);
}

uint32_t FxExprParser::AtomExpr() {
  const uint32_t first = static_cast<uint32_t>(pos_);
  uint32_t e = kFxNone;
  if (IsName("getattr")) e = ModuleCallee();
  if (e == kFxNone) e = Atom();
  // The graph builder walks trailer chains recursively: bound them.
  int trailers = 0;
  while (e != kFxNone) {
    if (++trailers > kMaxRecursion) return Fail("expression nested too deeply");
    // Which trailer, asked of the token once.
    const FxToken& t = toks_[pos_];
    const char c = t.kind == FxTok::kOp && t.text.size() == 1 ? t.text[0] : '\0';
    if (c == '.') {
      ++pos_;
      if (toks_[pos_].kind != FxTok::kName) return Fail("expected a name after '.'");
      std::string_view name = toks_[pos_++].text;
      uint32_t attr = Add(FxExprKind::kAttribute, first, name);
      arena_[attr].a = e;
      e = attr;
    } else if (c == '(') {
      ++pos_;
      uint32_t args = kFxNone;
      bool comma = false;
      if (!ParseSequence(')', &args, &comma, /*call_args=*/true)) return kFxNone;
      uint32_t call = Add(FxExprKind::kCall, first);
      arena_[call].a = e;
      arena_[call].b = args;
      e = call;
    } else if (c == '[') {
      ++pos_;
      const uint32_t index_first = static_cast<uint32_t>(pos_);
      uint32_t index = Subscript();
      if (index == kFxNone) return kFxNone;
      if (IsOp(",")) {  // a[i, j]: the index is a tuple
        uint32_t tail = index;
        while (IsOp(",")) {
          ++pos_;
          if (IsOp("]")) break;
          uint32_t next = Subscript();
          if (next == kFxNone) return kFxNone;
          arena_[tail].next = next;
          tail = next;
        }
        uint32_t tuple = Add(FxExprKind::kTuple, index_first);
        arena_[tuple].a = index;
        index = tuple;
      }
      if (!IsOp("]")) return Fail("expected ']'");
      ++pos_;
      uint32_t sub = Add(FxExprKind::kSubscript, first);
      arena_[sub].a = e;
      arena_[sub].b = index;
      e = sub;
    } else {
      break;
    }
  }
  return e;
}

uint32_t FxExprParser::Subscript() {
  const uint32_t first = static_cast<uint32_t>(pos_);
  uint32_t parts[3] = {kFxNone, kFxNone, kFxNone};
  auto at_part_end = [&] { return IsOp(":") || IsOp("]") || IsOp(","); };
  if (!at_part_end()) {
    parts[0] = Test();
    if (parts[0] == kFxNone) return kFxNone;
  }
  if (!IsOp(":")) {
    if (parts[0] != kFxNone) return parts[0];
    // `i64[]`: not Python, but FX 2.0 prints scalar annotations this way.
    if (IsOp("]")) return Add(FxExprKind::kTuple, first);
    return Fail("expected an index");
  }
  for (int k = 1; k < 3 && IsOp(":"); ++k) {
    ++pos_;
    if (!at_part_end()) {
      parts[k] = Test();
      if (parts[k] == kFxNone) return kFxNone;
    }
  }
  uint32_t s = Add(FxExprKind::kSlice, first);
  arena_[s].a = parts[0];
  arena_[s].b = parts[1];
  arena_[s].c = parts[2];
  return s;
}

bool FxExprParser::ParseSequence(char close, uint32_t* first_child,
                                 bool* had_comma, bool call_args) {
  const std::string_view close_text(&close, 1);
  uint32_t tail = kFxNone;
  *first_child = kFxNone;
  *had_comma = false;
  auto append = [&](uint32_t e) {
    if (tail == kFxNone) {
      *first_child = e;
    } else {
      arena_[tail].next = e;
    }
    tail = e;
  };
  while (!IsOp(close_text)) {
    const uint32_t first = static_cast<uint32_t>(pos_);
    const FxToken& t = toks_[pos_];
    const FxToken& next = toks_[pos_ + 1];
    uint32_t e;
    if (t.kind != FxTok::kOp && depth_ < kMaxRecursion && StartsPrimary(t) &&
        (IsOpTok(next, ",") || IsOpTok(next, close_text))) {
      // One name or literal before `,` or the close (most arguments): the
      // Atom that Argument's NumberList and Test would come to, and fail
      // in, without their calls. Below the depth limit, as Test asks.
      e = Atom();
      if (e == kFxNone) return false;
    } else if (IsOp("*") || IsOp("**")) {
      std::string_view star = toks_[pos_++].text;
      uint32_t x = Test();
      if (x == kFxNone) return false;
      e = Add(FxExprKind::kStarred, first, star);
      arena_[e].a = x;
    } else if (call_args && toks_[pos_].kind == FxTok::kName &&
               toks_[pos_ + 1].kind == FxTok::kOp && toks_[pos_ + 1].text == "=") {
      std::string_view key = toks_[pos_].text;
      pos_ += 2;
      const uint32_t x = Argument(call_args);
      if (x == kFxNone) return false;
      e = Add(FxExprKind::kKeyword, first, key);
      arena_[e].a = x;
    } else {
      e = Argument(call_args);
      if (e == kFxNone) return false;
    }
    append(e);
    if (close == '}' && IsOp(":")) {  // dict: key ':' value
      ++pos_;
      uint32_t v = Test();
      if (v == kFxNone) return false;
      append(v);
    }
    if (IsName("for")) {
      Unsupported("comprehensions are not supported in FX code");
      return false;
    }
    if (IsOp(",")) {
      *had_comma = true;
      ++pos_;
      continue;
    }
    if (!IsOp(close_text)) {
      Fail(std::string("expected ',' or '") + close + "'");
      return false;
    }
  }
  ++pos_;
  return true;
}

uint32_t FxExprParser::Argument(bool call_args) {
  const uint32_t e = call_args && number_lists_whole_ ? NumberList() : kFxNone;
  return e != kFxNone ? e : Test();
}

uint32_t FxExprParser::NumberList() {
  // A number, negated or not: `[0, -1]`.
  const size_t i = FlatListEnd(toks_, pos_, [this](size_t* k) {
    if (IsOpTok(toks_[*k], "-")) ++*k;
    return toks_[(*k)++].kind == FxTok::kNumber;
  });
  if (i == 0) return kFxNone;
  // Test() would end here too: nothing the list could be part of follows.
  if (!IsOpTok(toks_[i], ",") && !IsOpTok(toks_[i], ")")) return kFxNone;
  const uint32_t first = static_cast<uint32_t>(pos_);
  pos_ = i;
  return Add(FxExprKind::kList, first);
}

uint32_t FxExprParser::Atom() {
  const FxToken& t = toks_[pos_];
  const uint32_t first = static_cast<uint32_t>(pos_);
  switch (t.kind) {
    case FxTok::kName: {
      ++pos_;
      if (t.text == "None" || t.text == "True" || t.text == "False" ||
          t.text == "Ellipsis") {
        return Add(FxExprKind::kConst, first, t.text);
      }
      if (t.text == "lambda" || t.text == "yield" || t.text == "await") {
        --pos_;
        return Unsupported("'" + std::string(t.text) + "' is not supported in FX code");
      }
      return Add(FxExprKind::kName, first, t.text);
    }
    case FxTok::kNumber:
      ++pos_;
      return Add(FxExprKind::kNumber, first, t.text);
    case FxTok::kString:
      ++pos_;
      while (toks_[pos_].kind == FxTok::kString) ++pos_;  // implicit concatenation
      return Add(FxExprKind::kString, first, t.text);
    case FxTok::kOp: {
      if (t.text == "...") {
        ++pos_;
        return Add(FxExprKind::kConst, first, t.text);
      }
      char open = t.text.size() == 1 ? t.text[0] : 0;
      if (open != '(' && open != '[' && open != '{') break;
      ++pos_;
      const char close = open == '(' ? ')' : open == '[' ? ']' : '}';
      uint32_t children = kFxNone;
      bool comma = false;
      if (!ParseSequence(close, &children, &comma, /*call_args=*/false)) return kFxNone;
      FxExprKind kind = open == '(' ? FxExprKind::kTuple
                        : open == '[' ? FxExprKind::kList
                                      : FxExprKind::kDict;
      if (open == '(' && children != kFxNone && !comma &&
          arena_[children].kind != FxExprKind::kStarred) {
        // A parenthesised expression, not a tuple: keep the parens' range.
        arena_[children].first = first;
        arena_[children].last = static_cast<uint32_t>(pos_);
        return children;
      }
      if (open == '{' && children != kFxNone) {
        // `{a, b}` is a set: a dict chain always has an even length and
        // every key is followed by ':' in the tokens.
        const FxExpr& k0 = arena_[children];
        if (toks_[k0.last].kind != FxTok::kOp || toks_[k0.last].text != ":") {
          kind = FxExprKind::kSet;
        }
      }
      uint32_t e = Add(kind, first);
      arena_[e].a = children;
      return e;
    }
    default:
      break;
  }
  if (t.kind == FxTok::kNewline) return Fail("expected an expression (truncated statement?)");
  return Fail("unexpected '" + std::string(t.text) + "'");
}

}  // namespace graphdiff
