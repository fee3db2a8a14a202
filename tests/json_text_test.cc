// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// ParseOrderedJson and AppendNewKey build what ordered_json's own parser and
// operator[] build, without their search of every key an object holds.
#include <string>

#include "graphdiff/stats.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "util/json_text.h"

namespace graphdiff {
namespace {

using Json = nlohmann::ordered_json;

void ExpectSameAsNlohmann(const std::string& text) {
  const Json ours = ParseOrderedJson(text);
  const Json theirs = Json::parse(text);
  EXPECT_EQ(ours.dump(), theirs.dump()) << text;  // dump() shows key order too
}

TEST(ParseOrderedJson, BuildsWhatOrderedJsonParseBuilds) {
  for (const char* text : {
           "null", "true", "-7", "18446744073709551615", "2.5e-3", "\"x\\u00e9\\n\"",
           "[]", "{}", "[1, [2, [3, {}]], {\"a\": []}]",
           R"({"z": 1, "a": {"y": [1, 2, {"k": null}], "b": "s"}, "m": false})",
           // A repeated key keeps its first place and its last value, also
           // past the few keys compared pairwise, and inside arrays.
           R"({"b": 1, "a": 2, "b": 3})",
           R"([{"k": 1, "k": {"x": 1}, "j": 0, "k": [2]}])",
           R"({"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,
               "k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,
               "k3":33,"k17":17,"k0":100})",
       }) {
    ExpectSameAsNlohmann(text);
  }
}

TEST(ParseOrderedJson, ThrowsWhatOrderedJsonParseThrows) {
  EXPECT_THROW(ParseOrderedJson(""), Json::parse_error);
  EXPECT_THROW(ParseOrderedJson("{\"a\": }"), Json::parse_error);
  EXPECT_THROW(ParseOrderedJson("[1, 2"), Json::parse_error);
  EXPECT_THROW(ParseOrderedJson("{} trailing"), Json::parse_error);
  EXPECT_THROW(ParseOrderedJson("[1e400]"), Json::out_of_range);
}

// An object the size of a symbolic_trace graph's op histogram: every key
// where the text put it, every value read.
TEST(ParseOrderedJson, ObjectOfManyKeys) {
  std::string text = "{";
  for (int i = 0; i < 100000; ++i) {
    if (i > 0) text += ",";
    text += "\"module::layers." + std::to_string(99999 - i) + ".conv\":" + std::to_string(i);
  }
  text += "}";
  const Json j = ParseOrderedJson(text);
  ASSERT_EQ(j.size(), 100000u);
  EXPECT_EQ(j.begin().key(), "module::layers.99999.conv");
  EXPECT_EQ(j["module::layers.0.conv"], 99999);
  int expected = 0;
  for (const auto& [key, value] : j.items()) {
    ASSERT_EQ(value, expected) << key;
    ++expected;
  }
}

TEST(AppendNewKey, SameObjectAsOperatorBrackets) {
  Json ours;  // null: becomes an object
  Json theirs = Json::object();
  for (const char* key : {"z", "a", "m"}) {
    AppendNewKey(ours, key, std::string(key) + "!");
    theirs[key] = std::string(key) + "!";
  }
  EXPECT_EQ(ours.dump(), theirs.dump());
  EXPECT_EQ(ours["a"], "a!");  // found by the usual lookup afterwards
}

// Stats JSON of a graph with as many ops as nodes (module calls): every op
// is there once, in name order, with its count.
TEST(StatsJson, OneOpPerNode) {
  StatsReport report;
  GraphStats g;
  g.source = "model.py";
  for (int i = 0; i < 50000; ++i) g.ops["module::features." + std::to_string(i)] = 1;
  g.ops["aten::cat"] = 7;
  report.graphs.push_back(g);
  const Json j = Json::parse(StatsToJson(report));
  const Json& ops = j["graphs"][0]["ops"];
  ASSERT_EQ(ops.size(), g.ops.size());
  auto want = g.ops.begin();
  for (const auto& [op, n] : ops.items()) {
    ASSERT_EQ(op, want->first);
    ASSERT_EQ(n, want->second);
    ++want;
  }
}

// JSON allows DEL (0x7F) raw in a string; a report must not carry it into a
// terminal. Every writer escapes it as \u007f, which reads back as DEL: a
// graph named with one (a fuzzer found it through a save file's `Graph
// Name:`), with and without invalid UTF-8 beside it, whole and written a
// graph at a time.
TEST(DumpJson, EscapesDelAndReadsBackTheSameString) {
  for (const std::string& name : {std::string("a\x7f\x7f b\x7f"),
                                 std::string("\xff\x7f\xfe"), std::string("\x7f")}) {
    Json doc = Json::object();
    doc["name"] = name;
    doc["list"] = Json::array({name, 1});
    std::string whole = DumpJson(doc);
    std::string piece;
    bool escaped = false;
    AppendJsonAt(doc, 1, &piece, &escaped);
    for (const std::string& text : {whole, piece}) {
      EXPECT_EQ(text.find('\x7f'), std::string::npos) << text;
      EXPECT_NE(text.find("\\u007f"), std::string::npos) << text;
    }
    const Json back = Json::parse(whole);
    if (escaped) continue;  // invalid UTF-8 is escaped as text, not read back
    EXPECT_EQ(back["name"].get<std::string>(), name);
    EXPECT_EQ(back["list"][0].get<std::string>(), name);
  }
}

}  // namespace
}  // namespace graphdiff
