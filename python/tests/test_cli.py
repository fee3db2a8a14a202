# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""`python3 -m graphdiff` and graphdiff.main() are the C++ CLI: same output, same exit codes."""

import subprocess
import sys

import pytest

import graphdiff


def run_both(cli, args, stdin=None):
    c = subprocess.run([cli] + args, capture_output=True, text=True, input=stdin)
    p = subprocess.run([sys.executable, "-m", "graphdiff"] + args, capture_output=True,
                       text=True, input=stdin)
    return c, p


@pytest.mark.parametrize("args, code", [
    (["diff", "{L}", "{R}"], 1),
    (["diff", "{L}", "{R}", "--format", "json"], 1),
    (["diff", "{L}", "{R}", "--stat"], 1),
    (["diff", "{R}", "{R}", "--format", "markdown"], 0),
    (["stats", "{R}", "--top", "3"], 0),
    (["lint", "{R}"], 1),
    (["snapshot", "{L}"], 0),
    (["diff", "{L}", "/no/such/dump"], 2),
    (["dif", "{L}", "{R}"], 2),
    (["diff", "{L}"], 2),
    (["--version"], 0),
    (["diff", "--help"], 0),
])
def test_module_is_the_cli(cli, trace_once, openxla, args, code):
    args = [a.format(L=trace_once, R=openxla) for a in args]
    c, p = run_both(cli, args)
    assert c.returncode == code
    # --help names the program as invoked; the module calls itself graphdiff.
    expected = (c.returncode, c.stdout.replace(cli, "graphdiff"), c.stderr)
    assert (p.returncode, p.stdout, p.stderr) == expected


def test_module_reads_stdin(cli, openxla):
    text = (openxla / "ir.txt").read_text()
    c, p = run_both(cli, ["stats", "-"], stdin=text)
    assert c.returncode == 0 and "nodes 277" in c.stdout
    assert p.stdout == c.stdout


def test_check_through_the_module(cli, trace_once, openxla, tmp_path):
    base = tmp_path / "b.json"
    assert graphdiff.main(["snapshot", str(trace_once), "-o", str(base)]) == 0
    c, p = run_both(cli, ["check", str(openxla), "--baseline", str(base), "--format", "csv"])
    assert c.returncode == 1
    assert (p.returncode, p.stdout) == (1, c.stdout)


def test_main_in_process(capfd, trace_once, openxla):
    assert graphdiff.main(["diff", str(trace_once), str(openxla), "-q"]) == 1
    out, err = capfd.readouterr()
    assert out.startswith("Different: 2 of 2 graph pairs differ")
    assert err == ""
    assert graphdiff.main(["stats", "/no/such/dump"]) == 2
    out, err = capfd.readouterr()
    assert err.startswith("graphdiff: ") and "/no/such/dump" in err
    # Called twice in one process: no state carries over.
    assert graphdiff.main(["diff", str(openxla), str(openxla), "-q"]) == 0


def test_module_keeps_its_output_with_malloc_untuned(cli, trace_once, openxla):
    # `python3 -m graphdiff` sets malloc as the binary does, which may start
    # the interpreter again; GRAPHDIFF_TUNE_MALLOC=0 leaves glibc's defaults.
    import os
    args = [sys.executable, "-m", "graphdiff", "diff", str(trace_once), str(openxla)]
    tuned = subprocess.run(args, capture_output=True, text=True)
    plain = subprocess.run(args, capture_output=True, text=True,
                           env=dict(os.environ, GRAPHDIFF_TUNE_MALLOC="0"))
    assert tuned.returncode == plain.returncode == 1
    assert tuned.stdout == plain.stdout and tuned.stderr == plain.stderr


def test_module_run_by_a_script_does_not_start_the_script_again(tmp_path):
    # Starting the interpreter again is for `python3 -m graphdiff` only: a
    # script that runs the module would run twice.
    script = tmp_path / "runs_module.py"
    script.write_text(
        "import runpy, sys\n"
        "print('script ran', flush=True)\n"
        "sys.argv = ['graphdiff', '--version']\n"
        "try:\n"
        "    runpy.run_module('graphdiff', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n")
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("script ran") == 1
    assert graphdiff.__version__ in p.stdout
