// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Lazy-tensor IR text (`IR { %0 = f32[4]{0} aten::relu(%1), ROOT=0 }`), both
// the PyTorch/XLA and the upstream LTC flavour. One pass over string_views:
// node ids map to indices through a vector (ids are dense), repeated result
// types are parsed once per graph, and every kept string is interned.
#include "parse/ir_text.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "fmt/format.h"
#include "parse/error.h"
#include "parse/intern_names.h"
#include "parse/ir_type.h"
#include "parse/lines.h"

namespace graphdiff {

// The tables a block parser reads through (BlockParser); a parser without
// an IrBlockCache has its own. Every table stops growing at a cap, so a
// hostile text of unique spellings costs no more memory than its nodes.
struct IrBlockCache::Tables {
  // Ops, attribute keys and values (InternCommon).
  absl::flat_hash_map<std::string_view, StrId, StringViewHash> common;
  // Result types by spelling. `list` is kept only when the tables outlive
  // a graph; `graph`, `first` and `count` are the range the spelling has
  // in the graph numbered `graph` (Graph::types), where its nodes share it.
  struct Type {
    TypeList list;
    uint32_t graph = 0;
    uint32_t first = 0;
    uint32_t count = 0;
  };
  absl::flat_hash_map<std::string_view, uint32_t, StringViewHash> type_index;
  std::vector<Type> types;
  // Attribute tails by spelling (ParseAttrs).
  struct Tail {
    AttrList attrs;
    StrId frame;
  };
  absl::flat_hash_map<std::string_view, uint32_t, StringViewHash> tail_index;
  std::vector<Tail> tails;
  // Lists a block fills and empties as it goes, kept for the next block: a
  // save file of 10^5 records of five nodes grew each again every record.
  struct Scratch {
    std::vector<std::pair<int64_t, uint32_t>> roots;  // (ROOT=k, node)
    TypeList types;
    std::vector<ValueRef> operands;
    std::vector<Attr> attrs;
    std::vector<uint32_t> ids;  // IdMap's table
  } scratch;
  // Graphs parsed through these tables; the current one's number.
  uint32_t graphs = 0;
};

IrBlockCache::IrBlockCache() : tables_(std::make_unique<Tables>()) {}
IrBlockCache::~IrBlockCache() = default;
IrBlockCache::IrBlockCache(IrBlockCache&&) noexcept = default;
IrBlockCache& IrBlockCache::operator=(IrBlockCache&&) noexcept = default;

namespace {

constexpr uint32_t kNoNode = std::numeric_limits<uint32_t>::max();
// Beyond this many distinct type spellings the cache stops growing, so a
// hostile text of unique types costs no more memory than its nodes.
constexpr size_t kMaxCachedTypes = 65536;
constexpr size_t kMaxCommonStrings = 16384;
constexpr size_t kMaxCachedTails = 16384;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string_view StripSpaces(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool IsBlank(std::string_view s) {
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\r' && c != '\f') return false;
  }
  return true;
}

// Node ids are post-order positions, so a vector suffices; a dump with huge
// ids (hand-edited, or a future numbering) falls back to a hash map.
class IdMap {
 public:
  // `table` is storage kept across blocks; its entries are cleared here.
  IdMap(size_t expected, std::vector<uint32_t>* table)
      : dense_limit_(std::max<size_t>(4096, expected * 8)), dense_(*table) {
    dense_.assign(std::min(expected + 16, dense_limit_), kNoNode);
  }
  uint32_t Find(uint64_t id) const {
    if (id < dense_limit_) return id < dense_.size() ? dense_[id] : kNoNode;
    auto it = sparse_.find(id);
    return it == sparse_.end() ? kNoNode : it->second;
  }
  void Insert(uint64_t id, uint32_t index) {
    if (id < dense_limit_) {
      if (id >= dense_.size()) {
        dense_.resize(std::min<size_t>(dense_limit_, std::max<size_t>(id + 1, dense_.size() * 2)),
                      kNoNode);
      }
      dense_[id] = index;
    } else {
      sparse_.emplace(id, index);
    }
  }

