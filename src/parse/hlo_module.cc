// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "parse/hlo_module.h"

#include <cstring>
#include <string>

#include "fmt/format.h"
#include "parse/error.h"

namespace graphdiff {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsBlank(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsBlank(s.back())) s.remove_suffix(1);
  return s;
}

bool IsKeywordLine(std::string_view trimmed, std::string_view word) {
  return StartsWith(trimmed, word) &&
         (trimmed.size() == word.size() || IsBlank(trimmed[word.size()]) ||
          trimmed[word.size()] == ',');
}

// Newer XLA appends stack-frame tables (`FileNames`, then `1 "a.py"` rows)
// to a module; they carry no graph structure.
bool IsStackFrameSection(std::string_view trimmed) {
  return trimmed == "FileNames" || trimmed == "FunctionNames" ||
         trimmed == "FileLocations" || trimmed == "StackFrames";
}

// `while_loop.40 {` or `fused (p: f32[4]) -> f32[4] {`: a computation that a
// paste starting below the `HloModule` line opens with.
bool LooksLikeComputationHeader(std::string_view trimmed) {
  size_t i = 0;
  while (i < trimmed.size() &&
         ((trimmed[i] >= 'a' && trimmed[i] <= 'z') || (trimmed[i] >= 'A' && trimmed[i] <= 'Z') ||
          (trimmed[i] >= '0' && trimmed[i] <= '9') || trimmed[i] == '_' || trimmed[i] == '.' ||
          trimmed[i] == '-')) {
    ++i;
  }
  if (i == 0 || i >= trimmed.size() || trimmed[i] != ' ') return false;
  std::string_view rest = Trim(trimmed.substr(i));
  if (rest == "{") return true;
  return rest.front() == '(' && rest.find(") -> ") != std::string_view::npos;
}

class Outliner {
 public:
  Outliner(std::string_view text, std::string_view source,
           const ParseOptions& options, std::vector<Diagnostic>* warnings,
           std::vector<HloModuleText>* modules, const HloModuleSink& sink,
           const HloRepeatable* repeatable)
      : text_(text),
        source_(source),
        options_(options),
        warnings_(warnings),
        modules_(modules),
        sink_(sink),
        repeatable_(repeatable) {}

  // Outlines text[begin, end) only, `begin` being the start of line
  // `first_line`. Unless `last`, the text goes on after `end`, so a
  // computation still open there fails (Aborted) instead of being kept as
  // cut short: the whole text's outline would have read on.
  absl::Status RunRange(size_t begin, size_t end, uint32_t first_line, bool last) {
    text_ = text_.substr(0, end);
    pos_ = begin;
    line_ = first_line;
    last_ = last;
    return Run();
  }

  absl::Status Run() {
    bool in_section = false;
    while (pos_ < text_.size()) {
      size_t start = pos_;
      uint32_t line = line_;
      std::string_view trimmed = Trim(NextLine());
      if (trimmed.empty()) continue;
      size_t col = static_cast<size_t>(trimmed.data() - text_.data());
      if (IsKeywordLine(trimmed, "HloModule")) {
        in_section = false;
        HandOver();
        Remember(start, line);
        absl::Status st = StartModule(trimmed, col, line);
        if (!st.ok()) return st;
        SkipRepeat(start, line);
        continue;
      }
      if (IsStackFrameSection(trimmed)) {
        in_section = true;
        continue;
      }
      if (in_section && trimmed.front() >= '0' && trimmed.front() <= '9') continue;
      in_section = false;
      if (trimmed.back() == '{' &&
          (!modules_->empty() || StartsWith(trimmed, "ENTRY") || trimmed.front() == '%' ||
           LooksLikeComputationHeader(trimmed))) {
        if (modules_->empty()) {
          Warn(line, 1, "computation before any `HloModule` line; starting a module");
          absl::Status st = NewModule({}, start, line);
          if (!st.ok()) return st;
        }
        absl::Status st = Computation(trimmed, col, line);
        if (!st.ok()) return st;
        continue;
      }
      Warn(line, static_cast<uint32_t>(col - start + 1),
           "skipped a line outside any HLO computation");
    }
    if (modules_->empty()) {
      return ParseError(source_, text_, 0,
                        text_.find_first_not_of(" \t\r\n") == std::string_view::npos
                            ? "empty HLO text"
                            : "no `HloModule` found");
    }
    HandOver();
    return absl::OkStatus();
  }

 private:
  // Gives the last module, now complete, to the sink (once) and drops its
  // computations.
  void HandOver() {
    if (modules_->empty() || handed_over_) return;
    handed_over_ = true;
    HloModuleText& m = modules_->back();
    sink_(m);
    std::vector<HloComputationText>().swap(m.computations);
  }

