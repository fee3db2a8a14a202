// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "util/json_text.h"

#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "fmt/format.h"
#include "graphdiff/sanitize.h"

namespace graphdiff {
namespace {

using Json = nlohmann::ordered_json;
// ordered_json's object is a vector of (key, value) that searches it on every
// insert; appending to the vector itself skips the search.
using Members = Json::object_t::Container;

Members& MembersOf(Json& object) {
  if (object.is_null()) object = Json::object();
  return object.get_ref<Json::object_t&>();
}

// Merges repeated keys of an object as ordered_json's operator[] would have:
// the first position, the last value. Linear: a hash map past a few keys.
void MergeRepeatedKeys(Json& object) {
  Members& m = MembersOf(object);
  const size_t n = m.size();
  if (n < 2) return;
  std::vector<size_t> first(n);  // the index of the first member with this key
  bool repeated = false;
  if (n <= 16) {
    for (size_t i = 0; i < n; ++i) {
      first[i] = i;
      for (size_t j = 0; j < i; ++j) {
        if (m[j].first == m[i].first) {
          first[i] = j;
          repeated = true;
          break;
        }
      }
    }
  } else {
    absl::flat_hash_map<std::string_view, size_t> seen;
    seen.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      auto [it, inserted] = seen.try_emplace(m[i].first, i);
      first[i] = it->second;
      repeated = repeated || !inserted;
    }
  }
  if (!repeated) return;
  for (size_t i = 0; i < n; ++i) {
    if (first[i] != i) m[first[i]].second = std::move(m[i].second);
  }
  // Keys are const in the members: rebuild rather than erase in place.
  Members merged;
  merged.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (first[i] == i) merged.emplace_back(m[i].first, std::move(m[i].second));
  }
  m.swap(merged);
}

// nlohmann's SAX interface, building what its DOM parser builds, with
// AppendNewKey for keys and the repeats merged when an object closes.
class OrderedBuilder {
 public:
  explicit OrderedBuilder(Json* root) : root_(root) {}

  bool null() { return Put(nullptr) != nullptr; }
  bool boolean(bool v) { return Put(v) != nullptr; }
  bool number_integer(Json::number_integer_t v) { return Put(v) != nullptr; }
  bool number_unsigned(Json::number_unsigned_t v) { return Put(v) != nullptr; }
  bool number_float(Json::number_float_t v, const Json::string_t&) { return Put(v) != nullptr; }
  bool string(Json::string_t& v) { return Put(std::move(v)) != nullptr; }
  bool binary(Json::binary_t& v) { return Put(Json::binary(std::move(v))) != nullptr; }
  bool start_object(std::size_t) {
    stack_.push_back(Put(Json::object()));
    return true;
  }
  bool key(Json::string_t& k) {
    Members& m = MembersOf(*stack_.back());
    m.emplace_back(std::move(k), nullptr);
    member_ = &m.back().second;
    return true;
  }
  bool end_object() {
    MergeRepeatedKeys(*stack_.back());
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) {
    stack_.push_back(Put(Json::array()));
    return true;
  }
  bool end_array() {
    stack_.pop_back();
    return true;
  }
  template <typename Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& e) {
    throw e;  // as ordered_json::parse does, the exception of its own type
  }

 private:
  // Stores a value where the text puts it; the stored value's address stays
  // put until it is closed (only the innermost open container grows).
  Json* Put(Json v) {
    if (stack_.empty()) {
      *root_ = std::move(v);
      return root_;
    }
    Json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    *member_ = std::move(v);
    return member_;
  }

  Json* root_;
  std::vector<Json*> stack_;
  Json* member_ = nullptr;
};

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
          AppendNewKey(fixed, ValidUtf8(it.key()), std::move(it.value()));
        }
        // An escaped key may spell one that was there already.
        MergeRepeatedKeys(fixed);
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

void AppendJsonKey(std::string_view name, size_t indent, std::string* out) {
  out->push_back('\n');
  out->append(indent, ' ').append("\"").append(name).append("\": ");
}

// DumpJson's escapes, DEL's included (see EscapeJsonDel).
void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  for (char ch : s) {
    switch (ch) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20 || ch == '\x7f') {
          out->append(fmt::format("\\u{:04x}", static_cast<unsigned>(ch)));
        } else {
          out->push_back(ch);
        }
    }
  }
  out->push_back('"');
}

// Outside strings a JSON printer writes no DEL, and in UTF-8 it is never
// part of a longer sequence: each one is a string's, and `\u007f` spells it.
void EscapeJsonDel(std::string* text) {
  size_t at = text->find('\x7f');
  if (at == std::string::npos) return;
  std::string out;
  out.reserve(text->size() + 16);
  size_t from = 0;
  for (; at != std::string::npos; from = at + 1, at = text->find('\x7f', from)) {
    out.append(*text, from, at - from);
    out.append("\\u007f");
  }
  out.append(*text, from, std::string::npos);
  text->swap(out);
}

void AppendNewKey(Json& object, std::string key, Json value) {
  MembersOf(object).emplace_back(std::move(key), std::move(value));
}

Json ParseOrderedJson(std::string_view text) {
  Json root;
  OrderedBuilder builder(&root);
  Json::sax_parse(text.begin(), text.end(), &builder);
  return root;
}

std::string DumpJson(const Json& value) {
  try {
    // Appended in place: a report can be hundreds of megabytes, and
    // `dump() + "\n"` copies it.
    std::string text = value.dump(2);
    text.push_back('\n');
    EscapeJsonDel(&text);
    return text;
  } catch (const Json::type_error&) {
    // Only invalid UTF-8 makes dump() throw.
  }
  Json copy = value;
  bool changed = FixStrings(&copy);
  if (changed && copy.is_object()) copy["escaped_invalid_utf8"] = true;
  std::string text = copy.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  EscapeJsonDel(&text);
  return text;
}

void AppendJsonAt(const Json& value, size_t depth, std::string* out, bool* escaped) {
  std::string text;
  try {
    text = value.dump(2);
  } catch (const Json::type_error&) {
    // Only invalid UTF-8 makes dump() throw.
    Json copy = value;
    *escaped = FixStrings(&copy) || *escaped;
    text = copy.dump(2, ' ', false, Json::error_handler_t::replace);
  }
  EscapeJsonDel(&text);
  if (depth == 0) {
    out->append(text);
    return;
  }
  // A string holds no raw newline (dump escapes it), so every newline is
  // the printer's own, followed by its indentation.
  const std::string indent(2 * depth, ' ');
  size_t from = 0;
  for (size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
    out->append(text, from, nl + 1 - from);
    out->append(indent);
  }
  out->append(text, from, std::string::npos);
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
