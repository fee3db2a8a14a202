// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// --equiv tables (OpEquivalence::AddJson).
#include "fuzz_target.h"
#include "graphdiff/equivalence.h"

GRAPHDIFF_FUZZ_TARGET(equivalence) {
  graphdiff::OpEquivalence eq = graphdiff::OpEquivalence::BuiltIn();
  if (eq.AddJson(graphdiff::fuzz::AsText(data, size), "fuzz.json").ok()) {
    (void)eq.KnownEquivalent("aten::add", "aten::add_");
  }
  return 0;
}
