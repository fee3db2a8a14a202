#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/fuzz, each for a fixed time.
#   tools/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]     (default: 60 s, all)
# Builds with clang-14 (-fsanitize=fuzzer,address,undefined) in build-fuzz/
# (or $GRAPHDIFF_FUZZ_BUILD_DIR). Each target starts from its seeds
# (tests/fuzz/targets.txt) and keeps what it finds in build-fuzz/corpus/NAME;
# a crash is written to build-fuzz/crashes/ and fails the run. Once fixed,
# copy the crash file to tests/fuzz/crashes/NAME/ so ctest replays it forever.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GRAPHDIFF_FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-60}"
shift || true

bash "$root/tools/deps.sh"
missing=()
for p in clang-14 libclang-rt-14-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

CXX=clang++-14 cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGRAPHDIFF_FUZZ=ON \
  -DGRAPHDIFF_BUILD_TESTS=OFF -DGRAPHDIFF_BUILD_BENCHMARKS=OFF >/dev/null

declare -a names
if (($#)); then
  names=("$@")
else
  mapfile -t names < <(grep -E '^[a-z]' "$root/tests/fuzz/targets.txt" | cut -d' ' -f1)
fi
cmake --build "$build" -j"$(nproc)" --target "${names[@]/#/fuzz_}"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
mkdir -p "$build/crashes"
failed=()
for name in "${names[@]}"; do
  line="$(grep -E "^$name " "$root/tests/fuzz/targets.txt")"
  read -r -a fields <<<"$line"
  dict="$root/tests/fuzz/dict/${fields[1]}"
  # libFuzzer reads seed directories; single files would switch it to
  # replay mode, so every seed is copied into one directory.
  seeds="$build/seeds/$name"
  rm -rf "$seeds"
  mkdir -p "$seeds" "$build/corpus/$name"
  for s in "${fields[@]:2}" "tests/fuzz/corpus/$name" "tests/fuzz/crashes/$name"; do
    [ -e "$root/$s" ] || continue
    find "$root/$s" -type f -size -1M | while read -r f; do
      cp "$f" "$seeds/$(echo "${f#$root/}" | tr '/' '_')"
    done
  done
  echo "== fuzz_$name: ${seconds}s"
  if ! "$build/tests/fuzz/fuzz_$name" "$build/corpus/$name" "$seeds" -dict="$dict" \
      -max_total_time="$seconds" -max_len=262144 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$build/crashes/$name-"; then
    failed+=("$name")
  fi
done
if ((${#failed[@]})); then
  echo "fuzz: crashes in ${failed[*]} (files in $build/crashes/)" >&2
  exit 1
fi
echo "fuzz: ${#names[@]} passed, 0 failed"
