// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Writes a large real-structured input for end-to-end measurements: a real
// graph dump replicated as N disjoint components (outputs numbered densely),
// optionally renumbered and reordered, as lazy-tensor IR text.
//
//   replicate_ir INPUT COPIES SEED OUTPUT
//
// SEED 0 writes the replicas in order; any other seed shuffles node numbers
// and order (the copy a diff must find identical).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "graphdiff/parse.h"
#include "synthetic.h"
#include "testing/graph_mutate.h"
#include "testing/symmetric.h"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: replicate_ir INPUT COPIES SEED OUTPUT\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<graphdiff::ParsedText> parsed = graphdiff::ParseText(text.str(), argv[1]);
  if (!parsed.ok() || parsed->graphs.empty()) {
    std::cerr << "replicate_ir: " << argv[1] << ": "
              << (parsed.ok() ? "no graph" : parsed.status().ToString()) << "\n";
    return 2;
  }
  const uint32_t copies = static_cast<uint32_t>(std::stoul(argv[2]));
  const uint64_t seed = std::stoull(argv[3]);
  graphdiff::Graph g = graphdiff::testing::Replicate(parsed->graphs[0], copies);
  if (seed != 0) {
    graphdiff::testing::Mutated r = graphdiff::testing::Renumber(g, seed);
    g = graphdiff::testing::Reorder(r.graph, seed + 1).graph;
  }
  std::ofstream out(argv[4], std::ios::binary);
  out << graphdiff::bench::RenderIrText(g);
  std::cerr << "replicate_ir: " << g.nodes.size() << " nodes, " << g.outputs.size()
            << " outputs -> " << argv[4] << "\n";
  return out ? 0 : 2;
}
