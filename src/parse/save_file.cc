// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Save files (`XLA_SAVE_TENSORS_FILE`, `LTC_SAVE_TENSORS_FILE`): one record
// per executed graph, appended for a whole run, so GBs of mostly repeated
// records. Bodies are parsed in place from string_views; a record identical
// to the one before it (a cache hit) is counted, not parsed again.
#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "fmt/format.h"
#include "graphdiff/parse.h"
#include "parse/error.h"
#include "parse/ir_text.h"
#include "parse/line_starts.h"
#include "parse/lines.h"
#include "parse/log_prefix.h"
#include "parse/parse_parallel.h"

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

// Fills `out` with the hashes of `(h1, h2, ...)`, views into `rest`.
void ParseHashes(std::string_view rest, std::vector<std::string_view>* out) {
  out->clear();
  rest = Strip(rest);
  if (StartsWith(rest, "(")) rest.remove_prefix(1);
  if (!rest.empty() && rest.back() == ')') rest.remove_suffix(1);
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view h = Strip(rest.substr(0, comma));
    if (!h.empty()) out->push_back(h);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
}

// Where a piece may start: a record header, or a bare `IR {` block right
// after the previous block's closing brace (nothing between them belongs to
// either record).
bool IsCutLine(std::string_view line, std::string_view previous) {
  if (line.empty()) return false;
  if (line.front() == '[') return IsRecordHeader(line);
  return line.front() == 'I' && IsIrBlockStart(line) && Strip(previous) == "}";
}
// Record headers and `IR {` lines are at column 0; IR lines are indented.
const CutLine kSaveFileCut(IsCutLine, NextUnindentedLine);

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

// A record's header lines, as views into the text. Cleared, not replaced,
// between records: its lists keep their room.
struct RecordHeader {
  bool present = false;
  uint32_t first_line = 0;
  size_t first_offset = 0;
  std::string_view graph_name;
  std::vector<std::string_view> frames;
  std::vector<std::string_view> hashes;

  void Clear() {
    present = false;
    first_line = 0;
    first_offset = 0;
    graph_name = {};
    frames.clear();
    hashes.clear();
  }
};

// Seals the pools the graphs share (StringPool::ShrinkToFit): from then on a
// graph whose strings change gets a pool of its own first. Each pool is
// fitted once; the calls for its other graphs return at once.
void SealPools(std::vector<Graph>& graphs) {
  for (Graph& g : graphs) g.strings.ShrinkToFit();
}

class SaveFileParser {
 public:
  SaveFileParser(std::string_view text, std::string_view source,
                 const ParseOptions& options, std::vector<Diagnostic>* warnings)
      : text_(text), source_(source), options_(options), warnings_(warnings) {}

  absl::StatusOr<std::vector<Graph>> Run();
  // Parses the records in [begin, end) alone, `begin` being a record's
  // first line, numbered `first_line`. Anything that would have depended on
  // the text before `begin` or after `end` makes it fail, and the caller
  // parses the whole file in one piece instead.
  absl::Status RunPiece(size_t begin, size_t end, uint32_t first_line, bool last);
  // The first piece's graph list is sized for its piece, not for the file.
  void SizeForPieceOnly() { piece_span_only_ = true; }
  // After RunPiece succeeded, the number of the line after the piece.
  uint32_t next_line() const { return lines_.next_line() + line_shift_; }
  // After RunPiece succeeded on a piece numbered from kUnnumbered, moves
  // its lines `delta` on (parse_parallel.h: ShiftLines).
  void ShiftLines(uint32_t delta) {
    graphdiff::ShiftLines(absl::MakeSpan(graphs_), delta);
    line_shift_ += delta;
  }
  // Counts the log prefixes and rank tags of the lines parsed into `*count`
  // (the survey StripLogPrefixes would make first, made as the lines are
  // read, while they are in the cache): a record body that folds into the
  // one before holds what that one held. The parse stops, cancelled, at
  // the first prefix; it fails or succeeds as it would without the count.
  void CountPrefixes(LogPrefixCount* count) { prefixes_ = count; }

