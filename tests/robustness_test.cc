// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Seeded mutation tests over every committed dump: whatever the damage
// (truncation, flipped bytes, deleted or duplicated lines, garbage, CRLF),
// ParseText must return a graph or a positioned error, never crash or hang.
// A cheap, deterministic stand-in for the fuzzers, run on every CI build.
#include <random>
#include <string>

#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using testing::ListDumpFiles;
using testing::ReadTestdata;

// True when `msg` starts "<source>:<line>:<col>: ". (std::regex recurses per
// character and overflows the stack on long messages, so no regex here.)
bool IsPositioned(const std::string& msg, const std::string& source) {
  if (msg.compare(0, source.size() + 1, source + ":") != 0) return false;
  size_t i = source.size() + 1;
  for (int field = 0; field < 2; ++field) {
    size_t start = i;
    while (i < msg.size() && msg[i] >= '0' && msg[i] <= '9') ++i;
    if (i == start || i >= msg.size() || msg[i] != ':') return false;
    ++i;
  }
  return i < msg.size() && msg[i] == ' ' && msg.find('\n', i) != std::string::npos;
}

std::string Mutate(const std::string& text, std::mt19937_64& rng) {
  if (text.empty()) return text;
  std::uniform_int_distribution<size_t> pos(0, text.size() - 1);
  std::string out = text;
  switch (rng() % 7) {
    case 0:  // truncate
      out.resize(pos(rng));
      break;
    case 1:  // flip a few bytes
      for (int i = 0; i < 4; ++i) out[pos(rng)] = static_cast<char>(rng());
      break;
    case 2: {  // delete a line
      size_t p = out.find('\n', pos(rng));
      size_t q = p == std::string::npos ? p : out.find('\n', p + 1);
      if (p != std::string::npos) out.erase(p, q == std::string::npos ? q : q - p);
      break;
    }
    case 3: {  // duplicate a line
      size_t p = out.rfind('\n', pos(rng));
      p = p == std::string::npos ? 0 : p + 1;
      size_t q = out.find('\n', p);
      if (q != std::string::npos) out.insert(p, out.substr(p, q - p + 1));
      break;
    }
    case 4:  // insert garbage
      out.insert(pos(rng), std::string("\x00\xff%%(]]}=,\x7f", 10));
      break;
    case 5: {  // CRLF everywhere
      std::string crlf;
      for (char c : out) {
        if (c == '\n') crlf += '\r';
        crlf += c;
      }
      out = crlf;
      break;
    }
    case 6: {  // one huge line
      out.insert(pos(rng), std::string(1 << 16, 'x'));
      break;
    }
  }
  return out;
}

TEST(Robustness, MutatedDumpsParseOrFailWithPosition) {
  std::vector<std::string> files = ListDumpFiles();
  ASSERT_FALSE(files.empty());
  size_t errors = 0, parsed = 0;
  for (const std::string& file : files) {
    std::string text = ReadTestdata(file);
    if (text.size() > (4 << 20)) continue;  // keep the suite quick
    std::mt19937_64 rng(std::hash<std::string>{}(file));
    for (int round = 0; round < 40; ++round) {
      std::string mutated = Mutate(text, rng);
      absl::StatusOr<ParsedText> result = ParseText(mutated, file);
      if (result.ok()) {
        ++parsed;
        for (const Graph& g : result->graphs) {
          for (size_t i = 0; i < g.nodes.size(); ++i) {
            for (const ValueRef& r : g.nodes[i].operands) {
              ASSERT_LT(r.node, i) << file << " round " << round
                                   << ": operand not topologically earlier";
            }
          }
          for (const ValueRef& r : g.outputs) ASSERT_LT(r.node, g.nodes.size());
          for (uint32_t in : g.inputs) ASSERT_LT(in, g.nodes.size());
        }
      } else {
        ++errors;
        std::string msg(result.status().message());
        EXPECT_TRUE(IsPositioned(msg, file))
            << file << " round " << round << ": error without position:\n"
            << msg;
      }
    }
  }
  // Both outcomes must occur, or the mutations are not exercising anything.
  EXPECT_GT(parsed, 0u);
  EXPECT_GT(errors, 0u);
}

TEST(Robustness, EmptyAndBinaryInputsAreErrors) {
  for (std::string text : {std::string(), std::string("\x00\x01\x02", 3),
                           std::string(1000, '\xff'), std::string("\n\n\n")}) {
    absl::StatusOr<ParsedText> result = ParseText(text, "bad.txt");
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(std::string(result.status().message()).rfind("bad.txt:1:1: ", 0), 0u)
        << result.status().message();
  }
}

}  // namespace
}  // namespace graphdiff
