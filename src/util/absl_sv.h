// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Debian 12's Abseil is built with its own absl::string_view
// (ABSL_OPTION_USE_STD_STRING_VIEW == 0), which does not convert from
// std::string_view. graphdiff's API speaks std::string_view; these adapters
// are the one bridge to absl's string functions.
#ifndef GRAPHDIFF_SRC_UTIL_ABSL_SV_H_
#define GRAPHDIFF_SRC_UTIL_ABSL_SV_H_

#include <string_view>

#include "absl/strings/string_view.h"

namespace graphdiff {

inline absl::string_view AbslSv(std::string_view s) {
  return absl::string_view(s.data(), s.size());
}
inline std::string_view StdSv(absl::string_view s) {
  return std::string_view(s.data(), s.size());
}

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_UTIL_ABSL_SV_H_
