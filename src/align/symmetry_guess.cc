// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
#include "align/symmetry_guess.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "align/hash.h"
#include "align/sequence.h"

namespace graphdiff::align {

namespace {

class Guess {
 public:
  Guess(State& st, JointPartition& p, std::vector<uint64_t>& scratch)
      : st_(st), p_(p), n0_(st.side[0].size), n_(n0_ + st.side[1].size), names_(scratch) {}

  size_t Run() {
    if (!Gather()) return 0;
    Propose();
    Check();
    return Accept();
  }

 private:
  // Cells of look-alikes from both sides. A cell of one left and one right
  // node is a pair already; aliases are paired later through their readers
  // (see Symmetry::Pairable), so they are neither guessed nor checked.
  bool Guessed(uint32_t c) const {
    if (p_.fixed(c) || p_.left_count(c) == 0 || p_.right_count(c) == 0 || p_.size(c) == 2) {
      return false;
    }
    return !AliasElement(st_, *p_.begin(c));
  }

  // Lists each guessed cell's members, left ones then right ones, each in
  // node order, with their frames and their names' hashes: one pass over
  // the nodes in order per side, where walking each cell's members would
  // jump across the graph.
  bool Gather() {
    std::vector<uint32_t>& index = index_;
    index.assign(p_.num_cells(), kNone);
    uint32_t total = 0;
    for (uint32_t c = 0; c < p_.num_cells(); ++c) {
      if (!Guessed(c)) continue;
      index[c] = static_cast<uint32_t>(cells_.size());
      cells_.push_back(Span{c, total, p_.left_count(c), p_.right_count(c)});
      total += p_.size(c);
    }
    if (cells_.empty()) return false;
    members_.resize(total);
    frames_.resize(total);
    if (names_.size() < total) names_.resize(total);
    ForBothSides(st_.parallel, [&](int s) {
      std::vector<uint32_t> fill(cells_.size());
      for (size_t k = 0; k < cells_.size(); ++k) {
        fill[k] = cells_[k].start + (s == 0 ? 0 : cells_[k].left);
      }
      const uint32_t off = s == 0 ? 0 : n0_, end = s == 0 ? n0_ : n_;
      const Graph& g = *st_.side[s].graph;
      const bool named = g.kind == GraphKind::kFx;
      for (uint32_t x = off; x < end; ++x) {
        const uint32_t k = index[p_.cell(x)];
        if (k == kNone) continue;
        const uint32_t at = fill[k]++;
        members_[at] = x;
        const Node& node = g.nodes[x - off];
        frames_[at] = node.frame.id;
        names_[at] = named && !node.name.empty() ? HashString(g.str(node.name)) | 1 : 0;
      }
    });
    mate_.assign(n_, kNone);
    flags_.assign(n0_, 0);
    return true;
  }

  // The guess, strongest evidence first, as the one-by-one path weighs it:
  // corresponding places in the output lists (and input lists, where their
  // order means something), then a frame and then an FX name a cell holds
  // once on each side, then node order, cell by cell. A pair guessed from
  // places or order pulls in the neighbours it determines before the next
  // guess is made, as refinement would after individualising it: an
  // operand of both at the same place, and a user of each alone in its
  // role; after the names, so do the pairs next to a member still free.
  // Side-symmetric, so swapping the graphs mirrors the guess.
  void Propose() {
    ByPositions(/*outputs=*/true);
    if (OrderedInputs(*st_.side[0].graph) && OrderedInputs(*st_.side[1].graph)) {
      ByPositions(/*outputs=*/false);
    }
    ByFrames();
    ByNames();
    ByOrder();
  }

  void ByPositions(bool outputs) {
    for (const auto& [l, r] : AlignedPositions(st_, p_, outputs)) Seed(l, r);
  }

