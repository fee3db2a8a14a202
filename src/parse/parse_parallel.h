// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Parsing one large text on several threads: a save file of many records is
// cut at record boundaries (FX and HLO dumps where a graph or module
// starts; a cheap scan), the pieces are parsed on the
// caller's threads, and the results are joined in order. The result is the
// one ParseText gives, byte for byte, whatever the number of pieces: a piece
// that cannot be parsed on its own (a record running across the cut, an
// error) makes the whole text parse in one piece.
#ifndef GRAPHDIFF_SRC_PARSE_PARSE_PARALLEL_H_
#define GRAPHDIFF_SRC_PARSE_PARSE_PARALLEL_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "graphdiff/graph.h"
#include "graphdiff/parse.h"

namespace graphdiff {

struct FxLineTally;  // parse/fx_lexer.h

// Runs task(0) .. task(n - 1), possibly at once, and returns when all are
// done. `pieces` is how many pieces a large text is cut into.
struct TaskRunner {
  std::function<void(size_t n, const std::function<void(size_t)>& task)> run;
  size_t pieces = 1;
  // Texts smaller than this are not cut: a piece should outweigh its task.
  size_t min_piece_bytes = 4u << 20;
};

// Offsets where a save file may be cut into at most `pieces` pieces of
// similar size: the start of a record header line (`[ScheduleSyncTensorsGraph]`)
// or of an `IR {` line that directly follows a closed block. Sorted, the
// first is 0.
std::vector<size_t> SaveFileCuts(std::string_view text, size_t pieces);

// ParseSaveFile, on the runner's threads. `strip`: as for
// ParseSaveFileStreamed below.
absl::StatusOr<std::vector<Graph>> ParseSaveFileParallel(std::string_view text,
                                                         std::string_view source,
                                                         const ParseOptions& options,
                                                         std::vector<Diagnostic>* warnings,
                                                         const TaskRunner& runner,
                                                         bool* strip = nullptr);

// Where a parse hands out its graphs a stretch of the text at a time, for a
// caller that reads each graph once (`graphdiff stats`): it then holds the
// graphs of a few pieces, not of the whole file. Graphs built and dropped
// reuse their memory; a save file of small records held twice its size in
// graphs, and taking that much fresh memory from the kernel was a quarter
// of reading it.
struct GraphStream {
  // The next graphs of the text, final (numbered, folded, named), in order;
  // the callee may move from them.
  std::function<void(std::vector<Graph>& graphs)> take;
  // What was taken so far is void: a piece could not stand alone, and the
  // text is parsed again, in one piece, from its start.
  std::function<void()> restart;
};

// ParseSaveFileParallel and ParseFxCodeParallel, handing the graphs to
// `stream` a wave of pieces (runner.pieces of them, each of about
// runner.min_piece_bytes) at a time. Either every graph went to the stream
// and the list returned is empty, or (a text of under two pieces, a piece
// that could not stand alone, an error) the text was parsed as the
// unstreamed parse parses it, restart() was called if anything had been
// taken, and the list holds every graph. Warnings and errors are the
// unstreamed parse's.
//
// With `strip`, `text` is a file's own text, which may hold log prefixes:
// each piece is surveyed for them as it is parsed (SurveyLogPrefixes'
// rules). When the text holds any, *strip is set, nothing is kept or
// warned (restart() voids what was taken) and the caller parses
// StripLogPrefixes' copy instead.
absl::StatusOr<std::vector<Graph>> ParseSaveFileStreamed(std::string_view text,
                                                         std::string_view source,
                                                         const ParseOptions& options,
                                                         std::vector<Diagnostic>* warnings,
                                                         const TaskRunner& runner,
                                                         const GraphStream& stream,
                                                         bool* strip = nullptr);

// Where a format's text may be cut. `is_cut(line, last non-blank line
// before it)` decides for a line (without its line break). `skip`, when
// set, is the start of the first line at or after `pos` (a line start) that
// is_cut could take, text.size() when none: the lines it passes are never
// cuts. A text of one big graph has no cut, and without a skip the search
// read every line after the first cut's place; the few lines a format cuts
// at are found at memory speed.
struct CutLine {
  using IsCut = bool (*)(std::string_view line, std::string_view previous);
  using Skip = size_t (*)(std::string_view text, size_t pos);
  CutLine(IsCut is_cut, Skip skip = nullptr) : is_cut(is_cut), skip(skip) {}  // NOLINT
  IsCut is_cut;
  Skip skip;
};

// Offsets of at most `pieces` - 1 lines, near equal steps through `text`,
// where `rule` cuts; sorted, the first is 0.
std::vector<size_t> LineCuts(std::string_view text, size_t pieces, CutLine rule);

// The rules FxCodeCuts, HloTextCuts and SaveFileCuts cut by.
CutLine FxCutRule();
CutLine HloCutRule();
CutLine SaveFileCutRule();

// How many pieces `runner` cuts `text` into: at most runner.pieces, each of
// at least runner.min_piece_bytes.
size_t PieceCount(std::string_view text, const TaskRunner& runner);

// Room to reserve, once, in a list of the graphs of `span` bytes whose first
// graph (or record) took `first_bytes`: a quarter more than that predicts
// (graphs vary), never more than a graph per 64 bytes, nor max_graphs. Room
// past the last graph is never written, so it takes no page.
size_t PredictGraphCount(size_t span, size_t first_bytes, size_t max_graphs);

// A text cut for parsing in pieces: piece p is text(all, p) and starts at
// line first_line[p]. `options` are the caller's with one more warning
// allowed, so that a piece lists every warning the whole list could still
// have room for before its tally.
struct TextPieces {
  std::vector<size_t> bounds;  // count() + 1 offsets, the last text.size()
  std::vector<uint32_t> first_line;
  ParseOptions options;
  size_t count() const { return first_line.size(); }
  std::string_view text(std::string_view all, size_t p) const {
    return all.substr(bounds[p], bounds[p + 1] - bounds[p]);
  }
};
// Cuts `text` with LineCuts into at most runner.pieces pieces of at least
// runner.min_piece_bytes, counting lines on the runner's threads.
TextPieces CutText(std::string_view text, const ParseOptions& options, const TaskRunner& runner,
                   CutLine is_cut);
// Cuts `text` into at most `pieces` pieces without counting lines ahead:
// only first_line[0] is known (1). A parse of waves of pieces numbers each
// wave's pieces as their parses tell where the piece before ended
// (kUnnumbered below), and the piece after a wave starts where the wave's
// last piece ended. No line is counted twice: the count was a pass of its
// own over a text too big for the cache, a tenth of reading a log of FX
// graphs.
TextPieces CutTextUnnumbered(std::string_view text, size_t pieces, const ParseOptions& options,
                             CutLine is_cut);
// How a parse of waves of pieces numbers them (CutTextUnnumbered): the
// pieces of a wave after its first are parsed numbered from line 1, and
// moved to their lines (ShiftLines, ShiftWarnings) once the piece before
// each has told where it ended. A count ahead was a pass over the piece on
// one thread while the others waited, a tenth of reading a save file of
// small records on two. A piece with a warning that names a line in its
// words ("the IR block opened on line 12") is parsed again from its line
// instead.
constexpr uint32_t kUnnumbered = 1;
// Moves graphs parsed numbered from line 1 `delta` lines on: their nodes'
// and sources' lines (a line 0, none known, stays 0).
void ShiftLines(absl::Span<Graph> graphs, uint32_t delta);
// What parsing `from`'s text again `delta` lines further on would build:
// its nodes, types, inputs, outputs, kind and lines, with `strings` (a
// handle on the pool `from`'s ids are of); not its name or other source
// fields. For parsers that copy a graph whose text repeats.
Graph CopyParsedGraph(const Graph& from, StringPool strings, uint32_t delta);
// Whether a warning's message names a line, which moving the warning would
// not move: every parser's message that does says `line N` ("first defined
// on line 7", "(line 12)").
bool NamesALine(const Diagnostic& warning);
// Moves warnings' lines as ShiftLines moves graphs'; false, and nothing
// moved, when a warning's message names a line.
bool ShiftWarnings(absl::Span<Diagnostic> warnings, uint32_t delta);
// How many pieces a streamed parse cuts `text` into: pieces of about
// runner.min_piece_bytes; under 2, the text is not streamed.
size_t StreamPieceCount(std::string_view text, const TaskRunner& runner);

// Offsets where an FX dump may be cut into at most `pieces` pieces: a line
// the parse reads at column 0 once its log prefix is off (`def forward(`,
// `class`, a TORCH_LOGS `TRACED GRAPH` line), not after a banner or a line
// continued by a backslash. Sorted, the first is 0.
std::vector<size_t> FxCodeCuts(std::string_view text, size_t pieces);
// The same for HLO text: lines that start a module (`HloModule`).
std::vector<size_t> HloTextCuts(std::string_view text, size_t pieces);

// ParseFxCode and ParseHloText, on the runner's threads: the text is cut
// at FxCodeCuts or where an `HloModule` starts (text_parallel.cc). The FX
// parse also gives what its lines hold, as ParseFxCodeCounted does.
absl::StatusOr<std::vector<Graph>> ParseFxCodeParallel(std::string_view text,
                                                       std::string_view source,
                                                       const ParseOptions& options,
                                                       std::vector<Diagnostic>* warnings,
                                                       const TaskRunner& runner,
                                                       FxLineTally* tally = nullptr);
absl::StatusOr<std::vector<Graph>> ParseFxCodeStreamed(std::string_view text,
                                                       std::string_view source,
                                                       const ParseOptions& options,
                                                       std::vector<Diagnostic>* warnings,
                                                       const TaskRunner& runner,
                                                       FxLineTally* tally,
                                                       const GraphStream& stream);
absl::StatusOr<std::vector<Graph>> ParseHloTextParallel(std::string_view text,
                                                        std::string_view source,
                                                        const ParseOptions& options,
                                                        std::vector<Diagnostic>* warnings,
                                                        const TaskRunner& runner);

// ParseText, with save files, FX dumps and HLO dumps parsed on the runner's
// threads.
absl::StatusOr<ParsedText> ParseTextParallel(std::string_view text, std::string_view source,
                                             const ParseOptions& options,
                                             const TaskRunner& runner);

// What DetectFormat sees in a text's head, kept so a caller that must know
// the format before parsing (the loader skips what is no dump) need not
// read the head again: on a directory of small files, detection read each
// whole file, twice, and a third time for an FX graph inside an IR log.
struct Detection {
  DumpFormat format = DumpFormat::kUnknown;
  bool fx_forward = false;  // a `def forward(` line within the head
  bool whole = false;       // the head was the whole text
  bool binary = false;      // NUL bytes or many control characters (format unknown)
};
Detection Detect(std::string_view text);

// ParseText / ParseTextParallel (runner may be null) of a text already
// detected by Detect(text). With a stream (and a runner), a save file's or
// an FX dump's graphs may go to it (ParseSaveFileStreamed) instead of into
// the result; the graphs left in the result come after them.
absl::StatusOr<ParsedText> ParseDetected(std::string_view text, const Detection& detection,
                                         std::string_view source, const ParseOptions& options,
                                         const TaskRunner* runner,
                                         const GraphStream* stream = nullptr);

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_PARSE_PARSE_PARALLEL_H_
