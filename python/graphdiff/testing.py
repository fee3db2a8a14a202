# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""Graph-size assertions for a test suite.

::

    from graphdiff import assert_graph_within

    def test_inference_graph_does_not_grow(tmp_path):
        run_model_and_dump(tmp_path)          # e.g. XLA_SAVE_TENSORS_FILE=tmp_path/graphs.txt
        assert_graph_within(tmp_path, "tests/baselines/resnet18.json",
                            budget={"default": {"nodes": "+2%"}})

The assertion is ``graphdiff check``: it passes when every budgeted fact of the
dump is within its limit of the baseline, and otherwise raises
GraphBudgetExceeded (an AssertionError) whose message names each breached limit
as ``old -> new`` and quotes the findings that explain it, hints included.

Set ``GRAPHDIFF_UPDATE_BASELINES=1`` (or run pytest with
``--graphdiff-update-baselines``) to write the baseline file from the dump
instead of checking, as when a change is intended or the first time.
"""

import os

from ._graphdiff import Baseline, Dump, GraphdiffError, check, load_dump, snapshot

UPDATE_ENV = "GRAPHDIFF_UPDATE_BASELINES"


class GraphBudgetExceeded(AssertionError):
    """A dump's graphs grew beyond the budget; ``result`` is the CheckResult."""

    def __init__(self, message, result):
        super().__init__(message)
        self.result = result


def _is_baseline_file(path):
    """True for a baseline JSON file (or one yet to be written): dumps are
    never JSON, so the first byte tells them apart."""
    if os.path.isdir(path):
        return False
    if not os.path.exists(path):
        return True
    with open(path, "rb") as f:
        head = f.read(4096).lstrip()
    return head.startswith(b"{")


BUDGET_KEYS = {"version", "default", "graphs", "allow", "new_graphs", "missing_graphs", "noise"}


def _budget(budget):
    """A flat dict of limits ({"nodes": "+2%"}) is shorthand for its "default"
    section; metric names and the budget's own keys never overlap."""
    if isinstance(budget, dict) and budget and not BUDGET_KEYS.intersection(budget):
        return {"default": budget}
    return budget


def _updating(update):
    if update is not None:
        return update
    return os.environ.get(UPDATE_ENV, "") not in ("", "0", "false", "no")


def _describe(obj):
    if isinstance(obj, Dump):
        return obj.root
    if isinstance(obj, Baseline):
        return "<Baseline of %s>" % obj.dump
    return os.fspath(obj)


def _failure_message(result, dump, baseline, updatable):
    failed = [u for u in result.units if u.verdict == "FAIL"]
    lines = [
        "graph size over budget: %d of %d units of %s fail against %s"
        % (len(failed), len(result.units), _describe(dump), _describe(baseline))
    ]
    hints = set()
    for unit in failed:
        lines.append("FAIL %s %s" % (unit.kind, unit.key))
        lines.extend("    " + reason for reason in unit.reasons)
        notes = unit.diff_findings or unit.findings
        if notes:
            lines.append(
                "    explained by the diff against the baseline graph:"
                if unit.diff_findings
                else "    findings:"
            )
        for note in notes:
            lines.append("    %s (x%d): %s" % (note.id, note.count, note.title))
            if note.hint:
                lines.append("      hint: " + ("as above" if note.hint in hints else note.hint))
                hints.add(note.hint)
    if updatable:
        lines.append(
            "If the growth is intended, re-run with %s=1 to accept it as the new baseline."
            % UPDATE_ENV
        )
    return "\n".join(lines)


def assert_graph_within(dump, baseline, budget=None, *, update=None):
    """Asserts that the graphs of ``dump`` stay within ``budget`` of ``baseline``.

    dump: the fresh dump, a path (file, directory, archive) or a graphdiff.Dump.
    baseline: a graphdiff.Baseline; the path of a baseline JSON file
        (``graphdiff snapshot -o``, ``Baseline.to_json()``); or a reference dump
        (path or Dump), snapshotted on the spot.
    budget: None for the default (no growth in nodes, inputs, outputs, clones or
        findings; new and missing graphs fail); a dict in the budget format of
        docs/gate.md, e.g. ``{"default": {"nodes": "+2%"}}`` (a flat dict of
        limits, ``{"nodes": "+2%"}``, is its "default" section; the default
        section replaces the default limits); that as JSON text; or its file path.
    update: write the baseline file from the dump instead of checking (default:
        the GRAPHDIFF_UPDATE_BASELINES environment variable). Only for a
        baseline given as a JSON file path.

    Returns the CheckResult when within budget (PASS or IMPROVED). Raises
    GraphBudgetExceeded, an AssertionError quoting the breached limits and the
    findings behind them, when over budget; GraphdiffError when the dump,
    baseline or budget cannot be read (a missing baseline file says how to
    create it).
    """
    # pytest shows the failing line of the user's test, not this helper's source.
    __tracebackhide__ = True
    given = baseline
    updatable = False
    budget = _budget(budget)
    if not isinstance(baseline, (Baseline, Dump)):
        path = os.fspath(baseline)
        if _is_baseline_file(path):
            if _updating(update):
                if not isinstance(dump, Dump):
                    dump = load_dump(dump)
                current = snapshot(dump)
                directory = os.path.dirname(path)
                if directory:
                    os.makedirs(directory, exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(current.to_json())
                return check(dump, current, budget=budget)
            updatable = True
            if not os.path.exists(path):
                error = GraphdiffError(
                    "baseline %s does not exist; create it with "
                    "`graphdiff snapshot DUMP -o %s`, or run the test with %s=1"
                    % (path, path, UPDATE_ENV)
                )
                error.code = "NOT_FOUND"
                raise error
        else:
            baseline = snapshot(path)
    elif isinstance(baseline, Dump):
        baseline = snapshot(baseline)
    result = check(dump, baseline, budget=budget)
    if not result.passed:
        raise GraphBudgetExceeded(_failure_message(result, dump, given, updatable), result)
    return result
