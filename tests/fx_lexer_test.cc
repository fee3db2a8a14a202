// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/fx_lexer.h"

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "parse/fx_expr.h"
#include "parse/fx_unwrap.h"
#include "parse/name_scan.h"

namespace graphdiff {
namespace {

struct Lexed {
  std::unique_ptr<FxLines> lines;
  std::vector<FxToken> code, comments;
  FxLexError error;
  bool ok = false;
};

// Lexes the first logical line of `text`. The text must outlive the result.
void LexFirst(const std::string& text, Lexed* out) {
  out->lines = std::make_unique<FxLines>(text);
  FxLexer lexer(*out->lines);
  out->ok = lexer.NextLogicalLine(&out->code, &out->comments, &out->error);
}

std::vector<std::string> Texts(const std::vector<FxToken>& toks) {
  std::vector<std::string> out;
  for (const FxToken& t : toks) {
    if (t.kind != FxTok::kNewline) out.emplace_back(t.text);
  }
  return out;
}

TEST(FxLexerTest, NumbersIncludingExponentsInfAndNan) {
  std::string text = "x = f(1e-05, 0.1, -inf, inf, nan, 3, 2.5e+3, 0x1f)\n";
  Lexed l;
  LexFirst(text, &l);
  ASSERT_TRUE(l.ok) << l.error.message;
  std::vector<std::string> numbers;
  for (const FxToken& t : l.code) {
    if (t.kind == FxTok::kNumber) numbers.emplace_back(t.text);
  }
  EXPECT_EQ(numbers, (std::vector<std::string>{"1e-05", "0.1", "inf", "inf", "nan", "3",
                                               "2.5e+3", "0x1f"}));
}

TEST(FxLexerTest, StringsWithBothQuotesAndEscapes) {
  std::string text = R"(x = g('a\'b', "c\"d", 'e"f', b'z'))" "\n";
  Lexed l;
  LexFirst(text, &l);
  ASSERT_TRUE(l.ok) << l.error.message;
  std::vector<std::string> strings;
  for (const FxToken& t : l.code) {
    if (t.kind == FxTok::kString) strings.emplace_back(t.text);
  }
  EXPECT_EQ(strings, (std::vector<std::string>{R"('a\'b')", R"("c\"d")", R"('e"f')",
                                               "b'z'"}));
}

TEST(FxLexerTest, OperatorsLongestMatch) {
  std::string text = "a //= b ** c // d @ e += f != g -> h\n";
  Lexed l;
  LexFirst(text, &l);
  ASSERT_TRUE(l.ok);
  EXPECT_EQ(Texts(l.code), (std::vector<std::string>{"a", "//=", "b", "**", "c", "//", "d",
                                                     "@", "e", "+=", "f", "!=", "g", "->",
                                                     "h"}));
}

TEST(FxLexerTest, BracketsContinueAcrossLinesAndCommentsAreKept) {
  std::string text =
      "return [\n"
      "    a,  # PlainAOTOutput(idx=0)\n"
      "    (b, {c: [d]}),\n"
      "]\n"
      "next_line\n";
  FxLines lines(text);
  FxLexer lexer(lines);
  std::vector<FxToken> code, comments;
  FxLexError err;
  ASSERT_TRUE(lexer.NextLogicalLine(&code, &comments, &err)) << err.message;
  EXPECT_EQ(code.back().kind, FxTok::kNewline);
  ASSERT_EQ(comments.size(), 1u);
  EXPECT_EQ(comments[0].text, "# PlainAOTOutput(idx=0)");
  EXPECT_EQ(comments[0].line, 1u);
  EXPECT_EQ(lexer.line_index(), 4u);
  ASSERT_TRUE(lexer.NextLogicalLine(&code, &comments, &err));
  EXPECT_EQ(Texts(code), std::vector<std::string>{"next_line"});
}

TEST(FxLexerTest, CommentLineIsItsOwnLogicalLine) {
  std::string text = "    # File: /m.py:3 in forward, code: return x\n";
  Lexed l;
  LexFirst(text, &l);
  ASSERT_TRUE(l.ok);
  ASSERT_EQ(l.code.size(), 1u);
  ASSERT_EQ(l.comments.size(), 1u);
  EXPECT_EQ(l.comments[0].kind, FxTok::kComment);
}

