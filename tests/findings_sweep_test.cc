// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Properties of every finding on every testdata pair we can build (the
// ResNet-18 case, generated PyTorch 1.13 dumps at several levels and batch
// sizes, HLO fixtures), in both directions:
//  - swapping the sides mirrors every finding (extra-outputs <->
//    removed-outputs, clones <-> clones-removed, X <-> X-removed, ...);
//  - every title states the same numbers as the finding's count, evidence
//    and graph pair (one source for headline numbers).
#include <algorithm>
#include <regex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "graphdiff/diff.h"
#include "gtest/gtest.h"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

struct Case {
  std::string name;
  std::vector<std::pair<std::string, std::string>> left;  // (path in dump, testdata path)
  std::vector<std::pair<std::string, std::string>> right;
};

Dump LoadCase(const std::string& root,
              const std::vector<std::pair<std::string, std::string>>& files) {
  std::vector<std::pair<std::string, std::string>> mem;
  for (const auto& [path, src] : files) mem.emplace_back(path, testing::ReadTestdata(src));
  absl::StatusOr<Dump> d = LoadDumpFromMemory(root, mem);
  EXPECT_TRUE(d.ok()) << root << ": " << d.status();
  return d.ok() ? *std::move(d) : Dump();
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  auto resnet = [](const char* backend) {
    std::string dir = std::string("resnet18-xla5430/") + backend + "/";
    return std::vector<std::pair<std::string, std::string>>{
        {"fx_graph.txt", dir + "fx_graph.txt"},
        {"ir.txt", dir + "ir.txt"},
        {"metrics.txt", dir + "metrics.txt"}};
  };
  cases.push_back({"resnet18-xla5430", resnet("torchxla_trace_once"), resnet("openxla")});
  // Within one model: levels and variants of the same run.
  const std::pair<const char*, const char*> kWithin[] = {
      {"fx_symbolic_trace.txt", "fx_make_fx.txt"},
      {"fx_symbolic_trace.txt", "fx_aot_forward.txt"},
      {"fx_make_fx.txt", "fx_aot_forward.txt"},
      {"fx_aot_forward.txt", "fx_aot_backward.txt"},
      {"ir_eager.txt", "ir_aot_forward.txt"},
      {"metrics_eager.txt", "metrics_aot.txt"},
      {"fx_make_fx.txt", "ir_eager.txt"},
      {"fx_aot_forward.txt", "ir_aot_forward.txt"},
  };
  std::vector<std::string> models = {"mlp",      "multi_output",  "resnet18", "transformer_block",
                                     "mobilenet_v2", "squeezenet1_0", "tiny_gpt", "alexnet",
                                     "densenet121", "convnext_mini", "efficientnet_b0",
                                     "regnet_y_400mf", "vgg11_bn", "mnasnet0_5"};
  std::vector<std::string> have = testing::ListDumpFiles("generated");
  auto exists = [&](const std::string& p) {
    return std::find(have.begin(), have.end(), p) != have.end();
  };
  for (const std::string& m : models) {
    for (const auto& [a, b] : kWithin) {
      std::string l = "generated/" + m + "/" + a, r = "generated/" + m + "/" + b;
      if (!exists(l) || !exists(r)) continue;
      cases.push_back({m + ": " + a + " vs " + b, {{a, l}}, {{b, r}}});
    }
  }
  // Across models of one architecture: batch 2 at 64x64 against batch 4 at
  // 224x224 (shape changes everywhere).
  for (const char* f : {"fx_make_fx.txt", "fx_aot_forward.txt", "ir_eager.txt",
                        "ir_aot_forward.txt", "metrics_aot.txt", "ltc_save.txt"}) {
    cases.push_back({std::string("resnet18 vs resnet18_224: ") + f,
                     {{f, std::string("generated/resnet18/") + f}},
                     {{f, std::string("generated/resnet18_224/") + f}}});
  }
  cases.push_back({"hlo fixtures",
                   {{"m.hlo", "fixtures/hlo/short_form_sync_tensors.txt"}},
                   {{"m.hlo", "fixtures/hlo/long_form_fusion.txt"}}});
  return cases;
}

