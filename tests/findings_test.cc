// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Findings you can trust (issue 10): one test per false alarm and per miss
// seen on real dumps, each on a minimal fixture written from the quoted
// lines. docs/findings.md names these tests.
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "graphdiff/diff.h"
#include "graphdiff/parse.h"
#include "graphdiff/report.h"
#include "gtest/gtest.h"
#include "testing/graph_builder.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::GraphBuilder;

using Files = std::vector<std::pair<std::string, std::string>>;

Dump Load(const std::string& root, const Files& files) {
  absl::StatusOr<Dump> d = LoadDumpFromMemory(root, files);
  EXPECT_TRUE(d.ok()) << d.status();
  return d.ok() ? *std::move(d) : Dump();
}

DiffResult DiffTexts(const std::string& left, const std::string& right,
                     const std::string& path = "g.txt", const DiffOptions& options = {}) {
  absl::StatusOr<DiffResult> r =
      DiffDumps(Load("a", {{path, left}}), Load("b", {{path, right}}), options);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *std::move(r) : DiffResult();
}

DiffResult Diff(const Graph& l, const Graph& r, const DiffOptions& options = {}) {
  absl::StatusOr<DiffResult> d = DiffGraphs(l, r, options);
  EXPECT_TRUE(d.ok()) << d.status();
  return d.ok() ? *std::move(d) : DiffResult();
}

std::vector<const Finding*> All(const std::vector<Finding>& fs, std::string_view id) {
  std::vector<const Finding*> out;
  for (const Finding& f : fs) {
    if (f.id == id) out.push_back(&f);
  }
  return out;
}

const Finding* One(const std::vector<Finding>& fs, std::string_view id) {
  std::vector<const Finding*> all = All(fs, id);
  return all.size() == 1 ? all[0] : nullptr;
}

std::string Titles(const std::vector<Finding>& fs) {
  std::string s;
  for (const Finding& f : fs) s += f.id + ": " + f.title + "\n";
  return s;
}

// --- false alarms ---------------------------------------------------------

constexpr char kHloRootTuple[] = R"GD(HloModule SyncTensorsGraph.8

ENTRY %SyncTensorsGraph.8 (p0.1: f32[1,8]) -> (f32[1,8]) {
  %p0.1 = f32[1,8]{1,0} parameter(0)
  %negate.2 = f32[1,8]{1,0} negate(f32[1,8]{1,0} %p0.1)
  ROOT %tuple.7 = (f32[1,8]{1,0}) tuple(f32[1,8]{1,0} %negate.2)
}
)GD";

TEST(FindingsFalseAlarm, HloRootTupleIsNotDeadCode) {
  std::vector<Finding> fs = LintDump(Load("m", {{"m.hlo", kHloRootTuple}}));
  EXPECT_TRUE(All(fs, "dead-code").empty()) << Titles(fs);
  for (const std::string& path : testing::ListDumpFiles("fixtures/hlo")) {
    // (long_form_fusion.txt holds one truly dead convolution.)
    std::vector<Finding> fix = LintDump(Load("f", {{path, testing::ReadTestdata(path)}}));
    for (const Finding* f : All(fix, "dead-code")) {
      for (const Evidence& e : f->evidence) EXPECT_NE(e.op, "hlo::tuple") << path << " " << e.node;
    }
  }
  // A real dead instruction beside the ROOT tuple is still found.
  std::string dead = kHloRootTuple;
  dead.insert(dead.find("  ROOT"), "  %exp.3 = f32[1,8]{1,0} exponential(f32[1,8]{1,0} %p0.1)\n");
  std::vector<Finding> with_dead = LintDump(Load("m", {{"m.hlo", dead}}));
  ASSERT_EQ(All(with_dead, "dead-code").size(), 1u) << Titles(with_dead);
  EXPECT_EQ(All(with_dead, "dead-code")[0]->count, 1);
}

constexpr char kSideEffects[] = R"GD(def forward(self, arg0_1: "f32[8]", arg1_1: "i64[2]", arg2_1: "Sym(s0)"):
    ge: "Sym(s0 >= 2)" = arg2_1 >= 2
    _assert_scalar = torch.ops.aten._assert_scalar.default(ge, "Runtime assertion failed for expression s0 >= 2");  ge = None
    neg: "f32[8]" = torch.ops.aten.neg.default(arg0_1)
    index_put_: "f32[8]" = torch.ops.aten.index_put_.default(arg0_1, [arg1_1], neg);  neg = None
    add: "f32[8]" = torch.ops.aten.add.Tensor(arg0_1, 1)
    copy_: "f32[8]" = torch.ops.aten.copy_.default(arg0_1, add);  add = None
    sum_1: "f32[]" = torch.ops.aten.sum.default(arg0_1)
    all_reduce: "f32[]" = torch.ops._c10d_functional.all_reduce.default(sum_1, "sum", "0");  sum_1 = None
    exp: "f32[8]" = torch.ops.aten.exp.default(arg0_1)
    _print = torch.ops.higher_order.print("value", exp);  exp = None
    rng = torch.ops.prims.rng_get_and_update_state.default(arg0_1)
    mul: "f32[8]" = torch.ops.aten.mul.Tensor(arg0_1, 2)
    sin: "f32[8]" = torch.ops.aten.sin.default(arg0_1)
    empty = torch.ops.aten.empty.memory_format([0], dtype = torch.uint8, layout = torch.strided, device = device(type='cpu'))
    return (mul,)
)GD";

TEST(FindingsFalseAlarm, SideEffectsAreUses) {
  // Asserts, in-place updates of inputs, copy_ into a parameter, prints,
  // collectives and RNG state updates use their operands; an unused size-0
  // `empty` (make_fx's batch-norm reserve) computes nothing; only `sin` is dead.
  std::vector<Finding> fs = LintDump(Load("m", {{"g.py", kSideEffects}}));
  std::vector<const Finding*> dead = All(fs, "dead-code");
  ASSERT_EQ(dead.size(), 1u) << Titles(fs);
  EXPECT_EQ(dead[0]->count, 1);
  EXPECT_THAT(dead[0]->title, HasSubstr("1 aten::sin"));
}

