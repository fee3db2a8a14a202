#!/usr/bin/env bash
# Builds graphdiff with its tests and benchmarks and runs the whole suite.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GRAPHDIFF_BUILD_DIR:-$root/build}"
bash "$root/tools/build.sh" -DGRAPHDIFF_BUILD_TESTS=ON -DGRAPHDIFF_BUILD_BENCHMARKS=ON -DGRAPHDIFF_PYTHON=ON
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
