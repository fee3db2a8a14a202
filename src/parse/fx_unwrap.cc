// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/fx_unwrap.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "fmt/format.h"
#include "graphdiff/parse.h"
#include "parse/error.h"
#include "parse/fx_code.h"
#include "parse/lines.h"
#include "parse/log_prefix.h"
#include "parse/parse_parallel.h"

namespace graphdiff {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool AllDigits(std::string_view s, size_t pos, size_t n) {
  if (pos + n > s.size()) return false;
  for (size_t i = pos; i < pos + n; ++i) {
    if (!IsDigit(s[i])) return false;
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Skips `[tag] ` groups (compile ids `[0/0]`, artifact names
// `[__graph_code]`) that glog-style prefixes append.
size_t SkipTags(std::string_view line, size_t p) {
  while (p < line.size() && line[p] == '[') {
    size_t close = line.find(']', p);
    if (close == std::string_view::npos || close - p > 64) break;
    std::string_view tag = line.substr(p + 1, close - p - 1);
    if (tag.empty() || tag.find(' ') != std::string_view::npos) break;
    p = close + 1;
    if (p < line.size() && line[p] == ' ') ++p;
  }
  return p;
}

}  // namespace

size_t FxLogPrefixLength(std::string_view line) {
  size_t p = 0;
  if (line.substr(0, 5) == "[rank") {
    size_t close = line.find("]:");
    if (close == std::string_view::npos || close > 16) return 0;
    p = close + 2;
  }
  if (p + 1 < line.size() && line[p] == '[' && AllDigits(line, p + 1, 4) &&
      p + 5 < line.size() && line[p + 5] == '-') {
    // [YYYY-MM-DD hh:mm:ss,mmm] [0/0] logger.name: [LEVEL] message
    size_t colon = line.find(": [", p);
    if (colon == std::string_view::npos) return 0;
    size_t level_end = line.find(']', colon + 3);
    if (level_end == std::string_view::npos) return 0;
    for (size_t i = colon + 3; i < level_end; ++i) {
      if (line[i] < 'A' || line[i] > 'Z') return 0;
    }
    p = level_end + 1;
    if (p < line.size() && line[p] == ' ') ++p;
    return p;
  }
  if (p < line.size() && std::string_view("VIWEFD").find(line[p]) != std::string_view::npos &&
      AllDigits(line, p + 1, 4) && p + 8 < line.size() && line[p + 5] == ' ' &&
      AllDigits(line, p + 6, 2) && line[p + 8] == ':') {
    // Lmmdd hh:mm:ss.uuuuuu pid file:line] [tags] message
    size_t close = line.find("] ", p);
    if (close == std::string_view::npos) return 0;
    return SkipTags(line, close + 2);
  }
  return 0;
}

FxLines::FxLines(std::string_view text, uint32_t first_line)
    : reader_(text, first_line) {
  // Room for every line of a typical dump up front: memory not written is
  // not touched, and a graph of a million lines grows no copies.
  lines_.reserve(text.size() / 48 + 1);
}

size_t FxLinePrefixLength(std::string_view line, bool* logged) {
  if (logged != nullptr) *logged = false;
  // Neither kind of prefix starts with a blank: most code lines are indented.
  if (line.empty() || line[0] == ' ' || line[0] == '\t') return 0;
  const size_t p = LogPrefixLength(line);
  if (logged != nullptr) *logged = p > 0;
  const std::string_view rest = line.substr(p);
  if (rest.empty() || (rest[0] != '[' && (rest[0] < 'A' || rest[0] > 'Z'))) return p;
  return p + FxLogPrefixLength(rest);
}

void FxLines::Fill(std::string_view text, uint32_t number, FxLine* line, FxLineTally* tally) {
  line->number = number;
  bool logged = false;
  line->prefix_len = static_cast<uint32_t>(FxLinePrefixLength(text, &logged));
  line->text = text.substr(line->prefix_len);
  line->indent = FxIndent(line->text);
  if (tally != nullptr) {
    tally->logged += logged;
    // FxIndent counts the blanks a rank tag's count skips: a line with no
    // prefix is not scanned again.
    if (line->prefix_len == 0) {
      tally->rank_tags.AddIndented(text, line->indent);
    } else {
      tally->rank_tags.Add(text);
    }
  }
  // Past the indent (spaces and tabs) only a form feed may still be blank.
  line->blank = line->indent == line->text.size() ||
                (line->text[line->indent] == '\f' &&
                 FxIsBlank(line->text.substr(line->indent)));
}

bool FxLines::SplitTo(size_t i) const {
  std::string_view line;
  while (end() <= i) {
    if (!reader_.Next(&line)) return false;
    // In place: see fx_lexer.cc. Each line is split here once.
    Fill(line, reader_.line_number(), &lines_.emplace_back(), &tally_);
  }
  return true;
}

void FxLines::DropBefore(size_t i) {
  if (i <= base_) return;
  const size_t drop = std::min(i, end()) - base_;
  lines_.erase(lines_.begin(), lines_.begin() + static_cast<ptrdiff_t>(drop));
  base_ += drop;
}

std::string_view FxBannerName(std::string_view line) {
  line = Trim(line);
  if (line.size() < 10 || line.substr(0, 5) != "=====" ||
      line.substr(line.size() - 5) != "=====") {
    return {};
  }
  while (!line.empty() && line.front() == '=') line.remove_prefix(1);
  while (!line.empty() && line.back() == '=') line.remove_suffix(1);
  return Trim(line);
}

namespace {

// The value of top-level `key` in a record header: json.dumps writes the
// record's own object first and the top-level keys after it, so the last
// `"key": ` is the top-level one. A string keeps its quotes; empty when the
// key is missing.
std::string_view TraceValue(std::string_view body, std::string_view key) {
  size_t k = std::string_view::npos;
  for (size_t from = body.size(); from > 0;) {
    const size_t at = body.rfind(key, from - 1);
    if (at == std::string_view::npos) break;
    if (at > 0 && body[at - 1] == '"' && body.substr(at + key.size(), 3) == "\": ") {
      k = at + key.size() + 3;
      break;
    }
    from = at;
  }
  if (k == std::string_view::npos || k >= body.size()) return {};
  if (body[k] == '"') {
    const size_t close = body.find('"', k + 1);
    return close == std::string_view::npos ? std::string_view() : body.substr(k, close + 1 - k);
  }
  size_t e = k;
  while (e < body.size() && body[e] != ',' && body[e] != '}') ++e;
  return Trim(body.substr(k, e - k));
}

bool IsCount(std::string_view v) { return !v.empty() && AllDigits(v, 0, v.size()); }

}  // namespace

std::optional<FxTraceRecord> FxTraceRecordHeader(std::string_view body) {
  // Compile ids the log prefix did not take (`[0/0_1]`, `[!1/0/0]`).
  body = Trim(body.substr(SkipTags(body, 0)));
  while (!body.empty() && body.back() == '\r') body.remove_suffix(1);
  if (body.size() < 5 || body.substr(0, 2) != "{\"" || body.back() != '}') return std::nullopt;
  const size_t key_end = body.find('"', 2);
  if (key_end == std::string_view::npos || body.substr(key_end, 3) != "\": ") {
    return std::nullopt;
  }
  FxTraceRecord out;
  out.kind = body.substr(2, key_end - 2);
  // An artifact or a graph dump is named in its object: `{"artifact":
  // {"name": "after_post_grad_graph", "encoding": "string"}, ...}`.
  constexpr std::string_view kName = "{\"name\": \"";
  const std::string_view value = body.substr(key_end + 3);
  if ((out.kind == "artifact" || out.kind == "graph_dump") && value.substr(0, kName.size()) == kName) {
    const size_t close = value.find('"', kName.size());
    if (close != std::string_view::npos && close > kName.size()) {
      out.kind = value.substr(kName.size(), close - kName.size());
    }
  }
  out.has_payload = !TraceValue(body, "has_payload").empty();
  const std::string_view frame = TraceValue(body, "frame_id");
  const std::string_view compile = TraceValue(body, "frame_compile_id");
  const std::string_view autograd = TraceValue(body, "compiled_autograd_id");
  const std::string_view attempt = TraceValue(body, "attempt");
  const bool frame_known = IsCount(frame) && IsCount(compile);
  if (IsCount(autograd)) {
    out.compile_id = "!" + std::string(autograd);
    if (frame_known) out.compile_id += "/" + std::string(frame) + "/" + std::string(compile);
  } else if (frame_known) {
    out.compile_id = std::string(frame) + "/" + std::string(compile);
  }
  if (!out.compile_id.empty() && IsCount(attempt) && attempt != "0") {
    out.compile_id += "_" + std::string(attempt);
  }
  return out;
}

std::string FxTraceGraphName(const FxTraceRecord& record) {
  std::string name(record.kind);
  if (!record.compile_id.empty()) name += " [" + record.compile_id + "]";
  return name;
}

std::string_view FxClassName(std::string_view line) {
  line = Trim(line);
  if (line.empty() || line.back() != ':') return {};
  size_t k = line.substr(0, 6) == "class " ? 0 : line.find(" class ");
  if (k == std::string_view::npos) return {};
  if (k != 0) k += 1;
  size_t begin = k + 6;
  size_t end = begin;
  while (end < line.size() && line[end] != '(' && line[end] != ':' && line[end] != ' ') {
    ++end;
  }
  if (end == begin || end >= line.size() || (line[end] != '(' && line[end] != ':')) {
    return {};
  }
  return line.substr(begin, end - begin);
}

namespace {

// Sizes a piece's graph list (for `span` bytes, or its text) once its first
// graph is read, from the bytes that graph took (`next`: where the text goes
// on; null at its end), as the save-file parser sizes its records'. Grown a
// graph at a time, the list of a log of 10^5 small graphs moved every graph
// again at each doubling, in fresh memory.
void ReserveFxGraphs(std::string_view text, size_t span, const char* next,
                     const ParseOptions& options, std::vector<Graph>* graphs) {
  if (next == nullptr) return;
  const size_t first_bytes = static_cast<size_t>(next - text.data());
  graphs->reserve(
      PredictGraphCount(std::max(span, text.size()), first_bytes, options.max_graphs));
}

// A log of small graphs repeats a few of them (each compile's forward and
// backward, a training step's graph every step), line for line after the
// log prefixes: a definition whose lines are those of one parsed before is
// copied from it, moved to its lines, and says again what that parse said.
// The definitions kept are the code of their lines (views of the text) and
// their prefixes' lengths (a warning's column counts the prefix), with
// their graph's index in the piece's list.
struct FxKept {
  std::vector<std::string_view> code;  // from `def` to the line that ends it
  std::vector<uint32_t> prefix;
  size_t graph = 0;
  uint32_t def_indent = 0;
  std::vector<Diagnostic> said;  // on the lines of the graph kept
};

// A parse's warnings are collected here first, up to this many, then said
// (AddWarning, in order, as the parse would have said them): a definition
// that says more is not kept, and parsed again straight into the list.
constexpr size_t kCollected = 64;
// Longer definitions are not kept: a graph of thousands of lines is seldom
// repeated, and its lines' views would be memory for nothing.
constexpr size_t kKeptLines = 4096;

class FxKeptDefinitions {
 public:
  // The kept definition that line `def` of `lines` repeats, or null: the
  // same code and prefix lengths, and a line after them that ends the body
  // as the kept one's did.
  const FxKept* Find(const FxLines& lines, size_t def) const {
    for (size_t k = 0; k < count_; ++k) {
      const FxKept& kept = kept_[k];
      const size_t n = kept.code.size();
      size_t j = 0;
      while (j < n && lines.Has(def + j) && lines[def + j].text == kept.code[j] &&
             lines[def + j].prefix_len == kept.prefix[j]) {
        ++j;
      }
      if (j < n) continue;
      if (!lines.Has(def + n)) return &kept;
      const FxLine& after = lines[def + n];
      if (!after.blank && after.indent <= kept.def_indent) return &kept;
    }
    return nullptr;
  }
  // Keeps the definition of lines [def, next), parsed into graph `graph`.
  void Keep(const FxLines& lines, size_t def, size_t next, size_t graph,
            const std::vector<Diagnostic>& said) {
    // A long parse drops the lines behind it as it goes.
    if (next - def > kKeptLines || lines.begin() > def) return;
    FxKept& kept = kept_[next_];
    next_ = (next_ + 1) % kKept;
    count_ = std::min(count_ + 1, kKept);
    kept.code.clear();
    kept.prefix.clear();
    for (size_t j = def; j < next; ++j) {
      kept.code.push_back(lines[j].text);
      kept.prefix.push_back(lines[j].prefix_len);
    }
    kept.graph = graph;
    kept.def_indent = lines[def].indent;
    kept.said = said;
  }

 private:
  // A log's graphs come back in cycles: a step's several compiles
  // (forward and backward of each region), a sweep's models one after
  // another. Four kept missed every cycle longer than that; a candidate
  // is turned down at its first differing line, so sixteen cost little.
  static constexpr size_t kKept = 16;
  FxKept kept_[kKept];
  size_t count_ = 0;
  size_t next_ = 0;
};

}  // namespace

absl::Status ParseFxPiece(std::string_view text, uint32_t first_line, std::string_view source,
                          const ParseOptions& options, std::vector<Diagnostic>* warnings,
                          FxPiece* piece) {
  FxLines lines(text, first_line);
  FxParseContext ctx{source, &options, warnings};
  struct Class {
    uint32_t indent;
    std::string_view name;
  };
  std::vector<Class> classes;
  std::string_view& banner = piece->banner;
  // The header of the TORCH_TRACE record whose payload is being read, when
  // it may hold a graph; the banner is then its header line.
  std::optional<FxTraceRecord> trace;
  std::vector<Graph>& graphs = piece->graphs;
  size_t& outside = piece->outside;  // non-blank lines that are not graph code
  // The graphs share one pool (StringPool::Share), as an HLO text's modules
  // do: a dump's graphs repeat one another's ops, keys, literals and node
  // names (`primals_1`, `convolution_3`), which a pool per graph held again.
  StringPool pool;
  FxScratch scratch;
  ParseOptions collect_options = options;
  collect_options.max_warnings = kCollected;
  std::vector<Diagnostic> collected;
  const FxParseContext collect{source, &collect_options, &collected};
  FxKeptDefinitions kept;
  size_t i = 0;
  while (lines.Has(i)) {
    lines.DropBefore(i);  // the parse never looks back
    std::string_view t = lines[i].text;
    if (lines[i].blank) {
      ++i;
      continue;
    }
    const uint32_t indent = lines[i].indent;
    std::string_view body = t.substr(indent);
    if (indent == 0) {
      // A TORCH_TRACE record's payload ends at the next line not led by a
      // tab: its name never reaches past it (nor past a piece's end, which
      // is such a line).
      if (trace) {
        banner = {};
        trace.reset();
      }
      if (body[0] == '{' || body[0] == '[') {
        if (std::optional<FxTraceRecord> record = FxTraceRecordHeader(body);
            record && record->has_payload) {
          trace = std::move(record);
          banner = body;
          classes.clear();
          ++i;
          ++outside;
          continue;
        }
      }
    }
    std::string_view name = FxBannerName(body);
    if (!name.empty()) {
      banner = name;
      classes.clear();
      ++i;
      continue;
    }
    while (!classes.empty() && classes.back().indent >= indent) classes.pop_back();
    name = FxClassName(body);
    if (!name.empty()) {
      classes.push_back(Class{indent, name});
      ++i;
      continue;
    }
    if (body.substr(0, 4) != "def ") {
      ++i;  // log text, imports, script lines around the graphs
      ++outside;
      continue;
    }
    std::string_view fn = Trim(body.substr(4));
    if (fn.substr(0, 7) != "forward" || fn.size() < 8 || (fn[7] != '(' && fn[7] != ' ')) {
      size_t j = i + 1;  // another method (`__init__`): skip its body
      while (lines.Has(j) &&
             (lines[j].blank || lines[j].indent > indent)) {
        ++j;
      }
      outside += j - i;
      i = j;
      continue;
    }
    if (graphs.size() >= options.max_graphs) {
      return ParseErrorAt(source, lines[i].number, lines[i].prefix_len + indent + 1,
                          lines[i].full(),
                          "more than " + std::to_string(options.max_graphs) + " graphs");
    }
    Graph g;
    // A graph to parse into: its strings go to the pool the graphs share.
    auto fresh = [&] {
      g = Graph();
      g.kind = GraphKind::kFx;
      g.strings = pool.Share();
    };
    size_t next = i + 1;
    if (const FxKept* seen = kept.Find(lines, i)) {
      const uint32_t delta = lines[i].number - graphs[seen->graph].source.first_line;
      g = CopyParsedGraph(graphs[seen->graph], pool.Share(), delta);
      for (const Diagnostic& d : seen->said) {
        AddWarning(warnings, options.max_warnings, source, d.line + (d.line != 0 ? delta : 0),
                   d.column, d.message);
      }
      next = i + seen->code.size();
    } else {
      collected.clear();
      fresh();
      absl::Status s = ParseFxDefinition(lines, i, collect, &g, &next, &scratch);
      const bool whole = collected.size() < kCollected;
      if (whole) {
        for (const Diagnostic& d : collected) {
          AddWarning(warnings, options.max_warnings, source, d.line, d.column, d.message);
        }
      } else {
        // Past what was collected: parsed again, saying it all.
        fresh();
        next = i + 1;
        s = ParseFxDefinition(lines, i, ctx, &g, &next, &scratch);
      }
      if (!s.ok()) return s;
      if (whole && next > i && std::none_of(collected.begin(), collected.end(), NamesALine)) {
        kept.Keep(lines, i, next, graphs.size(), collected);
      }
    }
    g.source.file = std::string(source);
    g.source.record_index = static_cast<uint32_t>(graphs.size());
    // Nested classes are subgraphs named by their class; a top-level graph
    // takes the banner before it (`__compiled_fn_1`, `Forward graph 0`),
    // else its class (`GraphModule`).
    if (classes.size() >= 2) {
      g.name = std::string(classes.back().name);
    } else if (trace) {
      // Named, and so paired first, by its record's kind and compile id:
      // frame 1's forward graph in one run with frame 1's in the other.
      g.name = FxTraceGraphName(*trace);
      g.source.graph_name = g.name;
      banner = {};
      trace.reset();
    } else if (!banner.empty()) {
      g.name = std::string(banner);
      banner = {};
    } else if (!classes.empty()) {
      g.name = std::string(classes.back().name);
    } else {
      g.name = "forward";
    }
    if (g.source.graph_name.empty()) {
      g.source.graph_name = classes.empty() ? g.name : std::string(classes.back().name);
    }
    graphs.push_back(std::move(g));
    i = next > i ? next : i + 1;
    if (graphs.size() == 1) {
      ReserveFxGraphs(text, piece->span, lines.Has(i) ? lines[i].full().data() : nullptr,
                      options, &graphs);
    }
  }
  if (trace) banner = {};  // see above: a trace record's name stays in its piece
  pool = StringPool();
  if (!graphs.empty()) graphs.front().strings.ShrinkToFit();  // seals the shared pool
  piece->tally = lines.tally();
  piece->next_line = lines.next_line();
  return absl::OkStatus();
}

bool FxTextIsEmpty(std::string_view text) {
  return FxIsBlank(text) || text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

absl::Status FxNoGraphError(std::string_view source, std::string_view text) {
  return ParseError(source, text, 0, "no FX graph found (expected `def forward(`)");
}

void AddFxOutsideWarning(std::vector<Diagnostic>* warnings, size_t max_warnings,
                         std::string_view source, size_t outside) {
  if (outside == 0) return;
  // Expected in a log, but never silent: say how much was not graph code.
  AddWarning(warnings, max_warnings, source, 0, 0,
             fmt::format("{} line{} outside the graph code skipped (log text, imports, "
                         "other methods)",
                         outside, outside == 1 ? "" : "s"));
}

absl::StatusOr<std::vector<Graph>> ParseFxCodeCounted(std::string_view text,
                                                      std::string_view source,
                                                      const ParseOptions& options,
                                                      std::vector<Diagnostic>* warnings,
                                                      FxLineTally* tally) {
  if (FxTextIsEmpty(text)) {
    return ParseError(source, text, 0, "empty text: expected an FX graph");
  }
  FxPiece piece;
  absl::Status s = ParseFxPiece(text, 1, source, options, warnings, &piece);
  if (!s.ok()) return s;
  if (piece.graphs.empty()) return FxNoGraphError(source, text);
  AddFxOutsideWarning(warnings, options.max_warnings, source, piece.outside);
  if (tally != nullptr) *tally = piece.tally;
  return std::move(piece.graphs);
}

absl::StatusOr<std::vector<Graph>> ParseFxCode(std::string_view text,
                                               std::string_view source,
                                               const ParseOptions& options,
                                               std::vector<Diagnostic>* warnings) {
  return ParseFxCodeCounted(text, source, options, warnings, nullptr);
}

}  // namespace graphdiff
