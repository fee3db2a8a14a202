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
      // Pooled to 1x1, a mean; of a channels-last input, make_fx then
      // restrides the result in place (`as_strided_`, ConvNeXt's head).
      {"aten::adaptive_avg_pool2d",
       {"aten::adaptive_avg_pool2d", "aten::mean", "aten::as_strided"}},
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

bool FunctionMayVanish(std::string_view op) {
  return op.find("dropout") != std::string_view::npos ||
         op.find("stochastic_depth") != std::string_view::npos;
}

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
  // Tokens are the runs of letters and digits, compared lowercased; "L",
  // "self", "getattr" are Dynamo's spelling of the access path, and a first
  // token starting with "module" (the op's own prefix) is not part of the
  // name. Only the last token, or the one before a trailing number, can
  // speak for the module, so they are found from the end, without
  // splitting the path: a symbolic_trace graph asks for every module call.
  // ASCII tests, not <cctype>'s locale-aware calls: a symbolic_trace graph
  // of 10^6 module calls asks about every byte of a million paths.
  auto alnum = [](char c) {
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
  };
  auto token_before = [&](size_t end, size_t* begin) {
    while (end > 0 && !alnum(path[end - 1])) --end;
    size_t b = end;
    while (b > 0 && alnum(path[b - 1])) --b;
    *begin = b;
    return end;
  };
  auto lower = [](std::string_view t) {
    std::string out(t);
    for (char& c : out) c = c >= 'A' && c <= 'Z' ? static_cast<char>(c | 0x20) : c;
    return out;
  };
  size_t begin = 0;
  const size_t end = token_before(path.size(), &begin);
  if (begin == end) return {};
  std::string last = lower(path.substr(begin, end - begin));
  size_t prev_begin = 0;
  const size_t prev_end = token_before(begin, &prev_begin);
  const bool first = prev_begin == prev_end;  // no token before the last
  if (first && last.rfind("module", 0) == 0) return {};
  if (std::isdigit(static_cast<unsigned char>(last[0]))) {
    // Sequential children are numbered: `downsample.0` is the conv of a
    // ResNet shortcut, `downsample.1` its batch norm. A numbered child of
    // anything else is a position in a Sequential (`features.3.conv.0.1`
    // is MobileNetV2's batch norm, `classifier.0` a Dropout): the words
    // before the number name the container, not the module, so the name
    // says nothing.
    if (!first && lower(path.substr(prev_begin, prev_end - prev_begin)) == "downsample") {
      if (last == "0") return "aten::convolution";
      if (last == "1") return "aten::batch_norm";
    }
    return {};
  }
  while (std::isdigit(static_cast<unsigned char>(last.back()))) last.pop_back();
  return Lookup(last);
}

}  // namespace graphdiff::align