constexpr char kStatic[] = R"GD(def forward(self, primals_2: "f32[10]"):
    relu: "f32[10]" = torch.ops.aten.relu.default(primals_2)
    return (relu,)
)GD";
constexpr char kDynamic[] = R"GD(def forward(self, primals_1: "Sym(s52)", primals_2: "f32[s52]"):
    relu: "f32[s52]" = torch.ops.aten.relu.default(primals_2)
    mul_15: "Sym(1024*s52)" = primals_1 * 1024
    return (relu, primals_1, mul_15)
)GD";

TEST(FindingsFalseAlarm, SymIntValuesAreNotTensors) {
  DiffResult r = DiffTexts(kStatic, kDynamic);
  const Finding* extra = One(r.findings, "extra-outputs");
  ASSERT_NE(extra, nullptr) << Titles(r.findings);
  EXPECT_EQ(extra->count, 2);
  EXPECT_THAT(extra->explanation, HasSubstr("2 symbolic sizes (SymInt values, not tensors)"));
  EXPECT_THAT(extra->title, Not(HasSubstr("saved for")));
  EXPECT_THAT(extra->hint, Not(HasSubstr("no_grad")));
  const Finding* inputs = One(r.findings, "lifted-inputs");
  ASSERT_NE(inputs, nullptr) << Titles(r.findings);
  EXPECT_EQ(inputs->severity, Severity::kInfo);
  EXPECT_THAT(inputs->title, HasSubstr("1 new graph input on the right (1 -> 2): symbolic sizes"));
  EXPECT_THAT(inputs->explanation, Not(HasSubstr("bytes")));
  for (const Evidence& e : inputs->evidence) EXPECT_THAT(e.note, Not(HasSubstr("s64[]")));
  // Input bytes did not shrink from 40 B to 8 B: the right's are unknown.
  const Finding* size = One(r.findings, "size-delta");
  ASSERT_NE(size, nullptr);
  EXPECT_THAT(size->explanation, HasSubstr("input bytes 40 B -> unknown"));
}

constexpr char kUnfused[] = R"GD(HloModule SyncTensorsGraph.12

ENTRY %SyncTensorsGraph.12 (p0.1: f32[], p1.2: f32[4,8]) -> (f32[4,8]) {
  %p0.1 = f32[] parameter(0)
  %p1.2 = f32[4,8]{1,0} parameter(1)
  %broadcast.3 = f32[4,8]{1,0} broadcast(f32[] %p0.1), dimensions={}
  %multiply.4 = f32[4,8]{1,0} multiply(f32[4,8]{1,0} %p1.2, f32[4,8]{1,0} %broadcast.3)
  %broadcast.5 = f32[4,8]{1,0} broadcast(f32[] %p0.1), dimensions={}
  %add.6 = f32[4,8]{1,0} add(f32[4,8]{1,0} %multiply.4, f32[4,8]{1,0} %broadcast.5)
  ROOT %tuple.7 = (f32[4,8]{1,0}) tuple(f32[4,8]{1,0} %add.6)
}
)GD";
constexpr char kFused[] = R"GD(HloModule SyncTensorsGraph.12

%fused_computation (param_0: f32[], param_1: f32[4,8]) -> f32[4,8] {
  %param_0 = f32[] parameter(0)
  %broadcast.3 = f32[4,8]{1,0} broadcast(f32[] %param_0), dimensions={}
  %param_1 = f32[4,8]{1,0} parameter(1)
  %multiply.4 = f32[4,8]{1,0} multiply(f32[4,8]{1,0} %param_1, f32[4,8]{1,0} %broadcast.3)
  ROOT %add.6 = f32[4,8]{1,0} add(f32[4,8]{1,0} %multiply.4, f32[4,8]{1,0} %broadcast.3)
}

ENTRY %SyncTensorsGraph.12 (p0.1: f32[], p1.2: f32[4,8]) -> (f32[4,8]) {
  %p0.1 = f32[] parameter(0)
  %p1.2 = f32[4,8]{1,0} parameter(1)
  %fusion = f32[4,8]{1,0} fusion(f32[] %p0.1, f32[4,8]{1,0} %p1.2), kind=kLoop, calls=%fused_computation
  ROOT %tuple.7 = (f32[4,8]{1,0}) tuple(f32[4,8]{1,0} %fusion)
}
)GD";

TEST(FindingsFalseAlarm, FusionExplainedByFusedComputation) {
  absl::StatusOr<ParsedText> fused = ParseText(kFused, "fused.hlo");
  ASSERT_TRUE(fused.ok()) << fused.status();
  const Graph& g = fused->graphs[0];
  bool seen = false;
  for (const Node& n : g.nodes) {
    if (g.str(n.op) != "hlo::fusion") continue;
    seen = true;
    EXPECT_EQ(g.attr(n, "callee_ops").value_or(""), "1 add, 1 broadcast, 1 multiply");
  }
  EXPECT_TRUE(seen);
  DiffResult r = DiffTexts(kUnfused, kFused, "m.hlo");
  for (const Finding& f : r.findings) {
    EXPECT_THAT(f.explanation, Not(HasSubstr("may have changed"))) << f.title;
    EXPECT_NE(f.severity, Severity::kWarning) << f.title;
  }
  std::vector<const Finding*> subs = All(r.findings, "op-substitution");
  if (!subs.empty()) {  // when the aligner pairs the fused ops with the fusion
    ASSERT_EQ(subs.size(), 1u) << Titles(r.findings);
    EXPECT_THAT(subs[0]->title, HasSubstr("fused into 1 fusion (kLoop) of 1 add, 1 broadcast"));
  }
}

