#!/usr/bin/env bash
# Throughput from the outside, on inputs built from real testdata graphs:
#  - `graphdiff diff` of two ~10^6-node files (IR replicated and renumbered,
#    FX and HLO graphs one after another, and one FX graph of that many
#    nodes, typed, of module calls, and of module calls spelled with getattr,
#    with planted changes) and of two pairs of directories of 10,000
#    graph files (renumbered, a few planted changes; in one the files repeat
#    testdata's, in the other none is like another),
#    beside GNU diff and a renumber-insensitive text diff (ids replaced by
#    %N, lines sorted, then diff) of the same files, with the ratios;
#  - `graphdiff stats --jobs 1` parse rate per format (MB/s per core), also
#    on a save file of small records, a TORCH_LOGS log of small typed FX
#    graphs, the same graphs bare and a TORCH_TRACE log, and with every core
#    for those and the save file;
#  - whether every core is busy on the directory ((user+sys)/wall);
#  - peak memory (/usr/bin/time) and the machine.
#
#   bash tools/bench_throughput.sh
#   SCALE=20000 FILES=200 bash tools/bench_throughput.sh   # a quick check
#
# SCALE: nodes per big input (default 1000000); FILES: files per directory
# (default 10000); RUNS: runs of each command, the fastest kept (default 2);
# GRAPHDIFF_BENCH_BUILD_DIR: the Release build to use (default build-release,
# configured as Release and built here; a directory already configured keeps
# its build type); KEEP=1 keeps the inputs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GRAPHDIFF_BENCH_BUILD_DIR:-$root/build-release}"
scale="${SCALE:-1000000}"
files="${FILES:-10000}"
work="$(mktemp -d)"
if [ "${KEEP:-0}" = 1 ]; then echo "inputs kept in $work"; else trap 'rm -rf "$work"' EXIT; fi
bash "$root/tools/deps.sh"
if [ ! -x /usr/bin/time ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null
fi
# A build directory already configured keeps its build type; a new one is Release.
if [ -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DGRAPHDIFF_BUILD_BENCHMARKS=ON >/dev/null
else
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGRAPHDIFF_BUILD_BENCHMARKS=ON >/dev/null
fi
cmake --build "$build" -j"${GRAPHDIFF_BENCH_BUILD_JOBS:-$(nproc)}" --target graphdiff_cli replicate_ir >/dev/null
gd="$build/graphdiff"

echo "== machine"
echo "nproc: $(nproc)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "memory: $(awk '/MemTotal/ {printf "%.1f GB", $2 / 1048576}' /proc/meminfo)"
echo "kernel THP mode: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
# The tool asks for huge pages where they pay; on a VM whose balloon reports
# free pages to the host, each run probes fresh memory first
# (tools/graphdiff/malloc_tuning.h). This is one run's choice.
if [ "${GRAPHDIFF_TUNE_MALLOC:-}" = 0 ]; then
  echo "graphdiff malloc: glibc defaults (GRAPHDIFF_TUNE_MALLOC=0)"
else
  GRAPHDIFF_TUNE_MALLOC=report "$gd" --version 2>&1 >/dev/null |
    sed 's/^graphdiff: malloc: /graphdiff malloc (one run'"'"'s probe): /'
fi
echo "graphdiff: $("$gd" --version) ($(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt") build)"

echo "== building inputs (SCALE=$scale nodes, FILES=$files)"
graph="$root/testdata/generated/resnet18/ir_eager.txt"
per_graph="$("$gd" stats --format json --no-progress "$graph" |
  /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["graphs"][0]["nodes"])')"
copies=$(( (scale + per_graph - 1) / per_graph ))
"$build/bench/replicate_ir" "$graph" "$copies" 0 "$work/ir_left.txt" >/dev/null
"$build/bench/replicate_ir" "$graph" "$copies" 9 "$work/ir_right.txt" >/dev/null
/usr/bin/python3 "$root/bench/throughput_inputs.py" "$gd" "$root/testdata" "$scale" "$files" "$work"
echo "IR: $((copies * per_graph)) nodes"

# run LABEL CMD...: wall, user+sys and peak memory of a command, the fastest
# of RUNS runs (default 2: on a VM the first run after an idle minute can pay
# a second of kernel time to get its memory back from the host, whatever the
# program); sets $wall and $cpu for the caller. Exit codes 0 and 1 (same /
# different) are both fine.
run() {
  local label="$1"
  shift
  local rc=0 best="" i
  for ((i = 0; i < ${RUNS:-2}; i++)); do
    rc=0
    /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$@" >/dev/null 2>"$work/err.txt" || rc=$?
    if [ "$rc" -gt 1 ]; then
      echo "$label: failed (exit $rc)"; tail -n 3 "$work/err.txt"; return 1
    fi
    local line
    line="$(tail -n 1 "$work/time.txt")"
    if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN {exit !(a < b)}'; then
      best="$line"
    fi
  done
  read -r wall user sys kb <<<"$best"
  cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN {printf "%.2f", u + s}')
  printf '%-34s %7.2f s wall %7.2f s cpu %8.1f MiB peak\n' "$label" "$wall" "$cpu" "$(awk -v k="$kb" 'BEGIN {print k / 1024}')"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "inf"}'; }

