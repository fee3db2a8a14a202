// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Parse throughput on real files: reads each file once, parses it REPS times
// and prints the best rate, node count and the graph model's bytes per node.
// Reading is left out of the rate on purpose: it measures the parser, not
// the page cache.
//
//   parse_file [--reps N] [--jobs N] [--model OUT] FILE...
//
// --jobs N parses on N threads, as `graphdiff --jobs N` does; --model writes
// every field of the parse of the last FILE to OUT (tests/testing/model_text.h), to check
// that a parser change keeps its output. malloc is set as the graphdiff tool
// sets it (tools/graphdiff/malloc_tuning.h; GRAPHDIFF_TUNE_MALLOC=0 for
// glibc's defaults), so the rates are the tool's.
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "graphdiff/parse.h"
#include "malloc_tuning.h"
#include "parse/parse_parallel.h"
#include "testing/model_text.h"

namespace {

// Runs the tasks on `threads` threads (the calling one included).
graphdiff::TaskRunner ThreadRunner(size_t threads) {
  graphdiff::TaskRunner runner;
  runner.pieces = 2 * threads;
  runner.run = [threads](size_t n, const std::function<void(size_t)>& task) {
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i; (i = next++) < n;) task(i);
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < std::min(threads, n); ++t) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
  };
  return runner;
}

// The heap block a string holds beyond its own record: none when it fits
// in place (the short-string buffer).
size_t HeapBytes(const std::string& s) {
  return s.capacity() > std::string().capacity() ? s.capacity() + 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  graphdiff::cli::TuneMallocForBigGraphs(argv);
  int reps = 3;
  size_t jobs = 1;
  const char* model_out = nullptr;
  int first = 1;
  for (; first + 1 < argc && argv[first][0] == '-'; first += 2) {
    if (std::strcmp(argv[first], "--reps") == 0) {
      reps = std::max(1, std::atoi(argv[first + 1]));
    } else if (std::strcmp(argv[first], "--jobs") == 0) {
      jobs = static_cast<size_t>(std::max(1, std::atoi(argv[first + 1])));
    } else if (std::strcmp(argv[first], "--model") == 0) {
      model_out = argv[first + 1];
    } else {
      break;
    }
  }
  if (first >= argc) {
    std::cerr << "usage: parse_file [--reps N] [--jobs N] [--model OUT] FILE...\n";
    return 2;
  }
  const graphdiff::TaskRunner runner = ThreadRunner(jobs);
  for (int i = first; i < argc; ++i) {
    std::ifstream in(argv[i], std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    double best = 1e30;
    size_t nodes = 0, graphs = 0, bytes = 0;
    // Where the model bytes go: node records, string pools, the rest
    // (spilled lists, inputs, outputs).
    size_t node_bytes = 0, pool_bytes = 0, pool_chars = 0;
    // What Graph::MemoryBytes leaves out: each graph's own record and the
    // heap blocks of its name and source strings. Nothing for one big graph;
    // a dump of many small ones pays it per graph.
    size_t record_bytes = 0;
    for (int r = 0; r < reps; ++r) {
      auto start = std::chrono::steady_clock::now();
      absl::StatusOr<graphdiff::ParsedText> parsed =
          jobs > 1 ? graphdiff::ParseTextParallel(text, argv[i], {}, runner)
                   : graphdiff::ParseText(text, argv[i]);
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (!parsed.ok()) {
        std::cerr << parsed.status() << "\n";
        return 1;
      }
      best = std::min(best, s);
      if (model_out != nullptr && r == 0 && i + 1 == argc) {
        std::ofstream(model_out, std::ios::binary) << graphdiff::testing::ModelText(*parsed);
      }
      nodes = graphs = bytes = node_bytes = pool_bytes = pool_chars = record_bytes = 0;
      for (const graphdiff::Graph& g : parsed->graphs) {
        ++graphs;
        nodes += g.nodes.size();
        bytes += g.MemoryBytes();
        node_bytes += g.nodes.capacity() * sizeof(graphdiff::Node);
        pool_bytes += g.strings.MemoryBytes();
        pool_chars += g.strings.bytes();
        record_bytes += sizeof(graphdiff::Graph) + HeapBytes(g.name) + HeapBytes(g.source.file) +
                        HeapBytes(g.source.graph_name) + HeapBytes(g.source.graph_hash);
        record_bytes += g.source.frames.heap_bytes() + g.source.hashes.heap_bytes();
      }
    }
    // Where the model bytes go: node records, string pools, the rest
    // (spilled lists, inputs, outputs).
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    std::printf("%s: %.1f MB, %zu graphs, %zu nodes, best of %d: %.3f s = %.0f MB/s, "
                "%.0f bytes/node (model), %.0f with graph records, peak RSS %.0f MB\n",
                argv[i], text.size() / 1e6, graphs, nodes, reps, best, text.size() / 1e6 / best,
                nodes ? static_cast<double>(bytes) / nodes : 0.0,
                nodes ? static_cast<double>(bytes + record_bytes) / nodes : 0.0,
                usage.ru_maxrss / 1024.0);
    if (nodes > 0) {
      std::printf("  per node: %.0f node record (sizeof(Node) %zu), %.0f string pool "
                  "(%.1f chars), %.0f other; %.0f graph records (sizeof(Graph) %zu)\n",
                  static_cast<double>(node_bytes) / nodes, sizeof(graphdiff::Node),
                  static_cast<double>(pool_bytes) / nodes,
                  static_cast<double>(pool_chars) / nodes,
                  static_cast<double>(bytes - node_bytes - pool_bytes) / nodes,
                  static_cast<double>(record_bytes) / nodes, sizeof(graphdiff::Graph));
    }
  }
  return 0;
}
