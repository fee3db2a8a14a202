// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Example consumer: fail (exit 1) when any graph of the candidate dump
// returns more outputs than its counterpart in the baseline dump.
//
//   outputs_guard BASELINE CANDIDATE
#include <cstdio>

#include "graphdiff/graphdiff.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s BASELINE CANDIDATE\n", argv[0]);
    return 2;
  }
  absl::StatusOr<graphdiff::Dump> base = graphdiff::LoadDump(argv[1]);
  absl::StatusOr<graphdiff::Dump> cand = graphdiff::LoadDump(argv[2]);
  if (!base.ok() || !cand.ok()) {
    const absl::Status& s = base.ok() ? cand.status() : base.status();
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 2;
  }
  graphdiff::Pairing pairing = graphdiff::PairDumps(*base, *cand);
  int gained = 0;
  for (const graphdiff::GraphPairing& p : pairing.graphs) {
    const graphdiff::DumpFile& lf = base->files[p.left.file];
    const graphdiff::DumpFile& rf = cand->files[p.right.file];
    graphdiff::GraphStats l = graphdiff::ComputeStats(lf.graphs[p.left.graph]);
    graphdiff::GraphStats r = graphdiff::ComputeStats(rf.graphs[p.right.graph]);
    if (r.outputs > l.outputs) {
      std::printf("%s: outputs %llu -> %llu\n", rf.path.c_str(),
                  static_cast<unsigned long long>(l.outputs),
                  static_cast<unsigned long long>(r.outputs));
      ++gained;
    }
  }
  std::printf("%d graph(s) gained outputs\n", gained);
  return gained > 0 ? 1 : 0;
}
