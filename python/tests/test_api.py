# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""The Python API against the ResNet-18 case of pytorch/xla#5430 and small inputs."""

import json
import os
import subprocess
import threading
import time

import pytest

import graphdiff
from conftest import ir_chain


# -- load_dump / parse_text -------------------------------------------------------------

def test_load_dump_reads_every_file_by_content(openxla):
    dump = graphdiff.load_dump(openxla)
    assert dump.root == str(openxla)
    assert [f.path for f in dump.files] == ["fx_graph.txt", "ir.txt", "metrics.txt"]
    assert [f.format for f in dump.files] == ["fx", "ir", "metrics"]
    kinds = sorted(g.kind for g in dump.graphs)
    assert kinds == ["fx", "ir"]
    ir = [g for g in dump.graphs if g.kind == "ir"][0]
    assert ir.stats().nodes == 277
    assert ir.stats().outputs == 81
    assert len(ir) >= 277
    assert dump.files[2].metrics[0].counters["xla::clone"] == 103
    assert "3 files" in repr(dump)


def test_load_dump_missing_path_raises(tmp_path):
    missing = tmp_path / "nope"
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.load_dump(missing)
    assert str(missing) in str(err.value)
    assert err.value.code != "OK"


def test_load_dump_lists_skipped_files(tmp_path, openxla):
    (tmp_path / "ir.txt").write_text((openxla / "ir.txt").read_text())
    (tmp_path / "notes.txt").write_text("just some notes\n")
    dump = graphdiff.load_dump(tmp_path)
    assert [p for p, _ in dump.skipped] == ["notes.txt"]
    assert len(dump.graphs) == 1


def test_parse_text_makes_a_one_file_dump():
    dump = graphdiff.parse_text(ir_chain(5), "chain.txt")
    assert dump.root == "chain.txt"
    assert len(dump.files) == 1 and dump.files[0].format == "ir"
    (graph,) = dump.graphs
    assert graph.kind == "ir"
    assert graph.stats().nodes == 5
    assert graph.stats().ops == {"aten::add": 4, "xla::device_data": 1}


def test_save_file_records_keep_their_frames():
    record = ("[ScheduleSyncTensorsGraph]\n"
              "TensorsGraphInfo:\n"
              "  mark_step (/usr/lib/python3/site-packages/torch_xla/core/xla_model.py:1055)\n"
              "  train_loop_fn (/home/user/train.py:{line})\n"
              "\n"
              "Hashes: (abc{line})\n"
              "\n"
              "## BEGIN_GRAPH\n"
              "IR {{\n"
              "  %0 = [Float[4]] lazy_tensors::device_data(), device=CPU0\n"
              "  %1 = [Float[4]] aten::{op}(%0), ROOT=0\n"
              "}}\n"
              "\n"
              "## END_GRAPH\n\n")
    text = record.format(line=7, op="relu") + record.format(line=9, op="neg")
    dump = graphdiff.parse_text(text, "save.txt")
    first, second = dump.graphs
    assert first.frames == [
        "mark_step (/usr/lib/python3/site-packages/torch_xla/core/xla_model.py:1055)",
        "train_loop_fn (/home/user/train.py:7)"]
    assert all(isinstance(f, str) for f in first.frames)
    assert second.frames[1] == "train_loop_fn (/home/user/train.py:9)"
    assert first.name == "train_loop_fn (/home/user/train.py:7)"


def test_parse_error_carries_file_line_col():
    text = "IR {\n  %0 = f32[4]{0} xla::device_data()\n  %1 = garbage\n}\n"
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.parse_text(text, "bad/ir.txt")
    e = err.value
    assert str(e).startswith("bad/ir.txt:3:")
    assert (e.source, e.line) == ("bad/ir.txt", 3)
    assert isinstance(e.column, int) and e.column > 0
    assert e.code == "INVALID_ARGUMENT"
    # The CLI's form: the offending line and a caret under the column.
    lines = str(e).split("\n")
    assert lines[1] == "  %1 = garbage"
    assert lines[2].index("^") == e.column - 1


def test_parse_text_refuses_text_that_is_no_dump():
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.parse_text("hello world\n", "x.txt")
    assert "x.txt" in str(err.value)