std::string MirrorId(const std::string& id) {
  static const std::pair<const char*, const char*> kPairs[] = {
      {"extra-outputs", "removed-outputs"},
      {"lifted-inputs", "removed-inputs"},
      {"clones", "clones-removed"},
      {"dead-constant-expand", "dead-constant-expand-removed"},
      {"dead-code", "dead-code-removed"},
      {"duplicate-subgraph", "duplicate-subgraph-removed"},
  };
  for (const auto& [a, b] : kPairs) {
    if (id == a) return b;
    if (id == b) return a;
  }
  return id;
}

std::string MirrorLabel(const std::string& label) {
  size_t p = label.find(" <-> ");
  return p == std::string::npos ? label : label.substr(p + 5) + " <-> " + label.substr(0, p);
}

using Key = std::tuple<std::string, std::string, int64_t>;  // id, graph, count

std::vector<Key> Keys(const std::vector<Finding>& fs, bool mirror) {
  std::vector<Key> keys;
  for (const Finding& f : fs) {
    keys.emplace_back(mirror ? MirrorId(f.id) : f.id, mirror ? MirrorLabel(f.graph) : f.graph,
                      f.count);
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

std::string Show(const std::vector<Key>& keys) {
  std::string s;
  for (const auto& [id, graph, count] : keys) {
    s += id + " [" + graph + "] " + std::to_string(count) + "\n";
  }
  return s;
}

std::vector<int64_t> Numbers(const std::string& s, const std::string& pattern) {
  std::vector<int64_t> out;
  std::regex re(pattern);
  for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator();
       ++it) {
    out.push_back(std::stoll((*it)[1].str()));
  }
  return out;
}

// The pair a finding is about. A file of several graphs labels them
// "path#k" (k = record position); pairs come in left graph order, and in
// these cases every graph of such a file is paired, so the k-th pair of the
// file is record k.
const GraphPairDiff* PairOf(const DiffResult& r, const Finding& f) {
  std::string label = f.graph;
  size_t k = 0;
  bool indexed = false;
  size_t hash = label.find('#');
  if (hash != std::string::npos) {
    size_t end = label.find(' ', hash);
    k = std::stoul(label.substr(hash + 1, end == std::string::npos ? end : end - hash - 1));
    indexed = true;
  }
  size_t seen = 0;
  for (const GraphPairDiff& p : r.pairs) {
    std::string plain = p.left_source == p.right_source
                            ? p.left_source
                            : p.left_source + " <-> " + p.right_source;
    if (!indexed) {
      if (label == plain) return &p;
      continue;
    }
    if (label.rfind(p.left_source + "#", 0) == 0 && seen++ == k) return &p;
  }
  return nullptr;
}

// "(a -> b)" in a title.
bool Arrow(const std::string& title, int64_t* a, int64_t* b) {
  std::smatch m;
  if (!std::regex_search(title, m, std::regex(R"(\((\d+) -> (\d+)\))"))) return false;
  *a = std::stoll(m[1].str());
  *b = std::stoll(m[2].str());
  return true;
}

// "... in 70 nodes" or "... changed in 90 nodes: a in 70, b in 12, 8 more in
// 3 other patterns": the parts sum to the total, and the total is the count.
void CheckGroupedTitle(const Finding& f) {
  std::smatch m;
  ASSERT_TRUE(std::regex_search(f.title, m, std::regex(R"(in (\d+) (\S+ )?nodes?\b)")))
      << f.title;
  EXPECT_EQ(std::stoll(m[1].str()), f.count) << f.title;
  size_t colon = f.title.find(": ", m.position(0));
  if (colon == std::string::npos) return;
  std::string rest = f.title.substr(colon + 2);
  int64_t sum = 0;
  std::smatch more;
  if (std::regex_search(rest, more, std::regex(R"(, (\d+) more in \d+ other \w+$)"))) {
    sum += std::stoll(more[1].str());
    rest = rest.substr(0, more.position(0));
  }
  for (int64_t n : Numbers(rest, R"( in (\d+)(?:,|$))")) sum += n;
  EXPECT_EQ(sum, f.count) << f.title;
}

void CheckTitle(const DiffResult& r, const Finding& f) {
  SCOPED_TRACE(f.id + ": " + f.title);
  int64_t evidence = static_cast<int64_t>(f.evidence.size()) + f.evidence_omitted;
  const GraphPairDiff* pair = PairOf(r, f);
  int64_t a = 0, b = 0;
  const std::string& id = f.id;
  if (id == "extra-outputs" || id == "removed-outputs" || id == "lifted-inputs" ||
      id == "removed-inputs") {
    EXPECT_EQ(Numbers(f.title, R"(^(\d+) )").at(0), f.count);
    EXPECT_EQ(evidence, f.count);
    ASSERT_TRUE(Arrow(f.title, &a, &b));
    ASSERT_NE(pair, nullptr);
    bool outputs = id.find("outputs") != std::string::npos;
    EXPECT_EQ(a, static_cast<int64_t>(outputs ? pair->left_outputs : pair->left_inputs));
    EXPECT_EQ(b, static_cast<int64_t>(outputs ? pair->right_outputs : pair->right_inputs));
    if (id == "extra-outputs") {
      EXPECT_EQ(b - a, f.count);
    }
    if (id == "removed-outputs") {
      EXPECT_EQ(a - b, f.count);
    }
  } else if (id == "outputs-replaced") {
    std::vector<int64_t> rm = Numbers(f.title, R"((\d+) removed)");
    std::vector<int64_t> add = Numbers(f.title, R"((\d+) added)");
    ASSERT_EQ(rm.size(), 1u);
    ASSERT_EQ(add.size(), 1u);
    EXPECT_EQ(rm[0] + add[0], f.count);
    EXPECT_EQ(evidence, f.count);
    ASSERT_TRUE(Arrow(f.title, &a, &b));
    EXPECT_EQ(b - a, add[0] - rm[0]);
  } else if (id == "dead-constant-expand" || id == "dead-constant-expand-removed" ||
             id == "dead-code" || id == "dead-code-removed") {
    EXPECT_EQ(Numbers(f.title, R"(^(\d+) )").at(0), f.count);
    EXPECT_EQ(evidence, f.count);
  } else if (id == "duplicate-subgraph" || id == "duplicate-subgraph-removed") {
    EXPECT_EQ(Numbers(f.title, R"(^(\d+) )").at(0), f.count);
    int64_t groups = Numbers(f.title, R"(of (\d+) computation)").at(0);
    EXPECT_EQ(evidence, f.count + groups);
  } else if (id == "clones" || id == "clones-removed") {
    if (!f.evidence.empty() && f.evidence[0].op.empty()) {  // counters
      int64_t sum = 0;
      std::regex re(R"((\d+) -> (\d+))");
      for (auto it = std::sregex_iterator(f.title.begin(), f.title.end(), re);
           it != std::sregex_iterator(); ++it) {
        sum += std::llabs(std::stoll((*it)[2].str()) - std::stoll((*it)[1].str()));
      }
      EXPECT_EQ(sum, f.count);
    } else {
      EXPECT_EQ(Numbers(f.title, R"(^(\d+) )").at(0), f.count);
      EXPECT_EQ(evidence, f.count);
    }
  } else if (id == "op-substitution") {
    std::vector<int64_t> x = Numbers(f.title, R"( x(\d+)(?: |$))");
    if (x.empty()) x = Numbers(f.title, R"(^(\d+) ops? )");
    ASSERT_FALSE(x.empty());
    EXPECT_EQ(x[0], f.count);
    // One node against one, or against a decomposition written as its ops
    // (`aten::t + 2 aten::view + aten::addmm`, `3 aten::slice`): each
    // instance is the node and every member.
    std::smatch m;
    int64_t members = 1;
    if (std::regex_search(f.title, m, std::regex(R"(^(.*) -> (.*) x\d+(?: |$))"))) {
      for (const std::string& side : {m[1].str(), m[2].str()}) {
        if (side.find(" + ") == std::string::npos &&
            !std::regex_search(side, std::regex(R"(^\d+ )"))) {
          continue;
        }
        members = 0;
        std::regex term(R"((?:^| \+ )(?:(\d+) )?[^ ]+)");
        for (auto it = std::sregex_iterator(side.begin(), side.end(), term);
             it != std::sregex_iterator(); ++it) {
          members += (*it)[1].matched ? std::stoll((*it)[1].str()) : 1;
        }
      }
    }
    EXPECT_EQ(evidence, (1 + members) * f.count);
  } else if (id == "attribute-change" || id == "dtype-change") {
    EXPECT_EQ(evidence, f.count);
    CheckGroupedTitle(f);
  } else if (id == "shape-change") {
    // One node can show several dim changes: each is counted over the
    // nodes that show it, none over more than the total.
    EXPECT_EQ(evidence, f.count);
    std::vector<int64_t> total = Numbers(f.title, R"(in (\d+) nodes?\b)");
    ASSERT_FALSE(total.empty());
    EXPECT_EQ(total[0], f.count);
    for (int64_t n : Numbers(f.title, R"( in (\d+))")) EXPECT_LE(n, f.count);
  } else if (id == "collectives") {
    int64_t sum = 0;
    std::regex re(R"((\d+) -> (\d+))");
    for (auto it = std::sregex_iterator(f.title.begin(), f.title.end(), re);
         it != std::sregex_iterator(); ++it) {
      sum += std::llabs(std::stoll((*it)[2].str()) - std::stoll((*it)[1].str()));
    }
    EXPECT_EQ(sum, f.count);
  } else if (id == "compilation") {
    ASSERT_TRUE(std::regex_search(f.title, std::regex(R"(\d+ -> \d+)")));
    std::vector<int64_t> n = Numbers(f.title, R"((\d+) -> )");
    std::vector<int64_t> m = Numbers(f.title, R"( -> (\d+))");
    EXPECT_EQ(std::llabs(m[0] - n[0]), f.count);
  } else if (id == "counter-delta") {
    EXPECT_EQ(Numbers(f.title, R"(^(\d+) )").at(0), f.count);
    EXPECT_EQ(evidence, f.count);
  } else if (id == "size-delta") {
    ASSERT_NE(pair, nullptr);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(f.title, m, std::regex(R"(^(\d+) -> (\d+) )")));
    EXPECT_EQ(std::stoll(m[1].str()), static_cast<int64_t>(pair->left_nodes));
    EXPECT_EQ(std::stoll(m[2].str()), static_cast<int64_t>(pair->right_nodes));
    std::vector<int64_t> net = Numbers(f.title, R"(\(([+-]\d+): )");
    if (!net.empty()) {
      EXPECT_EQ(net[0], static_cast<int64_t>(pair->right_nodes) -
                            static_cast<int64_t>(pair->left_nodes));
    }
  } else if (id == "other-changes") {
    EXPECT_EQ(evidence, f.count);
  } else {
    ADD_FAILURE() << "no title check for finding id " << id;
  }
}