  // What the records of a piece need from each other when pieces are joined.
  std::vector<Graph>& graphs() { return graphs_; }
  size_t first_record_size() const { return first_size_; }
  // The warnings parsing the first record gave: [begin, end) of this piece's
  // list; a whole-file parse folding that record would not have parsed it.
  size_t first_warnings_begin() const { return first_warn_begin_; }
  size_t first_warnings_end() const { return first_warn_end_; }
  const RecordHeader& first_header() const { return first_header_; }
  std::string_view first_body() const { return first_body_; }
  bool has_record() const { return have_record_; }
  size_t record_begin() const { return record_begin_; }
  bool reset_seen() const { return reset_seen_; }
  const RecordHeader& last_header() const { return prev_header_; }
  std::string_view last_body() const { return prev_body_; }

 private:
  absl::Status Loop();
  // A record was skipped: the next one cannot fold into the one before.
  void ForgetRecord() {
    have_record_ = false;
    reset_seen_ = true;
  }
  // A trailing line (hash, end marker, sharding) that belongs to a record
  // parsed in an earlier piece: only the whole-file parse can place it.
  bool Orphan() const { return after_cut_ && !have_record_ && first_size_ == 0 && !reset_seen_; }
  void Warn(uint32_t line, std::string_view message) {
    AddWarning(warnings_, options_.max_warnings, source_, line, 1, message);
  }
  // Reads the next line, counting it for the survey.
  bool NextLine(std::string_view* line) {
    if (!lines_.Next(line)) return false;
    if (prefixes_ != nullptr) prefixes_->AddLine(*line);
    return true;
  }
  // Counts the lines of `text`, passed over without NextLine.
  void CountSkipped(std::string_view text) {
    if (prefixes_ != nullptr) prefixes_->Add(CountLogPrefixes(text));
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
  // A training run's records repeat a few graphs, step after step, with
  // others between them (forward, backward, optimizer): a body parsed
  // before is copied, not parsed again. The bodies kept are views of the
  // text whose parse warned of nothing, each with its graph in graphs_.
  struct ParsedBody {
    std::string_view body;
    size_t graph = 0;
    uint32_t first_line = 0;  // its `IR {` line
    uint32_t last_line = 0;   // its `}` line
  };
  // The kept body that `text_` repeats at `offset`, or null.
  const ParsedBody* SeenBody(size_t offset) const;
  void KeepBody(const ParsedBody& body);
  // Sizes the graph list once, from the first record's bytes, for the
  // records of the text still to come (of the whole file, in the first
  // piece, which the join keeps). Grown a graph at a time, the list moved
  // every graph again at each doubling, in fresh memory; room past the last
  // record is never written, so it takes no page.
  void ReserveGraphs(std::string_view first_body);
  // Where the record being parsed starts: its header, or its body.
  size_t RecordOffset(std::string_view body) const {
    return header_.present ? header_.first_offset
                           : static_cast<size_t>(body.data() - text_.data());
  }
  // Moves `graphs` (a record's) into the file's list.
  absl::Status AddGraphs(absl::Span<Graph> graphs, std::string_view body,
                         uint32_t first_line, uint32_t last_line);
  void SetLastLine(uint32_t line) {
    if (!folded_) {
      for (size_t i = record_begin_; i < graphs_.size(); ++i) graphs_[i].source.last_line = line;
    }
  }

  std::string_view text_;
  std::string_view source_;
  size_t span_ = text_.size();  // the bytes whose graphs go into graphs_
  const ParseOptions& options_;
  std::vector<Diagnostic>* warnings_;
  LineReader lines_{std::string_view()};
  size_t base_ = 0;
  uint32_t line_shift_ = 0;
  LogPrefixCount* prefixes_ = nullptr;

  std::vector<Graph> graphs_;
  // The records' graphs share one pool (ParseIrBlock), as an HLO text's
  // modules do: they repeat one another's node names (`%0`, `%1`, ...),
  // ops, types and attributes. Sealed by SealPools once all are made. The
  // cache keeps what one record read into the pool for the next.
  StringPool pool_;
  IrBlockCache cache_;
  RecordHeader header_;
  // A run's records repeat a few stacks: each is made into a list (and
  // its user frame, which names a graph, found) once, keyed by the text
  // of its lines.
  struct RecordFrames {
    StringList list;
    std::string_view user;  // the innermost frame that is not library code
  };
  const RecordFrames& FramesOf(const std::vector<std::string_view>& frames);
  absl::flat_hash_map<std::string_view, RecordFrames, StringViewHash> frame_lists_;
  bool in_body_ = false;  // after `## BEGIN_GRAPH`, before the body
  // The last record that produced graphs: graphs_[record_begin_, end) and
  // the header and body it had, for folding and for trailing `Graph Hash:`.
  size_t record_begin_ = 0;
  bool have_record_ = false;
  bool folded_ = false;
  RecordHeader prev_header_;
  std::string_view prev_body_;
  static constexpr uint32_t kUncounted = std::numeric_limits<uint32_t>::max();
  uint32_t prev_body_lines_ = kUncounted;  // line breaks in prev_body_
  // Few enough that a record matching none costs little more than a
  // comparison of each one's first line or two.
  static constexpr size_t kKeptBodies = 8;
  ParsedBody kept_bodies_[kKeptBodies];
  size_t kept_count_ = 0;
  size_t next_kept_ = 0;

  // Piece mode (RunPiece): the first record it parsed, and whether a record
  // was skipped before it, for folding across the cut.
  bool piece_ = false;
  bool after_cut_ = false;  // a piece other than the first
  bool last_piece_ = true;
  bool reset_seen_ = false;
  bool piece_span_only_ = false;
  size_t first_size_ = 0;
  RecordHeader first_header_;
  std::string_view first_body_;
  size_t record_warn_begin_ = 0;  // warnings before the record being parsed
  size_t first_warn_begin_ = 0;
  size_t first_warn_end_ = 0;
};

void SaveFileParser::ReserveGraphs(std::string_view first_body) {
  const size_t record_bytes =
      static_cast<size_t>(first_body.data() + first_body.size() - text_.data()) -
      RecordOffset(first_body);
  graphs_.reserve(PredictGraphCount(span_, record_bytes, options_.max_graphs));
}

const SaveFileParser::RecordFrames& SaveFileParser::FramesOf(
    const std::vector<std::string_view>& frames) {
  static const RecordFrames kNone;
  if (frames.empty()) return kNone;
  // The frames are lines of one stretch of the text: the same stretch is
  // the same frames.
  std::string_view lines(frames.front().data(),
                         static_cast<size_t>(frames.back().data() + frames.back().size() -
                                             frames.front().data()));
  auto [it, fresh] = frame_lists_.try_emplace(lines);
  if (fresh) {
    it->second.list = StringList(frames);
    auto user = std::find_if(frames.begin(), frames.end(),
                             [](std::string_view f) { return !IsLibraryFrame(f); });
    if (user != frames.end()) it->second.user = *user;
  }
  return it->second;
}

const SaveFileParser::ParsedBody* SaveFileParser::SeenBody(size_t offset) const {
  const std::string_view rest = text_.substr(offset);
  for (size_t k = 0; k < kept_count_; ++k) {
    const std::string_view body = kept_bodies_[k].body;
    if (rest.size() >= body.size() && std::memcmp(rest.data(), body.data(), body.size()) == 0) {
      return &kept_bodies_[k];
    }
  }
  return nullptr;
}

void SaveFileParser::KeepBody(const ParsedBody& body) {
  kept_bodies_[next_kept_] = body;
  next_kept_ = (next_kept_ + 1) % kKeptBodies;
  kept_count_ = std::min(kept_count_ + 1, kKeptBodies);
}

bool SaveFileParser::FoldIntoPrevious(std::string_view body) {
  if (!have_record_ || body.size() != prev_body_.size() ||
      header_.frames != prev_header_.frames || header_.graph_name != prev_header_.graph_name ||
      std::memcmp(body.data(), prev_body_.data(), body.size()) != 0) {
    return false;
  }
  for (size_t i = record_begin_; i < graphs_.size(); ++i) ++graphs_[i].source.repeat_count;
  folded_ = true;
  header_.Clear();
  return true;
}

absl::Status SaveFileParser::AddGraphs(absl::Span<Graph> graphs, std::string_view body,
                                       uint32_t first_line, uint32_t last_line) {
  if (graphs_.size() + graphs.size() > options_.max_graphs) {
    size_t at = RecordOffset(body);
    return ParseErrorAt(source_, header_.present ? header_.first_line : first_line, 1,
                        LineAt(text_, at),
                        fmt::format("more than {} graphs in one file (ParseOptions::max_graphs)",
                                    options_.max_graphs));
  }
  if (graphs_.empty()) ReserveGraphs(body);
  record_begin_ = graphs_.size();
  const RecordFrames& frames = FramesOf(header_.frames);
  const StringList hashes(header_.hashes);
  for (size_t k = 0; k < graphs.size(); ++k) {
    Graph& g = graphs[k];
    uint32_t index = static_cast<uint32_t>(graphs_.size());
    GraphSource& src = g.source;
    src.file = std::string(source_);
    src.first_line = header_.present ? header_.first_line : first_line;
    src.last_line = last_line;
    if (!header_.graph_name.empty()) src.graph_name = std::string(header_.graph_name);
    src.frames = frames.list;
    src.hashes = hashes;
    src.record_index = index;
    src.repeat_count = 1;
    if (!header_.graph_name.empty()) {
      g.name = std::string(header_.graph_name);
    } else {
      // A piece does not know its graphs' indexes in the file: the join
      // numbers the unnamed ones.
      g.name = !frames.user.empty() ? std::string(frames.user)
               : piece_             ? std::string()
                                    : fmt::format("graph {}", index);
    }
    graphs_.push_back(std::move(g));
  }
  if (piece_ && first_size_ == 0 && !reset_seen_) {
    first_size_ = graphs_.size();
    first_header_ = header_;
    first_body_ = body;
    first_warn_begin_ = record_warn_begin_;
    first_warn_end_ = warnings_ ? warnings_->size() : 0;
  }
  have_record_ = true;
  folded_ = false;
  std::swap(prev_header_, header_);
  header_.Clear();
  prev_body_ = body;
  prev_body_lines_ = kUncounted;
  return absl::OkStatus();
}

absl::Status SaveFileParser::ParseIrRecord(size_t offset, uint32_t line) {
  // A repeat is recognised by its bytes, before any parsing: the previous
  // body runs from `IR {` through its closing brace line.
  if (have_record_ && text_.size() - offset >= prev_body_.size() &&
      FoldIntoPrevious(text_.substr(offset, prev_body_.size()))) {
    // Counted at the first repeat: a pass over every record's body was a
    // tenth of reading a file of small records.
    if (prev_body_lines_ == kUncounted) {
      prev_body_lines_ =
          static_cast<uint32_t>(std::count(prev_body_.begin(), prev_body_.end(), '\n'));
    }
    Seek(offset + prev_body_.size(), line + prev_body_lines_);
    return absl::OkStatus();
  }
  record_warn_begin_ = warnings_ ? warnings_->size() : 0;
  if (const ParsedBody* seen = SeenBody(offset)) {
    const ParsedBody copied = *seen;
    Graph g = CopyParsedGraph(graphs_[copied.graph], pool_.Share(), line - copied.first_line);
    const uint32_t last_line = copied.last_line - copied.first_line + line;
    std::string_view body = text_.substr(offset, copied.body.size());
    if (absl::Status s = AddGraphs(absl::MakeSpan(&g, 1), body, line, last_line); !s.ok()) {
      return s;
    }
    Seek(offset + body.size(), last_line + 1);
    return absl::OkStatus();
  }
  IrBlockEnd end;
  // Whether the parse warned: a warning past the limit only counts.
  const size_t warned = record_warn_begin_;
  const uint32_t counted = warned > 0 ? warnings_->back().count : 0;
  absl::StatusOr<Graph> g =
      ParseIrBlock(text_, offset, line, source_, options_, warnings_, &end, &pool_, &cache_);
  if (!g.ok()) {
    if (end.truncated && !last_piece_) {
      return absl::AbortedError("an IR block runs past the end of its piece");
    }
    if (end.truncated && !graphs_.empty()) {
      Warn(line, "the last record is cut short (no closing '}'); it was skipped");
      ForgetRecord();
      CountSkipped(text_.substr(offset));
      Seek(text_.size(), line);
      return absl::OkStatus();
    }
    return g.status();
  }
  // A block that runs to the end of a piece, its nodes kept as a cut-short
  // graph: the whole-file parse reads on into the next piece.
  if (end.truncated && !last_piece_) {
    return absl::AbortedError("an IR block runs past the end of its piece");
  }
  // The body needs no survey: ParseIrBlock takes an unindented line only
  // when it starts with `%` or `}` (or is an elision), which no log prefix
  // does; at any other it stops, and Loop reads that line next.
  std::string_view body = text_.substr(offset, end.offset - offset);
  const bool quiet = warnings_ == nullptr ||
                     (warnings_->size() == warned &&
                      (warned == 0 || warnings_->back().count == counted));
  const bool keep = quiet && !g->partial && !end.truncated;
  const size_t index = graphs_.size();
  if (absl::Status s = AddGraphs(absl::MakeSpan(&*g, 1), body, line, end.line); !s.ok()) {
    return s;
  }
  if (keep) KeepBody({body, index, line, end.line});
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
    if (!NextLine(&l)) break;
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
    header_.Clear();
    ForgetRecord();
    return absl::OkStatus();
  }
  if (FoldIntoPrevious(body)) return absl::OkStatus();
  size_t warnings_before = warnings_ ? warnings_->size() : 0;
  record_warn_begin_ = warnings_before;
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
  return AddGraphs(absl::MakeSpan(*gs), body, line, last_line);
}

