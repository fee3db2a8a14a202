// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Example consumer: print the op substitutions between two dumps (files,
// directories or archives), one line per op pair.
//
//   print_substitutions LEFT RIGHT
#include <cstdio>

#include "graphdiff/graphdiff.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s LEFT RIGHT\n", argv[0]);
    return 2;
  }
  // Both sides at once: files the two dumps share are parsed once.
  graphdiff::DumpPair dumps = graphdiff::LoadDumpPair(argv[1], argv[2]);
  const absl::StatusOr<graphdiff::Dump>& left = dumps.left;
  const absl::StatusOr<graphdiff::Dump>& right = dumps.right;
  for (const auto* d : {&left, &right}) {
    if (!d->ok()) {
      std::fprintf(stderr, "%s\n", std::string(d->status().message()).c_str());
      return 2;
    }
  }
  absl::StatusOr<graphdiff::DiffResult> diff = graphdiff::DiffDumps(*left, *right);
  if (!diff.ok()) {
    std::fprintf(stderr, "%s\n", std::string(diff.status().message()).c_str());
    return 2;
  }
  std::printf("graphdiff %s\n", std::string(graphdiff::Version()).c_str());
  int shown = 0;
  for (const graphdiff::Finding& f : diff->findings) {
    if (f.id != "op-substitution") continue;
    std::printf("%s [%s] %s\n", f.graph.c_str(),
                std::string(graphdiff::SeverityName(f.severity)).c_str(),
                f.title.c_str());
    ++shown;
  }
  std::printf("%d op-substitution finding(s)\n", shown);
  return 0;
}