TEST(FxLexerTest, Errors) {
  Lexed l;
  LexFirst("x = f('abc)\n", &l);
  EXPECT_FALSE(l.ok);
  EXPECT_EQ(l.error.col, 6u);
  LexFirst("x = f(a]\n", &l);
  EXPECT_FALSE(l.ok);
  EXPECT_EQ(l.error.col, 7u);
  LexFirst("x = f(a, \n", &l);
  EXPECT_FALSE(l.ok);
  EXPECT_NE(l.error.message.find("never closed"), std::string::npos);
  LexFirst(std::string("x = \x01 f\n"), &l);
  EXPECT_FALSE(l.ok);
  LexFirst("x = a $ b\n", &l);
  EXPECT_FALSE(l.ok);
  // A new definition inside an open bracket means truncation.
  LexFirst("x = f(a,\ndef forward(self):\n", &l);
  EXPECT_FALSE(l.ok);
  EXPECT_EQ(l.error.line, 0u);
  EXPECT_EQ(l.error.col, 5u);
}

TEST(FxUnwrapTest, LogPrefixesOfBothStyles) {
  const std::string a =
      "[2024-04-30 17:13:04,191] [0/0] torch._dynamo.output_graph.__graph_code: [DEBUG]  "
      "===== __compiled_fn_1 =====";
  size_t n = FxLogPrefixLength(a);
  EXPECT_EQ(a.substr(n), " ===== __compiled_fn_1 =====");
  const std::string b =
      "V0120 22:19:37.029000 2343082 torch/_dynamo/output_graph.py:1983] [0/0] "
      "[__graph_code]     def forward(self, L_x_: \"f32[4]\"):";
  n = FxLogPrefixLength(b);
  EXPECT_EQ(b.substr(n), "    def forward(self, L_x_: \"f32[4]\"):");
  const std::string c = "[rank0]:[2024-04-30 17:13:04,191] [0/0] x.y: [INFO] TRACED GRAPH";
  EXPECT_EQ(c.substr(FxLogPrefixLength(c)), "TRACED GRAPH");
  EXPECT_EQ(FxLogPrefixLength("    x = y"), 0u);
  EXPECT_EQ(FxLogPrefixLength("[a, b]"), 0u);
  EXPECT_EQ(FxLogPrefixLength("V = 3"), 0u);
}

TEST(FxUnwrapTest, BannersAndClasses) {
  EXPECT_EQ(FxBannerName(" ===== Forward graph 0 ====="), "Forward graph 0");
  EXPECT_EQ(FxBannerName("===== x"), "");
  EXPECT_EQ(FxClassName("class GraphModule(torch.nn.Module):"), "GraphModule");
  EXPECT_EQ(FxClassName(" <eval_with_key>.0 class <lambda>(torch.nn.Module):"), "<lambda>");
  EXPECT_EQ(FxClassName("    class subgraph_0(torch.nn.Module):"), "subgraph_0");
  EXPECT_EQ(FxClassName("x = classify(a)"), "");
}

// Only reserving room asks, so the cases are what FX prints and its near misses.
TEST(FxLexerTest, ProjectionLines) {
  EXPECT_TRUE(FxIsProjection("getitem = native_batch_norm[0]"));
  EXPECT_TRUE(FxIsProjection("getitem_12 = max_pool2d_with_indices_3[1];  x = None"));
  EXPECT_TRUE(FxIsProjection("getitem: \"f32[8, 16]\" = bn[2]"));
  EXPECT_TRUE(FxIsProjection("getitem_3: \"f32[8, 16][16, 1]cpu\" = bn[2];  bn = None"));
  EXPECT_TRUE(FxIsProjection("getitem: f32[8, s0] = bn[1]"));  // unquoted (torch 2.0)
  EXPECT_FALSE(FxIsProjection("x: \"f32[8, 16]\" = torch.ops.aten.relu.default(y)"));
  EXPECT_FALSE(FxIsProjection("x: \"f32[8, 16] = y[0]"));  // the quote never closes
  EXPECT_FALSE(FxIsProjection("x: \"f32[8]\""));
  EXPECT_TRUE(FxIsProjection("getitem = bn[0]  # the output"));
  EXPECT_FALSE(FxIsProjection("add = x + y"));
  EXPECT_FALSE(FxIsProjection("t = torch.ops.aten.t.default(primals_1)"));
  EXPECT_FALSE(FxIsProjection("y = x[0:2]"));
  EXPECT_FALSE(FxIsProjection("y = x[i]"));
  EXPECT_FALSE(FxIsProjection("y = x[0] + 1"));
  EXPECT_FALSE(FxIsProjection("y = x[]"));
  EXPECT_FALSE(FxIsProjection("= x[0]"));
  EXPECT_FALSE(FxIsProjection("y: \"f32[8]\""));
}