 private:
  size_t dense_limit_;
  std::vector<uint32_t>& dense_;
  absl::flat_hash_map<uint64_t, uint32_t> sparse_;
};

// Reads decimal digits at `*pos`; false when there are none or they overflow.
bool ReadId(std::string_view line, size_t* pos, uint64_t* id) {
  size_t p = *pos;
  uint64_t v = 0;
  while (p < line.size() && IsDigit(line[p])) {
    if (v > (std::numeric_limits<uint64_t>::max() - 9) / 10) return false;
    v = v * 10 + static_cast<uint64_t>(line[p] - '0');
    ++p;
  }
  if (p == *pos) return false;
  *pos = p;
  *id = v;
  return true;
}

// Parses an optionally signed decimal integer filling all of `s`.
bool ParseInt64(std::string_view s, int64_t* out) {
  bool neg = !s.empty() && s[0] == '-';
  size_t p = neg ? 1 : 0;
  uint64_t v = 0;
  if (!ReadId(s, &p, &v) || p != s.size() ||
      v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return false;
  }
  *out = neg ? -static_cast<int64_t>(v) : static_cast<int64_t>(v);
  return true;
}

// The end of the attribute starting at `pos`: the next ", " at bracket depth
// 0 over (), [] and {}, or the end of the line.
size_t AttrEnd(std::string_view line, size_t pos) {
  int depth = 0;
  for (size_t i = pos; i < line.size(); ++i) {
    char c = line[i];
    if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (depth > 0) --depth;
    } else if (c == ',' && depth == 0 && i + 1 < line.size() && line[i + 1] == ' ') {
      return i;
    }
  }
  return line.size();
}

class BlockParser {
 public:
  BlockParser(std::string_view text, std::string_view source,
              const ParseOptions& options, std::vector<Diagnostic>* warnings,
              size_t expected_nodes, StringPool* shared_pool, IrBlockCache* cache)
      : text_(text),
        source_(source),
        options_(options),
        warnings_(warnings),
        shared_(shared_pool != nullptr),
        intern_names_(shared_ && expected_nodes <= kInternNamesUpTo),
        kept_(shared_ && cache != nullptr),
        t_(kept_ ? &cache->tables() : &own_),
        graph_no_(++t_->graphs),
        ids_(expected_nodes, &t_->scratch.ids),
        roots_(t_->scratch.roots),
        type_scratch_(t_->scratch.types),
        operand_scratch_(t_->scratch.operands),
        attr_scratch_(t_->scratch.attrs) {
    roots_.clear();
    graph_.kind = GraphKind::kIr;
    graph_.source.file = std::string(source);
    graph_.nodes.reserve(expected_nodes);
    if (shared_) {
      graph_.strings = shared_pool->Share();
    } else {
      graph_.strings.Reserve(expected_nodes + 64);
    }
  }

  absl::Status ParseNodeLine(std::string_view line, size_t indent, uint32_t line_no);
  absl::Status Finish();
  Graph TakeGraph() {
    // A shared pool is sealed by its owner once every graph is made.
    if (!shared_) graph_.strings.ShrinkToFit();
    graph_.ShrinkTypes();
    return std::move(graph_);
  }
  // After an elision, operands may name nodes the dump left out.
  void set_elided() {
    elided_ = true;
    graph_.partial = true;
  }
  Graph& graph() { return graph_; }

 private:
  absl::Status Error(std::string_view line, uint32_t line_no, size_t offset,
                     std::string_view message) const {
    return ParseErrorAt(source_, line_no, static_cast<uint32_t>(offset + 1), line, message);
  }
  // Gives `node` its result types from the type text. Nodes of one
  // spelling share one range of the graph's types.
  bool ParseType(std::string_view type_text, Node* node,
                 size_t* error_at, std::string_view* error);
  // The attributes from `pos` to the end of the line. Most lines end in a
  // tail seen before (`, xla_shape=f32[64]{0}, device=CPU:0, NodeType=...`):
  // those are answered by one lookup of the whole tail.
  absl::Status ParseAttrs(std::string_view line, uint32_t line_no, size_t pos,
                          Node* node);
  // Sets `*uncached` for a tail the cache must not answer: a ROOT= tail is
  // an output's own, parsed each time to record the output, and a tag that
  // is not key=value draws a warning in each block that has it.
  absl::Status ParseAttrsSlow(std::string_view line, uint32_t line_no, size_t pos,
                              Node* node, bool* uncached);
  // Interns a string that repeats across nodes (ops, attribute keys and
  // values). A small table keyed by views into the text answers most calls
  // without touching the graph's pool, whose table holds every node name
  // and so misses the cache on each probe.
  StrId InternCommon(std::string_view s) {
    if (s.empty()) return StrId{};
    auto it = t_->common.find(s);
    if (it != t_->common.end()) return it->second;
    StrId id = graph_.intern(s);
    if (t_->common.size() < kMaxCommonStrings) t_->common.emplace(s, id);
    return id;
  }
  // Outputs a node is known to have: its result types, or `num_outputs=`
  // when the type list is empty (LTC `[]`).
  uint32_t OutputsKnown(uint32_t node) const;

