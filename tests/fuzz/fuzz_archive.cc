// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
// The loader on arbitrary bytes: archive sniffing, libarchive (zip, tar,
// 7z, gzip/xz/bzip2/zstd), entry-path checks, nesting, limits. Limits are
// small so a bomb costs the fuzzer nothing.
#include "fuzz_target.h"
#include "graphdiff/dump.h"

GRAPHDIFF_FUZZ_TARGET(archive) {
  using namespace graphdiff;
  LoadOptions options;
  options.threads = 1;
  options.max_file_bytes = 4 << 20;
  options.max_archive_bytes = 16 << 20;
  options.max_archive_entries = 1000;
  options.max_files = 1000;
  std::string bytes(fuzz::AsText(data, size));
  (void)LoadDumpFromMemory("fuzz", {{"input", bytes}}, options);
  return 0;
}
