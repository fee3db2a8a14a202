// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/input.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "load/file_read.h"
#include "util/absl_sv.h"

namespace graphdiff {

absl::StatusOr<std::string> ReadInputFile(const std::string& path, std::string_view what,
                                          uint64_t max_bytes) {
  absl::StatusOr<std::string> text =
      ReadWholeFile(path, max_bytes, "graphdiff --max-input-bytes");
  if (text.ok()) return text;
  // "cannot read budget b.json: not a regular file": which of the user's
  // files, then why.
  std::string_view why = StdSv(text.status().message());
  if (why.substr(0, path.size() + 2) == path + ": ") why.remove_prefix(path.size() + 2);
  constexpr std::string_view kOpen = "cannot open: ";
  if (why.substr(0, kOpen.size()) == kOpen) why.remove_prefix(kOpen.size());
  return absl::Status(text.status().code(),
                      absl::StrCat("cannot read ", AbslSv(what), " ", path, ": ", AbslSv(why)));
}

}  // namespace graphdiff
