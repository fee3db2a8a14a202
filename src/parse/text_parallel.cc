// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// FX dumps of many graphs and HLO dumps of many modules on several threads:
// the text is cut where a graph or module starts, the pieces are parsed at
// once, and the results are joined as the one-piece parse would have left
// them. A piece that cannot stand alone (an error, a graph or computation
// running across a cut, a banner left for the next piece's graph, a warning
// tally that cannot be placed) makes the whole text parse in one piece, so
// the output never depends on the number of pieces.
#include <algorithm>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "parse/error.h"
#include "parse/fx_unwrap.h"
#include "parse/hlo_module.h"
#include "parse/line_starts.h"
#include "parse/parse_parallel.h"

namespace graphdiff {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool IsBlankLine(std::string_view line) {
  return line.find_first_not_of(" \t\r\f") == std::string_view::npos;
}

// The last non-blank line of `lines` (whole lines, the last one's break
// optional), without its line break; `fallback` when all are blank.
std::string_view LastNonBlankLine(std::string_view lines, std::string_view fallback) {
  if (!lines.empty() && lines.back() == '\n') lines.remove_suffix(1);
  while (!lines.empty()) {
    const size_t nl = lines.rfind('\n');
    std::string_view line = nl == std::string_view::npos ? lines : lines.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!IsBlankLine(line)) return line;
    if (nl == std::string_view::npos) break;
    lines = lines.substr(0, nl);
  }
  return fallback;
}

// A line the FX parse reads at column 0 once the log prefix is off
// (`def forward(`, `class GraphModule`, `TRACED GRAPH` after a TORCH_LOGS
// prefix, any log line): it ends every def body and every class the parse
// had open, so what follows parses the same alone. Only the banner waiting
// for a graph crosses it: no cut right after a banner, and a banner still
// waiting at a piece's end makes ParseFxCodeParallel parse the text whole.
// Not after a line continued by a backslash, which could carry the
// statement before into it; a statement whose brackets are still open fails
// the piece before (the lexer reports them at its end), and the text then
// parses whole.
bool IsFxCut(std::string_view line, std::string_view previous) {
  while (!previous.empty() && (previous.back() == '\r' || previous.back() == ' ' ||
                               previous.back() == '\t')) {
    previous.remove_suffix(1);
  }
  if (!previous.empty() && previous.back() == '\\') return false;
  const std::string_view text = line.substr(FxLinePrefixLength(line));
  if (FxIndent(text) != 0 || FxIsBlank(text)) return false;
  const std::string_view before = previous.substr(FxLinePrefixLength(previous));
  return FxBannerName(before.substr(FxIndent(before))).empty();
}

// An `HloModule` line: a new module, outside any computation unless the
// text is malformed there (then the piece before it fails).
bool IsHloCut(std::string_view line, std::string_view) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  line.remove_prefix(i);
  return StartsWith(line, "HloModule") &&
         (line.size() == 9 || line[9] == ' ' || line[9] == '\t' || line[9] == '\r' ||
          line[9] == ',');
}

// Only a line at column 0 can be an FX cut: after a blank the log prefix
// is empty and the indent is not.
const CutLine kFxCut(IsFxCut, NextUnindentedLine);

// The start of the line holding the next `HloModule` at or after `pos`.
size_t NextHloModuleLine(std::string_view text, size_t pos) {
  const size_t at = text.find("HloModule", pos);
  if (at == std::string_view::npos) return text.size();
  const size_t nl = text.rfind('\n', at);
  return nl == std::string_view::npos || nl < pos ? pos : nl + 1;
}
const CutLine kHloCut(IsHloCut, NextHloModuleLine);

