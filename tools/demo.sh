#!/usr/bin/env bash
# The main job: build graphdiff and explain the ResNet-18 case of
# pytorch/xla#5430 (torchxla_trace_once, the baseline, against openxla).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GRAPHDIFF_BUILD_DIR:-$root/build}"
bash "$root/tools/build.sh" -DGRAPHDIFF_BUILD_TESTS=OFF -DGRAPHDIFF_BUILD_BENCHMARKS=OFF
case_dir="$root/testdata/resnet18-xla5430"
# diff exits 1 when the dumps differ, which they do: that is the finding, not a failure.
"$build/graphdiff" diff "$case_dir/torchxla_trace_once" "$case_dir/openxla" || [ $? -eq 1 ]