  std::string_view text_;
  std::string_view source_;
  const ParseOptions& options_;
  std::vector<Diagnostic>* warnings_;
  Graph graph_;
  // The graph's strings are a shared pool's (ParseIrBlock), and its node
  // names are interned when it is small (intern_names.h).
  const bool shared_;
  const bool intern_names_;
  // Whether the tables are a cache's, kept for the blocks after this one.
  const bool kept_;
  IrBlockCache::Tables own_;
  IrBlockCache::Tables* const t_;
  const uint32_t graph_no_;  // this graph's number in *t_
  IdMap ids_;
  // The tables' scratch lists (IrBlockCache::Tables::Scratch).
  std::vector<std::pair<int64_t, uint32_t>>& roots_;  // (ROOT=k, node)
  TypeList& type_scratch_;
  std::vector<ValueRef>& operand_scratch_;
  std::vector<Attr>& attr_scratch_;
  bool warned_attr_ = false;
  bool elided_ = false;
};

bool BlockParser::ParseType(std::string_view type_text, Node* node,
                            size_t* error_at, std::string_view* error) {
  auto it = t_->type_index.find(type_text);
  if (it != t_->type_index.end()) {
    IrBlockCache::Tables::Type& type = t_->types[it->second];
    if (type.graph != graph_no_) {
      // Read by an earlier block: its types are copied in, not parsed.
      graph_.SetResults(*node, absl::MakeConstSpan(type.list.data(), type.list.size()));
      type.graph = graph_no_;
      type.first = node->first_type;
      type.count = node->type_count;
      return true;
    }
    node->first_type = type.first;
    node->type_count = type.count;
    return true;
  }
  type_scratch_.clear();
  if (!ParseIrType(type_text, &graph_, &type_scratch_, error_at, error)) return false;
  graph_.SetResults(*node, absl::MakeConstSpan(type_scratch_.data(), type_scratch_.size()));
  if (t_->types.size() < kMaxCachedTypes) {
    t_->type_index.emplace(type_text, static_cast<uint32_t>(t_->types.size()));
    IrBlockCache::Tables::Type& type = t_->types.emplace_back();
    if (kept_) type.list = type_scratch_;
    type.graph = graph_no_;
    type.first = node->first_type;
    type.count = node->type_count;
  }
  return true;
}

absl::Status BlockParser::ParseNodeLine(std::string_view line, size_t indent,
                                        uint32_t line_no) {
  // "%" ID
  size_t p = indent + 1;
  uint64_t id = 0;
  if (!ReadId(line, &p, &id)) {
    return Error(line, line_no, indent + 1, "expected a node id after '%'");
  }
  std::string_view name = line.substr(indent, p - indent);
  if (uint32_t prev = ids_.Find(id); prev != kNoNode) {
    return Error(line, line_no, indent,
                 fmt::format("duplicate node id {} (first defined on line {})", name,
                             graph_.nodes[prev].line));
  }
  if (graph_.nodes.size() >= options_.max_nodes_per_graph) {
    return Error(line, line_no, indent,
                 fmt::format("graph has more than {} nodes (ParseOptions::max_nodes_per_graph)",
                             options_.max_nodes_per_graph));
  }
  if (line.compare(p, 3, " = ") != 0) {
    return Error(line, line_no, p, "expected ' = ' after the node id");
  }
  p += 3;

  // type
  size_t type_end = FindIrTypeEnd(line, p);
  if (type_end == std::string_view::npos || type_end == p) {
    return Error(line, line_no, p, "expected a result type followed by an op");
  }
  graph_.nodes.emplace_back();
  size_t type_error_at = 0;
  std::string_view type_error;
  if (!ParseType(line.substr(p, type_end - p), &graph_.nodes.back(), &type_error_at,
                 &type_error)) {
    graph_.nodes.pop_back();
    return Error(line, line_no, p + type_error_at,
                 fmt::format("malformed result type: expected {}", type_error));
  }

  // op "("
  size_t op_begin = type_end + 1;
  size_t q = op_begin;
  while (q < line.size() && line[q] != '(' && line[q] != ' ' && line[q] != ',') ++q;
  if (q == op_begin) {
    graph_.nodes.pop_back();
    return Error(line, line_no, op_begin, "expected an op name such as aten::add");
  }
  if (q >= line.size() || line[q] != '(') {
    graph_.nodes.pop_back();
    return Error(line, line_no, q, "expected '(' after the op name");
  }
  std::string_view op = line.substr(op_begin, q - op_begin);

  // operands ")"
  operand_scratch_.clear();
  p = q + 1;
  if (p < line.size() && line[p] == ')') {
    ++p;
  } else {
    for (;;) {
      size_t at = p;
      uint64_t ref = 0;
      if (p >= line.size() || line[p] != '%') {
        graph_.nodes.pop_back();
        return Error(line, line_no, at, "expected an operand such as %3 or %3.1");
      }
      ++p;
      if (!ReadId(line, &p, &ref)) {
        graph_.nodes.pop_back();
        return Error(line, line_no, at + 1, "expected a node id after '%'");
      }
      uint64_t output = 0;
      bool has_output = false;
      if (p < line.size() && line[p] == '.') {
        ++p;
        if (!ReadId(line, &p, &output)) {
          graph_.nodes.pop_back();
          return Error(line, line_no, p, "expected an output index after '.'");
        }
        has_output = true;
      }
      uint32_t producer = ids_.Find(ref);
      if (producer == kNoNode && elided_) {
        // The node was cut out of the dump (`...`): stand in for it so the
        // rest of the graph keeps its shape.
        Node current = std::move(graph_.nodes.back());
        graph_.nodes.pop_back();
        Node& stand_in = graph_.nodes.emplace_back();
        stand_in.name = graph_.intern(fmt::format("%{}", ref));
        stand_in.op = InternCommon(kElidedOp);
        stand_in.raw_op = stand_in.op;
        stand_in.line = line_no;
        producer = static_cast<uint32_t>(graph_.nodes.size() - 1);
        ids_.Insert(ref, producer);
        graph_.nodes.push_back(std::move(current));
      }
      if (producer == kNoNode) {
        graph_.nodes.pop_back();
        return Error(line, line_no, at,
                     fmt::format("operand {} refers to a node not defined before this line",
                                 line.substr(at, p - at)));
      }
      if (has_output && output > 0 && output >= OutputsKnown(producer)) {
        uint32_t known = OutputsKnown(producer);
        graph_.nodes.pop_back();
        return Error(line, line_no, at,
                     fmt::format("operand {} uses output {} but %{} has {} output{}",
                                 line.substr(at, p - at), output, ref, known,
                                 known == 1 ? "" : "s"));
      }
      operand_scratch_.push_back(ValueRef{producer, static_cast<uint32_t>(output)});
      if (p + 1 < line.size() && line[p] == ',' && line[p + 1] == ' ') {
        p += 2;
        continue;
      }
      if (p < line.size() && line[p] == ')') {
        ++p;
        break;
      }
      graph_.nodes.pop_back();
      return Error(line, line_no, p, "expected ', ' or ')' after the operand");
    }
  }

  Node& node = graph_.nodes.back();
  uint32_t index = static_cast<uint32_t>(graph_.nodes.size() - 1);
  if (absl::Status s = ParseAttrs(line, line_no, p, &node); !s.ok()) {
    graph_.nodes.pop_back();
    return s;
  }
  // Ids are checked unique above: a big graph's names are stored without a
  // lookup; a small one sharing a pool interns them, as its neighbours
  // (the records of a save file) have the same `%0`, `%1`, ...
  node.name = intern_names_ ? graph_.intern(name) : graph_.strings.Add(name);
  node.op = InternCommon(op);
  node.raw_op = node.op;
  node.line = line_no;
  node.operands.assign(operand_scratch_.begin(), operand_scratch_.end());
  if ((op.size() >= 13 && op.substr(op.size() - 13) == "::device_data")) {
    node.kind = NodeKind::kInput;
    graph_.inputs.push_back(index);
  } else if (op == "prim::Constant") {
    node.kind = NodeKind::kConstant;
  } else {
    node.kind = NodeKind::kOp;
  }
  ids_.Insert(id, index);
  return absl::OkStatus();
}

uint32_t BlockParser::OutputsKnown(uint32_t index) const {
  const Node& n = graph_.nodes[index];
  uint32_t known = n.num_outputs();
  if (std::optional<std::string_view> v = graph_.attr(n, "num_outputs")) {
    int64_t count = 0;
    if (ParseInt64(*v, &count) && count > known &&
        count <= std::numeric_limits<uint32_t>::max()) {
      known = static_cast<uint32_t>(count);
    }
  }
  return known;
}

absl::Status BlockParser::ParseAttrs(std::string_view line, uint32_t line_no,
                                     size_t pos, Node* node) {
  std::string_view tail = line.substr(pos);
  auto it = t_->tail_index.find(tail);
  if (it != t_->tail_index.end()) {
    const IrBlockCache::Tables::Tail& cached = t_->tails[it->second];
    node->attrs = cached.attrs;
    node->frame = cached.frame;
    return absl::OkStatus();
  }
  bool uncached = false;
  if (absl::Status s = ParseAttrsSlow(line, line_no, pos, node, &uncached); !s.ok()) return s;
  if (!uncached && t_->tails.size() < kMaxCachedTails) {
    t_->tail_index.emplace(tail, static_cast<uint32_t>(t_->tails.size()));
    t_->tails.push_back(IrBlockCache::Tables::Tail{node->attrs, node->frame});
  }
  return absl::OkStatus();
}

absl::Status BlockParser::ParseAttrsSlow(std::string_view line, uint32_t line_no,
                                         size_t pos, Node* node, bool* uncached) {
  attr_scratch_.clear();
  while (pos < line.size()) {
    if (line[pos] == ',') {
      ++pos;
      if (pos < line.size() && line[pos] == ' ') ++pos;
    } else if (IsBlank(line.substr(pos))) {
      break;
    } else if (line[pos] != ' ') {
      return Error(line, line_no, pos, "expected ', ' before the next attribute");
    }
    while (pos < line.size() && line[pos] == ' ') ++pos;
    if (pos >= line.size()) break;
    // Late-2023 XLA dumps end the tags with `dynamic_dims: (...)`; nothing
    // after it is a tag.
    if (line.compare(pos, 12, "dynamic_dims") == 0) break;
    size_t end = AttrEnd(line, pos);
    std::string_view item = line.substr(pos, end - pos);
    size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      *uncached = true;
      if (!warned_attr_) {
        warned_attr_ = true;
        AddWarning(warnings_, options_.max_warnings, source_, line_no,
                   static_cast<uint32_t>(pos + 1),
                   fmt::format("ignored a tag that is not key=value: '{}'", item.substr(0, 60)));
      }
      pos = end;
      continue;
    }
    std::string_view key = StripSpaces(item.substr(0, eq));
    std::string_view value = StripSpaces(item.substr(eq + 1));
    if (key == "ROOT") {
      int64_t k = 0;
      if (!ParseInt64(value, &k) || k < 0) {
        return Error(line, line_no, pos + eq + 1,
                     "ROOT= expects the output position, a non-negative integer");
      }
      roots_.emplace_back(k, static_cast<uint32_t>(graph_.nodes.size() - 1));
      *uncached = true;
    } else if (key == "xla_shape") {
      // Redundant with the result type.
    } else if (key == "location") {
      node->frame = InternCommon(value);
    } else {
      attr_scratch_.push_back(Attr{InternCommon(key), InternCommon(value)});
    }
    pos = end;
  }
  node->attrs.assign(attr_scratch_.begin(), attr_scratch_.end());
  return absl::OkStatus();
}