  // A model frame each side of a cell holds once pairs its holders. A
  // frame usually made a whole cell (a loop over layers runs one line for
  // every copy), and then says nothing. Frames are interned, so a frame
  // held once on a side is an id held once.
  void ByFrames() {
    absl::flat_hash_map<uint32_t, uint32_t> seen;  // frame id -> count
    absl::flat_hash_map<std::string_view, std::pair<uint32_t, uint32_t>> holders;
    for (const Span& cell : cells_) {
      const uint32_t* f = frames_.data() + cell.start;
      const uint32_t n = cell.left + cell.right;
      bool alike = true;  // one frame a side, or none
      for (uint32_t i = 1; i < cell.left && alike; ++i) alike = f[i] == f[0];
      for (uint32_t i = cell.left + 1; i < n && alike; ++i) alike = f[i] == f[cell.left];
      if (alike) continue;
      const uint32_t* m = members_.data() + cell.start;
      holders.clear();
      for (int s = 0; s < 2; ++s) {
        const uint32_t begin = s == 0 ? 0 : cell.left, end = s == 0 ? cell.left : n;
        seen.clear();
        for (uint32_t i = begin; i < end; ++i) ++seen[f[i]];
        const Graph& g = *st_.side[s].graph;
        for (uint32_t i = begin; i < end; ++i) {
          if (f[i] == 0 || seen[f[i]] != 1) continue;
          auto& at = holders.try_emplace(g.str(StrId{f[i]}), kNone, kNone).first->second;
          (s == 0 ? at.first : at.second) = i;
        }
      }
      pending_.clear();
      for (const auto& [frame, at] : holders) {
        if (at.first != kNone && at.second != kNone) pending_.push_back(at);
      }
      std::sort(pending_.begin(), pending_.end());
      for (const auto& [i, j] : pending_) ChooseMembers(m[i], m[j]);
    }
  }

  // An FX value name each side of a cell holds once pairs its holders.
  void ByNames() {
    absl::flat_hash_map<uint64_t, std::pair<uint32_t, uint32_t>> holders;
    constexpr uint32_t kTwice = kNone - 1;
    auto hold = [](uint32_t& slot, uint32_t i) { slot = slot == kNone ? i : kTwice; };
    for (Span& cell : cells_) {
      const uint32_t* left = members_.data() + cell.start;
      const uint32_t* right = left + cell.left;
      const uint64_t* lh = names_.data() + cell.start;
      const uint64_t* rh = lh + cell.left;
      // Nearly always the names of one side are the other's, in the same
      // order, with a few left out (a changed copy's nodes sit in cells of
      // their own): a merge of the two lists pairs them. FX names are
      // unique in a graph, so an equal name is the one holder on each side.
      if (Merge(lh, cell.left, rh, cell.right)) {
        uint32_t made = 0;
        for (const auto& [i, j] : pending_) made += ChooseMembers(left[i], right[j]);
        cell.settled = made == cell.left;
        continue;
      }
      holders.clear();
      for (uint32_t i = 0; i < cell.left; ++i) {
        if (lh[i] != 0) hold(holders.try_emplace(lh[i], kNone, kNone).first->second.first, i);
      }
      for (uint32_t j = 0; j < cell.right; ++j) {
        if (rh[j] == 0) continue;
        auto it = holders.find(rh[j]);
        if (it != holders.end()) hold(it->second.second, j);
      }
      // Pairs in left order, so the guess does not follow the map's.
      pending_.clear();
      for (const auto& [hash, at] : holders) {
        if (at.first < kTwice && at.second < kTwice) pending_.push_back(at);
      }
      std::sort(pending_.begin(), pending_.end());
      for (const auto& [i, j] : pending_) ChooseMembers(left[i], right[j]);
    }
    Pull();
  }

  // Pairs equal names of two lists in which the names common to both come
  // in the same order, skipping one side's entry where the other's next
  // one matches. False, with pending_ unusable, if the lists disagree on
  // order more than that.
  bool Merge(const uint64_t* a, uint32_t na, const uint64_t* b, uint32_t nb) {
    pending_.clear();
    uint32_t i = 0, j = 0;
    while (i < na && j < nb) {
      if (a[i] == b[j]) {
        if (a[i] != 0) pending_.emplace_back(i, j);
        ++i;
        ++j;
      } else if (i + 1 < na && a[i + 1] == b[j]) {
        ++i;
      } else if (j + 1 < nb && a[i] == b[j + 1]) {
        ++j;
      } else {
        return false;
      }
    }
    return true;
  }