TEST(FxLexerTest, LinesThatMakeNoNode) {
  EXPECT_TRUE(FxMakesNoNode("input_1 = input"));  // symbolic_trace renames its input
  EXPECT_TRUE(FxMakesNoNode("x = y;  y = None"));
  EXPECT_TRUE(FxMakesNoNode("x = y  # alias"));
  EXPECT_TRUE(FxMakesNoNode("return _2"));
  EXPECT_TRUE(FxMakesNoNode("return (add, getitem)"));
  EXPECT_TRUE(FxMakesNoNode("getitem = native_batch_norm[0]"));
  EXPECT_TRUE(FxMakesNoNode("getitem: \"f32[8, 16]\" = bn[2]"));
  EXPECT_FALSE(FxMakesNoNode("returned = x + y"));
  EXPECT_FALSE(FxMakesNoNode("_tensor_constant0 = self._tensor_constant0"));
  EXPECT_FALSE(FxMakesNoNode("_0 = getattr(self, \"0\")(input_1);  input_1 = None"));
  EXPECT_FALSE(FxMakesNoNode("add = x + y"));
  EXPECT_FALSE(FxMakesNoNode("y = x[0:2]"));
  EXPECT_FALSE(FxMakesNoNode("x: \"f32[8]\" = torch.ops.aten.relu.default(y)"));
  EXPECT_FALSE(FxMakesNoNode(""));
}

// NameEnd classifies sixteen bytes at a time where it can: every byte value,
// at every position of a window and just past it, must end a name exactly
// where the byte-at-a-time rule does, and no byte at or past the end is read
// (the sanitizer pass would flag a read past the buffer below).
TEST(NameScanTest, AgreesWithTheByteRuleForEveryByteAndPosition) {
  for (int b = 0; b < 256; ++b) {
    const unsigned char byte = static_cast<unsigned char>(b);
    for (size_t at = 0; at < 40; ++at) {
      std::string text(40, 'a');
      text[at] = static_cast<char>(byte);
      for (size_t start : {size_t{0}, size_t{1}, size_t{7}}) {
        for (size_t n : {size_t{40}, at + 1, at}) {
          if (start > n) continue;
          std::vector<char> exact(text.begin(), text.begin() + n);  // nothing past n
          size_t want = start;
          while (want < n && IsAsciiNameByte(static_cast<unsigned char>(exact[want]))) ++want;
          ASSERT_EQ(NameEnd(exact.data(), start, n), want)
              << "byte " << b << " at " << at << " start " << start << " n " << n;
        }
      }
    }
  }
  EXPECT_EQ(NameEnd("torch.ops.aten.convolution.default(", 0, 35), 5u);
  EXPECT_EQ(NameEnd("max_pool2d_with_indices_1 = x", 0, 29), 25u);
  EXPECT_EQ(NameEnd("\xc3\xa9t\xc3\xa9", 0, 5), 0u);  // UTF-8 is not a name byte
}

// Lines are split as asked for and keep the whole text's indexes and
// numbers after the ones before are dropped.
TEST(FxLexerTest, LinesSplitOnDemandAndDropBehind) {
  const std::string text =
      "def forward(self, x):\r\n"
      "    y = x\n"
      "\n"
      "[2024-04-30 17:13:04,191] [0/0] torch._dynamo.output_graph.__graph_code: "
      "[DEBUG]     return y\n"
      "tail";
  FxLines lines(text, 10);
  EXPECT_EQ(lines.end(), 0u);
  ASSERT_TRUE(lines.Has(1));
  EXPECT_EQ(lines.end(), 2u);
  EXPECT_EQ(lines[0].text, "def forward(self, x):");
  EXPECT_EQ(lines[0].number, 10u);
  EXPECT_EQ(lines[1].indent, 4u);
  lines.DropBefore(2);
  ASSERT_TRUE(lines.Has(3));
  EXPECT_TRUE(lines[2].blank);
  EXPECT_EQ(lines[3].text, "    return y");
  EXPECT_EQ(lines[3].number, 13u);
  EXPECT_EQ(lines[3].full().substr(0, 6), "[2024-");
  lines.DropBefore(100);  // past the end: everything split so far goes
  ASSERT_TRUE(lines.Has(4));
  EXPECT_EQ(lines[4].text, "tail");
  EXPECT_EQ(lines[4].number, 14u);
  EXPECT_FALSE(lines.Has(5));
  EXPECT_EQ(lines.end(), 5u);
}

