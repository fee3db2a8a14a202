# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""The graphdiff pytest plugin: the ``graph_budget`` fixture and the
``--graphdiff-update-baselines`` option.

Installed with the package, pytest loads it by itself (entry point
``pytest11``); in a tree that imports graphdiff from elsewhere, add
``pytest_plugins = ["graphdiff.pytest_plugin"]`` to a conftest.py.

::

    def test_graph_size(graph_budget, tmp_path):
        run_model_and_dump(tmp_path)
        graph_budget(tmp_path, "baselines/model.json", budget={"default": {"nodes": "+2%"}})
"""

import pytest

from .testing import UPDATE_ENV, assert_graph_within


def pytest_addoption(parser):
    group = parser.getgroup("graphdiff")
    group.addoption(
        "--graphdiff-update-baselines",
        action="store_true",
        default=False,
        help="graph_budget/assert_graph_within write baseline files from the dumps "
        "instead of checking them (as %s=1)" % UPDATE_ENV,
    )


@pytest.fixture
def graph_budget(request, monkeypatch):
    """``graph_budget(dump, baseline, budget=None)``: graphdiff.assert_graph_within,
    honouring ``--graphdiff-update-baselines``."""
    if request.config.getoption("graphdiff_update_baselines"):
        monkeypatch.setenv(UPDATE_ENV, "1")
    return assert_graph_within