  // Spreads from the pairs next to a member still free. After the names
  // nearly every member is paired, and spreading from each pair would only
  // find its neighbours paired too, at a cache miss or two apiece.
  void Pull() {
    const SideView& v = st_.side[0];
    for (const Span& cell : cells_) {
      if (cell.settled) continue;
      for (uint32_t i = 0; i < cell.left; ++i) {
        const uint32_t x = members_[cell.start + i];
        if (mate_[x] != kNone) continue;
        for (const ValueRef& o : v.operands(x)) {
          if (mate_[x] != kNone) break;
          Drain(o.node);
        }
        for (const Use& u : v.users(x)) {
          if (mate_[x] != kNone) break;
          Drain(u.user);
        }
      }
    }
  }

  // The rest in node order: cells balanced before uneven ones, each in a
  // side-symmetric order, the k-th free left member with the k-th free
  // right one.
  void ByOrder() {
    std::vector<std::pair<uint64_t, uint32_t>> order;
    for (int uneven = 0; uneven < 2; ++uneven) {
      order.clear();
      for (uint32_t k = 0; k < cells_.size(); ++k) {
        const Span& cell = cells_[k];
        if ((cell.left != cell.right) != (uneven != 0)) continue;
        const uint32_t l = members_[cell.start], r = members_[cell.start + cell.left] - n0_;
        order.emplace_back(SymKey(l, r), k);
      }
      std::sort(order.begin(), order.end());
      for (const auto& [key, k] : order) {
        const Span& cell = cells_[k];
        const uint32_t* left = members_.data() + cell.start;
        const uint32_t* right = left + cell.left;
        uint32_t j = 0;
        for (uint32_t i = 0; i < cell.left; ++i) {
          if (mate_[left[i]] != kNone) continue;
          while (j < cell.right && mate_[right[j]] != kNone) ++j;
          if (j == cell.right) break;
          Seed(left[i], right[j]);
        }
      }
    }
  }

  // Pairs l and r if both are free members of one guessed cell, then what
  // that determines.
  void Seed(uint32_t l, uint32_t r) {
    if (Choose(l, r)) Drain(l);
  }

  bool Choose(uint32_t l, uint32_t r) {
    if (!Open(l) || !Open(r) || p_.cell(l) != p_.cell(r)) return false;
    return ChooseMembers(l, r);
  }

  // Choose() for two members of one guessed cell.
  bool ChooseMembers(uint32_t l, uint32_t r) {
    if (mate_[l] != kNone || mate_[r] != kNone) return false;
    Pair(l, r);
    flags_[l] |= kChosen;
    return true;
  }

  // Pairs what guessed pair (l, mate) determines, and so on.
  void Drain(uint32_t l) {
    if (mate_[l] == kNone) return;
    stack_.push_back(l);
    while (!stack_.empty()) {
      const uint32_t a = stack_.back();
      stack_.pop_back();
      Spread(a, mate_[a]);
    }
  }

  bool Open(uint32_t x) const { return mate_[x] == kNone && index_[p_.cell(x)] != kNone; }

  // Users of one node past this many are not told apart by role here (a
  // hub's look-alike users): refinement, or the order pass, does it.
  static constexpr size_t kMaxFan = 32;