  // Called at the `HloModule` line starting at `start`: the module before
  // it, outlined and built, is a candidate for repeats when it outlined
  // without a warning and was not a repeat itself.
  void Remember(size_t start, uint32_t line) {
    if (repeatable_ == nullptr || modules_->empty()) return;
    const size_t index = modules_->size() - 1;
    const HloModuleText& m = modules_->back();
    if (module_index_ != index || m.repeat_of != HloModuleText::kNotRepeat ||
        !NoWarningSince(warnings_, options_.max_warnings, module_warnings_) ||
        !(*repeatable_)(index)) {
      return;
    }
    if (seen_.size() == kKept) seen_.erase(seen_.begin());
    seen_.push_back(Seen{index, text_.substr(module_start_, start - module_start_),
                         line - module_line_});
  }

  // Called once the `HloModule` line at `start` made a new module: if the
  // text from there repeats a remembered module's up to the next
  // `HloModule` line (or the end of the text), the module is marked a
  // repeat of it and its text skipped.
  void SkipRepeat(size_t start, uint32_t line) {
    module_index_ = modules_->size() - 1;
    module_start_ = start;
    module_line_ = line;
    module_warnings_ = warnings_ ? warnings_->size() : 0;
    for (size_t k = seen_.size(); k-- > 0;) {
      const Seen& seen = seen_[k];
      const size_t end = start + seen.text.size();
      if (end > text_.size() || std::memcmp(text_.data() + start, seen.text.data(),
                                            seen.text.size()) != 0) {
        continue;
      }
      if (end == text_.size() ? !last_ : !IsKeywordLine(Trim(LineAt(end)), "HloModule")) {
        continue;
      }
      HloModuleText& m = modules_->back();
      const HloModuleText& original = (*modules_)[seen.index];
      m.repeat_of = seen.index;
      m.partial = original.partial;
      m.last_line = original.last_line - original.first_line + line;
      pos_ = end;
      line_ = line + seen.lines;
      return;
    }
  }

  std::string_view LineAt(size_t at) const {
    const size_t nl = text_.find('\n', at);
    return text_.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
  }

