// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// A mapped dump truncated under the parser: the tool exits with its error
// code and says why, instead of dying of SIGBUS.
#include "bus_error.h"

#include <unistd.h>

#include <csignal>
#include <string>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "load/file_read.h"
#include "load_test_helpers.h"

namespace graphdiff {
namespace {

TEST(CliBusErrorDeathTest, TruncatedMappedFileIsAnErrorExit) {
  ::testing::FLAGS_gtest_death_test_style = "threadsafe";
  testing_load::ScratchDir dir;
  const std::string path = dir.Join("dump.txt");
  testing_load::WriteTestFile(path, std::string(kMapFileBytes + 4096, 'x'));
  EXPECT_EXIT(
      {
        cli::ReportBusErrors();
        absl::StatusOr<FileBytes> bytes = ReadFileBytes(path, UINT64_MAX, "limit");
        if (!bytes.ok() || !bytes->mapped()) std::_Exit(3);
        if (::truncate(path.c_str(), 0) != 0) std::_Exit(4);
        // The pages past the new end are gone: this read faults.
        volatile char c = bytes->view()[bytes->size() - 1];
        (void)c;
        std::_Exit(5);
      },
      ::testing::ExitedWithCode(2), "shrank while it was being read");
}

}  // namespace
}  // namespace graphdiff