TEST(FindingsSweep, SwappingSidesMirrorsEveryFinding) {
  int compared = 0;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    Dump l = LoadCase("left", c.left), r = LoadCase("right", c.right);
    absl::StatusOr<DiffResult> fwd = DiffDumps(l, r);
    absl::StatusOr<DiffResult> rev = DiffDumps(r, l);
    ASSERT_TRUE(fwd.ok() && rev.ok());
    EXPECT_EQ(fwd->pairs.size() + fwd->metrics.size(), rev->pairs.size() + rev->metrics.size());
    EXPECT_EQ(Show(Keys(fwd->findings, true)), Show(Keys(rev->findings, false)));
    compared += !fwd->findings.empty();
  }
  EXPECT_GE(compared, 20);
}

TEST(FindingsSweep, EveryTitleStatesItsEvidence) {
  int checked = 0;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    Dump l = LoadCase("left", c.left), r = LoadCase("right", c.right);
    for (bool swap : {false, true}) {
      DiffOptions small;
      small.max_evidence = 3;  // titles count what the cap leaves out too
      absl::StatusOr<DiffResult> d = swap ? DiffDumps(r, l, small) : DiffDumps(l, r, small);
      ASSERT_TRUE(d.ok());
      for (const Finding& f : d->findings) {
        CheckTitle(*d, f);
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 100);
}

// Families stop filling in evidence past the cap (only the node key that
// links findings is kept, then dropped): what a capped diff keeps is the
// start of the whole evidence, and its links and titles are the whole's.
TEST(FindingsSweep, CappedEvidenceIsTheStartOfTheWhole) {
  auto fields = [](const Evidence& e) {
    return std::make_tuple(e.side, e.source, e.line, e.node, e.op, e.note);
  };
  size_t capped_findings = 0;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    Dump l = LoadCase("left", c.left), r = LoadCase("right", c.right);
    for (bool swap : {false, true}) {
      DiffOptions whole_opts, small;
      whole_opts.max_evidence = 0;
      small.max_evidence = 2;
      absl::StatusOr<DiffResult> whole = swap ? DiffDumps(r, l, whole_opts) : DiffDumps(l, r, whole_opts);
      absl::StatusOr<DiffResult> capped = swap ? DiffDumps(r, l, small) : DiffDumps(l, r, small);
      ASSERT_TRUE(whole.ok() && capped.ok());
      ASSERT_EQ(whole->findings.size(), capped->findings.size());
      for (size_t i = 0; i < whole->findings.size(); ++i) {
        const Finding& w = whole->findings[i];
        const Finding& k = capped->findings[i];
        SCOPED_TRACE(w.id);
        EXPECT_EQ(k.title, w.title);
        EXPECT_EQ(k.related, w.related);
        EXPECT_EQ(w.evidence_omitted, 0);
        const size_t kept = std::min<size_t>(w.evidence.size(), 2);
        ASSERT_EQ(k.evidence.size(), kept);
        EXPECT_EQ(k.evidence_omitted, static_cast<int64_t>(w.evidence.size() - kept));
        for (size_t e = 0; e < kept; ++e) EXPECT_EQ(fields(k.evidence[e]), fields(w.evidence[e]));
        capped_findings += w.evidence.size() > 2;
      }
    }
  }
  EXPECT_GE(capped_findings, 20u);
}

