#!/usr/bin/env bash
# Builds graphdiff with its Python module and installs everything: the CLI,
# the libraries, headers, CMake and pkg-config files, and the `graphdiff`
# Python package into Debian python3's site directory. Prefix: /usr/local
# (GRAPHDIFF_PREFIX overrides it; then put <prefix>/lib/python3.X/dist-packages
# on PYTHONPATH).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${GRAPHDIFF_BUILD_DIR:-$root/build}"
prefix="${GRAPHDIFF_PREFIX:-/usr/local}"
bash "$root/tools/build.sh" -DGRAPHDIFF_PYTHON=ON -DGRAPHDIFF_BUILD_TESTS=OFF -DGRAPHDIFF_BUILD_BENCHMARKS=OFF
SUDO=""
if [ "$(id -u)" != 0 ] && [ ! -w "$prefix" ]; then SUDO="sudo"; fi
$SUDO cmake --install "$build" --prefix "$prefix" >/dev/null
if [ "$prefix" = /usr/local ]; then
  # Run from elsewhere so that nothing but the installed package can answer.
  (cd / && /usr/bin/python3 -c 'import graphdiff; print("graphdiff", graphdiff.__version__, "installed:", graphdiff.__file__)')
else
  echo "graphdiff installed into $prefix"
fi