absl::StatusOr<std::vector<Graph>> SaveFileParser::Run() {
  if (IsBlank(text_)) {
    return ParseError(source_, text_, 0, "empty text: expected save-file records");
  }
  Seek(0, 1);
  if (absl::Status s = Loop(); !s.ok()) return s;
  if (graphs_.empty()) {
    return ParseError(source_, text_, 0,
                      "no graph found: expected '[ScheduleSyncTensorsGraph]' records "
                      "or 'IR {' blocks");
  }
  cache_ = IrBlockCache();
  pool_ = StringPool();
  SealPools(graphs_);
  return std::move(graphs_);
}

absl::Status SaveFileParser::RunPiece(size_t begin, size_t end, uint32_t first_line,
                                      bool last) {
  piece_ = true;
  after_cut_ = begin > 0;
  last_piece_ = last;
  span_ = begin == 0 && !piece_span_only_ ? text_.size() : end - begin;
  text_ = text_.substr(0, end);
  Seek(begin, first_line);
  return Loop();
}

absl::Status SaveFileParser::Loop() {
  constexpr char kOrphan[] = "a trailing line of a record in an earlier piece";
  bool in_frames = false;
  std::string_view line;
  while (NextLine(&line)) {
    if (prefixes_ != nullptr && prefixes_->any) return absl::CancelledError("a log prefix");
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
      header_.Clear();
      header_.present = true;
      header_.first_line = line_no;
      header_.first_offset = offset;
    } else if (StartsWith(line, "Graph Name:")) {
      header_.graph_name = Strip(line.substr(strlen("Graph Name:")));
    } else if (StartsWith(line, "TensorsGraphInfo:") ||
               StartsWith(line, "Python Stacktrace:")) {
      in_frames = true;
    } else if (StartsWith(line, "Hashes:")) {
      ParseHashes(line.substr(strlen("Hashes:")), &header_.hashes);
    } else if (StartsWith(line, "Root Hashes:")) {
      ParseHashes(line.substr(strlen("Root Hashes:")), &header_.hashes);
    } else if (StartsWith(line, "## BEGIN_GRAPH")) {
      in_body_ = true;
    } else if (StartsWith(line, "Graph Hash:")) {
      if (Orphan()) return absl::AbortedError(kOrphan);
      std::string hash(Strip(line.substr(strlen("Graph Hash:"))));
      if (have_record_) {
        for (size_t i = record_begin_; i < graphs_.size(); ++i) {
          if (graphs_[i].source.graph_hash.empty()) graphs_[i].source.graph_hash = hash;
        }
        SetLastLine(line_no);
      }
    } else if (StartsWith(line, "## END_GRAPH")) {
      if (Orphan()) return absl::AbortedError(kOrphan);
      if (have_record_) SetLastLine(line_no);
    } else if (StartsWith(line, "#OUTPUT_SHARDING_BEGIN")) {
      if (Orphan()) return absl::AbortedError(kOrphan);
      // Per-output sharding of an HLO record; not part of the graph model.
      bool closed = false;
      while (!closed && NextLine(&line)) closed = StartsWith(line, "#OUTPUT_SHARDING_END");
      if (!closed && !last_piece_) {
        return absl::AbortedError("a sharding block runs past the end of its piece");
      }
      if (have_record_) SetLastLine(lines_.line_number());
    } else {
      Warn(line_no, "ignored a line outside any graph record");
    }
  }
  return absl::OkStatus();
}

