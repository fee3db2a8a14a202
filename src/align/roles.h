// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// How a node is read by one of its users, as propagation compares users of
// two paired nodes: the user's op class, the operand position and output it
// reads, the user's fingerprint, and the user.
#ifndef GRAPHDIFF_SRC_ALIGN_ROLES_H_
#define GRAPHDIFF_SRC_ALIGN_ROLES_H_

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

namespace graphdiff::align {

struct Role {
  uint64_t cls;
  uint32_t pos;
  uint32_t output;
  uint64_t fp;
  uint32_t node;
  bool SameRole(const Role& o) const {
    return cls == o.cls && pos == o.pos && output == o.output;
  }
  bool operator<(const Role& o) const {
    return std::tie(cls, pos, output, fp, node) <
           std::tie(o.cls, o.pos, o.output, o.fp, o.node);
  }
};

// Lists at least this long are grouped instead of compared element by
// element.
inline constexpr size_t kGroupedRoles = 64;

// Sorts `roles`, given in node order (as a users list is), by operator<.
void SortRoles(std::vector<Role>* roles);

}  // namespace graphdiff::align

#endif  // GRAPHDIFF_SRC_ALIGN_ROLES_H_