// `warnings` followed by the pieces' lists, as one parser adding them in
// that order under `max_warnings` would have left them; false when a tally
// cannot be placed. A null `warnings` takes nothing. `joined` may be
// `warnings` itself.
bool JoinWarnings(const std::vector<Diagnostic>* warnings, size_t max_warnings,
                  std::vector<std::vector<Diagnostic>>& lists, std::vector<Diagnostic>* joined) {
  if (warnings == nullptr) return true;
  if (warnings != joined) *joined = *warnings;  // the same list: the lists go on after it
  for (std::vector<Diagnostic>& list : lists) {
    for (Diagnostic& d : list) {
      if (!MergeWarning(joined, max_warnings, std::move(d))) return false;
    }
  }
  return true;
}

// The pieces' graphs in order, numbered as one list from `first_index`.
std::vector<Graph> JoinGraphs(std::vector<std::vector<Graph>>& pieces, size_t first_index = 0) {
  size_t total = 0;
  for (const std::vector<Graph>& piece : pieces) total += piece.size();
  // The first piece's list, grown by doubling, often has room for the rest:
  // moving every graph into a new list wrote as much fresh memory again.
  std::vector<Graph> out;
  if (!pieces.empty()) out = std::move(pieces[0]);
  out.reserve(total);
  for (size_t p = 1; p < pieces.size(); ++p) {
    for (Graph& g : pieces[p]) out.push_back(std::move(g));
  }
  for (size_t i = 0; i < out.size(); ++i) {
    out[i].source.record_index = static_cast<uint32_t>(first_index + i);
  }
  return out;
}

bool AllOk(const std::vector<absl::Status>& status) {
  return std::all_of(status.begin(), status.end(),
                     [](const absl::Status& s) { return s.ok(); });
}

// first_line of pieces first + 1 .. first + m - 1, counted on the runner's
// threads; first_line[first] must be known.
void NumberWave(std::string_view text, size_t first, size_t m, const TaskRunner& runner,
                TextPieces* pieces) {
  if (m < 2) return;
  // Newlines counted piece by piece, at once; the wave's last piece is not
  // counted: nothing in the wave starts after it.
  std::vector<uint32_t> newlines(m - 1, 0);
  const std::vector<size_t>& bounds = pieces->bounds;
  runner.run(m - 1, [&](size_t p) {
    newlines[p] = static_cast<uint32_t>(std::count(text.begin() + bounds[first + p],
                                                   text.begin() + bounds[first + p + 1], '\n'));
  });
  for (size_t p = 1; p < m; ++p) {
    pieces->first_line[first + p] = pieces->first_line[first + p - 1] + newlines[p - 1];
  }
}

}  // namespace

TextPieces CutText(std::string_view text, const ParseOptions& options, const TaskRunner& runner,
                   CutLine rule) {
  TextPieces out = CutTextUnnumbered(text, PieceCount(text, runner), options, rule);
  NumberWave(text, 0, out.count(), runner, &out);
  return out;
}

TextPieces CutTextUnnumbered(std::string_view text, size_t pieces, const ParseOptions& options,
                             CutLine rule) {
  TextPieces out;
  out.bounds = LineCuts(text, pieces, rule);
  out.first_line.assign(out.bounds.size(), 0);
  out.first_line[0] = 1;
  out.bounds.push_back(text.size());
  out.options = options;
  if (out.options.max_warnings > 0 &&
      out.options.max_warnings < std::numeric_limits<size_t>::max()) {
    ++out.options.max_warnings;
  }
  return out;
}


void ShiftLines(absl::Span<Graph> graphs, uint32_t delta) {
  auto shift = [delta](uint32_t& line) { line += line != 0 ? delta : 0; };
  for (Graph& g : graphs) {
    shift(g.source.first_line);
    shift(g.source.last_line);
    for (Node& n : g.nodes) shift(n.line);
  }
}

