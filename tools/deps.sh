#!/usr/bin/env bash
# Installs the Debian 12 packages graphdiff builds with, only those missing.
# Sourced by tools/demo.sh and tools/test.sh; safe to run on its own.
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libabsl-dev nlohmann-json3-dev libfmt-dev libcli11-dev libarchive-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libgraphviz-dev chromium
  pybind11-dev python3-dev python3-pytest
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "graphdiff: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
