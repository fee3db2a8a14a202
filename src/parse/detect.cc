// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Content-based format detection and the ParseText dispatcher. Names lie
// (`graphs.txt.0`, `dump.log`, `out.txt`); content does not.
#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "graphdiff/parse.h"
#include "parse/error.h"
#include "parse/fx_unwrap.h"
#include "parse/lines.h"
#include "parse/parse_parallel.h"
#include "parse/log_prefix.h"
#include "util/absl_sv.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace graphdiff {
namespace {

// Enough to see past a log preamble and a save-file record header.
constexpr size_t kSniffBytes = 256 * 1024;

// A NUL byte, or more than one byte in twenty a control character other
// than a line break, tab or form feed, in the first 8 KiB. Sixteen bytes a
// step: a directory's files are detected one by one, and the byte loop was
// 4% of the instructions of `stats` of a directory of small graphs.
bool LooksBinary(std::string_view head) {
  const std::string_view h = head.substr(0, 8192);
  const char* p = h.data();
  const size_t n = h.size();
  size_t control = 0, i = 0;
#if defined(__SSE2__)
  const __m128i below_space = _mm_set1_epi8(0x1f);
  const __m128i zero = _mm_setzero_si128();
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
  const __m128i tab = _mm_set1_epi8('\t'), ff = _mm_set1_epi8('\f');
  for (; i + 16 <= n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(v, zero)) != 0) return true;
    // u < 0x20 exactly when min(u, 0x1f) == u, unsigned.
    const __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(v, below_space), v);
    const __m128i allowed = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)),
                                         _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, ff)));
    // Text has none nearly always: counted only when there are.
    const unsigned odd = static_cast<unsigned>(_mm_movemask_epi8(_mm_andnot_si128(allowed, low)));
    if (odd != 0) control += static_cast<size_t>(__builtin_popcount(odd));
  }
#endif
  for (; i < n; ++i) {
    const unsigned char u = static_cast<unsigned char>(p[i]);
    if (u == 0) return true;
    if (u < 0x20 && u != '\n' && u != '\r' && u != '\t' && u != '\f') ++control;
  }
  return control * 20 > n;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Where "def forward(" first comes in `text` at or after `from`, or
// text.size(). One search across lines: it cannot span one, so a line holds
// it exactly when the search lands inside that line.
size_t FindForward(std::string_view text, size_t from) {
  constexpr std::string_view kForward = "def forward(";
  const void* at = from < text.size() ? memmem(text.data() + from, text.size() - from,
                                               kForward.data(), kForward.size())
                                      : nullptr;
  return at == nullptr ? text.size()
                       : static_cast<size_t>(static_cast<const char*>(at) - text.data());
}

bool HasFxForward(std::string_view text) {
  const std::string_view head = text.substr(0, kSniffBytes);
  return FindForward(head, 0) < head.size();
}

// A log that holds an FX graph beside IR blocks (XLA_DYNAMO_DEBUG prints the
// FX graph dynamo hands over, then the IR it runs as) yields both: dropping
// the FX graph would hide half of what the log says. Graphs are ordered by
// position and renumbered so each has its own record index.
// Whether an IR log holds an FX graph for AddFxGraphs to read. Detection
// read the same lines when it read the whole text; its head of a longer
// text may differ from this one (log prefixes stripped first).
bool HoldsFxGraph(std::string_view text, const Detection& detection) {
  return detection.whole ? detection.fx_forward : HasFxForward(text);
}

void AddFxGraphs(std::string_view text, bool holds_fx, std::string_view source,
                 const ParseOptions& options, ParsedText* out) {
  if (!holds_fx) return;
  absl::StatusOr<std::vector<Graph>> fx = ParseFxCode(text, source, options, &out->warnings);
  if (!fx.ok()) {
    AddParseErrorAsWarning(&out->warnings, options.max_warnings, source,
                           "the FX graph in this log was not read", StdSv(fx.status().message()));
    return;
  }
  for (Graph& g : *fx) out->graphs.push_back(std::move(g));
  std::stable_sort(out->graphs.begin(), out->graphs.end(), [](const Graph& a, const Graph& b) {
    return a.source.first_line < b.source.first_line;
  });
  for (uint32_t i = 0; i < out->graphs.size(); ++i) out->graphs[i].source.record_index = i;
}

