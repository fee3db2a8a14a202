#!/usr/bin/env bash
# The test suite again under AddressSanitizer and UndefinedBehaviorSanitizer
# (docs/hardening.md), in its own build directory so the normal build stays
# fast; benchmarks are left out. Any sanitizer report fails the test that
# caused it. tools/test.sh runs this after the normal suite; CI always runs
# it, developers may skip it with GRAPHDIFF_SKIP_SANITIZE=1.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "${GRAPHDIFF_SKIP_SANITIZE:-0}" = 1 ] && [ "${CI:-}" != true ]; then
  echo "graphdiff: sanitizer pass skipped (GRAPHDIFF_SKIP_SANITIZE=1)" >&2
  exit 0
fi
build="${GRAPHDIFF_SANITIZE_BUILD_DIR:-$root/build-sanitize}"
bash "$root/tools/deps.sh"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGRAPHDIFF_SANITIZE=ON \
  -DGRAPHDIFF_BUILD_TESTS=ON -DGRAPHDIFF_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$build" -j"$(nproc)"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$root/tests/lsan.supp:print_suppressions=0"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
