# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""Shared fixtures. ctest runs these tests against the build tree
(PYTHONPATH=build/python) with GRAPHDIFF_TESTDATA_DIR and GRAPHDIFF_CLI set."""

import os
import pathlib
import shutil

import pytest

pytest_plugins = ["graphdiff.pytest_plugin"]

REPO = pathlib.Path(__file__).resolve().parents[2]
TESTDATA = pathlib.Path(os.environ.get("GRAPHDIFF_TESTDATA_DIR", REPO / "testdata"))
RESNET = TESTDATA / "resnet18-xla5430"


@pytest.fixture
def trace_once():
    """The ResNet-18 baseline of pytorch/xla#5430 (torchxla_trace_once)."""
    return RESNET / "torchxla_trace_once"


@pytest.fixture
def openxla():
    """The ResNet-18 candidate of pytorch/xla#5430 (openxla): 80 extra outputs."""
    return RESNET / "openxla"


@pytest.fixture
def cli():
    """The C++ graphdiff binary, to hold the Python module to its output."""
    path = os.environ.get("GRAPHDIFF_CLI") or shutil.which("graphdiff")
    if not path:
        pytest.skip("GRAPHDIFF_CLI is not set and no graphdiff on PATH")
    return path


def ir_chain(nodes, op="aten::add"):
    """IR text of a chain of `nodes` nodes: one input, then each node adds the
    previous one to itself; the last is the root."""
    lines = ["IR {", "  %0 = f32[4]{0} xla::device_data(), device=CPU:0"]
    for i in range(1, nodes):
        root = ", ROOT=0" if i == nodes - 1 else ""
        lines.append("  %%%d = f32[4]{0} %s(%%%d, %%%d)%s" % (i, op, i - 1, i - 1, root))
    lines.append("}")
    return "\n".join(lines) + "\n"
