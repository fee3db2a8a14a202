# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
# Type stub of the graphdiff package (the C++ extension and its Python helpers).
import os
from typing import Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union

__version__: str

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
DumpLike = Union[PathLike, "Dump"]
JsonLike = Union[PathLike, Mapping[str, object], List[object]]
SeverityName = Literal["info", "warning", "error"]
Verdict = Literal["PASS", "IMPROVED", "FAIL"]

class GraphdiffError(Exception):
    """Every failure of graphdiff; str() is the CLI's message (`file:line:col: ...`)."""
    code: str
    source: Optional[str]
    line: Optional[int]
    column: Optional[int]

class Evidence:
    side: Literal["left", "right", ""]
    source: str
    line: int
    node: str
    op: str
    note: str

class Finding:
    id: str
    severity: SeverityName
    title: str
    count: int
    graph: str
    explanation: str
    hint: str
    evidence: List[Evidence]
    evidence_omitted: int
    related: List[str]

class Diagnostic:
    source: str
    line: int
    column: int
    message: str
    count: int

class GraphStats:
    source: str
    name: str
    kind: Literal["ir", "fx", "hlo"]
    record_index: int
    repeat_count: int
    nodes: int
    inputs: int
    outputs: int
    constants: int
    multi_output_nodes: int
    ops: Dict[str, int]
    dtypes: Dict[str, int]
    parameter_bytes: int
    inputs_unknown_size: int

class Graph:
    name: str
    kind: Literal["ir", "fx", "hlo"]
    source: str
    first_line: int
    frames: List[str]
    partial: bool
    def __len__(self) -> int: ...
    def stats(self) -> GraphStats: ...

class Metric:
    name: str
    unit: Literal["number", "ns", "bytes"]
    total_samples: int
    accumulator: float
    mean: Optional[float]
    stddev: Optional[float]
    rate: Optional[float]
    value_rate: Optional[float]
    percentiles: List[Tuple[float, float]]

class MetricsReport:
    source: str
    counters: Dict[str, int]
    metrics: List[Metric]

class DumpFile:
    path: str
    format: str
    source: str
    graphs: List[Graph]
    metrics: List[MetricsReport]
    warnings: List[Diagnostic]

class Dump:
    root: str
    files: List[DumpFile]
    skipped: List[Tuple[str, str]]
    graphs: List[Graph]

class PairRow:
    left: str
    right: str
    left_op: str
    right_op: str
    reasons: List[str]
    changed: bool
    matcher: str
    detail: str

class GraphPair:
    left_source: str
    right_source: str
    left_graph: str
    right_graph: str
    how: str
    kind: Literal["ir", "fx", "hlo"]
    left_nodes: int
    right_nodes: int
    left_inputs: int
    right_inputs: int
    left_outputs: int
    right_outputs: int
    matched: int
    changed: int
    matched_outputs: int
    op_delta: Dict[str, int]
    pairs: List[PairRow]
    left_only: List[str]
    right_only: List[str]
    left_only_get_attrs: int
    right_only_get_attrs: int
    left_only_outputs: List[str]
    right_only_outputs: List[str]
    left_partial: bool
    right_partial: bool
    identical: bool

class CounterValues:
    name: str
    left: Optional[int]
    right: Optional[int]

class MetricValues:
    name: str
    unit: str
    left: Optional[float]
    right: Optional[float]

class MetricsPair:
    left_source: str
    right_source: str
    how: str
    counters: List[CounterValues]
    metrics: List[MetricValues]
    identical: bool

class Unpaired:
    side: Literal["left", "right"]
    what: Literal["graph", "metrics"]
    source: str
    graph: str

class SkippedFile:
    side: Literal["left", "right"]
    path: str
    reason: str

class ReadingWarning:
    side: Literal["left", "right"]
    diagnostic: Diagnostic

class DiffResult:
    identical: bool
    findings: List[Finding]
    pairs: List[GraphPair]
    metrics: List[MetricsPair]
    unpaired: List[Unpaired]
    skipped: List[SkippedFile]
    warnings: List[ReadingWarning]
    left_root: str
    right_root: str
    left_graphs: int
    right_graphs: int
    left_metrics: int
    right_metrics: int
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: str) -> DiffResult: ...

class LintReport:
    root: str
    findings: List[Finding]
    skipped: List[Tuple[str, str]]
    def to_json(self) -> str: ...

class StatsReport:
    graphs: List[GraphStats]
    metrics: List[MetricsReport]
    skipped: List[Tuple[str, str]]
    def to_json(self) -> str: ...

class GateUnit:
    kind: Literal["graph", "metrics", "dump"]
    key: str
    file: str
    name: str
    frame: str
    graph_kind: str
    record_index: int
    fingerprint: str
    values: Dict[str, int]
    partial: bool

class Baseline:
    dump: str
    units: List[GateUnit]
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: str, source: str = "<baseline>") -> Baseline: ...

class GateChange:
    metric: str
    old_value: Optional[int]
    new_value: int
    limit: str
    breached: bool
    improved: bool

class FindingNote:
    id: str
    count: int
    title: str
    hint: str

class UnitCheck:
    kind: Literal["graph", "metrics", "dump"]
    key: str
    baseline_key: str
    matched_by: str
    is_new: bool
    is_missing: bool
    verdict: Verdict
    reasons: List[str]
    changes: List[GateChange]
    findings: List[FindingNote]
    diff_findings: List[FindingNote]
    old_values: Dict[str, int]
    new_values: Dict[str, int]

class CheckResult:
    verdict: Verdict
    passed: bool
    failed: int
    improved: int
    units: List[UnitCheck]
    dump: str
    baseline_path: str
    update_command: str
    skipped: List[Tuple[str, str]]
    def to_json(self) -> str: ...

class GraphBudgetExceeded(AssertionError):
    result: CheckResult

def load_dump(path: PathLike, *, threads: int = 0) -> Dump: ...
def parse_text(text: str, source: str = "<text>") -> Dump: ...
def diff(
    left: DumpLike,
    right: DumpLike,
    *,
    graph: str = "",
    equiv: Optional[JsonLike] = None,
    counter_min_abs: int = 1,
    counter_min_rel: float = 0.05,
    metric_min_rel: float = 0.25,
    compare_timings: bool = False,
    duplicate_min_ops: int = 2,
    max_evidence: int = 1000,
    verify: bool = False,
    threads: int = 0,
    unchanged_rows: bool = True,
) -> DiffResult: ...
def stats(*dumps: DumpLike) -> StatsReport: ...
def lint(
    dump: DumpLike, *, graph: str = "", duplicate_min_ops: int = 2, max_evidence: int = 1000
) -> LintReport: ...
def snapshot(dump: DumpLike) -> Baseline: ...
def load_baseline(path: PathLike) -> Baseline: ...
def check(
    dump: DumpLike, baseline: Union[Baseline, PathLike], *, budget: Optional[JsonLike] = None
) -> CheckResult: ...
def render(
    result: Union[DiffResult, LintReport, StatsReport, CheckResult, Baseline],
    format: str = "text",
    *,
    verbose: bool = False,
    all: bool = False,
    width: int = 80,
    max_items: int = 8,
    color: bool = False,
) -> str: ...
def assert_graph_within(
    dump: DumpLike,
    baseline: Union[Baseline, DumpLike],
    budget: Optional[JsonLike] = None,
    *,
    update: Optional[bool] = None,
) -> CheckResult: ...
def main(argv: Optional[Sequence[str]] = None) -> int: ...