Graph CopyParsedGraph(const Graph& from, StringPool strings, uint32_t delta) {
  Graph g;
  g.kind = from.kind;
  g.strings = std::move(strings);
  g.nodes = from.nodes;
  g.types = from.types;
  g.inputs = from.inputs;
  g.outputs = from.outputs;
  g.partial = from.partial;
  g.source.first_line = from.source.first_line;
  g.source.last_line = from.source.last_line;
  ShiftLines(absl::MakeSpan(&g, 1), delta);
  return g;
}

bool NamesALine(const Diagnostic& warning) {
  constexpr std::string_view kLine = "line ";
  const std::string& m = warning.message;
  for (size_t at = m.find(kLine); at != std::string::npos; at = m.find(kLine, at + 1)) {
    const size_t digit = at + kLine.size();
    if (digit < m.size() && m[digit] >= '0' && m[digit] <= '9') return true;
  }
  return false;
}

bool ShiftWarnings(absl::Span<Diagnostic> warnings, uint32_t delta) {
  if (std::any_of(warnings.begin(), warnings.end(), NamesALine)) return false;
  for (Diagnostic& d : warnings) d.line += d.line != 0 ? delta : 0;
  return true;
}

size_t PieceCount(std::string_view text, const TaskRunner& runner) {
  return std::min(runner.pieces, text.size() / std::max<size_t>(runner.min_piece_bytes, 1));
}

size_t StreamPieceCount(std::string_view text, const TaskRunner& runner) {
  return text.size() / std::max<size_t>(runner.min_piece_bytes, 1);
}

size_t PredictGraphCount(size_t span, size_t first_bytes, size_t max_graphs) {
  const size_t predicted = span / std::max<size_t>(first_bytes, 64);
  return std::min(predicted + predicted / 4 + 16, max_graphs);
}

std::vector<size_t> LineCuts(std::string_view text, size_t pieces, CutLine rule) {
  std::vector<size_t> cuts{0};
  if (pieces < 2) return cuts;
  const size_t step = text.size() / pieces;
  for (size_t p = 1; p < pieces; ++p) {
    size_t at = std::max(p * step, cuts.back() + 1);
    if (at >= text.size()) break;
    // Start at the line after `at`; the line before it may decide.
    size_t nl = text.find('\n', at - 1);
    if (nl == std::string_view::npos) break;
    size_t prev_begin = text.rfind('\n', nl == 0 ? 0 : nl - 1);
    prev_begin = prev_begin == std::string_view::npos || nl == 0 ? 0 : prev_begin + 1;
    std::string_view previous = text.substr(prev_begin, nl - prev_begin);
    size_t pos = nl + 1;
    while (pos < text.size()) {
      if (rule.skip != nullptr) {
        const size_t next = rule.skip(text, pos);
        previous = LastNonBlankLine(text.substr(pos, next - pos), previous);
        pos = next;
        if (pos >= text.size()) break;
      }
      size_t end = text.find('\n', pos);
      if (end == std::string_view::npos) end = text.size();
      std::string_view line = text.substr(pos, end - pos);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      if (rule.is_cut(line, previous)) break;
      if (!IsBlankLine(line)) previous = line;
      pos = end + 1;
    }
    if (pos >= text.size()) break;
    if (pos > cuts.back()) cuts.push_back(pos);
  }
  return cuts;
}

CutLine FxCutRule() { return kFxCut; }
CutLine HloCutRule() { return kHloCut; }

std::vector<size_t> FxCodeCuts(std::string_view text, size_t pieces) {
  return LineCuts(text, pieces, kFxCut);
}

std::vector<size_t> HloTextCuts(std::string_view text, size_t pieces) {
  return LineCuts(text, pieces, kHloCut);
}

