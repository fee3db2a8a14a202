// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <cstdlib>

#include "fuzz_target.h"
#include "graphdiff/sanitize.h"
#include "nlohmann/json.hpp"

namespace graphdiff::fuzz {

void CheckCleanOutput(std::string_view text, std::string_view what) {
  if (!IsValidUtf8(text)) {
    std::fprintf(stderr, "%.*s: output is not valid UTF-8\n", static_cast<int>(what.size()),
                 what.data());
    std::abort();
  }
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
      std::fprintf(stderr, "%.*s: raw control character 0x%02X in output\n",
                   static_cast<int>(what.size()), what.data(), c);
      std::abort();
    }
  }
}

void CheckJsonOutput(std::string_view text, std::string_view what) {
  CheckCleanOutput(text, what);
  if (!nlohmann::json::accept(text.begin(), text.end())) {
    std::fprintf(stderr, "%.*s: output is not JSON\n", static_cast<int>(what.size()),
                 what.data());
    std::abort();
  }
}

}  // namespace graphdiff::fuzz