// Two expression parsers over the first logical line of a text, to compare
// a quick path (a) with the full parse (b) from token 2 on (after `x:` or
// `y =`). ok: the line lexed.
struct ParserPair {
  explicit ParserPair(const std::string& text) { LexFirst(text, &l); }
  Lexed l;
  std::vector<FxExpr> arena_a, arena_b;
  FxExprParser a{l.code, &arena_a}, b{l.code, &arena_b};
  size_t pos_a = 2, pos_b = 2;
};

// ParseAnnotation takes plain tensor types without the precedence descent;
// wherever it does, it must end where ParseExpr ends, with the same kind and
// the same success, including on text ParseExpr refuses.
// A line's indent is counted eight spaces a step, and whether it is blank
// is asked only past the indent: both must agree with the byte rules for an
// indent of any length, of spaces, tabs and form feeds in any order, ending
// at any offset of a step, with code, a form feed or nothing after it.
TEST(FxLexerTest, IndentAndBlankAgreeWithTheByteRules) {
  const std::string fillers[] = {" ", "\t", "\f"};
  const std::string tails[] = {"", "x = 1", "\f", "\f y", " \t", "#"};
  int checked = 0;
  for (size_t len = 0; len <= 19; ++len) {
    for (size_t other = 0; other <= len; ++other) {  // where a tab or form feed sits
      for (const std::string& odd : fillers) {
        std::string indent(len, ' ');
        if (other < len) indent.replace(other, 1, odd);
        for (const std::string& tail : tails) {
          const std::string line = indent + tail;
          size_t want = 0;
          while (want < line.size() && (line[want] == ' ' || line[want] == '\t')) ++want;
          bool blank = true;
          for (char c : line) blank = blank && (c == ' ' || c == '\t' || c == '\f');
          EXPECT_EQ(FxIndent(line), want) << "[" << line << "]";
          EXPECT_EQ(FxIsBlank(line), blank) << "[" << line << "]";
          const std::string text = line + "\n";  // FxLines holds a view of it
          FxLines lines(text);
          ASSERT_TRUE(lines.Has(0));
          EXPECT_EQ(lines[0].indent, want) << "[" << line << "]";
          EXPECT_EQ(lines[0].blank, blank) << "[" << line << "]";
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 3000);
}

TEST(FxExprTest, AnnotationsEndWhereAnExpressionWould) {
  const char* const annotations[] = {
      "f32[8, 4]", "f32[8, 4][4, 1]", "i64[]", "f32[s0, 4]", "f32[8, 4,]", "b8[s0][1]",
      "List[int]", "f32[, 1]", "f32[1 2]", "f32[,]", "f32[8", "not[1]", "f32[-1]",
      "f32[s0*2]", "f32[8].x", "f32[8] + 1", "f32[8](1)", "f32[8][", "f32[lambda]",
      "f32[None]", "\"f32[8]\"", "f32", "f32[8] if x else y", "f32[[1]]",
  };
  for (const char* ann : annotations) {
    for (const char* tail : {" = f(x)\n", "\n", ", y):\n", "; z = 1\n"}) {
      SCOPED_TRACE(std::string(ann) + tail);
      const std::string text = std::string("x: ") + ann + tail;
      ParserPair p(text);
      if (!p.l.ok) continue;  // brackets left open: the lexer refuses the line
      const uint32_t ea = p.a.ParseAnnotation(&p.pos_a);
      const uint32_t eb = p.b.ParseExpr(&p.pos_b);
      ASSERT_EQ(ea == kFxNone, eb == kFxNone);
      if (eb == kFxNone) continue;
      EXPECT_EQ(p.pos_a, p.pos_b);
      EXPECT_EQ(p.arena_a[ea].kind, p.arena_b[eb].kind);
      EXPECT_EQ(p.arena_a[ea].first, p.arena_b[eb].first);
      EXPECT_EQ(p.arena_a[ea].last, p.arena_b[eb].last);
    }
  }
}

// With TakeNumberListsWhole, a call argument that is a list of numbers is
// one node without children; it must span the tokens, and have the kind,
// that the full parse gives it, and every other argument must parse as
// before.
TEST(FxExprTest, NumberListArgumentsSpanWhatTheFullParseSpans) {
  const char* const lines[] = {
      "y = f(x, [1, 1], [0, -1], k=[2, 3], [1.5e-05, inf], [], [1,], z)\n",
      "y = f([1, 2] + z, [1, 2][0], [1, a], [-1], [- 1], [[1]], [1 2])\n",
      "y = f(k=[1, 2].count, j=[1, 2])\n",
      "y = f([1, 2]\n",
      "y = f([,])\n",
      "y = f([1, 2] if c else [3])\n",
  };
  for (const char* line : lines) {
    SCOPED_TRACE(line);
    const std::string text = line;
    ParserPair p(text);
    if (!p.l.ok) continue;
    p.a.TakeNumberListsWhole();
    const uint32_t ea = p.a.ParseExprList(&p.pos_a);
    const uint32_t eb = p.b.ParseExprList(&p.pos_b);
    ASSERT_EQ(ea == kFxNone, eb == kFxNone);
    if (eb == kFxNone) continue;
    EXPECT_EQ(p.pos_a, p.pos_b);
    const std::vector<FxExpr>& arena_a = p.arena_a;
    const std::vector<FxExpr>& arena_b = p.arena_b;
    ASSERT_EQ(arena_a[ea].kind, FxExprKind::kCall);
    ASSERT_EQ(arena_b[eb].kind, FxExprKind::kCall);
    uint32_t x = arena_a[ea].b, y = arena_b[eb].b;
    for (; x != kFxNone && y != kFxNone; x = arena_a[x].next, y = arena_b[y].next) {
      // A keyword argument's value.
      const FxExpr& ax =
          arena_a[x].kind == FxExprKind::kKeyword ? arena_a[arena_a[x].a] : arena_a[x];
      const FxExpr& by =
          arena_b[y].kind == FxExprKind::kKeyword ? arena_b[arena_b[y].a] : arena_b[y];
      EXPECT_EQ(ax.kind, by.kind);
      EXPECT_EQ(ax.first, by.first);
      EXPECT_EQ(ax.last, by.last);
    }
    EXPECT_EQ(x, kFxNone);
    EXPECT_EQ(y, kFxNone);
  }
}

// ForEachFrom gives the lines operator[] gives (number, text, prefix,
// indent, blank), past the lines it keeps too, from any start, whether or
// not lines were split further ahead before, and stops when asked.
TEST(FxLexerTest, ForEachFromGivesTheSplitLines) {
  std::string text;
  const size_t n = FxLines::kKeptAhead * 2 + 500;
  for (size_t k = 0; k < n; ++k) {
    switch (k % 5) {
      case 0: text += "    a" + std::to_string(k) + " = f(x)\n"; break;
      case 1: text += "\t\tb = g(y)\r\n"; break;
      case 2: text += "   \f \n"; break;
      case 3: text += "[2024-04-30 17:13:04,191] [0/0] torch._dynamo.output_graph.__graph_code: "
                      "[DEBUG]         c = h(z)\n"; break;
      default: text += "\n"; break;
    }
  }
  text += "last";
  FxLines reference(text, 7);
  ASSERT_TRUE(reference.Has(n));
  auto same = [&](const FxLine& a, size_t k) {
    const FxLine& b = reference[k];
    return a.text == b.text && a.number == b.number && a.prefix_len == b.prefix_len &&
           a.indent == b.indent && a.blank == b.blank && a.full() == b.full();
  };
  for (size_t split_first : {size_t{0}, size_t{5}, FxLines::kKeptAhead + 40}) {
    for (size_t from : {size_t{0}, size_t{3}, size_t{1000}}) {
      FxLines lines(text, 7);
      if (split_first > 0) {
        ASSERT_TRUE(lines.Has(from + split_first));
      }
      size_t k = from;
      bool all_same = true;
      lines.ForEachFrom(from, [&](const FxLine& l) {
        all_same = all_same && same(l, k);
        ++k;
        return true;
      });
      EXPECT_TRUE(all_same) << "from " << from << ", split " << split_first;
      EXPECT_EQ(k, n + 1) << "from " << from << ", split " << split_first;
      // Lines past those kept are not kept.
      EXPECT_LE(lines.end(), std::max(from + split_first, from + FxLines::kKeptAhead) + 1);
      // Stopping early.
      size_t seen = 0;
      lines.ForEachFrom(from, [&](const FxLine&) { return ++seen < FxLines::kKeptAhead + 7; });
      EXPECT_EQ(seen, FxLines::kKeptAhead + 7);
    }
  }
}

}  // namespace
}  // namespace graphdiff
