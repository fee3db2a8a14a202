// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "util/json_text.h"

#include <utility>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/sanitize.h"

namespace graphdiff {
namespace {

using Json = nlohmann::ordered_json;

// Rewrites every string and key that is not valid UTF-8. Iterative: the
// value may come from anywhere.
bool FixStrings(Json* root) {
  bool changed = false;
  std::vector<Json*> stack = {root};
  while (!stack.empty()) {
    Json* v = stack.back();
    stack.pop_back();
    if (v->is_string()) {
      std::string& s = v->get_ref<std::string&>();
      if (!IsValidUtf8(s)) {
        s = ValidUtf8(s);
        changed = true;
      }
    } else if (v->is_array()) {
      for (Json& e : *v) stack.push_back(&e);
    } else if (v->is_object()) {
      bool bad_key = false;
      for (auto it = v->begin(); it != v->end(); ++it) bad_key = bad_key || !IsValidUtf8(it.key());
      if (bad_key) {
        Json fixed = Json::object();
        for (auto it = v->begin(); it != v->end(); ++it) {
          fixed[ValidUtf8(it.key())] = std::move(it.value());
        }
        *v = std::move(fixed);
        changed = true;
      }
      for (auto it = v->begin(); it != v->end(); ++it) stack.push_back(&it.value());
    }
  }
  return changed;
}

template <typename J>
std::string Snippet(const J& value) {
  if (value.is_array()) return fmt::format("an array of {} elements", value.size());
  if (value.is_object()) return fmt::format("an object of {} members", value.size());
  std::string text = value.dump(-1, ' ', false, J::error_handler_t::replace);
  constexpr size_t kMax = 60;
  if (text.size() > kMax) {
    size_t cut = kMax;
    // Never cut inside a UTF-8 sequence.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    text = text.substr(0, cut) + "...";
  }
  return text;
}

}  // namespace

std::string DumpJson(const Json& value) {
  try {
    // Appended in place: a report can be hundreds of megabytes, and
    // `dump() + "\n"` copies it.
    std::string text = value.dump(2);
    text.push_back('\n');
    return text;
  } catch (const Json::type_error&) {
    // Only invalid UTF-8 makes dump() throw.
  }
  Json copy = value;
  bool changed = FixStrings(&copy);
  if (changed && copy.is_object()) copy["escaped_invalid_utf8"] = true;
  return copy.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

absl::Status CheckJsonDepth(std::string_view text, std::string_view source, size_t max_depth) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        return absl::InvalidArgumentError(fmt::format(
            "{}: byte {}: JSON nested more than {} levels deep", source, i, max_depth));
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return absl::OkStatus();
}

std::string JsonExceptionText(const std::exception& e) {
  std::string_view what = e.what();
  constexpr size_t kMax = 200;
  if (what.size() <= kMax) return TerminalSafe(what);
  size_t cut = kMax;
  while (cut > 0 && (static_cast<unsigned char>(what[cut]) & 0xC0) == 0x80) --cut;
  return TerminalSafe(what.substr(0, cut)) + "...";
}

std::string JsonSnippet(const Json& value) { return Snippet(value); }
std::string JsonSnippet(const nlohmann::json& value) { return Snippet(value); }

}  // namespace graphdiff
