// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// JSON in and out with hostile text on either side.
// - Out: nlohmann's dump() aborts the program (an uncaught type_error) on a
//   string that is not valid UTF-8, and dump text can be anything. Every JSON
//   writer ends with DumpJson, which escapes such bytes as `\xNN` and says so
//   with a top-level "escaped_invalid_utf8": true.
// - In: baselines, budgets and equivalence tables are user files. Parsing
//   catches every nlohmann exception (a number out of range is not a syntax
//   error), refuses nesting deeper than kMaxJsonDepth before building
//   anything, and error messages quote values through JsonSnippet, bounded
//   and never recursive.
#ifndef GRAPHDIFF_SRC_UTIL_JSON_TEXT_H_
#define GRAPHDIFF_SRC_UTIL_JSON_TEXT_H_

#include <cstddef>
#include <exception>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "nlohmann/json.hpp"

namespace graphdiff {

// Deeper than any real baseline, budget or equivalence table (they nest at
// most four levels), and shallow enough for any stack.
inline constexpr size_t kMaxJsonDepth = 64;

// JSON lets a string hold DEL (0x7F) raw, and nlohmann's dump leaves it so;
// a report is read in terminals too, where the text reports never show it
// raw. Rewrites each DEL of a printed JSON text as `\u007f`, the same string
// to any JSON reader. DumpJson and AppendJsonAt do it; a writer that prints
// JSON itself calls it.
void EscapeJsonDel(std::string* text);

// A string that is valid UTF-8 (IsValidUtf8), quoted as DumpJson prints it:
// quotes, backslashes and control characters escaped (DEL too), the rest as
// is. For writers that print JSON themselves.
void AppendJsonString(std::string_view s, std::string* out);

// `"name": ` on a new line indented `indent` spaces, as dump(2) starts an
// object's member; the value follows. `name` needs no escaping.
void AppendJsonKey(std::string_view name, size_t indent, std::string* out);

// An object of counts ((key, number) pairs in order, keys valid UTF-8) as
// dump(2) writes it as the value of a member indented `indent` spaces: a
// histogram of ops or dtypes.
template <typename Counts>
void AppendJsonCounts(const Counts& counts, size_t indent, std::string* out) {
  if (counts.empty()) {
    out->append("{}");
    return;
  }
  bool first = true;
  for (const auto& [key, n] : counts) {
    out->append(first ? "{\n" : ",\n").append(indent + 2, ' ');
    first = false;
    AppendJsonString(key, out);
    out->append(": ").append(std::to_string(n));
  }
  out->append("\n").append(indent, ' ').append("}");
}

// Pretty-printed (indent 2) with a trailing newline; always valid UTF-8,
// never a raw DEL.
std::string DumpJson(const nlohmann::ordered_json& value);

// DumpJson for a document written a piece at a time: appends `value` as
// dump(2) prints it at nesting level `depth` of an enclosing document (its
// lines after the first indented 2 * depth more). A string that is not valid
// UTF-8 is escaped as DumpJson escapes it, and `*escaped` set: the document's
// writer then adds DumpJson's top-level "escaped_invalid_utf8": true.
void AppendJsonAt(const nlohmann::ordered_json& value, size_t depth, std::string* out,
                  bool* escaped);

// Appends `key` to a JSON object (a null value becomes an empty object)
// without looking for it first: the caller knows it is not there yet.
// ordered_json searches an object's keys one by one on every operator[] and
// insert, so an object of n keys built that way costs n^2/2 string compares:
// minutes for the op histogram of a 10^6-node symbolic_trace graph, whose
// every module is an op of its own.
void AppendNewKey(nlohmann::ordered_json& object, std::string key,
                  nlohmann::ordered_json value);

// ordered_json::parse in time linear in the size of each object (its own
// parser does that search for every key it reads). A key repeated in one
// object keeps its first position and its last value, as ordered_json::parse
// gives. Throws what ordered_json::parse throws.
nlohmann::ordered_json ParseOrderedJson(std::string_view text);

// OK when `text` nests arrays and objects at most `max_depth` deep; else an
// error naming `source`, the byte offset and the limit.
absl::Status CheckJsonDepth(std::string_view text, std::string_view source,
                            size_t max_depth = kMaxJsonDepth);

// A value quoted in an error message: scalars as JSON (at most ~60
// characters), containers by kind and size.
std::string JsonSnippet(const nlohmann::ordered_json& value);
std::string JsonSnippet(const nlohmann::json& value);

// An exception's message for an error: nlohmann quotes the last token read,
// which may be a megabyte long, so it is cut to ~200 bytes and made
// TerminalSafe.
std::string JsonExceptionText(const std::exception& e);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_UTIL_JSON_TEXT_H_
