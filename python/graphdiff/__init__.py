# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""graphdiff: explain the difference between two compiled PyTorch graphs.

The C++ library, from Python. Read dumps (lazy-tensor IR, XLA save files, FX code,
HLO text, metrics reports; files, directories or archives), diff them, lint one,
and gate graph size against a baseline::

    import graphdiff
    result = graphdiff.diff("torchxla_trace_once/", "openxla/")
    for f in result.findings:
        print(f.severity, f.id, f.count, f.title, f.hint)
    print(graphdiff.render(result, "markdown"))

Every failure raises graphdiff.GraphdiffError with the CLI's message
(``file:line:col: message`` for syntax errors). The GIL is released while the
library works. ``python3 -m graphdiff`` is the ``graphdiff`` command line, and
``graphdiff.assert_graph_within`` gates graph size in a test suite.
"""

import sys as _sys

from ._graphdiff import (  # noqa: F401  (re-exported API)
    Baseline,
    CheckResult,
    CounterValues,
    Diagnostic,
    DiffResult,
    Dump,
    DumpFile,
    Evidence,
    Finding,
    FindingNote,
    GateChange,
    GateUnit,
    Graph,
    GraphPair,
    GraphStats,
    GraphdiffError,
    LintReport,
    Metric,
    MetricsPair,
    MetricsReport,
    MetricValues,
    PairRow,
    ReadingWarning,
    SkippedFile,
    StatsReport,
    UnitCheck,
    Unpaired,
    __version__,
    check,
    diff,
    lint,
    load_baseline,
    load_dump,
    parse_text,
    render,
    snapshot,
    stats,
)
from ._graphdiff import _run_cli
from .testing import GraphBudgetExceeded, assert_graph_within  # noqa: F401


def main(argv=None):
    """Runs the ``graphdiff`` command line in this process and returns its exit code.

    ``argv`` is the argument list without the program name (default:
    ``sys.argv[1:]``), e.g. ``["diff", "a/", "b/", "--format", "json"]``. The
    subcommands, options, output and exit codes are the C++ CLI's: diff 0 same,
    1 different, 2 trouble. Output goes to the process's stdout and stderr
    (file descriptors 1 and 2; pytest's ``capfd`` captures it).
    """
    if argv is None:
        argv = _sys.argv[1:]
    # Python's own buffered output must come out before the library's.
    for stream in (_sys.stdout, _sys.stderr):
        if stream is not None:
            stream.flush()
    return _run_cli([str(a) for a in argv])


__all__ = [
    "Baseline", "CheckResult", "CounterValues", "Diagnostic", "DiffResult", "Dump",
    "DumpFile", "Evidence", "Finding", "FindingNote", "GateChange", "GateUnit", "Graph",
    "GraphBudgetExceeded", "GraphPair", "GraphStats", "GraphdiffError", "LintReport",
    "Metric", "MetricsPair", "MetricsReport", "MetricValues", "PairRow", "ReadingWarning",
    "SkippedFile", "StatsReport", "UnitCheck", "Unpaired", "__version__",
    "assert_graph_within", "check", "diff", "lint", "load_baseline", "load_dump", "main",
    "parse_text", "render", "snapshot", "stats",
]
