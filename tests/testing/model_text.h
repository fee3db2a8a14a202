// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Every field of a parse as plain text, one node a line: what two parses
// must agree on to be the same (tests of parsing in pieces), and what a
// parser change that must not change its output is checked with, by diffing
// the text before and after on inputs far larger than the goldens
// (bench/parse_file --model).
#ifndef GRAPHDIFF_TESTS_TESTING_MODEL_TEXT_H_
#define GRAPHDIFF_TESTS_TESTING_MODEL_TEXT_H_

#include <string>

#include "fmt/format.h"
#include "graphdiff/parse.h"

namespace graphdiff {
namespace testing {

inline std::string ModelText(const ParsedText& parsed) {
  std::string out;
  for (const Graph& g : parsed.graphs) {
    const GraphSource& s = g.source;
    out += fmt::format("graph {} kind={} partial={} | {} {}-{} #{} x{} name={} hash={} "
                       "hashes={} frames={}\n",
                       g.name, GraphKindName(g.kind), g.partial, s.file, s.first_line,
                       s.last_line, s.record_index, s.repeat_count, s.graph_name,
                       s.graph_hash, fmt::join(s.hashes, ","), fmt::join(s.frames, ";"));
    for (const Node& n : g.nodes) {
      out += fmt::format("  {} {} {} op={} raw={} ovl={} frame={} (", n.line,
                         NodeKindName(n.kind), g.str(n.name), g.str(n.op), g.str(n.raw_op),
                         g.str(n.overload), g.str(n.frame));
      for (const ValueRef& r : n.operands) out += fmt::format("{}.{} ", r.node, r.output);
      out += ") ->";
      for (const TensorType& t : g.results(n)) {
        out += fmt::format(" {}:{}[", DTypeName(t.dtype), t.rank_known);
        for (const Dim& d : t.dims) {
          out += fmt::format("{}/{}/{},", static_cast<int>(d.kind()), d.value(), g.str(d.symbol()));
        }
        out += fmt::format("]s{} l={} d={}", fmt::join(t.strides, ","), g.str(t.layout),
                           g.str(t.device));
      }
      for (const Attr& a : n.attrs) out += fmt::format(" | {}={}", g.str(a.key), g.str(a.value));
      out += "\n";
    }
    out += fmt::format("  inputs {}\n  outputs", fmt::join(g.inputs, ","));
    for (const ValueRef& r : g.outputs) out += fmt::format(" {}.{}", r.node, r.output);
    out += "\n";
  }
  out += fmt::format("{} metrics reports\n", parsed.metrics.size());
  for (const Diagnostic& d : parsed.warnings) out += d.ToString() + "\n";
  return out;
}

}  // namespace testing
}  // namespace graphdiff

#endif  // GRAPHDIFF_TESTS_TESTING_MODEL_TEXT_H_
