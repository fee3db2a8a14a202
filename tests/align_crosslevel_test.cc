// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Cross-level alignment on models the aligner was not tuned on
// (tools/gen_crosslevel.py): module-level FX (symbolic_trace, generic module
// names such as `features.3.conv.0.1`) against aten-level FX (make_fx), where
// structure must lead and names only help; and an aten graph against the
// same graph after a pre-grad-style rewrite (`view` -> `reshape`,
// `convert_element_type` inserted before every matmul operand), where the
// unchanged neighbours of what changed must stay paired.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "graphdiff/align.h"
#include "graphdiff/parse.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "testing/testdata.h"

namespace graphdiff {
namespace {

Graph Load(const std::string& relative) {
  absl::StatusOr<ParsedText> parsed =
      ParseText(testing::ReadTestdata("generated/" + relative), relative);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  if (!parsed.ok() || parsed->graphs.empty()) return Graph();
  return std::move(parsed->graphs[0]);
}

const nlohmann::json& Facts() {
  static const auto* facts = new nlohmann::json(
      nlohmann::json::parse(testing::ReadTestdata("generated/crosslevel.json")));
  return *facts;
}

// The aten ops (substrings of the op spelling) a torch.nn class becomes;
// empty for modules that vanish in eval mode.
std::vector<std::string> AtenOpsOf(const std::string& nn_class) {
  static const std::map<std::string, std::vector<std::string>> kOps = {
      {"Conv2d", {"convolution"}},
      {"BatchNorm2d", {"batch_norm"}},
      {"ReLU", {"relu"}},
      {"ReLU6", {"hardtanh"}},
      {"MaxPool2d", {"max_pool2d"}},
      {"AdaptiveAvgPool2d", {"adaptive_avg_pool2d", "mean"}},
      {"Linear", {"addmm", "aten::mm", "aten::t"}},
      {"LayerNorm", {"layer_norm"}},
      {"Embedding", {"embedding"}},
      {"Dropout", {}},
  };
  auto it = kOps.find(nn_class);
  return it == kOps.end() ? std::vector<std::string>{"?"} : it->second;
}

struct CrossLevel {
  int calls = 0;       // module calls that compute something in eval mode
  int right = 0;       // ... paired with one of their aten ops
  int wrong = 0;       // ... paired with nothing they decompose to
  int vanishing = 0;   // Dropout calls
  int vanishing_paired = 0;
  int functions = 0;   // non-module ops (add, cat, flatten, getitem, ...)
  int functions_paired = 0;
  int substitutions = 0;  // pairs whose ops differ, outside module calls
  std::vector<std::string> bad;
};

// Module-level `mod` against aten-level `aten`; `module_left` says which side
// the module-level graph was given on, so both directions measure the same.
CrossLevel Measure(const std::string& model, bool module_left) {
  Graph mod = Load(model + "/fx_symbolic_trace.txt");
  Graph aten = Load(model + "/fx_make_fx.txt");
  absl::StatusOr<Alignment> a = module_left ? Align(mod, aten) : Align(aten, mod);
  EXPECT_TRUE(a.ok()) << a.status();
  CrossLevel m;
  if (!a.ok()) return m;
  AlignOptions verify;
  absl::Status v = module_left ? VerifyAlignment(mod, aten, *a) : VerifyAlignment(aten, mod, *a);
  EXPECT_TRUE(v.ok()) << v;
  std::map<uint32_t, std::vector<uint32_t>> partners;  // module node -> aten nodes
  for (const NodePair& p : a->pairs) {
    partners[module_left ? p.left : p.right].push_back(module_left ? p.right : p.left);
  }
  const nlohmann::json& classes = Facts()[model + "/modules"];
  for (uint32_t v = 0; v < mod.nodes.size(); ++v) {
    const Node& n = mod.nodes[v];
    if (n.kind == NodeKind::kInput || n.kind == NodeKind::kGetAttr ||
        n.kind == NodeKind::kConstant) {
      continue;
    }
    std::string op(mod.str(n.op));
    const std::vector<uint32_t>& ps = partners[v];
    if (n.kind == NodeKind::kModuleCall) {
      std::optional<std::string_view> target = mod.attr(n, "target");
      std::string t(target ? *target : op);
      if (!classes.contains(t)) {
        ADD_FAILURE() << model << ": no class for module " << t;
        continue;
      }
      std::vector<std::string> want = AtenOpsOf(classes[t].get<std::string>());
      if (want.empty()) {
        ++m.vanishing;
        if (!ps.empty()) {
          ++m.vanishing_paired;
          m.bad.push_back(t + " (" + classes[t].get<std::string>() + ") paired with " +
                          std::string(aten.str(aten.nodes[ps[0]].op)));
        }
        continue;
      }
      ++m.calls;
      bool hit = false;
      for (uint32_t r : ps) {
        std::string rop(aten.str(aten.nodes[r].op));
        for (const std::string& w : want) hit |= rop.find(w) != std::string::npos;
      }
      if (hit) {
        ++m.right;
      } else if (!ps.empty()) {
        ++m.wrong;
        m.bad.push_back(t + " (" + classes[t].get<std::string>() + ") paired with " +
                        std::string(aten.str(aten.nodes[ps[0]].op)));
      }
      continue;
    }
    ++m.functions;
    m.functions_paired += !ps.empty();
  }
  return m;
}

void Report(const std::string& what, const CrossLevel& m) {
  std::cout << what << ": module calls " << m.right << "/" << m.calls << " paired right, "
            << m.wrong << " wrong; dropout paired " << m.vanishing_paired << "/" << m.vanishing
            << "; functions paired " << m.functions_paired << "/" << m.functions << "\n";
  for (size_t i = 0; i < m.bad.size() && i < 12; ++i) std::cout << "  " << m.bad[i] << "\n";
}

TEST(AlignCrossLevel, Measure) {
  for (const char* model : {"mobilenet_v2", "squeezenet1_0", "tiny_gpt"}) {
    for (bool module_left : {true, false}) {
      CrossLevel m = Measure(model, module_left);
      Report(std::string(model) + (module_left ? " module->aten" : " aten->module"), m);
    }
  }
}

}  // namespace
}  // namespace graphdiff
