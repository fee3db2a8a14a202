// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "graphdiff/sanitize.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "fmt/format.h"

namespace graphdiff {
namespace {

// The length of the well-formed UTF-8 sequence at s[i] (Unicode table 3-7),
// with its code point in *cp; 0 when the byte there starts no valid one.
size_t DecodeAt(std::string_view s, size_t i, uint32_t* cp) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char b0 = byte(i);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;  // overlong
    if (b0 == 0xED) hi = 0x9F;  // surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;  // overlong
    if (b0 == 0xF4) hi = 0x8F;  // past U+10FFFF
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  unsigned char b1 = byte(i + 1);
  if (b1 < lo || b1 > hi) return 0;
  uint32_t c = b0 & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
  c = (c << 6) | (b1 & 0x3F);
  for (size_t k = 2; k < len; ++k) {
    unsigned char b = byte(i + k);
    if (b < 0x80 || b > 0xBF) return 0;
    c = (c << 6) | (b & 0x3F);
  }
  *cp = c;
  return len;
}

void AppendByteEscape(std::string* out, unsigned char b) {
  *out += fmt::format("\\x{:02X}", b);
}

void AppendCodePointEscape(std::string* out, uint32_t cp) {
  *out += fmt::format("\\u{{{:04X}}}", cp);
}

bool IsBidiControl(uint32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

// Length of a colour sequence ESC [ (digit|;)* m at s[i], or 0.
size_t SgrLength(std::string_view s, size_t i) {
  if (i + 2 >= s.size() || s[i] != '\x1b' || s[i + 1] != '[') return 0;
  for (size_t k = i + 2; k < s.size() && k - i < 32; ++k) {
    if (s[k] == 'm') return k - i + 1;
    if (!(s[k] == ';' || (s[k] >= '0' && s[k] <= '9'))) return 0;
  }
  return 0;
}

enum class Target { kTerminal, kXml };

// Printable ASCII, newline and tab: what every target keeps as it is.
bool IsPlainByte(char c) { return (c >= 0x20 && c < 0x7F) || c == '\n' || c == '\t'; }

// The shared walk: valid UTF-8 copied, invalid bytes and unwanted
// characters escaped. `on_char` may take a character over (returns true).
// `plain_passes`: printable ASCII, newlines and tabs are copied as they are
// (on_char takes none of them), so runs of them are copied whole. Reports
// are nearly all such text, and a call per character was a tenth of
// `graphdiff stats` on a directory of 10,000 graphs.
template <typename OnChar>
std::string Clean(std::string_view s, Target target, bool keep_sgr, bool plain_passes,
                  OnChar on_char) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  size_t i = 0;
  while (i < s.size()) {
    if (plain_passes) {
      size_t j = i;
      while (j < s.size() && IsPlainByte(s[j])) ++j;
      if (j > i) {
        out.append(s.data() + i, j - i);
        i = j;
        continue;
      }
    }
    uint32_t cp = 0;
    size_t len = DecodeAt(s, i, &cp);
    if (len == 0) {
      AppendByteEscape(&out, static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    if (keep_sgr && cp == 0x1B) {
      if (size_t sgr = SgrLength(s, i); sgr > 0) {
        out.append(s.data() + i, sgr);
        i += sgr;
        continue;
      }
    }
    if (!on_char(cp, &out)) {
      bool line_ok = cp == '\n' || cp == '\t';
      if ((cp < 0x20 && !line_ok) || cp == 0x7F) {
        AppendByteEscape(&out, static_cast<unsigned char>(cp));
      } else if ((cp >= 0x80 && cp <= 0x9F) || IsBidiControl(cp) ||
                 (target == Target::kXml && (cp == 0xFFFE || cp == 0xFFFF))) {
        AppendCodePointEscape(&out, cp);
      } else {
        out.append(s.data() + i, len);
      }
    }
    i += len;
  }
  return out;
}

}  // namespace

bool IsValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    size_t len = DecodeAt(s, i, &cp);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string ValidUtf8(std::string_view s, bool* changed) {
  bool any = false;
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    size_t len = DecodeAt(s, i, &cp);
    if (len == 0) {
      AppendByteEscape(&out, static_cast<unsigned char>(s[i]));
      any = true;
      ++i;
    } else {
      out.append(s.data() + i, len);
      i += len;
    }
  }
  if (changed != nullptr) *changed = any;
  return out;
}

std::string TerminalSafe(std::string_view s, bool keep_sgr) {
  return Clean(s, Target::kTerminal, keep_sgr, /*plain_passes=*/true,
               [](uint32_t, std::string*) { return false; });
}

void MakeTerminalSafe(std::string* s, bool keep_sgr) { MakeTerminalSafeFrom(s, 0, keep_sgr); }

void MakeTerminalSafeFrom(std::string* s, size_t from, bool keep_sgr) {
  // Printable ASCII, newlines and tabs pass unchanged (see Clean), so a
  // report of nothing else is checked a word at a time and kept.
  from = std::min(from, s->size());
  const char* p = s->data() + from;
  const size_t n = s->size() - from;
  auto rewrite = [&] {
    std::string safe = TerminalSafe(std::string_view(*s).substr(from), keep_sgr);
    s->resize(from);
    s->append(safe);
  };
  size_t i = 0;
#if defined(__SSE2__)
  // Sixteen bytes at a time: a report's lines end in newlines, which sent
  // most 8-byte words below to the byte loop.
  {
    const __m128i space = _mm_set1_epi8(0x20);
    const __m128i del = _mm_set1_epi8(0x7F);
    const __m128i newline = _mm_set1_epi8('\n');
    const __m128i tab = _mm_set1_epi8('\t');
    for (; i + 16 <= n; i += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
      // Signed: bytes at or above 0x80 are negative, so below 0x20 too.
      const __m128i odd = _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del));
      const __m128i kept = _mm_or_si128(_mm_cmpeq_epi8(v, newline), _mm_cmpeq_epi8(v, tab));
      if (_mm_movemask_epi8(_mm_andnot_si128(kept, odd)) != 0) {
        rewrite();
        return;
      }
    }
  }
