// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Module-name evidence: a module-level FX graph calls `self.layer1.0.conv1`,
// and its name is the best clue to the aten ops it stands for.
#ifndef GRAPHDIFF_SRC_ALIGN_MODULE_CLASS_H_
#define GRAPHDIFF_SRC_ALIGN_MODULE_CLASS_H_

#include <optional>
#include <string_view>
#include <vector>

namespace graphdiff::align {

// The representative aten op of a module path ("layer1.0.conv1" ->
// "aten::convolution", "L__self___fc" -> "aten::linear",
// "downsample.1" -> "aten::batch_norm"); empty when the name says nothing.
std::string_view ModuleOpFromName(std::string_view path);

// The aten ops a module whose representative op is `module_op` (as
// ModuleOpFromName gives it) may become in an aten-level trace: Linear is
// `t` + `addmm` (or `mm`, `matmul`), ReLU6 is `hardtanh`, adaptive average
// pooling to 1x1 is `mean`. Empty for modules that vanish in eval mode
// (Dropout) and for ops this table does not know.
std::vector<std::string_view> ModuleDecomposition(std::string_view module_op);

// Whether a module of representative op `module_op` may vanish from an
// aten-level trace (Dropout, Identity in eval mode).
bool ModuleMayVanish(std::string_view module_op);

// Whether a function call of op `op` may vanish from an aten-level trace:
// the identity in eval mode, as dropout in any spelling is and torchvision's
// `stochastic_depth` (a wrapped function in `symbolic_trace`,
// `builtins::torchvision_ops_stochastic_depth_stochastic_depth`) is.
bool FunctionMayVanish(std::string_view op);

// Whether a module of representative op `module_op` holds parameters
// (convolution, the norms, Linear, Embedding: its aten ops read weights) or
// not (activations, pooling, Dropout); nullopt when the table does not say.
std::optional<bool> ModuleHoldsParameters(std::string_view module_op);

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_MODULE_CLASS_H_