TEST(FindingsFalseAlarm, DuplicateSubgraphCountsOnlyRepeatedWork) {
  // 30 broadcasts of one select: the select is computed once, so each copy
  // repeats one op, below the default minimum of two.
  GraphBuilder b(GraphKind::kHlo, "m.hlo");
  uint32_t p = b.Input("pred[]");
  uint32_t x = b.Input("f32[]");
  uint32_t y = b.Input("f32[]");
  uint32_t sel = b.Op("hlo::select", {p, x, y}, "f32[]");
  uint32_t prev = b.Input("f32[4]");
  for (int i = 0; i < 30; ++i) {
    uint32_t bc = b.Op("hlo::broadcast", {sel}, "f32[4]", {{"dimensions", "{}"}});
    prev = b.Op("hlo::add", {prev, bc}, "f32[4]");
  }
  b.Output(prev);
  Graph g = b.Build();
  std::vector<Finding> fs;
  Dump d;
  DumpFile f;
  f.path = "m.hlo";
  f.graphs.push_back(g);
  d.files.push_back(f);
  fs = LintDump(d);
  EXPECT_TRUE(All(fs, "duplicate-subgraph").empty()) << Titles(fs);
  LintOptions one;
  one.duplicate_min_ops = 1;
  fs = LintDump(d, one);
  std::vector<const Finding*> dup = All(fs, "duplicate-subgraph");
  ASSERT_EQ(dup.size(), 1u);
  EXPECT_EQ(dup[0]->count, 29);
  EXPECT_THAT(dup[0]->evidence[0].note, HasSubstr("computed 30 times (1 ops repeated"));

  // A real duplicate: mul(add(x, y), y) twice repeats two ops per copy.
  GraphBuilder c(GraphKind::kIr, "ir.txt");
  uint32_t a = c.Input("f32[4]");
  uint32_t w = c.Input("f32[4]");
  uint32_t m1 = c.Op("aten::mul", {c.Op("aten::add", {a, w}, "f32[4]"), w}, "f32[4]");
  uint32_t m2 = c.Op("aten::mul", {c.Op("aten::add", {a, w}, "f32[4]"), w}, "f32[4]");
  c.Output(c.Op("aten::sub", {m1, m2}, "f32[4]"));
  d.files[0].graphs = {c.Build()};
  fs = LintDump(d);
  dup = All(fs, "duplicate-subgraph");
  ASSERT_EQ(dup.size(), 1u) << Titles(fs);
  EXPECT_THAT(dup[0]->evidence[0].note, HasSubstr("computed 2 times (2 ops repeated"));
}

// A computation repeated by every layer, on both sides, with one layer's
// copy gone on the right: the right has one redundant copy fewer, not a
// removal of the whole group's 9, and gains none.
TEST(FindingsFalseAlarm, OneCopyOfARepeatedComputationGoneIsOneCopy) {
  auto build = [](int without) {
    GraphBuilder b(GraphKind::kIr, "ir.txt");
    uint32_t x = b.Input("f32[4]");
    uint32_t w = b.Input("f32[4]");
    uint32_t prev = b.Input("f32[4]");
    for (int i = 0; i < 10; ++i) {
      // scale = mul(add(x, w), w): the same in every layer but `without`,
      // which scales by w itself.
      uint32_t scale = w;
      if (i != without) {
        scale = b.Op("aten::mul", {b.Op("aten::add", {x, w}, "f32[4]"), w}, "f32[4]");
      }
      prev = b.Op("aten::mul", {prev, scale}, "f32[4]");
    }
    b.Output(prev);
    return b.Build();
  };
  DiffResult r = Diff(build(-1), build(6));
  EXPECT_TRUE(All(r.findings, "duplicate-subgraph").empty()) << Titles(r.findings);
  std::vector<const Finding*> gone = All(r.findings, "duplicate-subgraph-removed");
  ASSERT_EQ(gone.size(), 1u) << Titles(r.findings);
  EXPECT_EQ(gone[0]->count, 1) << gone[0]->title;
  ASSERT_EQ(gone[0]->evidence.size(), 2u);
  EXPECT_THAT(gone[0]->evidence[0].note, HasSubstr("computed 10 times"));
  EXPECT_THAT(gone[0]->evidence[1].note, HasSubstr("same computation as"));
}

// `n_in` inputs; output i is ops[i] of input i, or input i itself for "".
Graph Outputs(int n_in, const std::vector<std::string>& ops) {
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  std::vector<uint32_t> in;
  for (int i = 0; i < n_in; ++i) in.push_back(b.Input("f32[4]"));
  for (size_t i = 0; i < ops.size(); ++i) {
    uint32_t x = in[i % in.size()];
    b.Output(ops[i].empty() ? x : b.Op(ops[i], {x}, "f32[4]"));
  }
  return b.Build();
}