absl::Status BlockParser::Finish() {
  // Dumps number their outputs in node order: the sort (and its buffer)
  // is for those that do not.
  auto by_position = [](const auto& a, const auto& b) { return a.first < b.first; };
  if (!std::is_sorted(roots_.begin(), roots_.end(), by_position)) {
    std::stable_sort(roots_.begin(), roots_.end(), by_position);
  }
  graph_.outputs.reserve(roots_.size());
  for (const auto& [k, node] : roots_) graph_.outputs.push_back(ValueRef{node, 0});
  return absl::OkStatus();
}

size_t EstimateNodes(std::string_view text, size_t begin, size_t max_nodes) {
  // The node lines up to where ParseIrBlock stops (a closing brace, another
  // record, any line neither a node, an elision nor blank): one cheap pass
  // that lets every vector be sized once, exactly for a whole block. Lines
  // to the first brace at column 0 were counted before, and a save file of
  // indented blocks sized each graph for the rest of the file (22 GB for a
  // 16 MB file). memchr per line, not memmem for "\n}": glibc's memmem is
  // slow on two-byte needles.
  const char* p = text.data() + begin;
  const char* end = text.data() + text.size();
  size_t nodes = 0;
  while (nodes <= max_nodes) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    if (nl == nullptr) break;
    p = nl + 1;
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    if (p == end) break;
    if (*p == '%') {
      ++nodes;
    } else if (*p != '\n' && *p != '\r' && *p != '.') {
      break;
    }
  }
  return std::min(nodes, max_nodes + 1);
}

