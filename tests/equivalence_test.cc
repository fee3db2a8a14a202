// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/equivalence.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;

TEST(EquivalenceTest, BuiltInGroupsKnownSpellings) {
  OpEquivalence eq = OpEquivalence::BuiltIn();
  EXPECT_TRUE(eq.KnownEquivalent("aten::native_batch_norm",
                                 "aten::_native_batch_norm_legit_no_training"));
  EXPECT_TRUE(eq.KnownEquivalent("aten::_native_batch_norm_legit",
                                 "aten::native_batch_norm"));
  EXPECT_TRUE(eq.KnownEquivalent("aten::convolution", "aten::convolution_overrideable"));
  EXPECT_TRUE(eq.KnownEquivalent("aten::t", "aten::permute"));
  EXPECT_TRUE(eq.KnownEquivalent("aten::view", "aten::view_copy"));
  EXPECT_TRUE(eq.KnownEquivalent("aten::view", "aten::_reshape_alias_copy"));
  EXPECT_TRUE(eq.KnownEquivalent("aten::max_pool2d_with_indices", "xla::max_pool2d_forward"));
  EXPECT_TRUE(eq.KnownEquivalent("aten::max_pool2d", "xla::max_pool2d_forward"));
  EXPECT_TRUE(eq.KnownEquivalent("xla::device_data", "fx::placeholder"));
  EXPECT_TRUE(eq.KnownEquivalent("fx::get_attr", "hlo::parameter"));
  EXPECT_TRUE(eq.KnownEquivalent("aten::expand", "aten::expand_copy"));
  EXPECT_FALSE(eq.KnownEquivalent("aten::relu", "aten::relu"));
  EXPECT_FALSE(eq.KnownEquivalent("aten::relu", "aten::gelu"));
  EXPECT_FALSE(eq.KnownEquivalent("aten::convolution", "aten::native_batch_norm"));
}

TEST(EquivalenceTest, InPlaceOpsJoinTheirFunctionalClass) {
  OpEquivalence eq = OpEquivalence::BuiltIn();
  EXPECT_EQ(eq.ClassOf("aten::add_"), eq.ClassOf("aten::add"));
  EXPECT_EQ(eq.ClassOf("aten::relu_"), eq.ClassOf("aten::relu"));
  EXPECT_EQ(eq.ClassOf("aten::mul_"), "mul");
  EXPECT_EQ(eq.ClassOf("aten::hardtanh_"), "aten::hardtanh");
  // Dunder names are not in-place variants.
  EXPECT_EQ(eq.ClassOf("aten::__and__"), "aten::__and__");
  EXPECT_EQ(eq.ClassOf("prim::foo_"), "prim::foo_");
}

TEST(EquivalenceTest, UnknownOpIsItsOwnClass) {
  OpEquivalence eq = OpEquivalence::BuiltIn();
  EXPECT_EQ(eq.ClassOf("my::op"), "my::op");
  OpEquivalence empty;
  EXPECT_EQ(empty.ClassOf("aten::native_batch_norm"), "aten::native_batch_norm");
  EXPECT_FALSE(empty.KnownEquivalent("aten::t", "aten::permute"));
}

TEST(EquivalenceTest, AddClassMergesExistingClasses) {
  OpEquivalence eq;
  eq.AddClass("a", {"x::1", "x::2"});
  eq.AddClass("b", {"x::3", "x::4"});
  EXPECT_FALSE(eq.KnownEquivalent("x::1", "x::4"));
  eq.AddClass("c", {"x::2", "x::3"});
  EXPECT_TRUE(eq.KnownEquivalent("x::1", "x::4"));
  EXPECT_EQ(eq.ClassOf("x::1"), "c");
}

TEST(EquivalenceTest, AddJsonObjectForm) {
  OpEquivalence eq = OpEquivalence::BuiltIn();
  ASSERT_TRUE(eq.AddJson(R"({"classes": {"batch_norm": ["aten::native_batch_norm", "my::bn"],
                                        "act": ["my::relu", "my::relu2"]}})",
                         "equiv.json")
                  .ok());
  EXPECT_TRUE(eq.KnownEquivalent("my::bn", "aten::_native_batch_norm_legit_no_training"));
  EXPECT_TRUE(eq.KnownEquivalent("my::relu", "my::relu2"));
}

TEST(EquivalenceTest, AddJsonListFormExtendsExistingClass) {
  OpEquivalence eq = OpEquivalence::BuiltIn();
  ASSERT_TRUE(eq.AddJson(R"([["aten::conv2d", "my::conv"], ["a::x", "a::y"]])", "l.json").ok());
  EXPECT_TRUE(eq.KnownEquivalent("my::conv", "aten::convolution_overrideable"));
  EXPECT_TRUE(eq.KnownEquivalent("a::x", "a::y"));
}

TEST(EquivalenceTest, AddJsonErrorsNameSourceAndProblem) {
  OpEquivalence eq = OpEquivalence::BuiltIn();
  absl::Status s = eq.AddJson("{not json", "bad.json");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()), HasSubstr("bad.json"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("invalid JSON"));

  s = eq.AddJson(R"({"classes": {"x": ["a::b", 3]}})", "e.json");
  EXPECT_THAT(std::string(s.message()), HasSubstr("e.json"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("class \"x\""));

  s = eq.AddJson(R"({"other": 1})", "o.json");
  EXPECT_FALSE(s.ok());
  s = eq.AddJson(R"([["only::one"]])", "one.json");
  EXPECT_THAT(std::string(s.message()), HasSubstr("at least two"));
  s = eq.AddJson("42", "n.json");
  EXPECT_FALSE(s.ok());
  // A failed file changes nothing.
  s = eq.AddJson(R"([["q::a", "q::b"], ["bad"]])", "p.json");
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(eq.KnownEquivalent("q::a", "q::b"));
}

}  // namespace
}  // namespace graphdiff
