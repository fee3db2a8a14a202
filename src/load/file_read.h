// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Reading a whole file from disk into one allocation sized from its length:
// dump files reach gigabytes, and growing a buffer would copy them again.
#ifndef GRAPHDIFF_SRC_LOAD_FILE_READ_H_
#define GRAPHDIFF_SRC_LOAD_FILE_READ_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "load/text_buffer.h"

namespace graphdiff {

// The first `max_bytes` bytes of a file (fewer when it is shorter), enough to
// recognise an archive by its magic bytes.
absl::StatusOr<std::string> ReadFileHead(const std::string& path, size_t max_bytes);

// The whole file. A file longer than `max_bytes` is an error that names the
// limit (`limit_name`) so the user knows which option to raise.
absl::StatusOr<std::string> ReadWholeFile(const std::string& path, uint64_t max_bytes,
                                          std::string_view limit_name);
// The same, into a buffer that is not zero-filled first: for dumps, where
// the file can be hundreds of megabytes.
absl::StatusOr<TextBuffer> ReadFileToBuffer(const std::string& path, uint64_t max_bytes,
                                            std::string_view limit_name);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_LOAD_FILE_READ_H_