def test_bytes_that_are_not_utf8_stay_readable(tmp_path):
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.parse_text(b"IR {\n  %0 = \xff garbage\n}\n", "x.txt")
    assert str(err.value).split("\n")[1] == "  %0 = \\xff garbage"
    dump = graphdiff.parse_text(b"IR {\n  %0 = f32[4]{0} aten::\xff(), ROOT=0\n}\n", "y.txt")
    assert dump.graphs[0].stats().ops == {"aten::\\xff": 1}
    # A Latin-1 file name, as os.listdir returns it (surrogate escapes).
    name = os.fsdecode(b"ir_\xe9.txt")
    (tmp_path / name).write_text("IR {\n  %0 = f32[4]{0} xla::device_data(), ROOT=0\n}\n")
    loaded = graphdiff.load_dump(tmp_path)
    assert [f.path for f in loaded.files] == ["ir_\\xe9.txt"]
    assert graphdiff.load_dump(tmp_path / name).graphs[0].stats().nodes == 1


def test_errors_are_one_type():
    assert issubclass(graphdiff.GraphdiffError, Exception)
    assert graphdiff.GraphdiffError("x").line is None


# -- diff: the ResNet-18 story ----------------------------------------------------------

def test_resnet18_story(trace_once, openxla):
    result = graphdiff.diff(trace_once, openxla)
    assert not result.identical
    by_id = {f.id: f for f in result.findings}
    assert by_id["extra-outputs"].count == 80
    assert by_id["extra-outputs"].severity == "warning"
    assert "torch.no_grad()" in by_id["extra-outputs"].hint
    assert by_id["dead-constant-expand"].count == 40
    assert by_id["lifted-inputs"].count == 102
    assert "clones" in by_id
    # Most important first, as every report orders them.
    assert result.findings[0].id == "extra-outputs"
    assert [f.severity for f in result.findings[:4]] == ["warning"] * 4
    ev = by_id["extra-outputs"].evidence[0]
    assert ev.side == "right" and ev.source in ("fx_graph.txt", "ir.txt") and ev.line > 0
    assert str(ev).startswith("right %s:%d %s %s" % (ev.source, ev.line, ev.node, ev.op))
    pairs = {p.kind: p for p in result.pairs}
    assert (pairs["ir"].left_nodes, pairs["ir"].right_nodes) == (197, 277)
    assert (pairs["ir"].left_outputs, pairs["ir"].right_outputs) == (1, 81)
    assert len(pairs["ir"].right_only) == 80
    assert pairs["ir"].matched == 197 and pairs["ir"].changed == 0
    assert not pairs["ir"].identical
    assert pairs["fx"].op_delta["fx::placeholder"] == 102
    assert all(not row.changed for row in pairs["ir"].pairs)
    (metrics,) = result.metrics
    clone = [c for c in metrics.counters if c.name == "xla::clone"][0]
    assert (clone.left, clone.right) == (1, 103)


def test_diff_without_unchanged_rows(trace_once, openxla):
    full = graphdiff.diff(trace_once, openxla)
    lean = graphdiff.diff(trace_once, openxla, unchanged_rows=False)
    assert len(lean.pairs) == len(full.pairs)
    assert sum(len(p.pairs) for p in full.pairs) > sum(len(p.pairs) for p in lean.pairs)
    for f, l in zip(full.pairs, lean.pairs):
        assert (l.matched, l.changed) == (f.matched, f.changed)
        assert [(r.left, r.right, r.reasons) for r in l.pairs] == \
            [(r.left, r.right, r.reasons) for r in f.pairs if r.changed]
    assert [(f.id, f.count) for f in lean.findings] == [(f.id, f.count) for f in full.findings]


def test_same_dump_is_same(openxla):
    result = graphdiff.diff(openxla, openxla)
    assert result.identical
    assert all(f.severity == "info" for f in result.findings)
    assert all(p.identical for p in result.pairs)


def test_diff_json_is_the_clis(trace_once, openxla, cli):
    result = graphdiff.diff(str(trace_once), str(openxla))
    out = subprocess.run([cli, "diff", str(trace_once), str(openxla), "--format", "json"],
                         capture_output=True, text=True)
    assert out.returncode == 1
    assert result.to_json() == out.stdout
    doc = json.loads(result.to_json())
    assert doc["schema_version"] == 2
    assert "same" not in doc["summary"] and doc["summary"]["identical"] is False


def test_diff_json_round_trip(trace_once, openxla):
    result = graphdiff.diff(trace_once, openxla)
    back = graphdiff.DiffResult.from_json(result.to_json())
    assert back.to_json() == result.to_json()
    assert [f.id for f in back.findings] == [f.id for f in result.findings]
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.DiffResult.from_json('{"schema_version": 1,')
    assert "not valid JSON" in str(err.value)


