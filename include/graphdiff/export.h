// Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
//
// Symbol visibility. The library is built with -fvisibility=hidden; every
// public header wraps its declarations in GRAPHDIFF_PUBLIC_BEGIN/END so that
// exactly what the public headers declare is exported from the shared
// library, and nothing declared only in a private header is.
#ifndef GRAPHDIFF_EXPORT_H_
#define GRAPHDIFF_EXPORT_H_

#if defined(__GNUC__) || defined(__clang__)
#define GRAPHDIFF_PUBLIC_BEGIN _Pragma("GCC visibility push(default)")
#define GRAPHDIFF_PUBLIC_END _Pragma("GCC visibility pop")
#else
#define GRAPHDIFF_PUBLIC_BEGIN
#define GRAPHDIFF_PUBLIC_END
#endif

#endif  // GRAPHDIFF_EXPORT_H_