// `...` (or `... 120 more lines`): whoever pasted the dump left nodes out.
bool IsElision(std::string_view body) {
  return body.size() >= 3 && body.compare(0, 3, "...") == 0;
}

void WarnElisions(std::string_view source, const ParseOptions& options,
                  std::vector<Diagnostic>* warnings, uint32_t elisions, uint32_t first) {
  if (elisions == 0) return;
  AddWarning(warnings, options.max_warnings, source, first, 1,
             fmt::format("{} elision line{} ('...'): nodes were left out of this IR block; "
                         "the graph is marked partial",
                         elisions, elisions == 1 ? "" : "s"));
}

}  // namespace

bool IsIrBlockStart(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  return line.compare(i, 4, "IR {") == 0;
}

absl::StatusOr<Graph> ParseIrBlock(std::string_view text, size_t begin,
                                   uint32_t begin_line, std::string_view source,
                                   const ParseOptions& options,
                                   std::vector<Diagnostic>* warnings,
                                   IrBlockEnd* end, StringPool* shared_pool,
                                   IrBlockCache* cache) {
  BlockParser parser(text, source, options, warnings,
                     EstimateNodes(text, begin, options.max_nodes_per_graph), shared_pool,
                     cache);
  LineReader lines(text.substr(begin), begin_line);
  std::string_view line;
  uint32_t elisions = 0, first_elision = 0;
  lines.Next(&line);  // "IR {"
  std::string_view last_line = line;
  while (lines.Next(&line)) {
    last_line = line;
    size_t indent = 0;
    while (indent < line.size() && (line[indent] == ' ' || line[indent] == '\t')) ++indent;
    if (indent == line.size()) continue;
    char c = line[indent];
    if (IsElision(line.substr(indent))) {
      if (elisions++ == 0) first_elision = lines.line_number();
      parser.set_elided();
      continue;
    }
    if (c == '%') {
      if (absl::Status s = parser.ParseNodeLine(line, indent, lines.line_number()); !s.ok()) {
        // A last line without its newline is where a killed writer stopped:
        // drop the torn line and keep the rest as a cut-short block.
        if (lines.done() && text.back() != '\n' && !parser.graph().nodes.empty()) {
          AddWarning(warnings, options.max_warnings, source, lines.line_number(), 1,
                     "the last line is cut short (no newline at the end); it was dropped");
          break;
        }
        if (end != nullptr && lines.done() && text.back() != '\n') end->truncated = true;
        return s;
      }
      continue;
    }
    if (c == '}' && IsBlank(line.substr(indent + 1))) {
      if (absl::Status s = parser.Finish(); !s.ok()) return s;
      WarnElisions(source, options, warnings, elisions, first_elision);
      Graph g = parser.TakeGraph();
      g.source.first_line = begin_line;
      g.source.last_line = lines.line_number();
      if (end != nullptr) {
        end->offset = begin + lines.position();
        end->line = lines.line_number();
      }
      return g;
    }
    if (indent == 0) {
      // The next record (or other text) starts inside this block: the block
      // was cut short. Keep what it has; the caller resumes at this line.
      if (!parser.graph().nodes.empty() && parser.Finish().ok()) {
        AddWarning(warnings, options.max_warnings, source, lines.line_number(), 1,
                   fmt::format("the IR block opened on line {} is not closed with '}}' before "
                               "this line (truncated dump?); its {} nodes are kept and the "
                               "graph is marked partial",
                               begin_line, parser.graph().nodes.size()));
        WarnElisions(source, options, warnings, elisions, first_elision);
        Graph g = parser.TakeGraph();
        g.partial = true;
        g.source.first_line = begin_line;
        g.source.last_line = lines.line_number() - 1;
        if (end != nullptr) {
          end->offset = begin + lines.line_offset();
          end->line = lines.line_number() - 1;
        }
        return g;
      }
      return ParseErrorAt(source, lines.line_number(), 1, line,
                          fmt::format("the IR block opened on line {} is not closed with '}}' "
                                      "before this line (truncated dump?)",
                                      begin_line));
    }
    return ParseErrorAt(source, lines.line_number(),
                        static_cast<uint32_t>(indent + 1), line,
                        "expected a node line such as '%3 = f32[4]{0} aten::relu(%2)'");
  }
  // The text ended inside the block.
  uint32_t line_no = lines.line_number();
  if (end != nullptr) end->truncated = true;
  if (parser.graph().nodes.size() > 0 && parser.Finish().ok()) {
    // A dump cut short still shows what it has: keep it, marked partial.
    AddWarning(warnings, options.max_warnings, source, begin_line, 1,
               fmt::format("the IR block opened on line {} has no closing '}}' (truncated "
                           "dump?); its {} nodes are kept and the graph is marked partial",
                           begin_line, parser.graph().nodes.size()));
    WarnElisions(source, options, warnings, elisions, first_elision);
    Graph g = parser.TakeGraph();
    g.partial = true;
    g.source.first_line = begin_line;
    g.source.last_line = line_no;
    if (end != nullptr) {
      end->offset = text.size();
      end->line = line_no;
    }
    return g;
  }
  return ParseErrorAt(source, line_no, static_cast<uint32_t>(last_line.size() + 1),
                      last_line,
                      fmt::format("unexpected end of text: the IR block opened on line {} has "
                                  "no closing '}}' (truncated dump?)",
                                  begin_line));
}