def test_diff_takes_loaded_dumps(trace_once, openxla):
    left = graphdiff.load_dump(str(trace_once))
    right = graphdiff.load_dump(str(openxla))
    assert graphdiff.diff(left, right).to_json() == \
        graphdiff.diff(str(trace_once), str(openxla)).to_json()
    assert graphdiff.diff(left, openxla).left_root == str(trace_once)


def test_diff_of_parsed_text():
    left = graphdiff.parse_text(ir_chain(6), "left.txt")
    right = graphdiff.parse_text(ir_chain(6, op="aten::mul"), "right.txt")
    result = graphdiff.diff(left, right)
    assert not result.identical
    (pair,) = result.pairs
    assert pair.changed == len(pair.pairs) - 1 >= 3
    assert [row.reasons for row in pair.pairs[1:]] == [["op"]] * pair.changed
    assert (pair.pairs[1].left_op, pair.pairs[1].right_op) == ("aten::add", "aten::mul")
    assert "op-substitution" in [f.id for f in result.findings]
    assert graphdiff.diff(left, graphdiff.parse_text(ir_chain(6), "again.txt")).identical


def test_diff_graph_selector(trace_once, openxla):
    result = graphdiff.diff(trace_once, openxla, graph="ir.txt")
    assert [p.kind for p in result.pairs] == ["ir"]
    assert result.metrics == []
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.diff(trace_once, openxla, graph="no-such-graph")
    assert "no-such-graph" in str(err.value)


def test_diff_counter_threshold(trace_once, openxla):
    ids = {f.id for f in graphdiff.diff(trace_once, openxla).findings}
    assert "counter-delta" in ids
    quiet = {f.id for f in graphdiff.diff(trace_once, openxla, counter_min_abs=10**6).findings}
    assert "counter-delta" not in quiet


def test_diff_verify_and_threads(trace_once, openxla):
    expected = graphdiff.diff(trace_once, openxla).to_json()
    assert graphdiff.diff(trace_once, openxla, verify=True).to_json() == expected
    assert graphdiff.diff(trace_once, openxla, threads=1).to_json() == expected


def test_diff_max_evidence(trace_once, openxla):
    full = [f for f in graphdiff.diff(trace_once, openxla).findings if f.id == "extra-outputs"][0]
    result = graphdiff.diff(trace_once, openxla, max_evidence=3)
    extra = [f for f in result.findings if f.id == "extra-outputs"][0]
    assert len(extra.evidence) == 3 < len(full.evidence)
    assert extra.evidence_omitted == len(full.evidence) - 3
    assert [str(e) for e in extra.evidence] == [str(e) for e in full.evidence[:3]]


def test_diff_equiv_file_errors_name_it(tmp_path, trace_once, openxla):
    bad = tmp_path / "equiv.json"
    bad.write_text("{not json")
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.diff(trace_once, openxla, equiv=bad)
    assert str(bad) in str(err.value)


def test_diff_refuses_nothing_to_compare(tmp_path, openxla):
    (tmp_path / "notes.txt").write_text("no dump here\n")
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.diff(tmp_path, openxla)
    assert "nothing to compare on the left side" in str(err.value)
    assert "notes.txt" in str(err.value)


def test_diff_argument_errors(openxla):
    with pytest.raises(TypeError):
        graphdiff.diff(openxla, openxla, no_such_option=1)
    with pytest.raises(TypeError) as err:
        graphdiff.diff(42, openxla)
    assert "left must be a path" in str(err.value)


# -- render ------------------------------------------------------------------------------

