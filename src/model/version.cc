// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/version.h"

// GRAPHDIFF_VERSION_STRING comes from CMake (the project version).
namespace graphdiff {

std::string_view Version() { return GRAPHDIFF_VERSION_STRING; }

}  // namespace graphdiff
