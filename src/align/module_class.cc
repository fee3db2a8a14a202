// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/module_class.h"

#include <cctype>
#include <string>
#include <vector>

namespace graphdiff::align {
namespace {

struct NameRule {
  std::string_view word;  // a lower-case name token, trailing digits removed
  std::string_view op;
};

// Conventional torch.nn attribute names. Longer words first where one is a
// prefix of another matters only for exact compares, so order is free.
constexpr NameRule kRules[] = {
    {"conv", "aten::convolution"},     {"convolution", "aten::convolution"},
    {"bn", "aten::batch_norm"},        {"batchnorm", "aten::batch_norm"},
    {"norm", "aten::batch_norm"},      {"ln", "aten::layer_norm"},
    {"layernorm", "aten::layer_norm"}, {"relu", "aten::relu"},
    {"gelu", "aten::gelu"},            {"silu", "aten::silu"},
    {"sigmoid", "aten::sigmoid"},      {"tanh", "aten::tanh"},
    {"act", "aten::relu"},             {"activation", "aten::relu"},
    {"maxpool", "aten::max_pool2d"},   {"pool", "aten::max_pool2d"},
    {"avgpool", "aten::adaptive_avg_pool2d"},
    {"fc", "aten::linear"},            {"linear", "aten::linear"},
    {"proj", "aten::linear"},          {"classifier", "aten::linear"},
    {"head", "aten::linear"},          {"dropout", "aten::dropout"},
    {"drop", "aten::dropout"},         {"embed", "aten::embedding"},
    {"embedding", "aten::embedding"},  {"embeddings", "aten::embedding"},
    {"flatten", "aten::flatten"},      {"softmax", "aten::softmax"},
};

std::string_view Lookup(const std::string& word) {
  for (const NameRule& r : kRules) {
    if (r.word == word) return r.op;
  }
  // Suffix evidence: "q_proj", "fc1" already split; "convblock" is not.
  for (const NameRule& r : kRules) {
    if (r.word.size() >= 4 && word.size() > r.word.size() &&
        word.compare(word.size() - r.word.size(), r.word.size(), r.word) == 0) {
      return r.op;
    }
  }
  return {};
}

struct Decomposition {
  std::string_view module_op;
  std::vector<std::string_view> aten_ops;
};

const std::vector<Decomposition>& Decompositions() {
  static const auto* table = new std::vector<Decomposition>{
      {"aten::convolution", {"aten::convolution"}},
      {"aten::batch_norm", {"aten::batch_norm"}},
      {"aten::layer_norm", {"aten::layer_norm"}},
      {"aten::relu", {"aten::relu", "aten::hardtanh", "aten::clamp", "aten::threshold"}},
      {"aten::gelu", {"aten::gelu", "aten::erf", "aten::tanh", "aten::mul", "aten::add"}},
      {"aten::silu", {"aten::silu", "aten::sigmoid", "aten::mul"}},
      {"aten::sigmoid", {"aten::sigmoid"}},
      {"aten::tanh", {"aten::tanh"}},
      {"aten::max_pool2d", {"aten::max_pool2d"}},
      {"aten::adaptive_avg_pool2d", {"aten::adaptive_avg_pool2d", "aten::mean"}},
      {"aten::linear",
       // On a 3-D input: view, addmm, view.
       {"aten::linear", "aten::addmm", "aten::mm", "aten::matmul", "aten::t", "aten::view"}},
      {"aten::embedding", {"aten::embedding"}},
      // A reshape (flatten is one) of a tensor that is not contiguous
      // copies: make_fx records `clone` then `_unsafe_view`; of a
      // contiguous one, `view` or `_reshape_alias`.
      {"aten::flatten",
       {"aten::flatten", "aten::view", "aten::_reshape_alias", "aten::clone",
        "aten::_unsafe_view"}},
      {"aten::softmax", {"aten::softmax"}},
      // Function calls of a module-level trace, as make_fx records them.
      {"aten::getitem", {"aten::slice", "aten::select", "aten::index", "aten::unsqueeze"}},
      {"aten::matmul",
       {"aten::matmul", "aten::mm", "aten::bmm", "aten::expand", "aten::view", "aten::clone"}},
      {"aten::contiguous", {"aten::clone"}},
      {"aten::reshape",
       {"aten::reshape", "aten::view", "aten::_reshape_alias", "aten::clone",
        "aten::_unsafe_view"}},
      // torch.chunk is split with the chunk size worked out.
      {"aten::chunk", {"aten::split", "aten::split_with_sizes"}},
  };
  return *table;
}

}  // namespace

std::vector<std::string_view> ModuleDecomposition(std::string_view module_op) {
  for (const Decomposition& d : Decompositions()) {
    if (d.module_op == module_op) return d.aten_ops;
  }
  return {};
}

bool ModuleMayVanish(std::string_view module_op) { return module_op == "aten::dropout"; }

std::optional<bool> ModuleHoldsParameters(std::string_view module_op) {
  static constexpr std::string_view kWith[] = {"aten::convolution", "aten::batch_norm",
                                               "aten::layer_norm", "aten::linear",
                                               "aten::embedding"};
  static constexpr std::string_view kWithout[] = {
      "aten::relu",    "aten::gelu",    "aten::silu",       "aten::sigmoid",
      "aten::tanh",    "aten::dropout", "aten::max_pool2d", "aten::adaptive_avg_pool2d",
      "aten::flatten", "aten::softmax"};
  for (std::string_view op : kWith) {
    if (op == module_op) return true;
  }
  for (std::string_view op : kWithout) {
    if (op == module_op) return false;
  }
  return std::nullopt;
}

std::string_view ModuleOpFromName(std::string_view path) {
  // Tokens split at '.', '_' and other punctuation; "L", "self", "getattr"
  // are Dynamo's spelling of the access path, not part of the name.
  std::vector<std::string> tokens;
  std::string cur;
  for (char c : path) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!cur.empty()) {
      tokens.push_back(std::move(cur));
      cur.clear();
    }
  }
  if (!cur.empty()) tokens.push_back(std::move(cur));
  if (!tokens.empty() && tokens[0].rfind("module", 0) == 0) tokens.erase(tokens.begin());
  // Sequential children are numbered: `downsample.0` is the conv of a
  // ResNet shortcut, `downsample.1` its batch norm.
  auto numeric = [](const std::string& t) {
    return !t.empty() && std::isdigit(static_cast<unsigned char>(t[0]));
  };
  // A numbered child of anything else is a position in a Sequential
  // (`features.3.conv.0.1` is MobileNetV2's batch norm, `classifier.0`
  // a Dropout): the words before the number name the container, not the
  // module, so the name says nothing.
  if (!tokens.empty() && numeric(tokens.back())) {
    const size_t i = tokens.size() - 1;
    if (i > 0 && tokens[i - 1] == "downsample") {
      if (tokens[i] == "0") return "aten::convolution";
      if (tokens[i] == "1") return "aten::batch_norm";
    }
    return {};
  }
  for (size_t i = tokens.size(); i-- > 0;) {
    if (numeric(tokens[i])) continue;
    std::string word = tokens[i];
    while (!word.empty() && std::isdigit(static_cast<unsigned char>(word.back()))) {
      word.pop_back();
    }
    if (word.empty()) continue;
    std::string_view op = Lookup(word);
    if (!op.empty()) return op;
    return {};  // only the last named token speaks for the module
  }
  return {};
}

}  // namespace graphdiff::align