TEST(FindingsSweep, ResNetStoryToldBothWays) {
  Case c = Cases()[0];
  Dump l = LoadCase("left", c.left), r = LoadCase("right", c.right);
  absl::StatusOr<DiffResult> fwd = DiffDumps(l, r);
  ASSERT_TRUE(fwd.ok());
  std::string titles;
  for (const Finding& f : fwd->findings) titles += f.id + ": " + f.title + "\n";
  EXPECT_THAT(titles, ::testing::HasSubstr(
                          "extra-outputs: 80 extra outputs on the right (1 -> 81): activations "
                          "and batch-norm statistics saved for backward"));
  EXPECT_THAT(titles, ::testing::HasSubstr("dead-constant-expand: 40 dead size-0 expands"));
  EXPECT_THAT(titles, ::testing::HasSubstr("clones: clone counters grew: xla::clone 1 -> 103"));
  EXPECT_THAT(titles, ::testing::HasSubstr(
                          "op-substitution: module call (aten::batch_norm) -> "
                          "aten::_native_batch_norm_legit_no_training x20"));
  EXPECT_THAT(titles, ::testing::HasSubstr("size-delta: 197 -> 277 IR nodes"));
  for (const Finding& f : fwd->findings) {
    if (f.id == "extra-outputs") {
      EXPECT_THAT(f.hint, ::testing::HasSubstr("torch.no_grad()"));
    }
  }
  absl::StatusOr<DiffResult> rev = DiffDumps(r, l);
  ASSERT_TRUE(rev.ok());
  titles.clear();
  for (const Finding& f : rev->findings) titles += f.id + ": " + f.title + "\n";
  EXPECT_THAT(titles, ::testing::HasSubstr(
                          "removed-outputs: 80 outputs removed on the right (81 -> 1): "
                          "activations and batch-norm statistics saved for backward no longer "
                          "returned"));
  EXPECT_THAT(titles, ::testing::HasSubstr("clones-removed: clone counters shrank: xla::clone "
                                           "103 -> 1"));
  EXPECT_THAT(titles, ::testing::HasSubstr("size-delta: 277 -> 197 IR nodes"));
}

}  // namespace
}  // namespace graphdiff