// `ENTRY SyncTensorsGraph.49 {` or `ENTRY %main (p: f32[4]) -> f32[4] {`: an
// HLO paste that starts below its `HloModule` line.
bool IsHloEntryHeader(std::string_view body) {
  if (!StartsWith(body, "ENTRY ")) return false;
  size_t end = body.find_last_not_of(" \t\r");
  return end != std::string_view::npos && body[end] == '{';
}

// What a line (its indent off) starts with that tells a format, asked by
// its first byte.
enum class Marker { kNone, kSave, kIr, kHlo, kMetrics };
Marker LineMarker(std::string_view body) {
  switch (body[0]) {
    case '[':
      return StartsWith(body, "[ScheduleSyncTensorsGraph]") ? Marker::kSave : Marker::kNone;
    case '#':
      return StartsWith(body, "## BEGIN_GRAPH") ? Marker::kSave : Marker::kNone;
    case 'I':
      return StartsWith(body, "IR {") ? Marker::kIr : Marker::kNone;
    case 'H':
      return StartsWith(body, "HloModule ") ? Marker::kHlo : Marker::kNone;
    case 'E':
      return IsHloEntryHeader(body) ? Marker::kHlo : Marker::kNone;
    case 'M':
      return StartsWith(body, "Metric: ") ? Marker::kMetrics : Marker::kNone;
    case 'C':
      return StartsWith(body, "Counter: ") ? Marker::kMetrics : Marker::kNone;
    default:
      return Marker::kNone;
  }
}

}  // namespace

std::string_view DumpFormatName(DumpFormat format) {
  switch (format) {
    case DumpFormat::kUnknown: return "unknown";
    case DumpFormat::kIrText: return "ir";
    case DumpFormat::kSaveFile: return "save-file";
    case DumpFormat::kFxCode: return "fx";
    case DumpFormat::kMetrics: return "metrics";
    case DumpFormat::kHloText: return "hlo";
  }
  return "unknown";
}

DumpFormat DetectFormat(std::string_view text) { return Detect(text).format; }

Detection Detect(std::string_view text) {
  Detection d;
  std::string_view raw_head = text.substr(0, kSniffBytes);
  d.whole = raw_head.size() == text.size();
  if (raw_head.empty()) return d;
  d.binary = LooksBinary(raw_head);
  if (d.binary) return d;
  // Logged dumps are judged by what follows their log prefixes.
  std::string storage;
  size_t stripped = 0;
  std::string_view head = StripLogPrefixes(raw_head, &storage, &stripped);
  int ir_blocks = 0;
  bool save_marker = false, fx = false, hlo = false, metrics = false, trace = false;
  // Where "def forward(" comes next, found across lines at once: a search
  // of every line, and prefixes compared one by one, were nearly half of
  // detecting a directory's small files.
  size_t next_forward = FindForward(head, 0);
  LineReader lines(head);
  std::string_view line;
  while (lines.Next(&line)) {
    const size_t line_end = lines.line_offset() + line.size();
    // Asked of every line, as HasFxForward asks it, so that an IR log's
    // check for an FX graph inside can take this answer.
    const bool forward = next_forward < line_end;
    if (forward) next_forward = FindForward(head, lines.position());
    d.fx_forward = d.fx_forward || forward;
    // Pasted dumps are often indented as a whole.
    size_t indent = line.find_first_not_of(" \t");
    if (indent == std::string_view::npos) continue;
    std::string_view body = line.substr(indent);
    switch (LineMarker(body)) {
      case Marker::kSave:
        save_marker = true;
        break;
      case Marker::kIr:
        ++ir_blocks;
        break;
      case Marker::kHlo:
        hlo = true;
        break;
      case Marker::kMetrics:
        metrics = true;
        break;
      case Marker::kNone:
        if (forward) {
          fx = true;
        } else if (!trace && (body[0] == '{' || body[0] == '[')) {
          // A TORCH_TRACE log: a big model's records of its inputs fill the
          // head before the first graph comes.
          std::optional<FxTraceRecord> record = FxTraceRecordHeader(body);
          trace = record && !record->compile_id.empty();
        }
        break;
    }
  }
  if (save_marker || ir_blocks > 1) {
    d.format = DumpFormat::kSaveFile;
  } else if (ir_blocks == 1) {
    d.format = DumpFormat::kIrText;
  } else if (fx || (trace && !d.whole)) {
    d.format = DumpFormat::kFxCode;
  } else if (hlo) {
    d.format = DumpFormat::kHloText;
  } else if (metrics) {
    d.format = DumpFormat::kMetrics;
  }
  return d;
}