  // Returns the line at pos_ (without its newline) and advances.
  std::string_view NextLine() {
    const void* nl = std::memchr(text_.data() + pos_, '\n', text_.size() - pos_);
    size_t end = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text_.data())
                    : text_.size();
    std::string_view line = text_.substr(pos_, end - pos_);
    pos_ = nl ? end + 1 : end;
    ++line_;
    return line;
  }

  absl::Status NewModule(std::string_view name, size_t offset, uint32_t line) {
    if (modules_->size() >= options_.max_graphs) {
      return ParseError(source_, text_, offset,
                        fmt::format("more than {} HLO modules", options_.max_graphs));
    }
    HandOver();
    HloModuleText m;
    m.name = name;
    m.offset = offset;
    m.first_line = m.last_line = line;
    modules_->push_back(std::move(m));
    handed_over_ = false;
    return absl::OkStatus();
  }

  absl::Status StartModule(std::string_view trimmed, size_t offset, uint32_t line) {
    size_t i = 9;
    while (i < trimmed.size() && IsBlank(trimmed[i])) ++i;
    size_t begin = i;
    while (i < trimmed.size() && IsHloNameChar(trimmed[i])) ++i;
    if (i == begin) {
      return ParseError(source_, text_, offset + begin, "expected a module name");
    }
    return NewModule(trimmed.substr(begin, i - begin), offset, line);
  }

  absl::Status Computation(std::string_view header, size_t offset, uint32_t line) {
    HloComputationText comp;
    comp.offset = offset;
    comp.line = line;
    size_t i = 0;
    if (IsKeywordLine(header, "ENTRY")) {
      comp.entry = true;
      i = 5;
      while (i < header.size() && IsBlank(header[i])) ++i;
    }
    if (i < header.size() && header[i] == '%') ++i;
    size_t begin = i;
    while (i < header.size() && IsHloNameChar(header[i])) ++i;
    if (i == begin) {
      return ParseError(source_, text_, offset + begin, "expected a computation name");
    }
    comp.name = header.substr(begin, i - begin);
    // Instructions gather in a buffer kept from computation to computation
    // and are copied out once, sized: growing every computation's own
    // vector cost an allocation per doubling.
    std::vector<HloInstructionText>& instructions = instructions_;
    instructions.clear();
    auto keep = [&] {
      comp.instructions.assign(instructions.begin(), instructions.end());
      modules_->back().computations.push_back(std::move(comp));
    };
    uint32_t elisions = 0, first_elision = 0;
    auto warn_elisions = [&] {
      if (elisions == 0) return;
      Warn(first_elision, 1,
           fmt::format("{} elision line{} ('...'): instructions were left out of computation "
                       "'{}'; the graph is marked partial",
                       elisions, elisions == 1 ? "" : "s", comp.name));
    };
    // Cut short: keep what the computation has, marked partial.
    auto keep_unclosed = [&](const std::string& where) {
      warn_elisions();
      Warn(comp.line, 1,
           fmt::format("computation '{}' (line {}) is not closed with '}}' {} (truncated "
                       "dump?); its {} instructions are kept and the graph is marked partial",
                       comp.name, comp.line, where, instructions.size()));
      modules_->back().partial = true;
      modules_->back().last_line = line_ - 1;
      keep();
      return absl::OkStatus();
    };
    for (;;) {
      if (pos_ >= text_.size()) {
        if (!last_) return absl::AbortedError("a computation runs past the end of its piece");
        if (!instructions.empty()) return keep_unclosed("before the text ends");
        return ParseError(
            source_, text_, text_.size(),
            fmt::format("unexpected end of text: computation '{}' (line {}) is "
                        "not closed with '}}'",
                        comp.name, comp.line));
      }
      size_t start = pos_;
      uint32_t start_line = line_;
      const void* nl = std::memchr(text_.data() + pos_, '\n', text_.size() - pos_);
      size_t eol = nl ? static_cast<size_t>(static_cast<const char*>(nl) - text_.data())
                      : text_.size();
      std::string_view trimmed = Trim(text_.substr(pos_, eol - pos_));
      if (trimmed.empty()) {
        NextLine();
        continue;
      }
      if (trimmed == "}") {
        NextLine();
        warn_elisions();
        modules_->back().last_line = start_line;
        keep();
        return absl::OkStatus();
      }
      // `...` (or `... 120 more lines`): whoever pasted the module left
      // instructions out.
      if (trimmed.substr(0, 3) == "...") {
        if (elisions++ == 0) first_elision = start_line;
        modules_->back().partial = true;
        NextLine();
        continue;
      }
      size_t at = static_cast<size_t>(trimmed.data() - text_.data());
      if (IsKeywordLine(trimmed, "HloModule") || IsKeywordLine(trimmed, "ENTRY")) {
        if (!instructions.empty()) {
          return keep_unclosed(fmt::format("before line {}", start_line));
        }
        return ParseError(source_, text_, at,
                          fmt::format("computation '{}' (line {}) is not closed "
                                      "before this line",
                                      comp.name, comp.line));
      }
      size_t end = 0;
      uint32_t newlines = 0;
      HloScanError err;
      if (!ScanStatement(text_, start, &end, &newlines, &err)) {
        return ParseError(source_, text_, err.offset, err.message);
      }
      // Split into its place: copying a just-filled local stalls on store
      // forwarding.
      HloInstructionText& ins = instructions.emplace_back();
      if (!SplitHloInstruction(text_, start, end, &ins, &err)) {
        return ParseError(source_, text_, err.offset,
                          fmt::format("malformed instruction: {}", err.message));
      }
      ins.line = start_line;
      line_ = start_line + newlines + 1;
      pos_ = end < text_.size() ? end + 1 : end;
    }
  }

  void Warn(uint32_t line, uint32_t column, std::string_view message) {
    AddWarning(warnings_, options_.max_warnings, source_, line, column, message);
  }

  std::string_view text_;
  std::string_view source_;
  const ParseOptions& options_;
  std::vector<Diagnostic>* warnings_;
  std::vector<HloModuleText>* modules_;
  const HloModuleSink& sink_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  bool last_ = true;
  std::vector<HloInstructionText> instructions_;
  bool handed_over_ = false;  // the last module went to the sink
  const HloRepeatable* repeatable_;
  // The text of the latest modules that may stand for a repeat, from their
  // `HloModule` line to the next one's, with how many lines that is.
  struct Seen {
    size_t index;
    std::string_view text;
    uint32_t lines;
  };
  static constexpr size_t kKept = 16;
  std::vector<Seen> seen_;
  // The module begun by the latest `HloModule` line: its index, where its
  // text starts, and warnings_->size() then.
  size_t module_index_ = HloModuleText::kNotRepeat;
  size_t module_start_ = 0;
  uint32_t module_line_ = 0;
  size_t module_warnings_ = 0;
};

}  // namespace

absl::Status OutlineHloRange(std::string_view text, size_t begin, size_t end,
                             uint32_t first_line, bool last, std::string_view source,
                             const ParseOptions& options, std::vector<Diagnostic>* warnings,
                             std::vector<HloModuleText>* modules, const HloModuleSink& sink,
                             const HloRepeatable* repeatable) {
  return Outliner(text, source, options, warnings, modules, sink, repeatable)
      .RunRange(begin, end, first_line, last);
}

}  // namespace graphdiff
