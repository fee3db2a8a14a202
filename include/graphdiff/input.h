// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Reading the small files a user names beside the dumps: baselines, budgets
// and op-equivalence tables. Like dumps, they are size-bounded and must be
// regular files: `--budget /dev/zero` or a FIFO is refused at once instead
// of growing memory or blocking forever.
#ifndef GRAPHDIFF_INPUT_H_
#define GRAPHDIFF_INPUT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "graphdiff/export.h"

GRAPHDIFF_PUBLIC_BEGIN
namespace graphdiff {

// A baseline of a 10^6-node dump is a few MiB; 256 MiB leaves room.
inline constexpr uint64_t kDefaultMaxInputBytes = 256ull << 20;

// The whole of `path`, `what` naming it in messages ("baseline"). Errors:
// NotFound when it does not exist (so a caller may create it), InvalidArgument
// when it is not a regular file, ResourceExhausted over `max_bytes` (naming
// the --max-input-bytes option).
absl::StatusOr<std::string> ReadInputFile(const std::string& path, std::string_view what,
                                          uint64_t max_bytes = kDefaultMaxInputBytes);

}  // namespace graphdiff
GRAPHDIFF_PUBLIC_END

#endif  // GRAPHDIFF_INPUT_H_
