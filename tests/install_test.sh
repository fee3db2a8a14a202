#!/usr/bin/env bash
# Installs graphdiff into a temporary prefix and builds the examples against
# the installed package only (CMake config and pkg-config), so a broken
# install fails the suite. Usage: install_test.sh BUILD_DIR SOURCE_DIR [SANITIZE]
# With SANITIZE=ON (the ASan+UBSan build) the consumers are built with the
# same sanitizer flags, as a consumer of such a library must be.
set -euo pipefail
build="$1"
src="$2"
if [ "${3:-OFF}" = ON ]; then
  export CXXFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer"
  export LDFLAGS="-fsanitize=address,undefined"
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
test -x "$prefix/bin/graphdiff"
test -f "$prefix/include/graphdiff/graphdiff.h"
ls "$prefix"/lib*/libgraphdiff.so* "$prefix"/lib*/libgraphdiff.a >/dev/null

# Only the public API is exported: a function declared in a private header
# (src/parse/error.h) must be hidden; one from a public header visible.
so="$(ls "$prefix"/lib*/libgraphdiff.so | head -n1)"
syms="$(nm -D --defined-only -C "$so")"
for sym in graphdiff::ParseText graphdiff::LoadDump graphdiff::Align graphdiff::OpEquivalence::BuiltIn \
           graphdiff::DiffDumps graphdiff::RenderDiff graphdiff::ComputeStats graphdiff::SnapshotDump \
           graphdiff::CheckAgainstBaseline graphdiff::Version; do
  grep -qE "${sym}(\[abi:cxx11\])?\(" <<<"$syms" || { echo "public symbol $sym is not exported" >&2; exit 1; }
done
if grep -q "graphdiff::FormatParseMessage" <<<"$syms"; then
  echo "private symbol graphdiff::FormatParseMessage is exported" >&2
  exit 1
fi

# CMake consumer, configured against the prefix alone.
cmake -S "$src/examples" -B "$tmp/examples" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/examples" -j2 >/dev/null
case_dir="$src/testdata/resnet18-xla5430"
export LD_LIBRARY_PATH="$(dirname "$so")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
out="$("$tmp/examples/print_substitutions" "$case_dir/torchxla_trace_once" "$case_dir/openxla")"
echo "$out"
grep -q "op-substitution finding" <<<"$out"
grep -q "batch_norm" <<<"$out"

set +e
"$tmp/examples/outputs_guard" "$case_dir/torchxla_trace_once" "$case_dir/openxla"
rc=$?
set -e
test "$rc" = 1
"$tmp/examples/outputs_guard" "$case_dir/openxla" "$case_dir/openxla"

# pkg-config consumer.
export PKG_CONFIG_PATH="$(dirname "$so")/pkgconfig"
pkg-config --exists graphdiff
cat >"$tmp/version.cc" <<'CC'
#include <cstdio>
#include <string>
#include "graphdiff/version.h"
int main() { std::printf("%s\n", std::string(graphdiff::Version()).c_str()); }
CC
c++ -std=c++17 ${CXXFLAGS:-} "$tmp/version.cc" -o "$tmp/version" $(pkg-config --cflags --libs graphdiff) ${LDFLAGS:-}
"$tmp/version" | grep -q "^[0-9]*\.[0-9]*\.[0-9]*$"
echo "install test: 1 passed, 0 failed"
