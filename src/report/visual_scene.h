// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// What the visual reports (HTML, DOT, Model Explorer) share: each node's
// change kind, its counterparts, output marks, and the bounded region around
// the changes that gets drawn.
#ifndef GRAPHDIFF_SRC_REPORT_VISUAL_SCENE_H_
#define GRAPHDIFF_SRC_REPORT_VISUAL_SCENE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "graphdiff/diff.h"
#include "graphdiff/graph.h"
#include "graphdiff/visual.h"

namespace graphdiff::visual {

// How a node compares with the other side.
enum class Change : uint8_t { kSame, kChanged, kOnly };  // kOnly: removed (left) / added (right)

// Output marks of a node.
enum OutputMark : uint8_t { kNotOutput = 0, kOutput = 1, kOnlyOutput = 2 };

// One side of a pair.
struct SideScene {
  const Graph* graph = nullptr;
  std::vector<Change> change;
  std::vector<uint8_t> output;                   // OutputMark, strongest mark of the node
  std::vector<std::vector<uint32_t>> partners;   // counterparts on the other side
  std::vector<uint32_t> pair_row;                // index into GraphPairDiff::pairs + 1; 0 none
  std::vector<uint32_t> drawn;                   // node indices to draw, ascending
  bool truncated = false;                        // the region had more nodes than drawn
  size_t region_size = 0;                        // nodes of the whole region
};

struct PairScene {
  size_t pair = 0;  // index into DiffResult::pairs
  SideScene side[2];
  // One-to-many substitutions: (side holding the one node, that node); the
  // other side's partners form the group.
  std::vector<std::pair<int, uint32_t>> groups;
  // Per side: the findings of this pair whose evidence names a node here,
  // ascending by finding. Only those: a scene per pair of a dump of 10^4
  // graphs must not hold a list per finding of the whole result.
  struct FindingEvidence {
    uint32_t finding = 0;  // index into DiffResult::findings
    std::vector<std::pair<uint32_t, uint32_t>> items;  // (evidence index, node)
  };
  std::vector<FindingEvidence> evidence[2];
  // Per side: dead ends a finding explains (cited nodes nobody reads, with
  // operands only they read), drawn as one box titled by the finding, so
  // "40 dead expands" is one thing in the picture. The most specific
  // finding (fewest nodes) claims a node first.
  struct FindingGroup {
    size_t finding = 0;  // index into DiffResult::findings
    std::string title;
    std::vector<uint32_t> nodes;
  };
  std::vector<FindingGroup> finding_groups[2];
};

// Which findings each graph pair's evidence is resolved from, found once
// per report. A finding is about the pair its `graph` label names: in a file
// of many graphs node names repeat ("%0" is in every IR block), so matching
// evidence by file and node name alone drew one pair's evidence on every
// other pair of the file, and scanning every finding for every pair was
// quadratic. Findings whose label names no graph pair (a DiffResult built by
// hand) fall back to that matching, for the pairs of their evidence's files;
// findings of a metrics pair are about counters and name no node.
class PairFindings {
 public:
  // `graphs` as RenderOptions::graphs (may be null): a pair's label needs
  // its graphs' record indices.
  PairFindings(const DiffResult& result, const std::vector<PairGraphs>* graphs);
  // Indices into DiffResult::findings, ascending.
  const std::vector<uint32_t>& Of(size_t pair) const { return by_pair_[pair]; }

 private:
  std::vector<std::vector<uint32_t>> by_pair_;
};

// Builds the scene of pair `index`; drawn sets hold at most `max_drawn`
// nodes per side: every changed node and extra output first (in graph
// order), then their neighbours and counterparts, one hop at a time.
PairScene BuildScene(const DiffResult& result, size_t index, const PairGraphs& graphs,
                     const PairFindings& findings, size_t max_drawn);

// Change kind names: "same", "changed", "removed" (left only), "added".
std::string_view ChangeName(Change c, int side);

// Fill colours by change kind, shared by every visual format.
std::string_view ChangeColor(Change c, int side);
// The outline colour of an output the other side does not have.
inline constexpr std::string_view kOnlyOutputColor = "#7b1fa2";

// A node's short label: the op without its namespace for long ops.
std::string NodeLabel(const Graph& g, uint32_t node);

// "%17 = aten::add(%15, %16), alpha=1 : f32[4]": the node as one dump-like line.
std::string NodeLine(const Graph& g, uint32_t node);

// Node names to indices, to resolve evidence.
using NameIndex = absl::flat_hash_map<std::string_view, uint32_t>;
NameIndex IndexNames(const Graph& g);
// Index of the node named `name` ("%13.1" also finds "%13"), or -1.
int64_t FindNode(const NameIndex& index, std::string_view name);

// Escapes text for a double-quoted DOT string: quotes, backslashes and
// newlines, and non-ASCII bytes become '?' (layout must not fail on them).
std::string DotQuote(std::string_view text);

// The nodes, edges and substitution clusters of one side's drawn region, as
// DOT statements; node ids are `prefix` + node index (prefix a plain DOT
// identifier), and every node gets the SVG id `svg_prefix` + node index.
void AppendSideDot(const PairScene& s, int side, std::string_view prefix,
                   std::string_view svg_prefix, std::string* out);

// Lays `dot` out with Graphviz (dot engine) and renders SVG. Serialised: the
// Graphviz context is not thread-safe. Errors: Graphviz rejected the text.
absl::StatusOr<std::string> LayoutSvg(const std::string& dot);

// The HTML report's inline stylesheet and script (html_assets.cc).
extern const char kHtmlStyle[];
extern const char kHtmlScript[];

// True when the pair's graphs are present and the alignment fits them.
bool Drawable(const GraphPairDiff& p, const PairGraphs& g);

}  // namespace graphdiff::visual

#endif  // GRAPHDIFF_SRC_REPORT_VISUAL_SCENE_H_