TEST(FindingsFalseAlarm, HeadlinesNeverContradictThemselves) {
  // One output replaced by another: not "1 extra outputs (1 -> 1)".
  DiffResult r = Diff(Outputs(1, {"aten::sin"}), Outputs(1, {""}));
  EXPECT_TRUE(All(r.findings, "extra-outputs").empty()) << Titles(r.findings);
  const Finding* rep = One(r.findings, "outputs-replaced");
  ASSERT_NE(rep, nullptr) << Titles(r.findings);
  EXPECT_THAT(rep->title, HasSubstr("outputs replaced: 1 removed, 1 added (1 -> 1)"));
  // Fewer outputs (8 -> 7 after 3 replaced) is not "3 extra outputs".
  std::vector<std::string> left(8, "aten::relu"), right(7, "aten::relu");
  for (int i = 0; i < 4; ++i) left[4 + i] = "aten::sin";
  for (int i = 0; i < 3; ++i) right[4 + i] = "";
  r = Diff(Outputs(8, left), Outputs(8, right));
  rep = One(r.findings, "outputs-replaced");
  ASSERT_NE(rep, nullptr) << Titles(r.findings);
  EXPECT_THAT(rep->title, HasSubstr("4 removed, 3 added (8 -> 7)"));
  // Removed outputs are their own finding.
  r = Diff(Outputs(1, {"aten::relu", "aten::sin", "aten::cos"}), Outputs(1, {"aten::relu"}));
  const Finding* removed = One(r.findings, "removed-outputs");
  ASSERT_NE(removed, nullptr) << Titles(r.findings);
  EXPECT_THAT(removed->title, HasSubstr("2 outputs removed on the right (3 -> 1)"));
  // Inputs replaced: "53 new" and "1 removed", never "+53" for 1 -> 53.
  GraphBuilder lb(GraphKind::kIr, "ir.txt");
  lb.Output(lb.Op("aten::relu", {lb.Input("f32[2,2]")}, "f32[2,2]"));
  GraphBuilder rb(GraphKind::kIr, "ir.txt");
  uint32_t acc = rb.Input("f32[3]");
  for (int i = 0; i < 52; ++i) acc = rb.Op("aten::add", {acc, rb.Input("f32[3]")}, "f32[3]");
  rb.Output(acc);
  r = Diff(lb.Build(), rb.Build());
  const Finding* added = One(r.findings, "lifted-inputs");
  const Finding* gone = One(r.findings, "removed-inputs");
  ASSERT_NE(added, nullptr) << Titles(r.findings);
  ASSERT_NE(gone, nullptr) << Titles(r.findings);
  EXPECT_THAT(added->title, HasSubstr("53 new graph inputs on the right (1 -> 53)"));
  EXPECT_THAT(gone->title, HasSubstr("1 graph input removed on the right (1 -> 53)"));
}

// make_fx numbers the tensors it fetches (`_tensor_constantN`,
// `_param_constantN`) in the order one trace made them: a trace that lifted
// two of them (AOT) numbers the rest two lower. Swin-T's attention mask
// fills nine slices of one buffer with nine look-alike constants; the
// numbers paired each constant with the one two places on, and every fill
// with the wrong slice (`clones: 9 lift_fresh_copy added`, 54 slices'
// arguments "changed"). A renamed fetch of a named tensor is still a change.
TEST(FindingsFalseAlarm, TracerNumberedConstantsAreNoEvidence) {
  std::string left = "def forward(self, arg0_1):\n"
                     "    new_zeros = torch.ops.aten.new_zeros.default(arg0_1, [56, 56], dtype = "
                     "torch.float32)\n";
  const char* kRows[][2] = {{"0", "-7"}, {"-7", "-3"}, {"-3", "9223372036854775807"}};
  for (int c = 0; c < 3; ++c) {
    left += absl::StrFormat(
        "    _tensor_constant%d = self._tensor_constant%d\n"
        "    lift_fresh_copy_%d = torch.ops.aten.lift_fresh_copy.default(_tensor_constant%d)\n"
        "    slice_%d = torch.ops.aten.slice.Tensor(new_zeros, 0, %s, %s)\n"
        "    fill__%d = torch.ops.aten.fill_.Tensor(slice_%d, lift_fresh_copy_%d)\n",
        c, c, c, c, c, kRows[c][0], kRows[c][1], c, c, c);
  }
  left += "    view = torch.ops.aten.view.default(new_zeros, [8, 7, 8, 7]);  new_zeros = None\n"
          "    return view\n";
  std::string shifted = left;
  for (int c = 2; c >= 0; --c) {
    shifted = absl::StrReplaceAll(shifted, {{absl::StrCat("_tensor_constant", c),
                                             absl::StrCat("_tensor_constant", c + 2)}});
  }
  ASSERT_NE(shifted, left);
  DiffResult same = DiffTexts(left, shifted);
  EXPECT_TRUE(same.identical()) << Titles(same.findings);
  const std::string named =
      absl::StrReplaceAll(left, {{"self._tensor_constant1", "self.mask_fill_value"}});
  DiffResult renamed = DiffTexts(left, named);
  const Finding* f = One(renamed.findings, "attribute-change");
  ASSERT_NE(f, nullptr) << Titles(renamed.findings);
  EXPECT_THAT(f->title, HasSubstr("target _tensor_constant1 -> mask_fill_value"));
}

