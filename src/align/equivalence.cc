// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// The built-in op-equivalence table and its JSON extension.
#include "graphdiff/equivalence.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "nlohmann/json.hpp"
#include "util/absl_sv.h"
#include "util/json_text.h"

namespace graphdiff {
namespace {

struct BuiltInClass {
  const char* name;
  std::vector<std::string> ops;
};

// Spellings of one computation across backends, versions and formats. Each
// entry was seen in real dumps (FX aten graphs, lazy-tensor IR, HLO).
const std::vector<BuiltInClass>& BuiltInClasses() {
  static const auto* table = new std::vector<BuiltInClass>{
      {"input",
       {"fx::placeholder", "fx::get_attr", "xla::device_data",
        "lazy_tensors::device_data", "hlo::parameter"}},
      {"constant", {"prim::Constant", "hlo::constant", "xla::constant"}},
      {"batch_norm",
       {"aten::native_batch_norm", "aten::_native_batch_norm_legit_no_training",
        "aten::_native_batch_norm_legit",
        "aten::_native_batch_norm_legit_functional", "aten::batch_norm",
        "aten::_batch_norm_impl_index", "aten::cudnn_batch_norm",
        "aten::miopen_batch_norm", "aten::_batch_norm_with_update",
        "aten::_batch_norm_no_update"}},
      {"layer_norm", {"aten::layer_norm", "aten::native_layer_norm"}},
      {"group_norm", {"aten::group_norm", "aten::native_group_norm"}},
      {"convolution",
       {"aten::convolution", "aten::convolution_overrideable",
        "aten::_convolution", "aten::conv2d", "aten::conv1d", "aten::conv3d",
        "aten::cudnn_convolution", "aten::mkldnn_convolution",
        "hlo::convolution"}},
      // `t` is `permute(1, 0)` of a 2-D tensor; transpose swaps two dims.
      {"permute",
       {"aten::t", "aten::permute", "aten::transpose", "aten::numpy_T",
        "hlo::transpose"}},
      {"view",
       {"aten::view", "aten::_reshape_alias", "aten::reshape",
        "aten::_unsafe_view", "aten::flatten", "hlo::reshape"}},
      {"max_pool",
       {"aten::max_pool2d_with_indices", "aten::max_pool2d",
        "xla::max_pool2d_forward", "aten::max_pool1d", "aten::max_pool3d",
        "aten::max_pool3d_with_indices", "xla::max_pool3d_forward"}},
      {"avg_pool", {"aten::avg_pool1d", "aten::avg_pool2d", "aten::avg_pool3d"}},
      {"adaptive_avg_pool",
       {"aten::adaptive_avg_pool1d", "aten::adaptive_avg_pool2d",
        "aten::_adaptive_avg_pool2d", "aten::adaptive_avg_pool3d",
        "aten::_adaptive_avg_pool3d"}},
      {"expand", {"aten::expand", "aten::broadcast_to", "hlo::broadcast"}},
      {"dropout",
       {"aten::dropout", "aten::native_dropout", "aten::feature_dropout"}},
      {"softmax", {"aten::softmax", "aten::_softmax"}},
      {"log_softmax", {"aten::log_softmax", "aten::_log_softmax"}},
      {"clone", {"aten::clone", "aten::_to_copy", "aten::contiguous"}},
      {"alias", {"aten::alias", "aten::detach", "aten::lift_fresh"}},
      {"add", {"aten::add", "hlo::add"}},
      {"sub", {"aten::sub", "hlo::subtract"}},
      {"mul", {"aten::mul", "hlo::multiply"}},
      {"div", {"aten::div", "hlo::divide"}},
      {"mm", {"aten::mm", "hlo::dot"}},
      {"relu", {"aten::relu"}},
      {"linear", {"aten::linear"}},
      {"embedding", {"aten::embedding"}},
      {"mean", {"aten::mean"}},
  };
  return *table;
}

// "aten::relu_" -> "aten::relu"; dunder names such as "aten::__and__" and
// non-aten namespaces are left alone.
std::string_view StripInPlace(std::string_view op) {
  if (op.size() < 8 || op.substr(0, 6) != "aten::" || op.back() != '_') return op;
  std::string_view name = op.substr(6);
  if (name.size() >= 2 && name.substr(name.size() - 2) == "__") return op;
  if (name.size() < 2) return op;
  return op.substr(0, op.size() - 1);
}

// Functionalization writes view ops as `X_copy` (`view_copy`, `expand_copy`).
std::string_view StripCopy(std::string_view op) {
  constexpr std::string_view kSuffix = "_copy";
  if (op.size() <= 6 + kSuffix.size() || op.substr(0, 6) != "aten::") return op;
  if (op.substr(op.size() - kSuffix.size()) != kSuffix) return op;
  return op.substr(0, op.size() - kSuffix.size());
}

absl::Status JsonError(std::string_view source, std::string_view problem) {
  return absl::InvalidArgumentError(fmt::format("{}: {}", source, problem));
}

}  // namespace

OpEquivalence OpEquivalence::BuiltIn() {
  OpEquivalence eq;
  for (const BuiltInClass& c : BuiltInClasses()) eq.AddClass(c.name, c.ops);
  return eq;
}

void OpEquivalence::AddClass(std::string_view class_name,
                             const std::vector<std::string>& ops) {
  std::string name(class_name);
  // Classes the ops already belong to merge into the new one.
  std::vector<std::string> merged;
  for (const std::string& op : ops) {
    auto it = class_of_.find(op);
    if (it != class_of_.end() && it->second != name) merged.push_back(it->second);
  }
  if (!merged.empty()) {
    std::sort(merged.begin(), merged.end());
    for (auto& entry : class_of_) {
      if (std::binary_search(merged.begin(), merged.end(), entry.second)) {
        entry.second = name;
      }
    }
  }
  for (const std::string& op : ops) class_of_[op] = name;
}

std::string_view OpEquivalence::ClassOf(std::string_view op) const {
  // Exact entries win, so a user can separate `aten::add_` from `aten::add`.
  // Most ops are their own stripped form (so is every module path of a
  // module-level graph, a million of them): those are looked up once.
  const std::string_view stripped = StripInPlace(op);
  for (std::string_view candidate : {op, stripped}) {
    auto it = class_of_.find(AbslSv(candidate));
    if (it != class_of_.end()) return it->second;
    std::string_view base = StripCopy(candidate);
    if (base != candidate) {
      auto jt = class_of_.find(AbslSv(base));
      if (jt != class_of_.end()) return jt->second;
      return base;
    }
    if (stripped.size() == op.size()) break;
  }
  return stripped;
}

bool OpEquivalence::KnownEquivalent(std::string_view a, std::string_view b) const {
  return a != b && ClassOf(a) == ClassOf(b);
}

absl::Status OpEquivalence::AddJson(std::string_view json_text,
                                    std::string_view source) {
  nlohmann::json doc;
  if (absl::Status deep = CheckJsonDepth(json_text, source); !deep.ok()) return deep;
  try {
    doc = nlohmann::json::parse(json_text.begin(), json_text.end());
  } catch (const nlohmann::json::parse_error& e) {
    return JsonError(source, fmt::format("invalid JSON at byte {}: {}", e.byte,
                                         JsonExceptionText(e)));
  } catch (const nlohmann::json::exception& e) {
    // Not only syntax: a number out of range (1e400) is out_of_range.
    return JsonError(source, fmt::format("invalid JSON: {}", JsonExceptionText(e)));
  }
  auto read_ops = [&](const nlohmann::json& list, std::string_view where,
                      std::vector<std::string>* ops) -> absl::Status {
    if (!list.is_array()) {
      return JsonError(source, fmt::format("{}: expected a list of op names", where));
    }
    for (const nlohmann::json& op : list) {
      if (!op.is_string() || op.get_ref<const std::string&>().empty()) {
        return JsonError(source,
                         fmt::format("{}: expected a non-empty op name string, got {}",
                                     where, JsonSnippet(op)));
      }
      ops->push_back(op.get<std::string>());
    }
    if (ops->size() < 2) {
      return JsonError(source,
                       fmt::format("{}: a class needs at least two ops", where));
    }
    return absl::OkStatus();
  };
  // Validate everything first so a bad file leaves the table untouched.
  std::vector<std::pair<std::string, std::vector<std::string>>> classes;
  if (doc.is_object()) {
    auto it = doc.find("classes");
    if (it == doc.end() || !it->is_object()) {
      return JsonError(source,
                       "expected {\"classes\": {\"name\": [\"ns::op\", ...]}} or "
                       "[[\"ns::op\", ...], ...]");
    }
    for (auto c = it->begin(); c != it->end(); ++c) {
      std::vector<std::string> ops;
      absl::Status s = read_ops(c.value(), fmt::format("class \"{}\"", c.key()), &ops);
      if (!s.ok()) return s;
      classes.emplace_back(c.key(), std::move(ops));
    }
  } else if (doc.is_array()) {
    for (size_t i = 0; i < doc.size(); ++i) {
      std::vector<std::string> ops;
      absl::Status s = read_ops(doc[i], fmt::format("entry {}", i), &ops);
      if (!s.ok()) return s;
      // Unnamed classes take the name of a class a member already has, so
      // they extend built-in classes instead of renaming them.
      std::string name;
      for (const std::string& op : ops) {
        auto found = class_of_.find(op);
        if (found != class_of_.end()) {
          name = found->second;
          break;
        }
      }
      if (name.empty()) name = ops.front();
      classes.emplace_back(std::move(name), std::move(ops));
    }
  } else {
    return JsonError(source,
                     "expected an object with \"classes\" or a list of op lists");
  }
  for (const auto& [name, ops] : classes) AddClass(name, ops);
  return absl::OkStatus();
}

}  // namespace graphdiff
