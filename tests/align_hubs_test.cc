// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// One FX forward whose blocks all read the same weights, as the steps of an
// unrolled loop do, against a copy with a few blocks changed: every weight
// is read by a changed block, so none looks like its counterpart to the
// full-level fingerprints, and the changed blocks' free readers sit deep in
// each weight's list of readers.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "graphdiff/align.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"

namespace graphdiff {
namespace {

// `copies` blocks of conv -> batch norm -> relu -> add over three shared
// weights, each block's value renamed; blocks in `changed` use sigmoid.
std::string Forward(int copies, const std::vector<int>& changed) {
  std::string s = "def forward(self, w, b, x):\n";
  for (int k = 0; k < copies; ++k) {
    const std::string c = "_" + std::to_string(k);
    const bool planted = std::find(changed.begin(), changed.end(), k) != changed.end();
    s += "    conv" + c + " = torch.ops.aten.convolution.default(x, w, b, [1, 1], [0, 0], [1, 1], "
         "False, [0, 0], 1)\n";
    s += "    bn" + c + " = torch.ops.aten.native_batch_norm.default(conv" + c +
         ", w, b, None, None, False, 0.1, 1e-05)\n";
    s += "    getitem" + c + " = bn" + c + "[0]\n";
    s += "    act" + c + " = torch.ops.aten." + (planted ? "sigmoid" : "relu") +
         ".default(getitem" + c + ")\n";
    s += "    add" + c + " = torch.ops.aten.add.Tensor(act" + c + ", b)\n";
  }
  // Only the last block is returned: the others are dead, as a forward
  // built by repeating a body is when each copy recomputes the same value.
  return s + "    return [add_" + std::to_string(copies - 1) + "]\n";
}

Graph Parse(const std::string& text, const std::string& name) {
  absl::StatusOr<ParsedText> parsed = ParseText(text, name);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok() || parsed->graphs.empty()) return Graph();
  return std::move(parsed->graphs[0]);
}

TEST(AlignHubsTest, ChangedBlocksOfSharedWeightsPairWithOneChangeEach) {
  const Graph left = Parse(Forward(300, {}), "left.py");
  const Graph right = Parse(Forward(300, {70, 150, 230}), "right.py");
  ASSERT_EQ(left.nodes.size(), right.nodes.size());
  for (int swapped = 0; swapped < 2; ++swapped) {
    absl::StatusOr<Alignment> a = swapped ? Align(right, left) : Align(left, right);
    ASSERT_TRUE(a.ok()) << a.status();
    EXPECT_TRUE(a->left_only.empty()) << a->left_only.size() << " left-only nodes";
    EXPECT_TRUE(a->right_only.empty()) << a->right_only.size() << " right-only nodes";
    size_t changed = 0;
    for (const NodePair& p : a->pairs) changed += p.changed();
    EXPECT_EQ(changed, 3u);
  }
}

}  // namespace
}  // namespace graphdiff
