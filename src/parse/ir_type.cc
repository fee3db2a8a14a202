// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/ir_type.h"

#include <cstdint>

namespace graphdiff {
namespace {

// Hostile input like "((((((((" must not exhaust the stack.
constexpr int kMaxTupleDepth = 64;

bool IsIdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

class TypeParser {
 public:
  TypeParser(std::string_view text, Graph* graph, TypeList* out)
      : text_(text), graph_(graph), out_(out) {}

  bool Parse() {
    if (pos_ < text_.size() && text_[pos_] == '[') {
      if (!ParseLtcList()) return false;
    } else if (!ParseXlaShape(0)) {
      return false;
    }
    if (pos_ != text_.size()) return Fail("end of the type");
    return true;
  }

  size_t error_at() const { return error_at_; }
  std::string_view error() const { return error_; }

 private:
  bool Fail(std::string_view expected) {
    error_at_ = pos_;
    error_ = expected;
    return false;
  }
  bool Consume(char c) {
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  // ", " between elements; a bare "," is tolerated.
  bool ConsumeSeparator() {
    if (!Consume(',')) return false;
    Consume(' ');
    return true;
  }

  // `[` [Name`[`dims`]` {`, ` ...}] `]`
  bool ParseLtcList() {
    ++pos_;  // '['
    if (Consume(']')) return true;
    do {
      if (!ParseDenseShape()) return false;
    } while (ConsumeSeparator());
    if (!Consume(']')) return Fail("',' or ']' in the shape list");
    return true;
  }

  bool ParseXlaShape(int depth) {
    if (Consume('(')) {
      if (depth >= kMaxTupleDepth) return Fail("a less deeply nested tuple");
      if (Consume(')')) return true;  // empty tuple: no tensors
      do {
        if (!ParseXlaShape(depth + 1)) return false;
      } while (ConsumeSeparator());
      if (!Consume(')')) return Fail("',' or ')' in the tuple type");
      return true;
    }
    if (!ParseDenseShape()) return false;
    if (pos_ < text_.size() && text_[pos_] == '{') return ParseLayout();
    return true;
  }

  // dtype `[` dims `]`, shared by both flavours.
  bool ParseDenseShape() {
    size_t start = pos_;
    while (pos_ < text_.size() && IsIdentChar(text_[pos_])) ++pos_;
    if (pos_ == start) return Fail("an element type such as f32 or Float");
    TensorType t;
    t.dtype = ParseDType(text_.substr(start, pos_ - start));
    if (!Consume('[')) return Fail("'[' after the element type");
    t.rank_known = true;
    if (!Consume(']')) {
      do {
        Dim d;
        if (!ParseDim(&d)) return false;
        t.dims.push_back(d);
      } while (Consume(','));
      if (!Consume(']')) return Fail("',' or ']' in the dimensions");
    }
    out_->push_back(std::move(t));
    return true;
  }

  bool ParseDim(Dim* d) {
    if (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
    if (Consume('?')) {
      *d = Dim::Unknown();
      return true;
    }
    if (pos_ + 1 < text_.size() && text_[pos_] == '<' && text_[pos_ + 1] == '=') {
      pos_ += 2;
      int64_t bound = 0;
      if (!ParseInt(&bound)) return false;
      *d = Dim::Bounded(bound);
      return true;
    }
    if (pos_ < text_.size() && (text_[pos_] >= '0' && text_[pos_] <= '9')) {
      int64_t size = 0;
      if (!ParseInt(&size)) return false;
      *d = Dim::Static(size);
      return true;
    }
    if (pos_ < text_.size() && text_[pos_] == '-') {
      // LTC prints -1 for a dimension it does not know.
      ++pos_;
      int64_t v = 0;
      if (!ParseInt(&v)) return false;
      *d = Dim::Unknown();
      return true;
    }
    size_t start = pos_;
    while (pos_ < text_.size() && IsIdentChar(text_[pos_])) ++pos_;
    if (pos_ == start) return Fail("a dimension: a size, <=N, ? or a symbol");
    *d = Dim::Symbolic(graph_->intern(text_.substr(start, pos_ - start)));
    return true;
  }

  bool ParseInt(int64_t* v) {
    size_t start = pos_;
    uint64_t acc = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      if (acc > (static_cast<uint64_t>(INT64_MAX) - 9) / 10) {
        return Fail("a dimension that fits in 64 bits");
      }
      acc = acc * 10 + static_cast<uint64_t>(text_[pos_] - '0');
      ++pos_;
    }
    if (pos_ == start) return Fail("a number");
    *v = static_cast<int64_t>(acc);
    return true;
  }

  // `{` ... `}` with tiling such as `{1,0:T(8,128)(2,1)}`, kept as written.
  bool ParseLayout() {
    size_t start = pos_;
    int depth = 0;
    for (; pos_ < text_.size(); ++pos_) {
      char c = text_[pos_];
      if (c == '{' || c == '(') {
        ++depth;
      } else if (c == '}' || c == ')') {
        if (--depth == 0) {
          if (c != '}') return Fail("'}' closing the layout");
          ++pos_;
          out_->back().layout = graph_->intern(text_.substr(start, pos_ - start));
          return true;
        }
      } else if (c == ' ') {
        break;
      }
    }
    return Fail("'}' closing the layout");
  }

  std::string_view text_;
  Graph* graph_;
  TypeList* out_;
  size_t pos_ = 0;
  size_t error_at_ = 0;
  std::string_view error_;
};

}  // namespace

size_t FindIrTypeEnd(std::string_view line, size_t begin) {
  for (size_t i = begin; i < line.size(); ++i) {
    if (line[i] == ' ' && (i == begin || line[i - 1] != ',')) return i;
  }
  return std::string_view::npos;
}

bool ParseIrType(std::string_view text, Graph* graph,
                 TypeList* out, size_t* error_at,
                 std::string_view* error) {
  TypeParser parser(text, graph, out);
  if (parser.Parse()) return true;
  *error_at = parser.error_at();
  *error = parser.error();
  return false;
}

}  // namespace graphdiff
