# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""assert_graph_within and the pytest plugin, in this process and in a user's suite."""

import os
import subprocess
import sys
import textwrap

import pytest

import graphdiff
from graphdiff.testing import GraphBudgetExceeded, assert_graph_within


@pytest.fixture
def baseline_file(tmp_path, trace_once):
    path = tmp_path / "baselines" / "resnet18.json"
    path.parent.mkdir()
    path.write_text(graphdiff.snapshot(trace_once).to_json())
    return path


def test_within_budget_passes(trace_once, baseline_file):
    result = assert_graph_within(trace_once, baseline_file)
    assert result.verdict == "PASS"


def test_over_budget_fails_quoting_the_findings(openxla, baseline_file):
    with pytest.raises(AssertionError) as err:
        assert_graph_within(openxla, baseline_file)
    assert isinstance(err.value, GraphBudgetExceeded)
    assert err.value.result.verdict == "FAIL"
    message = str(err.value)
    assert message.startswith("graph size over budget: 3 of 3 units of %s fail against %s"
                              % (openxla, baseline_file))
    assert "FAIL graph ir.txt\n    nodes: 197 -> 277 (+80, +40.6%) exceeds limit +0" in message
    assert "extra-outputs (x80): 80 extra outputs on the right" in message
    assert "hint: Run inference under `torch.no_grad()`" in message
    assert "GRAPHDIFF_UPDATE_BASELINES=1" in message
    # A hint is quoted once; later findings with the same hint point back to it.
    assert message.count("hint: Run inference under") == 1
    assert "hint: as above" in message


def test_failure_against_a_dump_names_it(openxla, trace_once):
    with pytest.raises(GraphBudgetExceeded) as err:
        assert_graph_within(openxla, trace_once)
    message = str(err.value)
    assert message.splitlines()[0].endswith("fail against %s" % trace_once)
    # A dump is no file to update: the message does not offer to.
    assert "GRAPHDIFF_UPDATE_BASELINES" not in message


def test_baseline_may_be_a_dump_or_a_baseline(trace_once, openxla):
    assert_graph_within(graphdiff.load_dump(trace_once), trace_once)
    assert_graph_within(trace_once, graphdiff.snapshot(trace_once))
    with pytest.raises(GraphBudgetExceeded):
        assert_graph_within(openxla, graphdiff.load_dump(trace_once))
    with pytest.raises(GraphBudgetExceeded):
        assert_graph_within(openxla, trace_once / "ir.txt", budget={"new_graphs": True,
                                                                    "missing_graphs": True})


def test_budget_decides(openxla, baseline_file):
    lenient = {"default": {"nodes": "+200%", "inputs": "+20000%", "outputs": "+20000%"},
               "allow": ["counter:*", "finding:*", "op:*"]}
    assert assert_graph_within(openxla, baseline_file, lenient).passed
    # A flat dict is the default section: only nodes are gated here, and the
    # FX graph grew by 147%, the IR graph by 41%.
    assert assert_graph_within(openxla, baseline_file, {"nodes": "+200%"}).passed
    with pytest.raises(GraphBudgetExceeded) as err:
        assert_graph_within(openxla, baseline_file, {"nodes": "+50%"})
    failed = [u.key for u in err.value.result.units if u.verdict == "FAIL"]
    assert failed == ["fx_graph.txt:forward"]
    strict_nodes_only = {"default": {"nodes": "+10%"},
                         "allow": ["inputs", "outputs", "counter:*", "finding:*", "op:*"]}
    with pytest.raises(GraphBudgetExceeded) as err:
        assert_graph_within(openxla, baseline_file, budget=strict_nodes_only)
    assert "nodes: 197 -> 277" in str(err.value)


def test_missing_baseline_says_how_to_create_it(openxla, tmp_path):
    missing = tmp_path / "none.json"
    with pytest.raises(graphdiff.GraphdiffError) as err:
        assert_graph_within(openxla, missing)
    assert err.value.code == "NOT_FOUND"
    assert "graphdiff snapshot" in str(err.value) and "GRAPHDIFF_UPDATE_BASELINES=1" in str(err.value)


def test_update_writes_the_baseline(openxla, tmp_path, monkeypatch):
    path = tmp_path / "new" / "b.json"
    assert assert_graph_within(openxla, path, update=True).verdict == "PASS"
    assert graphdiff.load_baseline(path) == graphdiff.snapshot(openxla)
    monkeypatch.setenv("GRAPHDIFF_UPDATE_BASELINES", "1")
    other = tmp_path / "other.json"
    assert_graph_within(openxla, other)
    assert other.exists()


def test_fixture(graph_budget, trace_once, baseline_file):
    assert graph_budget is assert_graph_within
    graph_budget(trace_once, baseline_file)


USER_SUITE = '''
import graphdiff
from graphdiff import assert_graph_within

def test_same_graph_passes():
    assert_graph_within({L!r}, {B!r})

def test_grown_graph_fails():
    assert_graph_within({R!r}, {B!r})

def test_fixture_fails(graph_budget):
    graph_budget({R!r}, {B2!r})
'''


def test_a_users_suite(tmp_path, trace_once, openxla, baseline_file):
    """A suite as a user writes it: the pass passes, the failures fail with the findings."""
    b2 = tmp_path / "b2.json"
    suite = tmp_path / "test_user_graphs.py"
    suite.write_text(USER_SUITE.format(L=str(trace_once), R=str(openxla), B=str(baseline_file),
                                       B2=str(b2)))
    env = dict(os.environ)
    env.pop("GRAPHDIFF_UPDATE_BASELINES", None)
    cmd = [sys.executable, "-m", "pytest", "-p", "graphdiff.pytest_plugin", "-p",
           "no:cacheprovider", "-q", str(suite)]
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, env=env)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "2 failed, 1 passed" in run.stdout
    assert "GraphBudgetExceeded: graph size over budget" in run.stdout
    assert "extra-outputs (x80)" in run.stdout
    assert "baseline %s does not exist" % b2 in run.stdout
    # --graphdiff-update-baselines writes the missing one and accepts the dump.
    run = subprocess.run(cmd + ["--graphdiff-update-baselines", "-k", "fixture"],
                         capture_output=True, text=True, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert graphdiff.load_baseline(b2) == graphdiff.snapshot(openxla)