def test_render_diff_formats(trace_once, openxla, cli):
    result = graphdiff.diff(str(trace_once), str(openxla))
    text = graphdiff.render(result)
    out = subprocess.run([cli, "diff", str(trace_once), str(openxla), "--width", "80",
                          "--color", "never"], capture_output=True, text=True)
    assert text == out.stdout
    assert text.splitlines()[3:5] == [
        "Different: 2 of 2 graph pairs differ, 1 of 1 metrics report changed. Most",
        "important: 80 extra outputs on the right (1 -> 81)."]
    assert str(result) == text
    assert graphdiff.render(result, "json") == result.to_json()
    md = graphdiff.render(result, "markdown")
    assert md != text and "extra-outputs" in md
    assert graphdiff.render(result, "brief").count("\n") == 1
    assert "|" in graphdiff.render(result, "stat")
    verbose = graphdiff.render(result, verbose=True)
    assert len(verbose) > len(text)
    # Words are never broken, and a dump's path is one word: only a line that
    # names a dump may run past the width, however deep the checkout lies.
    narrow = graphdiff.render(result, width=60).splitlines()
    assert all(len(l) <= 60 or "resnet18-xla5430" in l for l in narrow)
    assert sum(len(l) > 60 for l in narrow) <= 2
    assert "\x1b[" in graphdiff.render(result, color=True)
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.render(result, "yaml")
    assert "yaml" in str(err.value)
    with pytest.raises(TypeError):
        graphdiff.render("not a result")


def test_render_other_results(trace_once, openxla):
    lint = graphdiff.lint(openxla)
    assert json.loads(graphdiff.render(lint, "json"))["findings"]
    assert "dead-constant-expand" in graphdiff.render(lint, "markdown")
    st = graphdiff.stats(openxla)
    assert graphdiff.render(st, "json") == st.to_json()
    with pytest.raises(graphdiff.GraphdiffError):
        graphdiff.render(st, "markdown")
    res = graphdiff.check(openxla, graphdiff.snapshot(trace_once))
    assert graphdiff.render(res, "junit").startswith("<?xml")
    assert graphdiff.render(res, "csv").startswith("unit,kind,metric,baseline,current,delta,limit,status")
    assert "FAIL" in graphdiff.render(res, "markdown")
    base = graphdiff.snapshot(openxla)
    assert graphdiff.render(base, "json") == base.to_json()


# -- stats / lint ------------------------------------------------------------------------

def test_stats(trace_once, openxla, cli):
    report = graphdiff.stats(openxla)
    ir = [g for g in report.graphs if g.kind == "ir"][0]
    assert (ir.nodes, ir.inputs, ir.outputs) == (277, 103, 81)
    assert ir.ops["aten::expand"] == 48
    assert ir.source == os.path.join(str(openxla), "ir.txt")
    assert report.metrics[0].counters["xla::clone"] == 103
    out = subprocess.run([cli, "stats", str(openxla), "--format", "json"],
                         capture_output=True, text=True)
    assert report.to_json() == out.stdout
    both = graphdiff.stats(trace_once, graphdiff.load_dump(openxla))
    assert len(both.graphs) == 4
    # A loaded dump is named as the path it was loaded from.
    assert graphdiff.stats(graphdiff.load_dump(str(openxla))).to_json() == report.to_json()
    with pytest.raises(TypeError):
        graphdiff.stats()


def test_lint(openxla, trace_once):
    report = graphdiff.lint(openxla)
    ids = {f.id: f for f in report.findings}
    assert ids["dead-constant-expand"].count == 40
    assert report.root == str(openxla)
    assert "dead-constant-expand" not in {f.id for f in graphdiff.lint(trace_once).findings}
    only_fx = graphdiff.lint(openxla, graph="fx_graph.txt")
    assert "dead-constant-expand" not in {f.id for f in only_fx.findings}
    assert json.loads(report.to_json())["findings"]


def test_lint_refuses_nothing(tmp_path):
    (tmp_path / "a.txt").write_text("plain text\n")
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.lint(tmp_path)
    assert "nothing to lint" in str(err.value)


# -- snapshot / check --------------------------------------------------------------------

def test_snapshot_matches_cli(openxla, cli, tmp_path):
    base = graphdiff.snapshot(str(openxla))
    assert sorted(u.kind for u in base.units) == ["graph", "graph", "metrics"]
    ir = [u for u in base.units if u.key == "ir.txt"][0]
    assert ir.values["nodes"] == 277 and ir.values["finding:dead-constant-expand"] == 40
    out = tmp_path / "b.json"
    subprocess.run([cli, "snapshot", str(openxla), "-o", str(out)], check=True)
    assert base.to_json() == out.read_text()
    assert graphdiff.load_baseline(out) == base
    assert graphdiff.Baseline.from_json(base.to_json()) == base


def test_snapshot_refuses_a_dump_without_graphs(tmp_path, openxla):
    (tmp_path / "metrics.txt").write_text((openxla / "metrics.txt").read_text())
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.snapshot(tmp_path)
    assert "no graphs to gate" in str(err.value)


