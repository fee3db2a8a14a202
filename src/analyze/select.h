// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The --graph selector shared by diff and lint.
#ifndef GRAPHDIFF_SRC_ANALYZE_SELECT_H_
#define GRAPHDIFF_SRC_ANALYZE_SELECT_H_

#include <string_view>


namespace graphdiff::analyze {

// True when `selector` is empty, equals the source path or the graph name,
// or is a substring of the source path.
inline bool Selected(std::string_view selector, std::string_view source, std::string_view name) {
  if (selector.empty()) return true;
  return selector == source || (!name.empty() && selector == name) ||
         source.find(selector) != std::string_view::npos;
}

}  // namespace graphdiff::analyze

#endif  // GRAPHDIFF_SRC_ANALYZE_SELECT_H_