namespace {

// Parses pieces first .. first + m - 1 of `pieces` at once, the first from
// its line and the others numbered from kUnnumbered, then moves those to
// their lines: false when a piece fails.
bool ParseFxWave(std::string_view text, std::string_view source, bool warn,
                 const TaskRunner& runner, TextPieces& pieces, size_t first,
                 std::vector<FxPiece>& parts, std::vector<std::vector<Diagnostic>>& warnings) {
  const size_t m = parts.size();
  auto parse = [&](size_t p, uint32_t first_line) {
    return ParseFxPiece(pieces.text(text, first + p), first_line, source, pieces.options,
                        warn ? &warnings[p] : nullptr, &parts[p]);
  };
  std::vector<absl::Status> status(m);
  runner.run(m, [&](size_t p) {
    status[p] = parse(p, p == 0 ? pieces.first_line[first] : kUnnumbered);
  });
  if (!AllOk(status)) return false;
  for (size_t p = 1; p < m; ++p) {
    const uint32_t at = parts[p - 1].next_line;
    pieces.first_line[first + p] = at;
    if (ShiftWarnings(absl::MakeSpan(warnings[p]), at - kUnnumbered)) {
      ShiftLines(absl::MakeSpan(parts[p].graphs), at - kUnnumbered);
      parts[p].next_line += at - kUnnumbered;
    } else {
      warnings[p].clear();
      const size_t span = parts[p].span;
      parts[p] = FxPiece();
      parts[p].span = span;
      if (!parse(p, at).ok()) return false;
    }
  }
  return true;
}

}  // namespace

absl::StatusOr<std::vector<Graph>> ParseFxCodeParallel(std::string_view text,
                                                       std::string_view source,
                                                       const ParseOptions& options,
                                                       std::vector<Diagnostic>* warnings,
                                                       const TaskRunner& runner,
                                                       FxLineTally* tally) {
  TextPieces pieces = CutTextUnnumbered(text, PieceCount(text, runner), options, kFxCut);
  const size_t n = pieces.count();
  if (n < 2 || FxTextIsEmpty(text)) {
    return ParseFxCodeCounted(text, source, options, warnings, tally);
  }
  std::vector<FxPiece> parts(n);
  parts[0].span = text.size();
  std::vector<std::vector<Diagnostic>> piece_warnings(n);
  bool joinable = ParseFxWave(text, source, warnings != nullptr, runner, pieces, 0, parts,
                              piece_warnings);
  size_t total = 0, outside = 0;
  FxLineTally lines;
  std::vector<std::vector<Graph>> graphs(n);
  for (size_t p = 0; p < n; ++p) {
    total += parts[p].graphs.size();
    outside += parts[p].outside;
    lines.Add(parts[p].tally);
    graphs[p] = std::move(parts[p].graphs);
    // A banner names the next top-level graph, which is in a later piece.
    if (p + 1 < n && !parts[p].banner.empty()) joinable = false;
  }
  std::vector<Diagnostic> joined;
  // Errors, an empty dump and the graph limit are reported as the one-piece
  // parse reports them.
  if (!joinable || total == 0 || total > options.max_graphs ||
      !JoinWarnings(warnings, options.max_warnings, piece_warnings, &joined)) {
    return ParseFxCodeCounted(text, source, options, warnings, tally);
  }
  std::vector<Graph> out = JoinGraphs(graphs);
  if (warnings) {
    AddFxOutsideWarning(&joined, options.max_warnings, source, outside);
    *warnings = std::move(joined);
  }
  if (tally != nullptr) *tally = lines;
  return out;
}

