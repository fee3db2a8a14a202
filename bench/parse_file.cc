// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Parse throughput on real files: reads each file once, parses it REPS times
// and prints the best rate, node count and the graph model's bytes per node.
// Reading is left out of the rate on purpose: it measures the parser, not
// the page cache.
//
//   parse_file [--reps N] FILE...
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "graphdiff/parse.h"

int main(int argc, char** argv) {
  int reps = 3;
  int first = 1;
  if (argc > 2 && std::strcmp(argv[1], "--reps") == 0) {
    reps = std::max(1, std::atoi(argv[2]));
    first = 3;
  }
  if (first >= argc) {
    std::cerr << "usage: parse_file [--reps N] FILE...\n";
    return 2;
  }
  for (int i = first; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    double best = 1e30;
    size_t nodes = 0, graphs = 0, bytes = 0;
    for (int r = 0; r < reps; ++r) {
      auto start = std::chrono::steady_clock::now();
      absl::StatusOr<graphdiff::ParsedText> parsed = graphdiff::ParseText(text, argv[i]);
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!parsed.ok()) {
        std::cerr << parsed.status() << "\n";
        return 1;
      }
      best = std::min(best, s);
      nodes = graphs = bytes = 0;
      for (const graphdiff::Graph& g : parsed->graphs) {
        ++graphs;
        nodes += g.nodes.size();
        bytes += g.MemoryBytes();
      }
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    std::printf("%s: %.1f MB, %zu graphs, %zu nodes, best of %d: %.3f s = %.0f MB/s, "
                "%.0f bytes/node (model), peak RSS %.0f MB\n",
                argv[i], text.size() / 1e6, graphs, nodes, reps, best, text.size() / 1e6 / best,
                nodes ? static_cast<double>(bytes) / nodes : 0.0, usage.ru_maxrss / 1024.0);
  }
  return 0;
}
