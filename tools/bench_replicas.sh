#!/usr/bin/env bash
# End-to-end speed on a real graph replicated into a ~10^6-node dump:
# `graphdiff diff` of the dump against its renumbered and reordered copy,
# beside GNU diff of the same two files. Prints wall time and peak memory.
#
#   bash tools/bench_replicas.sh [GRAPH] [COPIES]
#
# Defaults: testdata/generated/resnet18/ir_eager.txt (245 nodes) x 4082.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GRAPHDIFF_BENCH_BUILD_DIR:-$root/build-release}"
graph="${1:-$root/testdata/generated/resnet18/ir_eager.txt}"
copies="${2:-4082}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bash "$root/tools/deps.sh"
if [ ! -x /usr/bin/time ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGRAPHDIFF_BUILD_BENCHMARKS=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target graphdiff_cli replicate_ir >/dev/null
"$build/bench/replicate_ir" "$graph" "$copies" 0 "$work/left.txt"
"$build/bench/replicate_ir" "$graph" "$copies" 9 "$work/right.txt"
ls -l "$work"/left.txt "$work"/right.txt
measure() {
  local label="$1"
  shift
  /usr/bin/time -f "$label: %e s wall, %M KB peak" "$@" >/dev/null 2>"$work/time.txt" || true
  tail -n 1 "$work/time.txt"
}
measure "graphdiff diff" "$build/graphdiff" diff "$work/left.txt" "$work/right.txt"
"$build/graphdiff" diff "$work/left.txt" "$work/right.txt" | head -n 3
measure "GNU diff" diff "$work/left.txt" "$work/right.txt"
