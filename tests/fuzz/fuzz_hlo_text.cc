// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// HLO module text; and the same text twice, whose second half repeats the
// first byte for byte and may be copied instead of parsed: its graphs must
// be the first half's, lines moved down.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "graphdiff/gate.h"
#include "graphdiff/parse.h"

namespace {

std::string Describe(const graphdiff::Graph& g, uint32_t up) {
  std::string out = g.name + "|" + g.source.graph_name + "|" +
                    std::to_string(g.source.first_line - up) + "-" +
                    std::to_string(g.source.last_line - up) + "|" + std::to_string(g.partial) +
                    "\n" + graphdiff::EncodeGraph(g) + "\n";
  for (const graphdiff::Node& n : g.nodes) out += std::to_string(n.line - up) + " ";
  return out;
}

}  // namespace

GRAPHDIFF_FUZZ_TARGET(hlo_text) {
  const std::string_view text = graphdiff::fuzz::AsText(data, size);
  std::vector<graphdiff::Diagnostic> warnings;
  auto once = graphdiff::ParseHloText(text, "fuzz", {}, &warnings);
  if (!once.ok() || text.substr(0, 9) != "HloModule" || text.back() != '\n') return 0;
  const std::string twice = std::string(text) + std::string(text);
  auto both = graphdiff::ParseHloText(twice, "fuzz", {}, &warnings);
  if (!both.ok() || both->size() != 2 * once->size()) std::abort();
  const auto lines = static_cast<uint32_t>(std::count(text.begin(), text.end(), '\n'));
  for (size_t i = 0; i < once->size(); ++i) {
    const std::string want = Describe((*once)[i], 0);
    if (Describe((*both)[i], 0) != want) std::abort();
    if (Describe((*both)[once->size() + i], lines) != want) std::abort();
  }
  return 0;
}