bool SameRecord(const RecordHeader& a, std::string_view a_body, const RecordHeader& b,
                std::string_view b_body) {
  return a_body == b_body && a.frames == b.frames && a.graph_name == b.graph_name;
}

// Joins parsed pieces, in order and a wave of them at a time, as one
// parser going through the whole text would have left them.
class PieceJoiner {
 public:
  // `piece_limit` is the warning limit the pieces were parsed under;
  // `warnings`, when not null, the list the pieces' warnings join.
  PieceJoiner(const ParseOptions& options, size_t piece_limit, std::vector<Diagnostic>* warnings)
      : options_(options), piece_limit_(piece_limit), warnings_(warnings) {}

  // Joins the next pieces onto those before; false when a piece's warnings
  // cannot be placed exactly.
  bool Add(absl::Span<const std::unique_ptr<SaveFileParser>> pieces,
           const std::vector<std::vector<Diagnostic>>& piece_warnings);

  // The joined graphs no later piece can change, numbered and named: all of
  // them when `all`, else all but the last record's, into which the next
  // piece's first record may fold.
  std::vector<Graph> Take(bool all);

  size_t joined() const { return taken_ + graphs_.size(); }

 private:
  const ParseOptions& options_;
  const size_t piece_limit_;
  std::vector<Diagnostic>* warnings_;
  std::vector<Graph> graphs_;  // joined, not taken yet
  size_t taken_ = 0;
  // The last record so far: its header, body and first graph in graphs_.
  bool have_ = false;
  RecordHeader header_;
  std::string_view body_;
  size_t begin_ = 0;
};