# The renumber-insensitive text diff: ids to %N, lines sorted, then diff -r.
normalise() {
  perl -e '
    use File::Find; use File::Path qw(make_path); use File::Basename;
    my ($from, $to) = @ARGV;
    my @files;
    if (-d $from) { find({no_chdir => 1, wanted => sub { push @files, $_ if -f $_ }}, $from); }
    else { @files = ($from); }
    for my $f (@files) {
      my $rel = -d $from ? substr($f, length($from)) : "";
      my $out = $to . $rel;
      make_path(dirname($out));
      open(my $in, "<", $f) or die; my @l = <$in>; close $in;
      s/%[A-Za-z_.\-]*?\d+/%N/g for @l;
      open(my $o, ">", $out) or die; print $o sort @l; close $o;
    }' "$1" "$2"
}
normalised_diff() {
  rm -rf "$work/norm"
  mkdir -p "$work/norm"
  normalise "$1" "$work/norm/l"
  normalise "$2" "$work/norm/r"
  diff -r "$work/norm/l" "$work/norm/r" >/dev/null || true
}
export -f normalise normalised_diff
export work

compare() {
  local name="$1" left="$2" right="$3" flag=""
  [ -d "$left" ] && flag="-r"
  echo "== diff: $name ($(du -sh "$left" | cut -f1) per side)"
  run "graphdiff diff" "$gd" diff --no-progress "$left" "$right"; local g="$wall"
  local gcpu="$cpu"
  run "GNU diff $flag" diff $flag "$left" "$right"; local d="$wall"
  run "normalised text diff" bash -c 'normalised_diff "$0" "$1"' "$left" "$right"; local n="$wall"
  echo "ratio graphdiff / GNU diff: $(ratio "$g" "$d")x; graphdiff / normalised diff: $(ratio "$g" "$n")x"
  if [ -d "$left" ]; then
    echo "cores busy on the directory: $(ratio "$gcpu" "$g") of $(nproc) ((user+sys)/wall)"
  fi
}
compare "IR, one graph" "$work/ir_left.txt" "$work/ir_right.txt"
compare "FX, graphs one after another" "$work/fx_left.txt" "$work/fx_right.txt"
compare "FX, small models' graphs one after another" "$work/fx_tiny_left.txt" \
  "$work/fx_tiny_right.txt"
compare "IR save file of small records" "$work/save_small.txt" "$work/save_small_right.txt"
compare "FX, one graph" "$work/fx_one_left.txt" "$work/fx_one_right.txt"
compare "FX, one typed graph (torch 2.x)" "$work/fx_typed_left.txt" "$work/fx_typed_right.txt"
compare "FX, one graph of module calls (symbolic_trace)" "$work/fx_module_left.txt" "$work/fx_module_right.txt"
compare "FX, module calls spelled with getattr (symbolic_trace)" "$work/fx_getattr_left.txt" \
  "$work/fx_getattr_right.txt"
compare "HLO, modules one after another" "$work/hlo_left.txt" "$work/hlo_right.txt"
compare "directory of $files graph files" "$work/dir_left" "$work/dir_right"
compare "directory of $files graph files, none alike" "$work/distinct_left" "$work/distinct_right"

# rate BYTES SECONDS: MB/s as the targets count them (10^6 bytes), and MiB/s,
# the unit of the figures before session 15 (printed then as "MB/s").
rate() {
  awk -v b="$1" -v w="$2" 'BEGIN {printf "%.0f MB/s (%.0f MiB/s)", b / 1e6 / w, b / 1048576 / w}'
}
echo "== parse rate: graphdiff stats --jobs 1 (one core), and --jobs $(nproc)"
for input in ir_left.txt save.txt save_small.txt fx_left.txt fx_one_left.txt fx_typed_left.txt \
    fx_module_left.txt fx_getattr_left.txt fx_log.txt fx_small.txt trace_log.txt hlo_left.txt metrics.txt; do
  bytes=$(stat -c %s "$work/$input")
  mb=$(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1e6}')
  run "stats $input ($mb MB), 1 job" "$gd" stats --jobs 1 --no-progress "$work/$input"
  echo "  $(rate "$bytes" "$wall") per core"
  # Records of one file parse on every core: a save file and FX logs.
  if [ "$input" = save.txt ] || [ "$input" = save_small.txt ] || [ "$input" = fx_log.txt ] ||
      [ "$input" = fx_small.txt ] || [ "$input" = trace_log.txt ]; then
    run "stats $input, $(nproc) jobs" "$gd" stats --no-progress "$work/$input"
    echo "  $(rate "$bytes" "$wall") on $(nproc) cores"
  fi
done
for f in ir_left.txt; do
  gzip -1 -c "$work/$f" > "$work/$f.gz"
  run "stats $f.gz (streamed)" "$gd" stats --no-progress "$work/$f.gz"
done
