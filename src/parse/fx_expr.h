// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Expressions of the Python subset torch.fx prints, parsed from FxLexer
// tokens into a flat arena (indices, no per-node allocation) so the graph
// builder can tell a module call from a method call, find every value
// reference inside nested argument lists and re-print arguments canonically.
#ifndef GRAPHDIFF_SRC_PARSE_FX_EXPR_H_
#define GRAPHDIFF_SRC_PARSE_FX_EXPR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parse/fx_lexer.h"

namespace graphdiff {

enum class FxExprKind : uint8_t {
  kName,       // text = identifier
  kNumber,     // text = literal (inf and nan included)
  kString,     // text = literal with quotes (adjacent literals: the first)
  kConst,      // None, True, False, `...`
  kAttribute,  // a.text
  kCall,       // a(args...): a = callee, b = first argument
  kKeyword,    // text = a (inside a call's arguments)
  kStarred,    // *a or **a (text = "*" or "**")
  kSubscript,  // a[b]
  kSlice,      // a:b:c with absent parts as kNone; children via a, b, c
  kUnary,      // text a (text = "-", "+", "~", "not")
  kBinary,     // a text b (arithmetic, bitwise, comparisons, and/or)
  kTuple,      // children chained from a through `next`
  kList,
  kSet,
  kDict,       // keys and values alternate in the chain
  // A module rooted at `self` spelled with getattr and called:
  // `getattr(getattr(self.features, "3"), "0").conv` before `(`. One node
  // over the callee's tokens, no children: the builder reads the path from
  // them. Every other callee keeps its full tree.
  kModulePath,
};

inline constexpr uint32_t kFxNone = 0xffffffffu;

struct FxExpr {
  FxExprKind kind = FxExprKind::kName;
  uint32_t first = 0, last = 0;  // token range [first, last)
  uint32_t a = kFxNone, b = kFxNone, c = kFxNone;
  uint32_t next = kFxNone;       // next sibling in a list of children
  std::string_view text;
};

// Parses expressions out of one statement's tokens.
class FxExprParser {
 public:
  FxExprParser(const std::vector<FxToken>& tokens, std::vector<FxExpr>* arena)
      : toks_(tokens), arena_(*arena) {}

  // Parses one expression list starting at token `*pos` (a bare `a, b` is a
  // tuple) and advances `*pos` past it. kFxNone on failure: error_token() and
  // error() say where and why; unsupported() is true when the text is valid
  // Python that FX never prints (lambda, comprehensions, conditionals).
  uint32_t ParseExprList(size_t* pos);
  // One expression without top-level commas.
  uint32_t ParseExpr(size_t* pos);
  // A type annotation: ParseExpr, except that a plain unquoted tensor type
  // (`f32[8, s0]`) is one kSubscript node with ParseExpr's token range and
  // no children built (an annotation is read from its tokens).
  uint32_t ParseAnnotation(size_t* pos);

  size_t error_token() const { return error_token_; }
  const std::string& error() const { return error_; }
  bool unsupported() const { return unsupported_; }

  // From now on a call argument that is a list of number literals (`[1, 1]`,
  // `[0, -1]`) is one kList node with its token range and no children, for
  // a reader that takes such arguments from their tokens: a convolution's
  // four lists cost more in the descent than the rest of its line.
  void TakeNumberListsWhole() { number_lists_whole_ = true; }

 private:
  // A sequence element: a call argument's (`call_args`) may be a NumberList.
  uint32_t Argument(bool call_args);
  // The kList of a number-literal list at pos_ that ends the argument,
  // or kFxNone with pos_ unchanged.
  uint32_t NumberList();
  uint32_t Test();
  uint32_t OrTest();
  uint32_t AndTest();
  uint32_t NotTest();
  uint32_t Comparison();
  uint32_t BinaryLevel(int min_prec);
  uint32_t Factor();
  uint32_t Power();
  uint32_t AtomExpr();
  // The kModulePath at pos_, or kFxNone with pos_ unchanged.
  uint32_t ModuleCallee();
  uint32_t Atom();
  uint32_t Subscript();
  bool ParseSequence(char close, uint32_t* first_child, bool* had_comma,
                     bool call_args);
  uint32_t Add(FxExprKind kind, uint32_t first, std::string_view text = {});
  uint32_t Fail(std::string message);
  uint32_t Unsupported(std::string message);

  bool IsOp(std::string_view op) const;
  bool IsName(std::string_view name) const;

  const std::vector<FxToken>& toks_;
  std::vector<FxExpr>& arena_;
  size_t pos_ = 0;
  int depth_ = 0;
  size_t error_token_ = 0;
  std::string error_;
  bool unsupported_ = false;
  bool number_lists_whole_ = false;
};

// Whether the tokens of expression `e` hold just a single name.
inline bool FxIsName(const FxExpr& e) { return e.kind == FxExprKind::kName; }

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_FX_EXPR_H_