bool PieceJoiner::Add(absl::Span<const std::unique_ptr<SaveFileParser>> pieces,
                      const std::vector<std::vector<Diagnostic>>& piece_warnings) {
  for (size_t p = 0; p < pieces.size(); ++p) {
    SaveFileParser& piece = *pieces[p];
    std::vector<Graph>& local = piece.graphs();
    size_t skip = 0;
    size_t unsaid_begin = 0, unsaid_end = 0;  // warnings of a record not parsed
    if (have_ && piece.first_record_size() > 0 &&
        SameRecord(header_, body_, piece.first_header(), piece.first_body())) {
      unsaid_begin = piece.first_warnings_begin();
      unsaid_end = piece.first_warnings_end();
      // A full list may have folded them into its tally: they cannot be
      // taken out again.
      if (unsaid_end > unsaid_begin && unsaid_end >= piece_limit_) return false;
      // The piece's first record repeats the last one before the cut: a
      // cache hit that the whole-file parse counts instead of keeping.
      skip = piece.first_record_size();
      for (size_t i = 0; i < skip && begin_ + i < graphs_.size(); ++i) {
        GraphSource& into = graphs_[begin_ + i].source;
        into.repeat_count += local[i].source.repeat_count;
        if (into.graph_hash.empty()) into.graph_hash = local[i].source.graph_hash;
      }
    }
    size_t offset = graphs_.size();
    if (offset == 0 && skip == 0) {
      // The first piece's list was sized for the whole file (ReserveGraphs):
      // the others go on after its graphs, not into a new list. Grown a
      // graph at a time instead, the list moved every graph again at each
      // doubling, on one core: a sixth of the parallel parse.
      size_t total = 0;
      for (size_t q = p; q < pieces.size(); ++q) total += pieces[q]->graphs().size();
      graphs_ = std::move(local);
      graphs_.reserve(total);
    } else {
      // Room for the graphs of this piece and those after it at once:
      // streamed, every wave starts from the last record's graphs kept from
      // the wave before, and grown a graph at a time the list moved each
      // graph again at every doubling.
      size_t total = offset;
      for (size_t q = p; q < pieces.size(); ++q) total += pieces[q]->graphs().size();
      graphs_.reserve(total);
      for (size_t i = skip; i < local.size(); ++i) graphs_.push_back(std::move(local[i]));
    }
    if (!piece.has_record()) {
      if (piece.reset_seen()) have_ = false;
    } else if (piece.record_begin() >= skip) {
      have_ = true;
      header_ = piece.last_header();
      body_ = piece.last_body();
      begin_ = offset + piece.record_begin() - skip;
    }
    for (size_t i = 0; i < piece_warnings[p].size(); ++i) {
      if (i >= unsaid_begin && i < unsaid_end) continue;
      if (warnings_ != nullptr &&
          !MergeWarning(warnings_, options_.max_warnings, piece_warnings[p][i])) {
        return false;
      }
    }
  }
  return true;
}