def test_load_baseline_errors(tmp_path):
    bad = tmp_path / "b.json"
    bad.write_text('{"schema_version": 1,\n  "units": [}')
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.load_baseline(bad)
    assert err.value.source == str(bad) and err.value.line == 2
    with pytest.raises(graphdiff.GraphdiffError):
        graphdiff.load_baseline(tmp_path / "missing.json")


def test_check_fails_with_reasons(trace_once, openxla, tmp_path):
    path = tmp_path / "baseline.json"
    path.write_text(graphdiff.snapshot(trace_once).to_json())
    result = graphdiff.check(openxla, path)
    assert result.verdict == "FAIL" and not result.passed
    assert result.failed == 3
    ir = [u for u in result.units if u.key == "ir.txt"][0]
    assert "nodes: 197 -> 277 (+80, +40.6%) exceeds limit +0" in ir.reasons
    assert "extra-outputs" in [n.id for n in ir.diff_findings]
    nodes = [c for c in ir.changes if c.metric == "nodes"][0]
    assert (nodes.old_value, nodes.new_value, nodes.breached) == (197, 277, True)
    assert str(path) in result.update_command
    assert json.loads(result.to_json())["verdict"] == "FAIL"


def test_check_pass_and_improved(trace_once, openxla):
    assert graphdiff.check(openxla, graphdiff.snapshot(openxla)).verdict == "PASS"
    improved = graphdiff.check(trace_once, graphdiff.snapshot(openxla),
                               budget={"missing_graphs": True, "new_graphs": True})
    assert improved.passed


def test_check_budget(trace_once, openxla, tmp_path):
    lenient = {"default": {"nodes": "+200%", "inputs": "+20000%", "outputs": "+20000%"},
               "allow": ["counter:*", "finding:*", "op:*"]}
    assert graphdiff.check(openxla, graphdiff.snapshot(trace_once), budget=lenient).passed
    path = tmp_path / "budget.json"
    path.write_text(json.dumps(lenient))
    assert graphdiff.check(openxla, graphdiff.snapshot(trace_once), budget=path).passed
    assert graphdiff.check(openxla, graphdiff.snapshot(trace_once), budget=str(path)).passed
    assert graphdiff.check(openxla, graphdiff.snapshot(trace_once),
                           budget=json.dumps(lenient)).passed
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.check(openxla, graphdiff.snapshot(trace_once), budget='{"default": ')
    assert err.value.source == "<budget text>" and err.value.line == 1
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.check(openxla, graphdiff.snapshot(trace_once), budget=tmp_path / "none.json")
    assert "none.json" in str(err.value)
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.check(openxla, graphdiff.snapshot(trace_once), budget={"default": {"nodez": "+1"}})
    assert "nodez" in str(err.value)


def test_check_refuses_an_empty_baseline(openxla):
    doc = json.loads(graphdiff.snapshot(openxla).to_json())
    doc["graphs"] = []
    empty = graphdiff.Baseline.from_json(json.dumps(doc))
    assert [u.kind for u in empty.units] == ["metrics"]
    with pytest.raises(graphdiff.GraphdiffError) as err:
        graphdiff.check(openxla, empty)
    assert "holds no graphs" in str(err.value)


# -- the GIL -----------------------------------------------------------------------------

def longest_stall_during(work):
    """Runs work() in a thread; returns the longest gap between two iterations
    of this thread's loop meanwhile."""
    done = threading.Event()
    worker = threading.Thread(target=lambda: (work(), done.set()))
    longest = 0.0
    last = time.perf_counter()
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        longest = max(longest, now - last)
        last = now
    worker.join()
    return longest


def test_gil_is_released_while_the_library_works():
    left = graphdiff.parse_text(ir_chain(20000), "left.txt")
    right = graphdiff.parse_text(ir_chain(20000, op="aten::mul"), "right.txt")
    # While another thread diffs, this one keeps running: its longest stall
    # stays far below the diff's duration (with the GIL held it would be all
    # of it). A loaded machine can stall a thread too, so take the best of three.
    attempts = []
    for _ in range(3):
        start = time.perf_counter()
        graphdiff.diff(left, right)
        alone = time.perf_counter() - start
        assert alone > 0.05, "the diff is too quick to tell"
        longest = longest_stall_during(lambda: graphdiff.diff(left, right))
        attempts.append((longest, alone))
        if longest < alone / 2:
            return
    pytest.fail("the calling thread stalled for most of the diff: %r" % attempts)