// AOT functionalizes make_fx's in-place updates of views: `fill_(slice(
// slice(mask)))` becomes `fill` of the slices, scattered back into the base
// (`slice_scatter`), and the next update slices the scatter's result. Swin-T
// builds its attention mask with nine such fills; past the first, the
// slices' chains met nothing alike and were paired across fills
// (`aten::fill_ -> aten::slice`, slices' arguments "changed"). A reader of
// the scatter reads the base's new value: each fill pairs with its own.
TEST(FindingsFalseAlarm, FunctionalizedViewUpdatesPairWithInPlaceOnes) {
  const char* kCuts[][2] = {{"0", "-7"}, {"-7", "-3"}, {"-3", "9223372036854775807"}};
  std::string in_place = "def forward(self, arg0_1):\n"
                         "    mask = torch.ops.aten.new_zeros.default(arg0_1, [56, 56])\n";
  std::string functional = in_place;
  std::string base = "mask";
  int k = 0;
  for (const auto& row : kCuts) {
    for (const auto& col : kCuts) {
      const std::string fetch = absl::StrFormat(
          "    _tensor_constant%d = self._tensor_constant%d\n"
          "    lift_fresh_copy_%d = torch.ops.aten.lift_fresh_copy.default(_tensor_constant%d)\n",
          k, k, k, k);
      in_place += fetch + absl::StrFormat(
          "    rows_%d = torch.ops.aten.slice.Tensor(mask, 0, %s, %s)\n"
          "    cell_%d = torch.ops.aten.slice.Tensor(rows_%d, 1, %s, %s)\n"
          "    fill__%d = torch.ops.aten.fill_.Tensor(cell_%d, lift_fresh_copy_%d)\n",
          k, row[0], row[1], k, k, col[0], col[1], k, k, k);
      functional += fetch + absl::StrFormat(
          "    rows_%d = torch.ops.aten.slice.Tensor(%s, 0, %s, %s)\n"
          "    cell_%d = torch.ops.aten.slice.Tensor(rows_%d, 1, %s, %s)\n"
          "    fill_%d = torch.ops.aten.fill.Tensor(cell_%d, lift_fresh_copy_%d)\n"
          "    back_%d = torch.ops.aten.slice.Tensor(%s, 0, %s, %s)\n"
          "    cells_%d = torch.ops.aten.slice_scatter.default(back_%d, fill_%d, 1, %s, %s)\n"
          "    mask_%d = torch.ops.aten.slice_scatter.default(%s, cells_%d, 0, %s, %s)\n",
          k, base, row[0], row[1], k, k, col[0], col[1], k, k, k, k, base, row[0], row[1], k,
          k, k, col[0], col[1], k, base, k, row[0], row[1]);
      base = absl::StrCat("mask_", k);
      ++k;
    }
  }
  in_place += "    view = torch.ops.aten.view.default(mask, [8, 7, 8, 7])\n    return view\n";
  functional += absl::StrFormat(
      "    view = torch.ops.aten.view.default(%s, [8, 7, 8, 7])\n    return view\n", base);
  for (bool swap : {false, true}) {
    SCOPED_TRACE(swap ? "functional first" : "in place first");
    DiffResult d = swap ? DiffTexts(functional, in_place) : DiffTexts(in_place, functional);
    for (const Finding& f : d.findings) EXPECT_NE(f.severity, Severity::kWarning) << f.title;
    ASSERT_EQ(d.pairs.size(), 1u);
    int fills = 0;
    for (const PairRow& row : d.pairs[0].pairs) {
      const std::string& a = swap ? row.right : row.left;
      const std::string& b = swap ? row.left : row.right;
      if (a.rfind("fill__", 0) != 0) continue;
      ++fills;
      EXPECT_EQ(a.substr(6), b.substr(5)) << a << " <-> " << b;
    }
    EXPECT_EQ(fills, 9);
  }
}

TEST(FindingsFalseAlarm, LayerNormStatisticsAreNotBatchNorm) {
  auto build = [](bool training) {
    GraphBuilder b(GraphKind::kFx, "fx.txt");
    uint32_t x = b.Input("f32[2,8,32]");
    uint32_t w = b.Input("f32[32]");
    uint32_t ln = b.Op("aten::native_layer_norm", {x, w}, "(f32[2,8,32], f32[2,8,1], f32[2,8,1])");
    uint32_t mm = b.OpRefs("aten::gelu", {{ln, 0}}, "f32[2,8,32]");
    b.Output(mm);
    if (training) {
      b.Output(ln, 1);
      b.Output(ln, 2);
      b.Output(ln, 0);
    }
    return b.Build();
  };
  DiffResult r = Diff(build(false), build(true));
  const Finding* f = One(r.findings, "extra-outputs");
  ASSERT_NE(f, nullptr) << Titles(r.findings);
  EXPECT_THAT(f->title, HasSubstr("layer-norm statistics saved for backward"));
  EXPECT_THAT(f->title + f->explanation, Not(HasSubstr("batch-norm")));
}

// --- misses ----------------------------------------------------------------

Graph BatchNorms(const char* eps, const char* batch = "2", const char* dtype = "f32") {
  GraphBuilder b(GraphKind::kIr, "ir.txt");
  std::string t = std::string(dtype) + "[" + batch + ",16,8,8]";
  uint32_t x = b.Input(t);
  uint32_t g = b.Input("f32[16]");
  for (int i = 0; i < 3; ++i) {
    uint32_t bn = b.Op("aten::native_batch_norm", {x, g}, "(" + t + ", f32[16], f32[16])",
                       {{"eps", eps}, {"momentum", "0.1"}});
    x = b.OpRefs("aten::relu", {{bn, 0}}, t);
  }
  b.Output(x);
  return b.Build();
}

TEST(FindingsMiss, AttributeChangesSummarisedByKind) {
  DiffResult r = Diff(BatchNorms("1e-05"), BatchNorms("0.001"));
  const Finding* f = One(r.findings, "attribute-change");
  ASSERT_NE(f, nullptr) << Titles(r.findings);
  EXPECT_EQ(f->title, "eps 1e-05 -> 0.001 in 3 aten::native_batch_norm nodes");
  EXPECT_EQ(f->count, 3);
  std::string text = RenderDiffText(r);
  EXPECT_THAT(text, Not(HasSubstr("No findings explain it")));
  EXPECT_THAT(text, HasSubstr("eps 1e-05 -> 0.001"));
  EXPECT_THAT(RenderDiffMarkdown(r), HasSubstr("eps 1e-05 -&gt; 0.001"));
}

