// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Module-name evidence: a module-level FX graph calls `self.layer1.0.conv1`,
// and its name is the best clue to the aten ops it stands for.
#ifndef GRAPHDIFF_SRC_ALIGN_MODULE_CLASS_H_
#define GRAPHDIFF_SRC_ALIGN_MODULE_CLASS_H_

#include <string_view>

namespace graphdiff::align {

// The representative aten op of a module path ("layer1.0.conv1" ->
// "aten::convolution", "L__self___fc" -> "aten::linear",
// "downsample.1" -> "aten::batch_norm"); empty when the name says nothing.
std::string_view ModuleOpFromName(std::string_view path);

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_MODULE_CLASS_H_