std::vector<Graph> PieceJoiner::Take(bool all) {
  const size_t keep_from = all || !have_ ? graphs_.size() : begin_;
  std::vector<Graph> out;
  if (keep_from == graphs_.size()) {
    out = std::move(graphs_);
    graphs_.clear();
  } else {
    std::vector<Graph> kept(std::make_move_iterator(graphs_.begin() + keep_from),
                            std::make_move_iterator(graphs_.end()));
    graphs_.resize(keep_from);
    out = std::move(graphs_);
    graphs_ = std::move(kept);
    begin_ = 0;
  }
  for (size_t i = 0; i < out.size(); ++i) {
    Graph& g = out[i];
    g.source.record_index = static_cast<uint32_t>(taken_ + i);
    if (g.name.empty()) g.name = fmt::format("graph {}", taken_ + i);
  }
  taken_ += out.size();
  SealPools(out);
  return out;
}

// Whether `text` holds what StripLogPrefixes takes off (log prefixes, or
// bare rank tags on nearly every line).
bool HoldsLogPrefixes(std::string_view text, const TaskRunner& runner) {
  const LogPrefixSurvey survey = SurveyLogPrefixes(text, &runner);
  return survey.any || survey.rank_tags;
}

// The pieces of `text` parsed on the runner's threads, a wave of
// runner.pieces at a time when streamed (all at once otherwise), and
// joined; the whole text in one piece when they cannot stand alone. With
// `strip`, the text is the file's own, not StripLogPrefixes' copy: the
// parse surveys it for log prefixes as it reads its lines
// (SaveFileParser::CountPrefixes; a survey first was a pass of its own over
// the file, which on one core cost as much as reading it from memory); a
// text that holds any sets *strip and gives no graph (and voids those
// taken), to be read again from the copy. A parse that fails may have
// failed on a prefixed line it did not reach in the survey: the text is
// then surveyed whole before the error stands.
absl::StatusOr<std::vector<Graph>> ParsePieces(std::string_view text, std::string_view source,
                                               const ParseOptions& options,
                                               std::vector<Diagnostic>* warnings,
                                               const TaskRunner& runner,
                                               TextPieces& pieces,
                                               const GraphStream* stream, bool* strip) {
  auto whole_file = [&]() -> absl::StatusOr<std::vector<Graph>> {
    if (strip == nullptr) return ParseSaveFile(text, source, options, warnings);
    const size_t warned = warnings ? warnings->size() : 0;
    LogPrefixCount count;
    SaveFileParser parser(text, source, options, warnings);
    parser.CountPrefixes(&count);
    absl::StatusOr<std::vector<Graph>> graphs = parser.Run();
    if (count.any || (graphs.ok() ? ConcludeSurvey(text, count).rank_tags
                                  : HoldsLogPrefixes(text, runner))) {
      if (warnings) warnings->resize(warned);
      *strip = true;
      return std::vector<Graph>();
    }
    return graphs;
  };
  const size_t n = pieces.count();
  if (n < 2 || IsBlank(text)) return whole_file();
  const size_t wave = stream != nullptr ? std::max<size_t>(1, runner.pieces) : n;
  std::vector<Diagnostic> joined = warnings ? *warnings : std::vector<Diagnostic>();
  PieceJoiner joiner(options, pieces.options.max_warnings, warnings ? &joined : nullptr);
  std::vector<Graph> graphs;
  size_t taken = 0;
  bool whole = true;
  LogPrefixCount prefixes;
  auto void_taken = [&] {
    if (taken > 0) stream->restart();
    taken = 0;
  };
  for (size_t first = 0; first < n && whole; first += wave) {
    const size_t m = std::min(wave, n - first);
    std::vector<std::vector<Diagnostic>> piece_warnings(m);
    std::vector<std::unique_ptr<SaveFileParser>> parsers(m);
    auto parse = [&](size_t p, uint32_t first_line, LogPrefixCount* count) {
      parsers[p] = std::make_unique<SaveFileParser>(text, source, pieces.options,
                                                    warnings ? &piece_warnings[p] : nullptr);
      // Streamed, no piece holds the whole file's graphs.
      if (stream != nullptr) parsers[p]->SizeForPieceOnly();
      if (count != nullptr) parsers[p]->CountPrefixes(count);
      const size_t at = first + p;
      return parsers[p]->RunPiece(pieces.bounds[at], pieces.bounds[at + 1], first_line,
                                  at + 1 == n);
    };
    std::vector<absl::Status> status(m);
    std::vector<LogPrefixCount> counts(m);
    runner.run(m, [&](size_t p) {
      status[p] = parse(p, p == 0 ? pieces.first_line[first] : kUnnumbered,
                        strip != nullptr ? &counts[p] : nullptr);
    });
    for (const LogPrefixCount& count : counts) prefixes.Add(count);
    if (prefixes.any) {
      void_taken();
      *strip = true;
      return std::vector<Graph>();
    }
    whole = std::all_of(status.begin(), status.end(),
                        [](const absl::Status& s) { return s.ok(); });
    // The pieces after the first to their lines (parse_parallel.h:
    // kUnnumbered); the prefix counts of the first parse stand.
    for (size_t p = 1; p < m && whole; ++p) {
      const uint32_t at = parsers[p - 1]->next_line();
      pieces.first_line[first + p] = at;
      if (ShiftWarnings(absl::MakeSpan(piece_warnings[p]), at - kUnnumbered)) {
        parsers[p]->ShiftLines(at - kUnnumbered);
      } else {
        piece_warnings[p].clear();
        whole = parse(p, at, nullptr).ok();
      }
    }
    if (whole && first + m < n) pieces.first_line[first + m] = parsers[m - 1]->next_line();
    size_t total = joiner.joined();
    for (const auto& parser : parsers) total += parser->graphs().size();
    // Errors (and the graph limit) are reported as the whole-file parse
    // reports them: from where it stops.
    whole = whole && total <= options.max_graphs && joiner.Add(parsers, piece_warnings);
    if (!whole) break;
    parsers.clear();
    const bool last = first + m == n;
    if (stream == nullptr) {
      if (last) graphs = joiner.Take(true);
      continue;
    }
    std::vector<Graph> batch = joiner.Take(last);
    taken += batch.size();
    if (!batch.empty()) stream->take(batch);
  }
  if (whole && strip != nullptr && ConcludeSurvey(text, prefixes).rank_tags) {
    void_taken();
    *strip = true;
    return std::vector<Graph>();
  }
  if (whole && (stream != nullptr ? taken : graphs.size()) > 0) {
    if (warnings) *warnings = std::move(joined);
    return graphs;
  }
  void_taken();
  graphs.clear();
  return whole_file();
}

