// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "testing/random_blocks.h"

#include <random>
#include <vector>

#include "testing/graph_builder.h"

namespace graphdiff::testing {

Graph RandomBlocks(uint64_t seed, int copies, int converted) {
  std::mt19937_64 rng(seed);
  GraphBuilder b(GraphKind::kIr);
  std::vector<uint32_t> shared;
  for (int i = 0; i < 3; ++i) shared.push_back(b.Input("f32[4]"));
  const char* ops[] = {"aten::add", "aten::mul", "aten::relu", "aten::exp"};
  const int block = 4 + static_cast<int>(rng() % 6);
  std::vector<std::vector<uint32_t>> pick(block);
  std::vector<int> op(block);
  for (int i = 0; i < block; ++i) {
    op[i] = static_cast<int>(rng() % 4);
    const int arity = op[i] < 2 ? 2 : 1;
    for (int a = 0; a < arity; ++a) pick[i].push_back(static_cast<uint32_t>(rng() % (3 + i)));
  }
  for (int c = 0; c < copies; ++c) {
    std::vector<uint32_t> made = shared;
    for (int i = 0; i < block; ++i) {
      std::vector<uint32_t> operands;
      for (uint32_t p : pick[i]) operands.push_back(made[p]);
      if (c == converted) operands[0] = b.Op("aten::_to_copy", {operands[0]}, "f32[4]");
      made.push_back(b.Op(ops[op[i]], operands, "f32[4]"));
    }
    if (c % 2 == 0) b.Output(made.back());
  }
  return b.Build();
}

}  // namespace graphdiff::testing