TEST(FindingsMiss, ShapeAndDtypeChangesSummarisedByPattern) {
  DiffResult r = Diff(BatchNorms("1e-05", "2"), BatchNorms("1e-05", "4"));
  const Finding* shape = One(r.findings, "shape-change");
  ASSERT_NE(shape, nullptr) << Titles(r.findings);
  EXPECT_EQ(shape->title, "batch dimension 2 -> 4 in 7 nodes");
  r = Diff(BatchNorms("1e-05", "2", "f32"), BatchNorms("1e-05", "2", "bf16"));
  const Finding* dtype = One(r.findings, "dtype-change");
  ASSERT_NE(dtype, nullptr) << Titles(r.findings);
  EXPECT_EQ(dtype->title, "f32 -> bf16 in 7 nodes");
  // Static against dynamic shapes.
  r = DiffTexts(R"GD(def forward(self, x: "f32[8, 16]"):
    relu: "f32[8, 16]" = torch.ops.aten.relu.default(x)
    sin: "f32[8, 16]" = torch.ops.aten.sin.default(relu)
    return (sin,)
)GD",
                R"GD(def forward(self, x: "f32[s0, 16]"):
    relu: "f32[s0, 16]" = torch.ops.aten.relu.default(x)
    sin: "f32[s0, 16]" = torch.ops.aten.sin.default(relu)
    return (sin,)
)GD");
  shape = One(r.findings, "shape-change");
  ASSERT_NE(shape, nullptr) << Titles(r.findings);
  EXPECT_EQ(shape->title, "static -> symbolic 8 -> s0 in 3 nodes");
  // A side that prints no types knows nothing: unknown is not a change.
  r = DiffTexts(R"GD(def forward(self, x):
    relu = torch.ops.aten.relu.default(x)
    return (relu,)
)GD",
                R"GD(def forward(self, x: "f32[8, 16]"):
    relu: "f32[8, 16]" = torch.ops.aten.relu.default(x)
    return (relu,)
)GD");
  EXPECT_TRUE(All(r.findings, "shape-change").empty()) << Titles(r.findings);
  EXPECT_TRUE(All(r.findings, "dtype-change").empty()) << Titles(r.findings);
}

// A dump's own callee_ops text, or counts the HLO parser saturated, may
// hold counts past int64: they stop at the largest, never overflow (UBSan
// runs this).
TEST(FindingsMiss, CollectiveCountsPastInt64Saturate) {
  GraphBuilder l(GraphKind::kIr, "ir.txt");
  l.Output(l.Op("aten::mul", {l.Input("f32[16]"), l.Input("f32[16]")}, "f32[16]"));
  GraphBuilder r(GraphKind::kIr, "ir.txt");
  uint32_t x = r.Input("f32[16]");
  uint32_t a = r.Op("xla::call", {x}, "f32[16]",
                    {{"callee_ops", "99999999999999999999999 all-reduce, 9223372036854775807 "
                                    "all-reduce"}});
  r.Output(r.Op("xla::call", {a}, "f32[16]", {{"callee_ops", "9223372036854775807 all-reduce"}}));
  DiffResult d = Diff(l.Build(), r.Build());
  const Finding* f = One(d.findings, "collectives");
  ASSERT_NE(f, nullptr) << Titles(d.findings);
  EXPECT_EQ(f->title, "collectives added: all-reduce 0 -> 9223372036854775807");
  EXPECT_EQ(f->count, std::numeric_limits<int64_t>::max());
}

// Collectives counted by kind: one respelt (an all-reduce lowered from
// _c10d_functional to xla) or moved is no change; one more of a kind is,
// whatever else the graphs share.
TEST(FindingsFalseAlarm, CollectivesOfUnchangedCountsAreNoFinding) {
  auto graph = [](const char* first, const char* second, bool swap_order) {
    GraphBuilder b(GraphKind::kIr, "ir.txt");
    uint32_t x = b.Input("f32[16]");
    uint32_t m = b.Op("aten::mul", {x, x}, "f32[16]");
    uint32_t a = b.Op(swap_order ? second : first, {m}, "f32[16]");
    uint32_t c = b.Op("aten::add", {a, x}, "f32[16]");
    b.Output(b.Op(swap_order ? first : second, {c}, "f32[16]"));
    return b.Build();
  };
  // The same ops, the collectives at each other's place: no op count moved.
  DiffResult moved = Diff(graph("_c10d_functional::all_reduce", "hlo::all-gather", false),
                          graph("_c10d_functional::all_reduce", "hlo::all-gather", true));
  EXPECT_EQ(One(moved.findings, "collectives"), nullptr) << Titles(moved.findings);
  // One spelling for another of the same kind: two op counts moved, the
  // kind's did not.
  DiffResult respelt = Diff(graph("_c10d_functional::all_reduce", "aten::relu", false),
                            graph("xla::cross_replica_sum", "aten::relu", false));
  EXPECT_EQ(One(respelt.findings, "collectives"), nullptr) << Titles(respelt.findings);
  // An all-gather where a relu was: counted.
  DiffResult added = Diff(graph("_c10d_functional::all_reduce", "aten::relu", false),
                          graph("_c10d_functional::all_reduce", "hlo::all-gather", false));
  const Finding* f = One(added.findings, "collectives");
  ASSERT_NE(f, nullptr) << Titles(added.findings);
  EXPECT_EQ(f->title, "collectives added: all-gather 0 -> 1");
  ASSERT_EQ(f->evidence.size(), 1u);
}

