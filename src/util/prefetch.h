// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// PrefetchForRead: asks for the cache line at `p` ahead of a read of it,
// in a form the compiler keeps.
//
// GCC takes __builtin_prefetch for a statement without effect. A small
// function that only hashes a key and prefetches its slot (NameTable's
// Prefetch) is then found pure, and a call to a pure function whose result
// goes unused is deleted before it is inlined: GCC 12 at -O2 dropped the FX
// parse's slot prefetches from every caller, and the parse of one graph of
// 10^6 nodes waited on a cache miss per statement. The empty volatile asm
// that takes the address is an effect the compiler must keep; it emits no
// instruction.
#ifndef GRAPHDIFF_SRC_UTIL_PREFETCH_H_
#define GRAPHDIFF_SRC_UTIL_PREFETCH_H_

namespace graphdiff {

inline void PrefetchForRead(const void* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p);
  __asm__ __volatile__("" : : "r"(p));
#else
  (void)p;
#endif
}

}  // namespace graphdiff

#endif  // GRAPHDIFF_SRC_UTIL_PREFETCH_H_