  void Spread(uint32_t l, uint32_t r) {
    const SideView& a = st_.side[0];
    const SideView& b = st_.side[1];
    const uint32_t rv = r - n0_;
    const auto lo = a.operands(l), ro = b.operands(rv);
    if (lo.size() == ro.size()) {
      for (size_t i = 0; i < lo.size(); ++i) {
        const uint32_t x = lo[i].node, y = n0_ + ro[i].node;
        if (lo[i].output == ro[i].output && Open(x) && Open(y) && p_.cell(x) == p_.cell(y)) {
          Pair(x, y);
          stack_.push_back(x);
        }
      }
    }
    const auto lu = a.users(l), ru = b.users(rv);
    if (lu.size() != ru.size() || lu.size() > kMaxFan) return;
    for (size_t i = 0; i < lu.size(); ++i) {
      const uint32_t x = lu[i].user;
      if (!Open(x)) continue;
      const uint32_t c = p_.cell(x);
      auto role = [&](const Use& u, uint32_t off) {
        return u.pos == lu[i].pos && u.output == lu[i].output && p_.cell(off + u.user) == c &&
               mate_[off + u.user] == kNone;
      };
      size_t alike = 0, found = 0, y = kNone;
      for (const Use& u : lu) alike += role(u, 0);
      for (const Use& u : ru) {
        if (role(u, n0_)) {
          ++found;
          y = n0_ + u.user;
        }
      }
      if (alike == 1 && found == 1) {
        Pair(x, static_cast<uint32_t>(y));
        stack_.push_back(x);
      }
    }
  }

  void Pair(uint32_t l, uint32_t r) {
    mate_[l] = r;
    mate_[r] = l;
  }

  // The counterpart of element x under the guess or the pairs made so far
  // (a fixed cell of two, or a cell of one left and one right node that
  // refinement or an output position left), or kNone.
  uint32_t Counterpart(uint32_t x) const {
    if (mate_[x] != kNone) return mate_[x];
    const uint32_t c = p_.cell(x);
    if (p_.size(c) != 2 || p_.left_count(c) != 1) return kNone;
    const uint32_t* m = p_.begin(c);
    return m[0] == x ? m[1] : m[0];
  }

  // Whether the guessed pair (l, r) maps every operand and every user of l
  // onto r's. Users count alike on both sides (they share a cell of a
  // stable colouring), so that is a one-to-one correspondence of edges.
  bool Fits(uint32_t l, uint32_t r) const {
    const SideView& a = st_.side[0];
    const SideView& b = st_.side[1];
    const uint32_t rv = r - n0_;
    const auto lo = a.operands(l), ro = b.operands(rv);
    if (lo.size() != ro.size()) return false;
    for (size_t i = 0; i < lo.size(); ++i) {
      if (lo[i].output != ro[i].output || Counterpart(lo[i].node) != n0_ + ro[i].node) return false;
    }
    const auto lu = a.users(l);
    if (lu.size() != b.users(rv).size()) return false;
    for (const Use& u : lu) {
      if (a.alias[u.user]) continue;
      const uint32_t w = Counterpart(u.user);
      if (w == kNone) return false;
      const auto wo = b.operands(w - n0_);
      if (u.pos >= wo.size() || wo[u.pos].node != rv || wo[u.pos].output != u.output) {
        return false;
      }
    }
    return true;
  }

  // Drops every guessed pair that does not fit, and with it every guessed
  // pair next to a dropped one on either side, until what is left maps
  // onto itself: whole components, so the partition stays stable without
  // them.
  void Check() {
    std::vector<uint32_t>& stack = stack_;
    for (uint32_t l = 0; l < n0_; ++l) {
      if (mate_[l] != kNone && !Fits(l, mate_[l])) {
        flags_[l] |= kDropped;
        stack.push_back(l);
      }
    }
    auto drop = [&](uint32_t left) {
      if (left != kNone && !(flags_[left] & kDropped)) {
        flags_[left] |= kDropped;
        stack.push_back(left);
      }
    };
    while (!stack.empty()) {
      const uint32_t l = stack.back();
      stack.pop_back();
      const uint32_t r = mate_[l] - n0_;
      for (int s = 0; s < 2; ++s) {
        const SideView& v = st_.side[s];
        const uint32_t x = s == 0 ? l : r;
        const uint32_t off = s == 0 ? 0 : n0_;
        // A neighbour's guessed counterpart, as a left node (kNone if none).
        auto left_of = [&](uint32_t node) {
          const uint32_t m = mate_[off + node];
          return s == 0 ? (m == kNone ? kNone : node) : m;
        };
        for (const ValueRef& o : v.operands(x)) drop(left_of(o.node));
        for (const Use& u : v.users(x)) drop(left_of(u.user));
      }
    }
  }