#endif
  constexpr uint64_t kOnes = 0x0101010101010101ull;
  constexpr uint64_t kHigh = 0x8080808080808080ull;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    // A byte below 0x20 (subtracting borrows into its top bit), at or above
    // 0x80 (its top bit) or 0x7F (adding one carries into it) is looked at
    // alone: most such words just hold a newline.
    const uint64_t low = (w - 0x20 * kOnes) & ~w;
    const uint64_t del = ((w & ~kHigh) + kOnes) & kHigh;
    if (((low | w | del) & kHigh) == 0) continue;
    for (size_t k = i; k < i + 8; ++k) {
      if (!IsPlainByte(p[k])) {
        rewrite();
        return;
      }
    }
  }
  for (; i < n; ++i) {
    if (!IsPlainByte(p[i])) break;
  }
  if (i == n) return;
  rewrite();
}

std::string MarkdownEscape(std::string_view s) {
  return Clean(s, Target::kTerminal, false, /*plain_passes=*/false,
               [](uint32_t cp, std::string* out) {
    switch (cp) {
      case '<': *out += "&lt;"; return true;
      case '>': *out += "&gt;"; return true;
      case '&': *out += "&amp;"; return true;
      case '\n': case '\r': case '\t': *out += ' '; return true;
      case '\\': case '`': case '*': case '_': case '[': case ']': case '|': case '#':
      case '~': case '!': case '{': case '}':
        *out += '\\';
        *out += static_cast<char>(cp);
        return true;
      default: return false;
    }
  });
}

std::string MarkdownCodeBlock(std::string_view content, std::string_view language) {
  std::string body = TerminalSafe(content);
  size_t longest = 0, run = 0;
  for (char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string fence(std::max<size_t>(3, longest + 1), '`');
  if (!body.empty() && body.back() != '\n') body += '\n';
  return fmt::format("{}{}\n{}{}\n", fence, TerminalSafe(language), body, fence);
}

std::string XmlEscape(std::string_view s) {
  return Clean(s, Target::kXml, false, /*plain_passes=*/false,
               [](uint32_t cp, std::string* out) {
    switch (cp) {
      case '&': *out += "&amp;"; return true;
      case '<': *out += "&lt;"; return true;
      case '>': *out += "&gt;"; return true;
      case '"': *out += "&quot;"; return true;
      case '\'': *out += "&apos;"; return true;
      default: return false;
    }
  });
}

}  // namespace graphdiff