namespace {

// Not a problem, but the user should know the text was read through a log.
void AddLogPrefixWarning(std::vector<Diagnostic>* w, size_t max_warnings,
                         std::string_view source, size_t lines) {
  AddWarning(w, max_warnings, source, 0, 0,
             fmt::format("read through log prefixes (timestamps, hosts, ranks) "
                         "removed from {} line{}",
                         lines, lines == 1 ? "" : "s"));
}

// An FX dump, logged or not, read as the other formats read the copy
// StripLogPrefixes makes of it. The FX parse takes each line's log prefix
// off as it reads it (FxLines) and counts the lines that had one: a
// TORCH_LOGS log is not copied first (most of the file again). Its warning
// then goes first, where it is when the text is stripped first. Bare rank
// tags are a choice for the whole text, made from every line: the parse
// counts them too, and a text that has them on nearly every line is read
// again from its copy without them. No pass ahead of the parse surveys the
// text for them (that pass was 6% of reading a log of small graphs).
absl::StatusOr<std::vector<Graph>> ParseFxInPlace(std::string_view text,
                                                  std::string_view source,
                                                  const ParseOptions& options,
                                                  std::vector<Diagnostic>* w,
                                                  const TaskRunner* runner,
                                                  const GraphStream* stream) {
  const std::vector<Diagnostic> before = *w;
  FxLineTally tally;
  auto parse = [&](std::string_view t, FxLineTally* counted) {
    if (runner == nullptr) return ParseFxCodeCounted(t, source, options, w, counted);
    if (stream == nullptr) return ParseFxCodeParallel(t, source, options, w, *runner, counted);
    return ParseFxCodeStreamed(t, source, options, w, *runner, counted, *stream);
  };
  absl::StatusOr<std::vector<Graph>> gs = parse(text, &tally);
  // An error may come before the last line was counted: the survey decides.
  const bool rank_tags = gs.ok() ? tally.logged == 0 && tally.rank_tags.NearlyAll()
                                 : SurveyLogPrefixes(text, runner).rank_tags;
  if (rank_tags) {
    // A streamed parse's graphs were taken: an FX dump has at least one.
    if (stream != nullptr && gs.ok() && gs->empty()) stream->restart();
    if (gs.ok()) std::vector<Graph>().swap(*gs);  // not held while the copy is read
    *w = before;
    std::string storage;
    size_t tagged = 0;
    text = StripLogPrefixes(text, &storage, &tagged);
    AddLogPrefixWarning(w, options.max_warnings, source, tagged);
    return parse(text, nullptr);
  }
  if (gs.ok() && tally.logged > 0) {
    std::vector<Diagnostic> parsed = std::move(*w);
    w->clear();
    AddLogPrefixWarning(w, options.max_warnings, source, tally.logged);
    for (Diagnostic& d : parsed) MergeWarning(w, options.max_warnings, std::move(d));
  }
  return gs;
}

}  // namespace