  // Makes the pairs that stood, in left node order, and sets them aside
  // cell by cell: a cell of their own for each cell's pairs together, not
  // one for each pair (a million cells of fresh memory).
  size_t Accept() {
    // Which elements stood, a byte each, worked out in node order: the
    // cells list their members in no order memory follows, and asking
    // mate_ and flags_ (nine bytes an element) member by member was a cache
    // miss each.
    std::vector<uint8_t> stands(n_);
    ForBothSides(st_.parallel, [&](int s) {
      const uint32_t begin = s == 0 ? 0 : n0_, end = s == 0 ? n0_ : n_;
      for (uint32_t x = begin; x < end; ++x) {
        const uint32_t m = mate_[x];
        stands[x] = m != kNone && !(flags_[x < n0_ ? x : m] & kDropped);
      }
    });
    auto stood = [&](uint32_t x) { return stands[x] != 0; };
    // The cells leave the partition while the pairs go into the state, on
    // two threads where the aligner has them: neither reads what the other
    // writes.
    size_t made = 0;
    ForBothSides(st_.parallel, [&](int task) {
      if (task == 0) {
        for (const Span& cell : cells_) p_.SetAside(cell.cell, stood);
        return;
      }
      for (uint32_t l = 0; l < n0_; ++l) {
        if (!stood(l)) continue;
        st_.Match(l, mate_[l] - n0_,
                  (flags_[l] & kChosen) ? MatcherId::kSymmetry : MatcherId::kRefine);
        ++made;
      }
    });
    return made;
  }

  struct Span {
    uint32_t cell;
    uint32_t start;  // into members_, frames_ and names_
    uint32_t left, right;
    bool settled = false;  // every left member paired by its name
  };

  State& st_;
  JointPartition& p_;
  const uint32_t n0_, n_;
  std::vector<Span> cells_;
  std::vector<uint32_t> members_;
  std::vector<uint32_t> frames_;  // StrId of the member's frame
  std::vector<uint64_t>& names_;  // hash of the member's FX name, 0 if none
  std::vector<uint32_t> mate_;    // guessed counterpart, by element
  // By left node: kChosen when a guess made the pair, not what a guess
  // determined (the pair is "symmetry", else "refine", as when
  // individualising); kDropped when the check undid it.
  static constexpr uint8_t kChosen = 1, kDropped = 2;
  std::vector<uint8_t> flags_;
  std::vector<uint32_t> index_;   // by cell: its place in cells_, or kNone
  std::vector<uint32_t> stack_;
  std::vector<std::pair<uint32_t, uint32_t>> pending_;
};

}  // namespace

std::vector<std::pair<uint32_t, uint32_t>> AlignedPositions(const State& st,
                                                            const JointPartition& p,
                                                            bool outputs) {
  const uint32_t n0 = st.side[0].size;
  std::vector<uint32_t> nodes[2];
  std::vector<uint64_t> seq[2];
  for (int s = 0; s < 2; ++s) {
    const Graph& g = *st.side[s].graph;
    const uint32_t off = s == 0 ? 0 : n0;
    if (outputs) {
      for (const ValueRef& r : g.outputs) {
        nodes[s].push_back(off + r.node);
        seq[s].push_back(Combine(p.cell(off + r.node), r.output));
      }
    } else {
      for (uint32_t v : g.inputs) {
        if (v >= st.side[s].size) continue;
        nodes[s].push_back(off + v);
        seq[s].push_back(p.cell(off + v));
      }
    }
  }
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  for (const auto& [i, j] : AlignSequences(seq[0], seq[1])) {
    pairs.emplace_back(nodes[0][i], nodes[1][j]);
  }
  return pairs;
}

size_t GuessLookAlikes(State& st, JointPartition& p, std::vector<uint64_t>& scratch) {
  return Guess(st, p, scratch).Run();
}

}  // namespace graphdiff::align
