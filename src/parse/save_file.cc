// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Save files (`XLA_SAVE_TENSORS_FILE`, `LTC_SAVE_TENSORS_FILE`): one record
// per executed graph, appended for a whole run, so GBs of mostly repeated
// records. Bodies are parsed in place from string_views; a record identical
// to the one before it (a cache hit) is counted, not parsed again.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "fmt/format.h"
#include "graphdiff/parse.h"
#include "parse/error.h"
#include "parse/ir_text.h"
#include "parse/lines.h"

namespace graphdiff {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f'; }

std::string_view Strip(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

bool IsBlank(std::string_view s) { return Strip(s).empty(); }

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Splits on any of `seps`, dropping empty pieces.
std::vector<std::string_view> Split(std::string_view s, std::string_view seps) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || seps.find(s[i]) != std::string_view::npos) {
      if (i > start) out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

// `[ScheduleSyncTensorsGraph]` and the other bracketed record names writers
// use: a bracket pair around a short name, nothing else on the line.
bool IsRecordHeader(std::string_view line) {
  while (!line.empty() && IsSpace(line.back())) line.remove_suffix(1);
  if (line.size() < 3 || line.front() != '[' || line.back() != ']') return false;
  for (char c : line.substr(1, line.size() - 2)) {
    if (!IsAlnum(c) && c != '_' && c != ':' &&
        c != '.' && c != '-' && c != ' ') {
      return false;
    }
  }
  return true;
}

// Lines that end an HLO (or unknown) body.
bool EndsBody(std::string_view line) {
  return StartsWith(line, "## END_GRAPH") || StartsWith(line, "Graph Hash:") ||
         StartsWith(line, "#OUTPUT_SHARDING_BEGIN") ||
         StartsWith(line, "## BEGIN_GRAPH") || IsRecordHeader(line);
}

// A frame is `fn (file:line)`; the file part decides whether it is library
// code (torch, torch_xla, the Python standard library) or the user's.
bool IsLibraryFrame(std::string_view frame) {
  size_t open = frame.rfind(" (");
  std::string_view file = open == std::string_view::npos ? frame : frame.substr(open + 2);
  if (file.empty() || file.front() == '<' || file.front() == '(') return true;
  bool python_dir = false, packages = false;
  for (std::string_view seg : Split(file, "/\\")) {
    if (seg == "torch" || seg == "torch_xla" || seg == "torch_xla2" || seg == "torchax" ||
        seg == "functorch") {
      return true;
    }
    if (StartsWith(seg, "python2") || StartsWith(seg, "python3")) {
      python_dir = true;
    }
    if (seg == "site-packages" || seg == "dist-packages") packages = true;
  }
  return python_dir && !packages;
}

std::vector<std::string> ParseHashes(std::string_view rest) {
  rest = Strip(rest);
  if (StartsWith(rest, "(")) rest.remove_prefix(1);
  if (!rest.empty() && rest.back() == ')') rest.remove_suffix(1);
  std::vector<std::string> out;
  for (std::string_view h : Split(rest, ",")) {
    h = Strip(h);
    if (!h.empty()) out.emplace_back(h);
  }
  return out;
}

// Errors from a parser that saw only a record's body count lines from the
// body; this makes them count from the file.
absl::Status ShiftErrorLine(const absl::Status& status, std::string_view source,
                            uint32_t delta) {
  std::string_view msg(status.message().data(), status.message().size());
  std::string prefix = fmt::format("{}:", source);
  if (delta == 0 || !StartsWith(msg, prefix)) return status;
  std::string_view rest = msg.substr(prefix.size());
  size_t colon = rest.find(':');
  uint32_t line = 0;
  if (colon == std::string_view::npos || colon == 0 || colon > 9) return status;
  for (char c : rest.substr(0, colon)) {
    if (c < '0' || c > '9') return status;
    line = line * 10 + static_cast<uint32_t>(c - '0');
  }
  return absl::Status(status.code(),
                      fmt::format("{}{}{}", prefix, line + delta, rest.substr(colon)));
}

struct RecordHeader {
  bool present = false;
  uint32_t first_line = 0;
  size_t first_offset = 0;
  std::string graph_name;
  std::vector<std::string> frames;
  std::vector<std::string> hashes;
};

class SaveFileParser {
 public:
  SaveFileParser(std::string_view text, std::string_view source,
                 const ParseOptions& options, std::vector<Diagnostic>* warnings)
      : text_(text), source_(source), options_(options), warnings_(warnings) {}

  absl::StatusOr<std::vector<Graph>> Run();

 private:
  void Warn(uint32_t line, std::string_view message) {
    AddWarning(warnings_, options_.max_warnings, source_, line, 1, message);
  }
  // Restarts line reading at byte `offset`, whose line number is `line`.
  void Seek(size_t offset, uint32_t line) {
    base_ = offset;
    lines_ = LineReader(text_.substr(offset), line);
  }
  absl::Status ParseIrRecord(size_t offset, uint32_t line);
  absl::Status ParseDelimitedBody(std::string_view first, size_t offset, uint32_t line);
  // Folds the record into the previous one when body and header match.
  bool FoldIntoPrevious(std::string_view body);
  absl::Status AddGraphs(std::vector<Graph> graphs, std::string_view body,
                         uint32_t first_line, uint32_t last_line);
  void SetLastLine(uint32_t line) {
    if (!folded_) {
      for (size_t i = record_begin_; i < graphs_.size(); ++i) graphs_[i].source.last_line = line;
    }
  }

  std::string_view text_;
  std::string_view source_;
  const ParseOptions& options_;
  std::vector<Diagnostic>* warnings_;
  LineReader lines_{std::string_view()};
  size_t base_ = 0;

  std::vector<Graph> graphs_;
  RecordHeader header_;
  bool in_body_ = false;  // after `## BEGIN_GRAPH`, before the body
  // The last record that produced graphs: graphs_[record_begin_, end) and
  // the header and body it had, for folding and for trailing `Graph Hash:`.
  size_t record_begin_ = 0;
  bool have_record_ = false;
  bool folded_ = false;
  RecordHeader prev_header_;
  std::string_view prev_body_;
  uint32_t prev_body_lines_ = 0;
};

bool SaveFileParser::FoldIntoPrevious(std::string_view body) {
  if (!have_record_ || body.size() != prev_body_.size() ||
      header_.frames != prev_header_.frames || header_.graph_name != prev_header_.graph_name ||
      std::memcmp(body.data(), prev_body_.data(), body.size()) != 0) {
    return false;
  }
  for (size_t i = record_begin_; i < graphs_.size(); ++i) ++graphs_[i].source.repeat_count;
  folded_ = true;
  header_ = RecordHeader();
  return true;
}

absl::Status SaveFileParser::AddGraphs(std::vector<Graph> graphs, std::string_view body,
                                       uint32_t first_line, uint32_t last_line) {
  if (graphs_.size() + graphs.size() > options_.max_graphs) {
    size_t at = header_.present ? header_.first_offset
                                : static_cast<size_t>(body.data() - text_.data());
    return ParseErrorAt(source_, header_.present ? header_.first_line : first_line, 1,
                        LineAt(text_, at),
                        fmt::format("more than {} graphs in one file (ParseOptions::max_graphs)",
                                    options_.max_graphs));
  }
  record_begin_ = graphs_.size();
  for (Graph& g : graphs) {
    uint32_t index = static_cast<uint32_t>(graphs_.size());
    GraphSource& src = g.source;
    src.file = std::string(source_);
    src.first_line = header_.present ? header_.first_line : first_line;
    src.last_line = last_line;
    if (!header_.graph_name.empty()) src.graph_name = header_.graph_name;
    src.frames = header_.frames;
    src.hashes = header_.hashes;
    src.record_index = index;
    src.repeat_count = 1;
    if (!header_.graph_name.empty()) {
      g.name = header_.graph_name;
    } else {
      auto user = std::find_if(header_.frames.begin(), header_.frames.end(),
                               [](const std::string& f) { return !IsLibraryFrame(f); });
      g.name = user != header_.frames.end() ? *user : fmt::format("graph {}", index);
    }
    graphs_.push_back(std::move(g));
  }
  have_record_ = true;
  folded_ = false;
  prev_header_ = std::move(header_);
  header_ = RecordHeader();
  prev_body_ = body;
  prev_body_lines_ = static_cast<uint32_t>(std::count(body.begin(), body.end(), '\n'));
  return absl::OkStatus();
}

absl::Status SaveFileParser::ParseIrRecord(size_t offset, uint32_t line) {
  // A repeat is recognised by its bytes, before any parsing: the previous
  // body runs from `IR {` through its closing brace line.
  if (have_record_ && text_.size() - offset >= prev_body_.size() &&
      FoldIntoPrevious(text_.substr(offset, prev_body_.size()))) {
    Seek(offset + prev_body_.size(), line + prev_body_lines_);
    return absl::OkStatus();
  }
  IrBlockEnd end;
  absl::StatusOr<Graph> g =
      ParseIrBlock(text_, offset, line, source_, options_, warnings_, &end);
  if (!g.ok()) {
    if (end.truncated && !graphs_.empty()) {
      Warn(line, "the last record is cut short (no closing '}'); it was skipped");
      have_record_ = false;
      Seek(text_.size(), line);
      return absl::OkStatus();
    }
    return g.status();
  }
  std::vector<Graph> one;
  one.push_back(*std::move(g));
  std::string_view body = text_.substr(offset, end.offset - offset);
  if (absl::Status s = AddGraphs(std::move(one), body, line, end.line); !s.ok()) return s;
  Seek(end.offset, end.line + 1);
  return absl::OkStatus();
}

absl::Status SaveFileParser::ParseDelimitedBody(std::string_view first, size_t offset,
                                                uint32_t line) {
  // The body runs to the next marker; trailing blank lines are not part of it.
  size_t body_end = offset + first.size();
  uint32_t last_line = line;
  std::string_view l;
  while (true) {
    size_t next_offset = base_ + lines_.position();
    if (!lines_.Next(&l)) break;
    if (EndsBody(l)) {
      Seek(next_offset, lines_.line_number());
      break;
    }
    if (!IsBlank(l)) {
      body_end = base_ + lines_.line_offset() + l.size();
      last_line = lines_.line_number();
    }
  }
  std::string_view body = text_.substr(offset, body_end - offset);
  if (!StartsWith(first, "HloModule")) {
    Warn(line, "a record body that is neither IR nor HLO text (DOT or StableHLO?) was skipped");
    header_ = RecordHeader();
    have_record_ = false;
    return absl::OkStatus();
  }
  if (FoldIntoPrevious(body)) return absl::OkStatus();
  size_t warnings_before = warnings_ ? warnings_->size() : 0;
  absl::StatusOr<std::vector<Graph>> gs = ParseHloText(body, source_, options_, warnings_);
  if (!gs.ok()) return ShiftErrorLine(gs.status(), source_, line - 1);
  if (warnings_ != nullptr) {
    for (size_t i = warnings_before; i < warnings_->size(); ++i) {
      if ((*warnings_)[i].source == source_) (*warnings_)[i].line += line - 1;
    }
  }
  for (Graph& g : *gs) {
    for (Node& n : g.nodes) n.line += line - 1;
  }
  return AddGraphs(*std::move(gs), body, line, last_line);
}

absl::StatusOr<std::vector<Graph>> SaveFileParser::Run() {
  if (IsBlank(text_)) {
    return ParseError(source_, text_, 0, "empty text: expected save-file records");
  }
  Seek(0, 1);
  bool in_frames = false;
  std::string_view line;
  while (lines_.Next(&line)) {
    uint32_t line_no = lines_.line_number();
    size_t offset = base_ + lines_.line_offset();
    if (in_frames) {
      if (!line.empty() && (line[0] == ' ' || line[0] == '\t') && !IsBlank(line)) {
        std::string_view frame = Strip(line);
        // LTC writes this placeholder when no Python frame getter is set.
        if (!StartsWith(frame, "(No Python Frames")) header_.frames.emplace_back(frame);
        continue;
      }
      in_frames = false;
    }
    if (IsBlank(line)) continue;
    if (IsIrBlockStart(line)) {
      if (absl::Status s = ParseIrRecord(offset, line_no); !s.ok()) return s;
      in_body_ = false;
      continue;
    }
    // An HLO module outside the markers is still a record body.
    if ((in_body_ && !EndsBody(line)) || StartsWith(line, "HloModule ")) {
      in_body_ = false;
      if (absl::Status s = ParseDelimitedBody(line, offset, line_no); !s.ok()) return s;
      continue;
    }
    in_body_ = false;
    if (IsRecordHeader(line)) {
      header_ = RecordHeader();
      header_.present = true;
      header_.first_line = line_no;
      header_.first_offset = offset;
    } else if (StartsWith(line, "Graph Name:")) {
      header_.graph_name =
          std::string(Strip(line.substr(strlen("Graph Name:"))));
    } else if (StartsWith(line, "TensorsGraphInfo:") ||
               StartsWith(line, "Python Stacktrace:")) {
      in_frames = true;
    } else if (StartsWith(line, "Hashes:")) {
      header_.hashes = ParseHashes(line.substr(strlen("Hashes:")));
    } else if (StartsWith(line, "Root Hashes:")) {
      header_.hashes = ParseHashes(line.substr(strlen("Root Hashes:")));
    } else if (StartsWith(line, "## BEGIN_GRAPH")) {
      in_body_ = true;
    } else if (StartsWith(line, "Graph Hash:")) {
      std::string hash(Strip(line.substr(strlen("Graph Hash:"))));
      if (have_record_) {
        for (size_t i = record_begin_; i < graphs_.size(); ++i) {
          if (graphs_[i].source.graph_hash.empty()) graphs_[i].source.graph_hash = hash;
        }
        SetLastLine(line_no);
      }
    } else if (StartsWith(line, "## END_GRAPH")) {
      if (have_record_) SetLastLine(line_no);
    } else if (StartsWith(line, "#OUTPUT_SHARDING_BEGIN")) {
      // Per-output sharding of an HLO record; not part of the graph model.
      while (lines_.Next(&line) && !StartsWith(line, "#OUTPUT_SHARDING_END")) {
      }
      if (have_record_) SetLastLine(lines_.line_number());
    } else {
      Warn(line_no, "ignored a line outside any graph record");
    }
  }
  if (graphs_.empty()) {
    return ParseError(source_, text_, 0,
                      "no graph found: expected '[ScheduleSyncTensorsGraph]' records "
                      "or 'IR {' blocks");
  }
  return std::move(graphs_);
}

}  // namespace

absl::StatusOr<std::vector<Graph>> ParseSaveFile(std::string_view text,
                                                 std::string_view source,
                                                 const ParseOptions& options,
                                                 std::vector<Diagnostic>* warnings) {
  SaveFileParser parser(text, source, options, warnings);
  return parser.Run();
}

}  // namespace graphdiff
