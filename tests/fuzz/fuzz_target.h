// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// One fuzz target per file, built two ways from the same source:
// - with GRAPHDIFF_LIBFUZZER (tools/fuzz.sh, clang's libFuzzer): the target
//   is LLVMFuzzerTestOneInput of its own binary;
// - otherwise: every target registers by name in graphdiff_fuzz_replay,
//   which ctest runs over each target's corpus and crash files under the
//   normal compiler, so a fixed crash stays fixed without clang.
#ifndef GRAPHDIFF_TESTS_FUZZ_FUZZ_TARGET_H_
#define GRAPHDIFF_TESTS_FUZZ_FUZZ_TARGET_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace graphdiff::fuzz {

using TargetFn = int (*)(const uint8_t* data, size_t size);
bool Register(const char* name, TargetFn fn);

// Aborts (a finding for the fuzzer, a failure for the replay) unless `text`
// is valid UTF-8 with no control character but newline and tab: the promise
// every report makes whatever the input held.
void CheckCleanOutput(std::string_view text, std::string_view what);
// The same for JSON: valid UTF-8 that parses back.
void CheckJsonOutput(std::string_view text, std::string_view what);

inline std::string_view AsText(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

}  // namespace graphdiff::fuzz

#ifdef GRAPHDIFF_LIBFUZZER
#define GRAPHDIFF_FUZZ_TARGET(name) \
  extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
#else
#define GRAPHDIFF_FUZZ_TARGET(name)                                             \
  static int FuzzTarget_##name(const uint8_t* data, size_t size);               \
  [[maybe_unused]] static const bool kRegistered_##name =                       \
      ::graphdiff::fuzz::Register(#name, FuzzTarget_##name);                    \
  static int FuzzTarget_##name(const uint8_t* data, size_t size)
#endif

#endif  // GRAPHDIFF_TESTS_FUZZ_FUZZ_TARGET_H_