TEST(FindingsMiss, CollectivesAddedOrRemoved) {
  // IR: a data-parallel step adds xla::cross_replica_sum.
  GraphBuilder l(GraphKind::kIr, "ir.txt");
  uint32_t g = l.Op("aten::mul", {l.Input("f32[16]"), l.Input("f32[16]")}, "f32[16]");
  l.Output(g);
  GraphBuilder r(GraphKind::kIr, "ir.txt");
  uint32_t g2 = r.Op("aten::mul", {r.Input("f32[16]"), r.Input("f32[16]")}, "f32[16]");
  r.Output(r.Op("xla::cross_replica_sum", {g2}, "f32[16]", {{"reduce_type", "sum"}}));
  DiffResult d = Diff(l.Build(), r.Build());
  const Finding* f = One(d.findings, "collectives");
  ASSERT_NE(f, nullptr) << Titles(d.findings);
  EXPECT_EQ(f->title, "collectives added: all-reduce 0 -> 1");
  // HLO: an all-reduce inside a while body counts.
  constexpr char kLoop[] = R"GD(HloModule m

%body (p: (s32[], f32[8])) -> (s32[], f32[8]) {
  %p = (s32[], f32[8]{0}) parameter(0)
  %i = s32[] get-tuple-element((s32[], f32[8]{0}) %p), index=0
  %v = f32[8]{0} get-tuple-element((s32[], f32[8]{0}) %p), index=1
  %all-reduce.1 = f32[8]{0} all-reduce(f32[8]{0} %v), replica_groups={}, to_apply=%sum
  ROOT %t = (s32[], f32[8]{0}) tuple(s32[] %i, f32[8]{0} %all-reduce.1)
}

%sum (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %add = f32[] add(f32[] %a, f32[] %b)
}

%cond (p: (s32[], f32[8])) -> pred[] {
  %p = (s32[], f32[8]{0}) parameter(0)
  %i = s32[] get-tuple-element((s32[], f32[8]{0}) %p), index=0
  %n = s32[] constant(4)
  ROOT %lt = pred[] compare(s32[] %i, s32[] %n), direction=LT
}

ENTRY %main (x: f32[8]) -> f32[8] {
  %x = f32[8]{0} parameter(0)
  %zero = s32[] constant(0)
  %init = (s32[], f32[8]{0}) tuple(s32[] %zero, f32[8]{0} %x)
  %w = (s32[], f32[8]{0}) while((s32[], f32[8]{0}) %init), condition=%cond, body=%body
  ROOT %out = f32[8]{0} get-tuple-element((s32[], f32[8]{0}) %w), index=1
}
)GD";
  std::string no_collective = kLoop;
  no_collective.replace(no_collective.find("all-reduce(f32[8]{0} %v), replica_groups={}, to_apply=%sum"),
                        std::string("all-reduce(f32[8]{0} %v), replica_groups={}, to_apply=%sum").size(),
                        "negate(f32[8]{0} %v)");
  d = DiffTexts(no_collective, kLoop, "m.hlo");
  f = One(d.findings, "collectives");
  ASSERT_NE(f, nullptr) << Titles(d.findings);
  EXPECT_EQ(f->title, "collectives added: all-reduce 0 -> 1");
  // FX: functional collectives, swapped sides: removed.
  constexpr char kFxTp[] = R"GD(def forward(self, x: "f32[4, 8]"):
    all_gather_into_tensor: "f32[8, 8]" = torch.ops._c10d_functional.all_gather_into_tensor.default(x, 2, "0")
    wait_tensor: "f32[8, 8]" = torch.ops._c10d_functional.wait_tensor.default(all_gather_into_tensor)
    relu: "f32[8, 8]" = torch.ops.aten.relu.default(wait_tensor)
    reduce_scatter_tensor: "f32[4, 8]" = torch.ops._c10d_functional.reduce_scatter_tensor.default(relu, "sum", 2, "0")
    wait_tensor_1: "f32[4, 8]" = torch.ops._c10d_functional.wait_tensor.default(reduce_scatter_tensor)
    return (wait_tensor_1,)
)GD";
  constexpr char kFxOne[] = R"GD(def forward(self, x: "f32[4, 8]"):
    relu: "f32[4, 8]" = torch.ops.aten.relu.default(x)
    return (relu,)
)GD";
  d = DiffTexts(kFxTp, kFxOne);
  f = One(d.findings, "collectives");
  ASSERT_NE(f, nullptr) << Titles(d.findings);
  EXPECT_EQ(f->title, "collectives removed: all-gather 1 -> 0, reduce-scatter 1 -> 0");
  EXPECT_EQ(f->count, 2);
}

constexpr char kMetricsLeft[] = R"GD(Metric: CompileTime
  TotalSamples: 29
  Accumulator: 58s
Counter: CachedCompile
  Value: 7
Counter: UncachedCompile
  Value: 29
Counter: MarkStep
  Value: 36
)GD";
constexpr char kMetricsRight[] = R"GD(Metric: CompileTime
  TotalSamples: 1
  Accumulator: 02s
Counter: CachedCompile
  Value: 35
Counter: UncachedCompile
  Value: 1
Counter: MarkStep
  Value: 36
)GD";

TEST(FindingsMiss, CompilationSaidFirstAndExplained) {
  DiffResult r = DiffTexts(kMetricsRight, kMetricsLeft, "metrics.txt");
  ASSERT_FALSE(r.findings.empty());
  const Finding& f = r.findings[0];
  EXPECT_EQ(f.id, "compilation");
  EXPECT_EQ(f.severity, Severity::kWarning);
  EXPECT_EQ(f.title,
            "more compilations: 1 -> 29 compilations (UncachedCompile), 35 -> 7 compile-cache "
            "hits (CachedCompile)");
  EXPECT_THAT(f.explanation, HasSubstr("recompilations"));
  EXPECT_THAT(f.explanation, HasSubstr("CompileTime"));
  EXPECT_THAT(f.hint, HasSubstr("PT_XLA_DEBUG"));
  // counter-delta keeps the rest and leaves the compile counters out.
  for (const Finding* d : All(r.findings, "counter-delta")) {
    EXPECT_THAT(d->title, Not(HasSubstr("Compile")));
  }
  std::string text = RenderDiffText(r);
  // Said first: the first finding of the report, right below the verdict.
  size_t first = text.find("\n1. [warning] compilation: more compilations");
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_EQ(text.find("\n1. "), first) << text;
  EXPECT_LT(text.find("Different:"), first) << text;
  // And said in the verdict itself, before the list of findings starts.
  EXPECT_LT(text.find("more compilations"), text.find("Findings (")) << text;
}

constexpr char kMixedLog[] = R"GD([dynamo] compiling graph
class GraphModule(torch.nn.Module):
    def forward(self, primals_1: f32[4, 3], primals_2: f32[4]):
        t = torch.ops.aten.t.default(primals_1)
        relu = torch.ops.aten.relu.default(t);  t = None
        return (relu, primals_2)

