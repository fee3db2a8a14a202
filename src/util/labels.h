// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// How a diff names graphs and pairs in its result (Finding::graph,
// UnpairedGraph::label) and its reports. DiffDumps writes these labels and
// the visual reports find a finding's pair by them again, so both spell
// them here, once.
#ifndef GRAPHDIFF_SRC_UTIL_LABELS_H_
#define GRAPHDIFF_SRC_UTIL_LABELS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "fmt/format.h"

namespace graphdiff {

// "a.txt" or "a.txt <-> b.txt".
inline std::string SidesLabel(std::string_view left, std::string_view right) {
  return left == right ? std::string(left) : fmt::format("{} <-> {}", left, right);
}

// One graph of a file of several: "a.txt#3" (its record index; a file's
// only graph is labelled by the path alone), or one metrics report of a file
// (its index among them).
inline std::string RecordLabel(std::string_view path, uint32_t record) {
  return fmt::format("{}#{}", path, record);
}

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_UTIL_LABELS_H_
