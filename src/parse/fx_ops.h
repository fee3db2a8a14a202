// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Canonical op names for FX calls, so every printed spelling of one
// operation (`torch.ops.aten.add.Tensor`, `torch.add`, `operator.add`, `+`)
// aligns as the same `aten::add`, and dynamo's mangled module attribute
// names (`getattr_L__self___layer1___0___conv1`) read as `layer1.0.conv1`.
#ifndef GRAPHDIFF_SRC_PARSE_FX_OPS_H_
#define GRAPHDIFF_SRC_PARSE_FX_OPS_H_

#include <string>
#include <string_view>

namespace graphdiff {

// Canonical op of a Python operator: binary `+` -> "aten::add", `//` ->
// "aten::floor_divide", `@` -> "aten::matmul", comparisons -> aten::eq/ne/
// lt/le/gt/ge, `&|^` -> aten::bitwise_*, unary `-` -> "aten::neg", `~` ->
// "aten::bitwise_not". Python-only operators get "operator::<name>"
// (`not` -> operator::not_, `in` -> operator::contains, `is` ->
// operator::is_) or "builtins::and"/"builtins::or". Empty if unknown.
std::string_view FxOperatorOp(std::string_view symbol, bool unary);

// In-place op of an augmented assignment: `+=` -> "aten::add_". Empty if
// `symbol` is not one.
std::string_view FxAugmentedOp(std::string_view symbol);

// Canonical op of a call whose callee is the dotted path `parts[0..n)`
// rooted at a module, not at a graph value:
//   torch.ops.NS.NAME[.OVERLOAD]   -> "NS::NAME", *overload = OVERLOAD
//   torch.X... .NAME (any other)   -> "aten::NAME" (torch.flatten,
//                                     torch._C._nn.linear, torch.nn.functional.relu)
//   operator.NAME / _operator.NAME -> the operator's canonical op
//                                     (operator.add -> aten::add,
//                                     operator.getitem -> aten::getitem),
//                                     else "operator::NAME"
//   NAME (a bare builtin)          -> "builtins::NAME" (getattr, len, slice)
//   ROOT. ... .NAME                -> "ROOT::NAME" (math.sqrt -> math::sqrt)
// The result is written to `*op` (cleared first).
void FxFunctionOp(const std::string_view* parts, size_t n, std::string* op,
                  std::string_view* overload);

// Appends module attribute `segment` to the dotted path `*path`, decoding
// dynamo's mangling: an optional `getattr_`, then `L__self___` (or
// `l__self___`, `L__mod___`) and `___` separators: `getattr_L__self___layer1___0___conv1`
// -> `layer1.0.conv1`. Unmangled segments are appended as they are.
void AppendModulePath(std::string_view segment, std::string* path);

// Output index of a named field of a multi-output op result (`max.values`
// -> 0, `max.indices` -> 1, `svd.V` -> 2); -1 when `field` is not one.
int FxProjectionField(std::string_view field);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_FX_OPS_H_
