// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// OpEquivalence: which ops count as "the same operation" for alignment.
//
// Backends and versions spell the same computation differently
// (`native_batch_norm` vs `_native_batch_norm_legit_no_training`,
// `convolution` vs `convolution_overrideable`, `view` vs `view_copy`). The
// table maps every canonical op to an equivalence class; nodes of one class
// may be matched, and a match across different ops is reported as a known
// equivalent rather than an unexplained substitution.
#ifndef GRAPHDIFF_EQUIVALENCE_H_
#define GRAPHDIFF_EQUIVALENCE_H_

#include "graphdiff/export.h"
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

class OpEquivalence {
 public:
  // The built-in table (batch-norm variants, convolution variants, t/permute,
  // view/reshape/copy aliases, max-pool variants, device_data/placeholder, ...).
  static OpEquivalence BuiltIn();
  // An empty table: every op is its own class.
  OpEquivalence() = default;

  // Puts every op of `ops` into one class named `class_name`, merging with
  // classes the ops already belong to.
  void AddClass(std::string_view class_name, const std::vector<std::string>& ops);

  // Extends the table from a user JSON file:
  //   {"classes": {"batch_norm": ["aten::native_batch_norm", "my::bn"], ...}}
  // or the shorthand list-of-lists form [["aten::a", "aten::b"], ...].
  absl::Status AddJson(std::string_view json_text, std::string_view source);

  // The class of `op` (a canonical op such as "aten::view"); the op itself
  // when it is in no class. Namespace-insensitive for aten ops: an FX
  // `aten::relu` and an IR `aten::relu` are the same already.
  std::string_view ClassOf(std::string_view op) const;
  // True when `a` and `b` are different ops of the same class.
  bool KnownEquivalent(std::string_view a, std::string_view b) const;

 private:
  absl::flat_hash_map<std::string, std::string> class_of_;
};

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_EQUIVALENCE_H_
