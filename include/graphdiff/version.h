// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The library's version, so a consumer can tell which graphdiff it linked.
#ifndef GRAPHDIFF_VERSION_H_
#define GRAPHDIFF_VERSION_H_

#include "graphdiff/export.h"
#include <string_view>

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// "MAJOR.MINOR.PATCH", as in the CMake project and package config.
std::string_view Version();

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_VERSION_H_