absl::StatusOr<std::vector<Graph>> ParseFxCodeStreamed(std::string_view text,
                                                       std::string_view source,
                                                       const ParseOptions& options,
                                                       std::vector<Diagnostic>* warnings,
                                                       const TaskRunner& runner,
                                                       FxLineTally* tally,
                                                       const GraphStream& stream) {
  const size_t count = StreamPieceCount(text, runner);
  if (count < 2 || FxTextIsEmpty(text)) {
    return ParseFxCodeParallel(text, source, options, warnings, runner, tally);
  }
  TextPieces pieces = CutTextUnnumbered(text, count, options, kFxCut);
  const size_t n = pieces.count();
  if (n < 2) return ParseFxCodeParallel(text, source, options, warnings, runner, tally);
  const size_t wave = std::max<size_t>(1, runner.pieces);
  std::vector<Diagnostic> joined = warnings ? *warnings : std::vector<Diagnostic>();
  size_t taken = 0, outside = 0;
  FxLineTally lines;
  bool joinable = true;
  for (size_t first = 0; first < n && joinable; first += wave) {
    const size_t m = std::min(wave, n - first);
    std::vector<FxPiece> parts(m);
    std::vector<std::vector<Diagnostic>> piece_warnings(m);
    joinable = ParseFxWave(text, source, warnings != nullptr, runner, pieces, first, parts,
                           piece_warnings);
    if (joinable && first + m < n) pieces.first_line[first + m] = parts[m - 1].next_line;
    size_t total = taken;
    std::vector<std::vector<Graph>> graphs(m);
    for (size_t p = 0; p < m && joinable; ++p) {
      total += parts[p].graphs.size();
      outside += parts[p].outside;
      lines.Add(parts[p].tally);
      graphs[p] = std::move(parts[p].graphs);
      if (first + p + 1 < n && !parts[p].banner.empty()) joinable = false;
    }
    joinable = joinable && total <= options.max_graphs &&
               JoinWarnings(warnings ? &joined : nullptr, options.max_warnings, piece_warnings,
                            &joined);
    if (!joinable) break;
    std::vector<Graph> batch = JoinGraphs(graphs, taken);
    taken += batch.size();
    if (!batch.empty()) stream.take(batch);
  }
  // An empty dump, errors and the rest are reported as the one-piece parse
  // reports them.
  if (!joinable || taken == 0) {
    if (taken > 0) stream.restart();
    return ParseFxCodeCounted(text, source, options, warnings, tally);
  }
  if (warnings) {
    AddFxOutsideWarning(&joined, options.max_warnings, source, outside);
    *warnings = std::move(joined);
  }
  if (tally != nullptr) *tally = lines;
  return std::vector<Graph>();
}

absl::StatusOr<std::vector<Graph>> ParseHloTextParallel(std::string_view text,
                                                        std::string_view source,
                                                        const ParseOptions& options,
                                                        std::vector<Diagnostic>* warnings,
                                                        const TaskRunner& runner) {
  const TextPieces pieces = CutText(text, options, runner, kHloCut);
  const size_t n = pieces.count();
  if (n < 2) return ParseHloText(text, source, options, warnings);
  // The one-piece parse outlines every module before it builds any: its
  // outline warnings all come first.
  std::vector<std::vector<Diagnostic>> outline_warnings(n), build_warnings(n);
  std::vector<std::vector<Graph>> graphs(n);
  std::vector<absl::Status> status(n);
  runner.run(n, [&](size_t p) {
    absl::StatusOr<std::vector<Graph>> built = ParseHloRange(
        text, pieces.bounds[p], pieces.bounds[p + 1], pieces.first_line[p], p + 1 == n, source,
        pieces.options, warnings ? &outline_warnings[p] : nullptr,
        warnings ? &build_warnings[p] : nullptr);
    if (built.ok()) {
      graphs[p] = *std::move(built);
    } else {
      status[p] = built.status();
    }
  });
  size_t total = 0;
  for (const std::vector<Graph>& g : graphs) total += g.size();
  outline_warnings.insert(outline_warnings.end(), std::make_move_iterator(build_warnings.begin()),
                          std::make_move_iterator(build_warnings.end()));
  std::vector<Diagnostic> joined;
  if (!AllOk(status) || total == 0 || total > options.max_graphs ||
      !JoinWarnings(warnings, options.max_warnings, outline_warnings, &joined)) {
    return ParseHloText(text, source, options, warnings);
  }
  std::vector<Graph> out = JoinGraphs(graphs);
  if (warnings) *warnings = std::move(joined);
  return out;
}

}  // namespace graphdiff