// ParsePieces of the pieces the runner cuts `text` into, all at once.
absl::StatusOr<std::vector<Graph>> ParseInPieces(std::string_view text, std::string_view source,
                                                 const ParseOptions& options,
                                                 std::vector<Diagnostic>* warnings,
                                                 const TaskRunner& runner, bool* strip) {
  TextPieces pieces = CutTextUnnumbered(text, PieceCount(text, runner), options, kSaveFileCut);
  return ParsePieces(text, source, options, warnings, runner, pieces, nullptr, strip);
}

}  // namespace

CutLine SaveFileCutRule() { return kSaveFileCut; }

std::vector<size_t> SaveFileCuts(std::string_view text, size_t pieces) {
  return LineCuts(text, pieces, kSaveFileCut);
}

absl::StatusOr<std::vector<Graph>> ParseSaveFileParallel(std::string_view text,
                                                         std::string_view source,
                                                         const ParseOptions& options,
                                                         std::vector<Diagnostic>* warnings,
                                                         const TaskRunner& runner,
                                                         bool* strip) {
  return ParseInPieces(text, source, options, warnings, runner, strip);
}

absl::StatusOr<std::vector<Graph>> ParseSaveFileStreamed(std::string_view text,
                                                         std::string_view source,
                                                         const ParseOptions& options,
                                                         std::vector<Diagnostic>* warnings,
                                                         const TaskRunner& runner,
                                                         const GraphStream& stream,
                                                         bool* strip) {
  const size_t count = StreamPieceCount(text, runner);
  if (count < 2) return ParseInPieces(text, source, options, warnings, runner, strip);
  TextPieces pieces = CutTextUnnumbered(text, count, options, kSaveFileCut);
  return ParsePieces(text, source, options, warnings, runner, pieces, &stream, strip);
}

absl::StatusOr<std::vector<Graph>> ParseSaveFile(std::string_view text,
                                                 std::string_view source,
                                                 const ParseOptions& options,
                                                 std::vector<Diagnostic>* warnings) {
  SaveFileParser parser(text, source, options, warnings);
  return parser.Run();
}

}  // namespace graphdiff