[xla] graph hash 1234
IR {
  %0 = f32[4,3]{1,0} xla::device_data(), xla_shape=f32[4,3]{1,0}, device=TPU:0
  %1 = f32[3,4]{0,1} aten::permute(%0), xla_shape=f32[3,4]{0,1}, dims=(1, 0)
  %2 = f32[3,4]{1,0} aten::relu(%1), xla_shape=f32[3,4]{1,0}, ROOT=0
}
)GD";

TEST(FindingsMiss, MixedLogYieldsTheFxGraphAndTheIr) {
  absl::StatusOr<ParsedText> p = ParseText(kMixedLog, "debug.log");
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->graphs.size(), 2u);
  EXPECT_EQ(p->graphs[0].kind, GraphKind::kFx);
  EXPECT_EQ(p->graphs[1].kind, GraphKind::kIr);
  EXPECT_EQ(p->graphs[0].source.record_index, 0u);
  EXPECT_EQ(p->graphs[1].source.record_index, 1u);
  // Two such logs pair FX with FX and IR with IR.
  DiffResult r = DiffTexts(kMixedLog, kMixedLog, "debug.log");
  EXPECT_EQ(r.pairs.size(), 2u);
  EXPECT_TRUE(r.unpaired.empty());
  EXPECT_TRUE(r.identical());
}

TEST(FindingsMiss, FilesOfDifferentKindsNamedExplicitlyAreCompared) {
  std::string fx = testing::ReadTestdata("generated/mlp/fx_make_fx.txt");
  std::string ir = testing::ReadTestdata("generated/mlp/ir_eager.txt");
  absl::StatusOr<DiffResult> r =
      DiffDumps(Load("fx_make_fx.txt", {{"fx_make_fx.txt", fx}}),
                Load("ir_eager.txt", {{"ir_eager.txt", ir}}));
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->pairs.size(), 1u);
  EXPECT_EQ(r->pairs[0].how, PairRule::kOnly);
  EXPECT_TRUE(r->unpaired.empty());
  EXPECT_GT(r->pairs[0].matched, 5u);
  // Levels pass parameters and lower ops differently by design: the FX
  // graph against the IR it ran as raises no warning (no lifted parameters,
  // no "may have changed" substitutions).
  for (const char* model : {"mlp", "resnet18", "transformer_block"}) {
    std::string dir = std::string("generated/") + model + "/";
    absl::StatusOr<DiffResult> m = DiffDumps(
        Load("fx", {{"fx_make_fx.txt", testing::ReadTestdata(dir + "fx_make_fx.txt")}}),
        Load("ir", {{"ir_eager.txt", testing::ReadTestdata(dir + "ir_eager.txt")}}));
    ASSERT_TRUE(m.ok()) << m.status();
    ASSERT_EQ(m->pairs.size(), 1u) << model;
    for (const Finding& f : m->findings) {
      EXPECT_NE(f.severity, Severity::kWarning) << model << " " << f.id << ": " << f.title;
    }
  }
}

TEST(FindingsMiss, DifferentAlwaysHasAFinding) {
  // Same ops, types and attributes; only the wiring differs.
  auto build = [](bool swap) {
    GraphBuilder b(GraphKind::kIr, "ir.txt");
    uint32_t x = b.Input("f32[4]");
    uint32_t y = b.Input("f32[4]");
    uint32_t s = b.Op("aten::sin", {x}, "f32[4]");
    uint32_t c = b.Op("aten::cos", {y}, "f32[4]");
    b.Output(b.Op("aten::sub", {swap ? c : s, swap ? s : c}, "f32[4]"));
    return b.Build();
  };
  DiffResult r = Diff(build(false), build(true));
  ASSERT_FALSE(r.identical());
  EXPECT_FALSE(r.findings.empty());
  EXPECT_THAT(RenderDiffText(r), Not(HasSubstr("No findings explain it")));
}

TEST(FindingsHlo, InputsInParameterOrderAndCalledComputationsSummarised) {
  constexpr char kModule[] = R"GD(HloModule m

%then (a: f32[4]) -> f32[4] {
  %a = f32[4]{0} parameter(0)
  ROOT %n = f32[4]{0} negate(f32[4]{0} %a)
}

%else (b: f32[4]) -> f32[4] {
  %b = f32[4]{0} parameter(0)
  %ag = f32[8]{0} all-gather(f32[4]{0} %b), dimensions={0}, replica_groups={}
  ROOT %s = f32[4]{0} slice(f32[8]{0} %ag), slice={[0:4]}
}

ENTRY %main (p0: pred[], p1: f32[4]) -> f32[4] {
  %p1 = f32[4]{0} parameter(1)
  %p0 = pred[] parameter(0)
  ROOT %c = f32[4]{0} conditional(pred[] %p0, f32[4]{0} %p1, f32[4]{0} %p1), true_computation=%then, false_computation=%else
}
)GD";
  absl::StatusOr<ParsedText> p = ParseText(kModule, "m.hlo");
  ASSERT_TRUE(p.ok()) << p.status();
  const Graph& g = p->graphs[0];
  ASSERT_EQ(g.inputs.size(), 2u);
  EXPECT_EQ(g.str(g.nodes[g.inputs[0]].name), "p0");  // parameter(0) first
  EXPECT_EQ(g.str(g.nodes[g.inputs[1]].name), "p1");
  const Node& root = g.nodes[g.outputs[0].node];
  EXPECT_EQ(g.attr(root, "ROOT").value_or(""), "true");
  EXPECT_EQ(g.attr(root, "callee_ops").value_or(""), "1 all-gather, 1 negate, 1 slice");
}

}  // namespace
}  // namespace graphdiff
