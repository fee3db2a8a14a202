#!/usr/bin/env bash
# The main job: build graphdiff, install it (CLI, library, Python module; see
# tools/install.sh), and explain the ResNet-18 case of pytorch/xla#5430
# (torchxla_trace_once, the baseline, against openxla).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GRAPHDIFF_BUILD_DIR:-$root/build}"
bash "$root/tools/install.sh" >&2
case_dir="$root/testdata/resnet18-xla5430"
# diff exits 1 when the dumps differ, which they do: that is the finding, not a failure.
"$build/graphdiff" diff "$case_dir/torchxla_trace_once" "$case_dir/openxla" || [ $? -eq 1 ]
