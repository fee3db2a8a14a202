// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The closed sets of the API (matchers, pairing rules, sides, unpaired
// kinds) are enums with one spelling each, and JSON readers reject others.
#include <string>

#include "gmock/gmock.h"
#include "graphdiff/align.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"
#include "graphdiff/report.h"
#include "gtest/gtest.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;

TEST(Names, RoundTrip) {
  for (Matcher m : {Matcher::kNone, Matcher::kAnchor, Matcher::kRefine, Matcher::kSymmetry,
                    Matcher::kPropagate, Matcher::kSimilarity, Matcher::kTwins, Matcher::kRelaxed,
                    Matcher::kPosition}) {
    Matcher back = Matcher::kNone;
    ASSERT_TRUE(ParseMatcher(MatcherName(m), &back)) << MatcherName(m);
    EXPECT_EQ(back, m);
  }
  for (PairRule r : {PairRule::kPath, PairRule::kName, PairRule::kFrame, PairRule::kOrder,
                     PairRule::kOnly, PairRule::kGraphs}) {
    PairRule back = PairRule::kPath;
    ASSERT_TRUE(ParsePairRule(PairRuleName(r), &back));
    EXPECT_EQ(back, r);
  }
  Side side = Side::kLeft;
  EXPECT_TRUE(ParseSide("right", &side));
  EXPECT_EQ(side, Side::kRight);
  EXPECT_FALSE(ParseSide("middle", &side));
  UnpairedKind kind = UnpairedKind::kGraph;
  EXPECT_TRUE(ParseUnpairedKind("metrics", &kind));
  EXPECT_EQ(kind, UnpairedKind::kMetrics);
  EXPECT_FALSE(ParseMatcher("guess", nullptr));
  EXPECT_FALSE(ParsePairRule("Path", nullptr));
}

TEST(Names, JsonCarriesTheSpellingsAndRejectsOthers) {
  DiffResult r;
  r.left_root = "a";
  r.right_root = "b";
  GraphPairDiff p;
  p.how = PairRule::kFrame;
  PairRow row;
  row.left = "%1";
  row.right = "%2";
  row.matcher = Matcher::kTwins;
  p.pairs.push_back(row);
  r.pairs.push_back(p);
  r.unpaired.push_back({Side::kRight, UnpairedKind::kMetrics, "m.txt#1", ""});
  r.skipped.push_back({Side::kLeft, "x.bin", "not a recognised dump (binary)"});
  Finding f;
  f.id = "clones";
  f.evidence.resize(2);
  f.evidence[0].side = Side::kRight;
  f.evidence[0].node = "%2";
  f.evidence[1].node = "xla::clone";  // a single-dump finding's evidence names no side
  r.findings.push_back(f);
  std::string json = DiffResultToJson(r);
  EXPECT_THAT(json, HasSubstr("\"how\": \"frame\""));
  EXPECT_THAT(json, HasSubstr("\"matcher\": \"twins\""));
  EXPECT_THAT(json, HasSubstr("\"what\": \"metrics\""));
  EXPECT_THAT(json, HasSubstr("\"side\": \"right\",\n          \"source\""));
  EXPECT_THAT(json, HasSubstr("\"side\": \"\",\n          \"source\""));
  absl::StatusOr<DiffResult> back = DiffResultFromJson(json);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->pairs[0].how, PairRule::kFrame);
  EXPECT_EQ(back->pairs[0].pairs[0].matcher, Matcher::kTwins);
  EXPECT_EQ(back->unpaired[0].side, Side::kRight);
  EXPECT_EQ(back->skipped[0].side, Side::kLeft);
  ASSERT_EQ(back->findings.size(), 1u);
  ASSERT_EQ(back->findings[0].evidence.size(), 2u);
  EXPECT_EQ(back->findings[0].evidence[0].side, Side::kRight);
  EXPECT_EQ(back->findings[0].evidence[1].side, std::nullopt);
  std::string odd_side = json;
  odd_side.replace(odd_side.find("\"side\": \"right\""), 15, "\"side\": \"up\"");
  absl::StatusOr<DiffResult> odd = DiffResultFromJson(odd_side);
  ASSERT_FALSE(odd.ok());
  EXPECT_THAT(std::string(odd.status().message()), HasSubstr("side: unknown value \"up\""));
  std::string bad = json;
  bad.replace(bad.find("\"frame\""), 7, "\"magic\"");
  absl::StatusOr<DiffResult> rejected = DiffResultFromJson(bad);
  ASSERT_FALSE(rejected.ok());
  EXPECT_THAT(std::string(rejected.status().message()), HasSubstr("unknown value \"magic\""));
}

}  // namespace
}  // namespace graphdiff
