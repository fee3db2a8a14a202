#!/usr/bin/env bash
# Growth from the outside: each dump shape of bench/cliff_inputs.py (shapes
# that once cost time or memory growing faster than their size) at two sizes
# four times apart, with `graphdiff` wall time, peak memory and how much each
# grew. Linear work grows about 4x (less while startup still counts); a
# shape growing 16x is quadratic. Prints what it measured; asserts nothing.
#
#   bash tools/bench_cliffs.sh                 # 2 MB and 8 MB a shape
#   SMALL=1000000 bash tools/bench_cliffs.sh   # 1 MB and 4 MB
#   bash tools/bench_cliffs.sh diff_html       # named shapes only
#
# GRAPHDIFF_BENCH_BUILD_DIR: the Release build to use (default build-release).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GRAPHDIFF_BENCH_BUILD_DIR:-$root/build-release}"
small="${SMALL:-2000000}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bash "$root/tools/deps.sh"
if [ ! -x /usr/bin/time ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
if [ -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" >/dev/null
else
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$build" -j"$(nproc)" --target graphdiff_cli >/dev/null
gd="$build/graphdiff"
inputs="$root/bench/cliff_inputs.py"

printf '%-28s %10s %10s %9s %9s %7s %7s\n' shape "bytes" "4x bytes" "time" "4x time" "time x" "mem x"
python3 "$inputs" --list | while IFS=$'\t' read -r name args; do
  if [ $# -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$name"; then continue; fi
  declare -a secs=() kbs=() sizes=()
  for size in "$small" $((small * 4)); do
    mapfile -t files < <(python3 "$inputs" "$name" "$size" "$work/$name")
    sizes+=("$(cat "${files[@]}" | wc -c)")
    # shellcheck disable=SC2086  # args is a word list
    /usr/bin/time -o "$work/time" -f '%e %M' timeout 600 "$gd" $args "${files[@]}" \
      >/dev/null 2>"$work/err" || true
    read -r s kb < <(tail -n 1 "$work/time")
    secs+=("$s")
    kbs+=("$kb")
    rm -f "${files[@]}"
  done
  awk -v n="$name" -v b1="${sizes[0]}" -v b2="${sizes[1]}" -v t1="${secs[0]}" -v t2="${secs[1]}" \
      -v m1="${kbs[0]}" -v m2="${kbs[1]}" 'BEGIN {
    printf "%-28s %10d %10d %8.2fs %8.2fs %7.1f %7.1f\n", n, b1, b2, t1, t2,
           (t1 > 0 ? t2 / t1 : 0), (m1 > 0 ? m2 / m1 : 0) }'
done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