absl::StatusOr<Graph> ParseIrText(std::string_view text, std::string_view source,
                                  const ParseOptions& options,
                                  std::vector<Diagnostic>* warnings) {
  if (IsBlank(text)) {
    return ParseError(source, text, 0, "empty text: expected an 'IR {' block");
  }
  LineReader lines(text);
  std::string_view line;
  uint32_t skipped = 0, first_skipped = 0;
  while (lines.Next(&line)) {
    if (IsIrBlockStart(line)) {
      if (skipped > 0) {
        AddWarning(warnings, options.max_warnings, source, first_skipped, 1,
                   fmt::format("skipped {} line{} before the 'IR {{' block", skipped,
                               skipped == 1 ? "" : "s"));
      }
      IrBlockEnd end;
      absl::StatusOr<Graph> g = ParseIrBlock(text, lines.line_offset(),
                                             lines.line_number(), source, options,
                                             warnings, &end);
      if (!g.ok()) return g.status();
      LineReader rest(text.substr(end.offset), end.line + 1);
      while (rest.Next(&line)) {
        if (!IsBlank(line)) {
          AddWarning(warnings, options.max_warnings, source, rest.line_number(), 1,
                     "ignored text after the closing '}' of the IR block");
          break;
        }
      }
      return g;
    }
    if (!IsBlank(line) && skipped++ == 0) first_skipped = lines.line_number();
  }
  return ParseError(source, text, 0, "no 'IR {' block found");
}

}  // namespace graphdiff
