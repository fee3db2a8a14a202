#!/usr/bin/env bash
# Installs graphdiff into a temporary prefix and uses the Python package from
# there alone (no build tree on sys.path): import, the ResNet-18 diff,
# `python3 -m graphdiff`, the package metadata and the pytest plugin found by
# its entry point. Usage: install_test.sh BUILD_DIR SOURCE_DIR PYTHON SITE_DIR
# (SITE_DIR relative to the prefix, GRAPHDIFF_PYTHON_INSTALL_DIR).
set -euo pipefail
build="$1"
src="$2"
python="$3"
site="$4"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
prefix="$tmp/prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
site="$prefix/$site"
test -f "$site/graphdiff/__init__.py"
ls "$site"/graphdiff/_graphdiff*.so "$site"/graphdiff/__init__.pyi "$site"/graphdiff/py.typed >/dev/null
cd "$tmp"
export PYTHONPATH="$site"
unset GRAPHDIFF_CLI
case_dir="$src/testdata/resnet18-xla5430"

"$python" - "$site" "$case_dir" <<'PY'
import importlib.metadata
import os
import sys

import graphdiff

site, case = sys.argv[1], sys.argv[2]
assert os.path.dirname(os.path.dirname(graphdiff.__file__)) == site, graphdiff.__file__
assert importlib.metadata.version("graphdiff") == graphdiff.__version__
result = graphdiff.diff(os.path.join(case, "torchxla_trace_once"), os.path.join(case, "openxla"))
assert not result.identical
top = result.findings[0]
assert (top.id, top.count) == ("extra-outputs", 80), top
print("python install test: import and diff ok:", top)
PY

set +e
"$python" -m graphdiff diff "$case_dir/torchxla_trace_once" "$case_dir/openxla" -q >"$tmp/out.txt"
rc=$?
set -e
test "$rc" = 1
grep -q "^Different: 2 of 2 graph pairs differ" "$tmp/out.txt"

# The plugin comes from the entry point alone: no -p, no conftest.
cat >"$tmp/test_plugin.py" <<PY
def test_fixture(graph_budget):
    graph_budget("$case_dir/openxla", "$case_dir/openxla")
PY
"$python" -m pytest -q -p no:cacheprovider "$tmp/test_plugin.py" >"$tmp/pytest.txt" || {
  cat "$tmp/pytest.txt" >&2
  exit 1
}
echo "python install test: 3 passed, 0 failed"