// ParseText; save files, FX and HLO dumps are parsed on `runner`'s threads
// when it is given.
absl::StatusOr<ParsedText> ParseDetected(std::string_view text, const Detection& detection,
                                         std::string_view source, const ParseOptions& options,
                                         const TaskRunner* runner, const GraphStream* stream) {
  if (runner == nullptr) stream = nullptr;
  ParsedText out;
  out.format = detection.format;
  std::vector<Diagnostic>* w = &out.warnings;
  std::string storage;
  size_t stripped = 0;
  // A save file parsed on threads is read in place, surveyed for log
  // prefixes by the parse as it reads each line: a survey of the whole file
  // first was a pass of its own over it, as long as the rest of reading a
  // file of small records took. One that holds any is read as below. (The
  // FX graphs of a log go among its records: such a text is read below.)
  if (out.format == DumpFormat::kSaveFile && runner != nullptr &&
      !HoldsFxGraph(text, detection)) {
    bool strip = false;
    absl::StatusOr<std::vector<Graph>> gs =
        stream != nullptr
            ? ParseSaveFileStreamed(text, source, options, w, *runner, *stream, &strip)
            : ParseSaveFileParallel(text, source, options, w, *runner, &strip);
    if (!strip) {
      if (!gs.ok()) return gs.status();
      out.graphs = *std::move(gs);
      return out;
    }
  }
  // FX text is read in place (ParseFxInPlace); the other formats read a
  // copy without the prefixes when the text has any.
  if (out.format != DumpFormat::kUnknown && out.format != DumpFormat::kFxCode) {
    text = StripLogPrefixes(text, &storage, &stripped, runner);
  }
  if (stripped > 0) AddLogPrefixWarning(w, options.max_warnings, source, stripped);
  switch (out.format) {
    case DumpFormat::kUnknown:
      if (text.empty()) return ParseError(source, text, 0, "empty file");
      return ParseError(source, text, 0,
                        "not a recognised dump (expected lazy-tensor IR, an "
                        "FX graph, HLO text or a metrics report)");
    case DumpFormat::kIrText: {
      absl::StatusOr<Graph> g = ParseIrText(text, source, options, w);
      if (!g.ok()) return g.status();
      out.graphs.push_back(*std::move(g));
      AddFxGraphs(text, HoldsFxGraph(text, detection), source, options, &out);
      break;
    }
    case DumpFormat::kSaveFile: {
      // The FX graphs of a log go among its records, in line order: such a
      // text's graphs cannot be handed out before all are read.
      const bool holds_fx = HoldsFxGraph(text, detection);
      if (holds_fx) stream = nullptr;
      absl::StatusOr<std::vector<Graph>> gs =
          runner == nullptr   ? ParseSaveFile(text, source, options, w)
          : stream == nullptr ? ParseSaveFileParallel(text, source, options, w, *runner)
                              : ParseSaveFileStreamed(text, source, options, w, *runner, *stream);
      if (!gs.ok()) return gs.status();
      out.graphs = *std::move(gs);
      AddFxGraphs(text, holds_fx, source, options, &out);
      break;
    }
    case DumpFormat::kFxCode: {
      absl::StatusOr<std::vector<Graph>> gs =
          ParseFxInPlace(text, source, options, w, runner, stream);
      if (!gs.ok()) return gs.status();
      out.graphs = *std::move(gs);
      break;
    }
    case DumpFormat::kHloText: {
      absl::StatusOr<std::vector<Graph>> gs =
          runner != nullptr ? ParseHloTextParallel(text, source, options, w, *runner)
                            : ParseHloText(text, source, options, w);
      if (!gs.ok()) return gs.status();
      out.graphs = *std::move(gs);
      break;
    }
    case DumpFormat::kMetrics: {
      absl::StatusOr<MetricsReport> m = ParseMetrics(text, source, w);
      if (!m.ok()) return m.status();
      out.metrics.push_back(*std::move(m));
      break;
    }
  }
  return out;
}

absl::StatusOr<ParsedText> ParseText(std::string_view text, std::string_view source,
                                     const ParseOptions& options) {
  return ParseDetected(text, Detect(text), source, options, nullptr);
}

absl::StatusOr<ParsedText> ParseTextParallel(std::string_view text, std::string_view source,
                                             const ParseOptions& options,
                                             const TaskRunner& runner) {
  return ParseDetected(text, Detect(text), source, options, &runner);
}

}  // namespace graphdiff
