// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The library's version, so a consumer can tell which graphdiff it linked.
#ifndef GRAPHDIFF_VERSION_H_
#define GRAPHDIFF_VERSION_H_

#include <string_view>

namespace graphdiff {

// "MAJOR.MINOR.PATCH", as in the CMake project and package config.
std::string_view Version();

}  // namespace graphdiff

#endif  // GRAPHDIFF_VERSION_H_
