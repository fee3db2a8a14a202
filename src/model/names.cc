// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Names of the closed sets of the public API (matchers, pairing rules,
// sides, unpaired kinds), the one place each is spelled, so reports, JSON and
// readers agree.
#include <optional>
#include <string_view>

#include "align/state.h"
#include "graphdiff/align.h"
#include "graphdiff/diff.h"
#include "graphdiff/dump.h"

namespace graphdiff {
namespace {

// The aligner records its internal matcher ids; the public enum mirrors them.
constexpr bool SameOrder(Matcher m, align::MatcherId id) {
  return static_cast<int>(m) == static_cast<int>(id);
}
static_assert(SameOrder(Matcher::kNone, align::MatcherId::kNone));
static_assert(SameOrder(Matcher::kAnchor, align::MatcherId::kAnchor));
static_assert(SameOrder(Matcher::kRefine, align::MatcherId::kRefine));
static_assert(SameOrder(Matcher::kSymmetry, align::MatcherId::kSymmetry));
static_assert(SameOrder(Matcher::kPropagate, align::MatcherId::kPropagate));
static_assert(SameOrder(Matcher::kSimilarity, align::MatcherId::kSimilarity));
static_assert(SameOrder(Matcher::kTwins, align::MatcherId::kTwins));
static_assert(SameOrder(Matcher::kRelaxed, align::MatcherId::kRelaxed));
static_assert(SameOrder(Matcher::kPosition, align::MatcherId::kPosition));

// `out` may be null to ask only whether `name` is valid.
template <typename E, size_t N>
bool ParseName(std::string_view name, const E (&all)[N], std::string_view (*spell)(E), E* out) {
  for (E e : all) {
    if (spell(e) == name) {
      if (out != nullptr) *out = e;
      return true;
    }
  }
  return false;
}

}  // namespace

std::string_view MatcherName(Matcher m) {
  switch (m) {
    case Matcher::kNone: return "none";
    case Matcher::kAnchor: return "anchor";
    case Matcher::kRefine: return "refine";
    case Matcher::kSymmetry: return "symmetry";
    case Matcher::kPropagate: return "propagate";
    case Matcher::kSimilarity: return "similarity";
    case Matcher::kTwins: return "twins";
    case Matcher::kRelaxed: return "relaxed";
    case Matcher::kPosition: return "position";
    case Matcher::kIdentical: return "identical";
  }
  return "none";
}

bool ParseMatcher(std::string_view name, Matcher* out) {
  static constexpr Matcher kAll[] = {Matcher::kNone,      Matcher::kAnchor,    Matcher::kRefine,
                                     Matcher::kSymmetry,  Matcher::kPropagate, Matcher::kSimilarity,
                                     Matcher::kTwins,     Matcher::kRelaxed,   Matcher::kPosition,
                                     Matcher::kIdentical};
  return ParseName(name, kAll, &MatcherName, out);
}

std::string_view PairRuleName(PairRule rule) {
  switch (rule) {
    case PairRule::kPath: return "path";
    case PairRule::kName: return "name";
    case PairRule::kFrame: return "frame";
    case PairRule::kOrder: return "order";
    case PairRule::kOnly: return "only";
    case PairRule::kGraphs: return "graphs";
  }
  return "path";
}

bool ParsePairRule(std::string_view name, PairRule* out) {
  static constexpr PairRule kAll[] = {PairRule::kPath,  PairRule::kName, PairRule::kFrame,
                                      PairRule::kOrder, PairRule::kOnly, PairRule::kGraphs};
  return ParseName(name, kAll, &PairRuleName, out);
}

std::string_view LoadPhaseName(LoadPhase phase) {
  switch (phase) {
    case LoadPhase::kListing: return "listing";
    case LoadPhase::kReading: return "reading";
    case LoadPhase::kParsing: return "parsing";
    case LoadPhase::kDone: return "done";
  }
  return "reading";
}

std::string_view SideName(Side side) { return side == Side::kLeft ? "left" : "right"; }

std::string_view SideName(std::optional<Side> side) {
  return side ? SideName(*side) : std::string_view();
}

bool ParseSide(std::string_view name, Side* out) {
  static constexpr Side kAll[] = {Side::kLeft, Side::kRight};
  return ParseName(name, kAll, &SideName, out);
}

std::string_view UnpairedKindName(UnpairedKind kind) {
  return kind == UnpairedKind::kGraph ? "graph" : "metrics";
}

bool ParseUnpairedKind(std::string_view name, UnpairedKind* out) {
  static constexpr UnpairedKind kAll[] = {UnpairedKind::kGraph, UnpairedKind::kMetrics};
  return ParseName(name, kAll, &UnpairedKindName, out);
}

}  // namespace graphdiff
