#!/usr/bin/env bash
# Builds graphdiff with its tests and benchmarks and runs the whole suite,
# then the suite again under ASan+UBSan (tools/test_sanitize.sh;
# GRAPHDIFF_SKIP_SANITIZE=1 skips that locally, never in CI).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GRAPHDIFF_BUILD_DIR:-$root/build}"
bash "$root/tools/build.sh" -DGRAPHDIFF_BUILD_TESTS=ON -DGRAPHDIFF_BUILD_BENCHMARKS=ON -DGRAPHDIFF_PYTHON=ON
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
bash "$root/tools/test_sanitize.sh"
