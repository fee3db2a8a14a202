#!/usr/bin/env python3
# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""Write real PyTorch graph dumps for graphdiff's tests into testdata/generated/.

Usage (developers only; CI has no torch and never runs this):

    /usr/bin/python3 tools/gen_testdata.py [--out testdata/generated] [--models a,b]

Use Debian's /usr/bin/python3 with python3-torch (1.13) and python3-torchvision
installed, not a pyenv/virtualenv python without torch.

For every model (see MODELS) it writes testdata/generated/<model>/:

  fx_symbolic_trace.txt           torch.fx.symbolic_trace(model).code (module calls)
  fx_symbolic_trace_readable.txt  print_readable() of the same GraphModule
  fx_make_fx.txt                  make_fx(model)(x).code under torch.no_grad() (aten ops)
  fx_aot_forward.txt              AOTAutograd forward graph (parameters require grad)
  fx_aot_backward.txt             AOTAutograd backward graph (from .sum().backward())
  ir_eager.txt                    lazy-tensor IR (TorchScript lazy backend) of the eager
                                  forward under torch.no_grad()
  ir_aot_forward.txt              lazy-tensor IR of running the AOT forward GraphModule,
                                  dumped for ALL of its outputs
  metrics_eager.txt / metrics_aot.txt   torch._lazy.metrics.metrics_report() after
                                  executing (mark_step) each of the two lazy runs
  ltc_save.txt                    LTC_SAVE_TENSORS_FILE output (LTC_SAVE_TENSORS_FMT=text)
                                  of 3 inference + 3 training steps (one mark_step each),
                                  with repeated identical steps

--models runs a subset (README.md and facts.json then describe only that subset).
A file torch cannot produce (dump_ir segfaults on split/chunk graphs in 1.13) is left
out and listed in README.md.

plus README.md and facts.json (node/input/output counts and op histograms computed
independently: from the FX GraphModule objects for fx_* files, from the text for ir_*).

Each model runs in its own child process so lazy-tensor state (metrics, caches, the
save file) never leaks from one model into another. Everything is seeded and shaped
deterministically; only timings in metrics files and hashes vary between runs.
"""

import argparse
import builtins
import collections
import contextlib
import io
import json
import operator
import os
import re
import subprocess
import sys
import tempfile

MODEL_NAMES = ["resnet18", "resnet18_224", "mlp", "transformer_block", "multi_output"]

FX_FILES = [
    "fx_symbolic_trace.txt",
    "fx_make_fx.txt",
    "fx_aot_forward.txt",
    "fx_aot_backward.txt",
]
IR_FILES = ["ir_eager.txt", "ir_aot_forward.txt"]
METRICS_FILES = ["metrics_eager.txt", "metrics_aot.txt"]

MAX_FILE_BYTES = 1 << 20


# --------------------------------------------------------------------------- models


def build_model(name):
    """Returns (model, example_input, description); seeded so reruns are identical."""
    import torch
    import torch.nn as nn

    torch.manual_seed(0)
    if name in ("resnet18", "resnet18_224"):
        import torchvision

        model = torchvision.models.resnet18()
        if name == "resnet18":
            x = torch.randn(2, 3, 64, 64)
            desc = "torchvision ResNet-18, eval mode, input 2x3x64x64"
        else:
            x = torch.randn(4, 3, 224, 224)
            desc = "torchvision ResNet-18, eval mode, input 4x3x224x224 (as in resnet18-xla5430)"
    elif name == "mlp":
        model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
        x = torch.randn(3, 16)
        desc = "Sequential(Linear(16,32), ReLU, Linear(32,4)), input 3x16"
    elif name == "transformer_block":
        model = TransformerBlock(dim=32, heads=4)
        x = torch.randn(2, 8, 32)
        desc = ("hand-written pre-norm block: LayerNorm, q/k/v Linear, scaled dot-product "
                "softmax attention, out Linear, residual, LayerNorm, Linear-GELU-Linear MLP, "
                "residual; input 2x8x32")
    elif name == "multi_output":
        model = MultiOutput()
        x = torch.randn(4, 8)
        desc = ("Linear then max(dim) (values+indices), topk, chunk, split; returns 4 "
                "tensors incl. two Long index tensors; input 4x8")
    else:
        raise ValueError(f"unknown model {name!r}; known: {', '.join(MODEL_NAMES)}")
    model.eval()
    return model, x, desc


def _define_modules():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class TransformerBlockImpl(nn.Module):
        def __init__(self, dim, heads):
            super().__init__()
            self.heads = heads
            self.norm1 = nn.LayerNorm(dim)
            self.q = nn.Linear(dim, dim)
            self.k = nn.Linear(dim, dim)
            self.v = nn.Linear(dim, dim)
            self.proj = nn.Linear(dim, dim)
            self.norm2 = nn.LayerNorm(dim)
            self.fc1 = nn.Linear(dim, 4 * dim)
            self.fc2 = nn.Linear(4 * dim, dim)
            self.scale = (dim // heads) ** -0.5

        def forward(self, x):
            h = self.norm1(x)
            # Constant shapes, not x.shape: unpacking a traced shape fails on Python 3.11.
            q = self.q(h).view(2, 8, self.heads, 8).transpose(1, 2)
            k = self.k(h).view(2, 8, self.heads, 8).transpose(1, 2)
            v = self.v(h).view(2, 8, self.heads, 8).transpose(1, 2)
            att = torch.matmul(q, k.transpose(-2, -1)) * self.scale
            att = F.softmax(att, dim=-1)
            y = torch.matmul(att, v).transpose(1, 2).reshape(2, 8, 32)
            x = x + self.proj(y)
            x = x + self.fc2(F.gelu(self.fc1(self.norm2(x))))
            return x

    class MultiOutputImpl(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(8, 12)

        def forward(self, x):
            h = self.lin(x)
            # Python 3.11 breaks torch 1.13 FX's tuple-unpacking detection
            # ("Proxy object cannot be iterated"), so project explicitly.
            m = h.max(dim=1)
            values = m.values
            indices = m[1]
            top = torch.topk(h, 3, dim=1)
            halves = torch.chunk(h, 3, dim=1)
            parts = h.split(4, dim=1)
            # Every piece is used: lazy 1.13 cannot backprop a split with undefined grads.
            y = parts[0] * parts[2] + halves[0].relu() - halves[1] * halves[2] + parts[1]
            return values + top.values.sum(dim=1), indices, top.indices, y

    return TransformerBlockImpl, MultiOutputImpl


def TransformerBlock(dim, heads):
    cls, _ = _define_modules()
    return cls(dim, heads)


def MultiOutput():
    _, cls = _define_modules()
    return cls()


def float_outputs(out):
    """The differentiable outputs of a model result (tensor or tuple)."""
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return [o for o in outs if o.is_floating_point()]


def flat_outputs(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


# ------------------------------------------------------------------------ FX facts

_OPERATOR_NAMES = {
    operator.add: "add", operator.sub: "sub", operator.mul: "mul",
    operator.truediv: "div", operator.floordiv: "floor_divide", operator.mod: "remainder",
    operator.matmul: "matmul", operator.neg: "neg", operator.pow: "pow",
    operator.iadd: "add_", operator.isub: "sub_", operator.imul: "mul_",
    operator.itruediv: "div_", operator.and_: "bitwise_and", operator.or_: "bitwise_or",
    operator.eq: "eq", operator.ne: "ne", operator.lt: "lt", operator.le: "le",
    operator.gt: "gt", operator.ge: "ge",
}


def _is_projection(node):
    """getitem with an int index, or getattr (e.g. `.values`): output k of a node."""
    if node.op != "call_function":
        return False
    if node.target is operator.getitem:
        return len(node.args) == 2 and isinstance(node.args[1], int)
    return node.target is builtins.getattr


def canonical_fx_op(node):
    import torch

    if node.op == "placeholder":
        return "fx::placeholder"
    if node.op == "call_module":
        return "module::" + node.target
    if node.op == "call_method":
        return "aten::" + node.target
    target = node.target
    if isinstance(target, (torch._ops.OpOverload, torch._ops.OpOverloadPacket)):
        # str(torch.ops.aten.relu.default) == "aten.relu.default"
        parts = str(target).split(".")
        return f"{parts[0]}::{parts[1]}"
    if target in _OPERATOR_NAMES:
        return "aten::" + _OPERATOR_NAMES[target]
    if target is operator.getitem:
        return "aten::getitem"  # a subscript that is not a projection (slicing)
    return "aten::" + getattr(target, "__name__", str(target))


def fx_facts(gm):
    nodes = 0
    inputs = 0
    ops = collections.Counter()
    outputs = 0
    output_nones = 0
    for node in gm.graph.nodes:
        if node.op == "output":
            result = node.args[0]
            values = list(result) if isinstance(result, (tuple, list)) else [result]
            outputs = len(values)
            output_nones = sum(1 for v in values if v is None)
            continue
        if node.op == "get_attr" or _is_projection(node):
            continue
        if node.op == "placeholder":
            inputs += 1
        nodes += 1
        ops[canonical_fx_op(node)] += 1
    return {
        "nodes": nodes,
        "inputs": inputs,
        "outputs": outputs,
        "output_nones": output_nones,
        "ops": dict(sorted(ops.items())),
    }


# ------------------------------------------------------------------------ IR facts

def ir_facts(text):
    """Counts over one `IR { ... }` block, from the text alone."""
    nodes = 0
    roots = 0
    ops = collections.Counter()
    for line in text.splitlines():
        if not re.match(r"^\s*%\d+ = ", line):
            continue
        nodes += 1
        m = re.match(r"^\s*%\d+ = \[.*?\]\s+(\S+?)\(", line)
        if not m:
            raise ValueError(f"unrecognised IR line: {line}")
        ops[m.group(1)] += 1
        if re.search(r", ROOT=\d+", line):
            roots += 1
    inputs = sum(n for op, n in ops.items() if op.endswith("::device_data"))
    return {"nodes": nodes, "inputs": inputs, "outputs": roots, "ops": dict(sorted(ops.items()))}


def save_file_facts(text):
    records = []
    for rec in text.split("[ScheduleSyncTensorsGraph]")[1:]:
        hashes = re.search(r"^(?:Root )?Hashes: \(([^)]*)\)", rec, re.M)
        body = rec.split("## BEGIN_GRAPH", 1)[1].split("## END_GRAPH", 1)[0]
        f = ir_facts(body)
        f["hashes"] = [h.strip() for h in hashes.group(1).split(",")] if hashes else []
        records.append(f)
    distinct = []
    for r in records:
        key = tuple(r["hashes"])
        if key not in distinct:
            distinct.append(key)
    return {
        "graphs": len(records),
        "distinct_hash_sets": len(distinct),
        "records": [{"nodes": r["nodes"], "inputs": r["inputs"], "outputs": r["outputs"],
                     "hash_count": len(r["hashes"]),
                     "hash_set_index": distinct.index(tuple(r["hashes"]))} for r in records],
    }


def metrics_facts(text):
    counters = {}
    metrics = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^Counter: (.+)$", line)
        if m:
            current = ("counter", m.group(1))
            continue
        m = re.match(r"^Metric: (.+)$", line)
        if m:
            current = ("metric", m.group(1))
            continue
        m = re.match(r"^  Value: (\d+)$", line)
        if m and current and current[0] == "counter":
            counters[current[1]] = int(m.group(1))
            continue
        m = re.match(r"^  TotalSamples: (\d+)$", line)
        if m and current and current[0] == "metric":
            metrics[current[1]] = int(m.group(1))
    return {"counters": counters, "metric_samples": metrics}


# ------------------------------------------------------------------ child: one model


def _write(path, text):
    with open(path, "w") as f:
        f.write(text)


def _lazy_modules():
    import torch._lazy
    import torch._lazy.debug
    import torch._lazy.metrics
    import torch._lazy.ts_backend

    torch._lazy.ts_backend.init()
    return torch._lazy


def capture_aot(model, x):
    """AOTAutograd graphs of model (parameters require grad) and the forward's inputs."""
    import copy

    import torch
    from functorch.compile import aot_module

    graphs = {}
    forward_args = []

    def fw_compiler(gm, example_inputs):
        graphs["fw"] = gm

        def run(*args):
            forward_args[:] = [a.detach().clone() if isinstance(a, torch.Tensor) else a
                               for a in args]
            return gm(*args)

        return run

    def bw_compiler(gm, example_inputs):
        graphs["bw"] = gm
        return gm

    aot_model = aot_module(copy.deepcopy(model), fw_compiler=fw_compiler,
                           bw_compiler=bw_compiler)
    out = aot_model(x)
    sum(o.sum() for o in float_outputs(out)).backward()
    return graphs["fw"], graphs["bw"], forward_args


def child_fx(name, out_dir, facts_path):
    import copy

    import torch
    import torch.fx
    from torch.fx.experimental.proxy_tensor import make_fx

    model, x, desc = build_model(name)
    d = os.path.join(out_dir, name)
    facts = {"_description": desc}

    # Module-level trace.
    traced = torch.fx.symbolic_trace(copy.deepcopy(model))
    _write(os.path.join(d, "fx_symbolic_trace.txt"), traced.code)
    facts["fx_symbolic_trace.txt"] = fx_facts(traced)
    # 1.13's print_readable() has no print_output argument: it prints and returns None.
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        traced.print_readable()
    _write(os.path.join(d, "fx_symbolic_trace_readable.txt"), buf.getvalue())
    facts["fx_symbolic_trace_readable.txt"] = facts["fx_symbolic_trace.txt"]

    # Aten-level inference trace.
    with torch.no_grad():
        inference = make_fx(copy.deepcopy(model))(x)
    _write(os.path.join(d, "fx_make_fx.txt"), inference.code)
    facts["fx_make_fx.txt"] = fx_facts(inference)

    fw, bw, _ = capture_aot(model, x)
    _write(os.path.join(d, "fx_aot_forward.txt"), fw.code)
    _write(os.path.join(d, "fx_aot_backward.txt"), bw.code)
    facts["fx_aot_forward.txt"] = fx_facts(fw)
    facts["fx_aot_backward.txt"] = fx_facts(bw)

    with open(facts_path, "w") as f:
        json.dump(facts, f)


def child_lazy(name, out_dir, phase, what):
    """One lazy-device run: phase eager|aot, writing its IR dump or its metrics report.

    Dumping and executing are separate processes because dump_ir can crash the
    interpreter (torch 1.13 segfaults on graphs holding split/chunk views) while
    executing the same graph with mark_step works.
    """
    import copy

    import torch

    model, x, _ = build_model(name)
    if phase == "aot":
        fw, _, forward_args = capture_aot(model, x)
    lazy = _lazy_modules()
    lazy.metrics.reset()
    with torch.no_grad():
        if phase == "eager":
            outs = flat_outputs(copy.deepcopy(model).to("lazy")(x.to("lazy")))
        else:
            args = [a.to("lazy") if isinstance(a, torch.Tensor) else a for a in forward_args]
            outs = flat_outputs(fw.to("lazy")(*args))
    outs = [t for t in outs if isinstance(t, torch.Tensor)]
    suffix = "eager" if phase == "eager" else "aot_forward"
    if what == "ir":
        _write(os.path.join(out_dir, name, f"ir_{suffix}.txt"), lazy.debug.dump_ir(outs, "text"))
        return
    lazy.mark_step()
    lazy.wait_device_ops()
    _write(os.path.join(out_dir, name, f"metrics_{phase}.txt"), lazy.metrics.metrics_report())


def child_save(name):
    """Runs under LTC_SAVE_TENSORS_FILE: 3 inference steps, then 3 training steps.

    The first step also uploads the parameters and the first training step creates the
    gradients, so steps 2-3 and 5-6 are the repeated identical graphs. Prints why training was skipped if this torch cannot run it.
    """
    import torch

    model, x, _ = build_model(name)
    lazy = _lazy_modules()
    model = model.to("lazy")
    xl = x.to("lazy")
    for _ in range(3):
        with torch.no_grad():
            outs = flat_outputs(model(xl))
        lazy.mark_step()
    del outs
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(3):
        opt.zero_grad()
        loss = sum(o.sum() for o in float_outputs(model(xl)))
        try:
            loss.backward()
        except RuntimeError as e:
            # Known in 1.13: SplitBackward0 yields CPU gradients for lazy tensors.
            print("training steps skipped: loss.backward() on the lazy device raised: "
                  + str(e).splitlines()[0])
            return
        opt.step()
        lazy.mark_step()
    lazy.wait_device_ops()


# --------------------------------------------------------------------------- parent


def run_child(args, env=None, allow_segfault=False):
    """Runs this script as a child; returns its stdout, None if it segfaulted (allowed)."""
    cmd = [sys.executable, os.path.abspath(__file__)] + args
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if proc.returncode == -11 and allow_segfault:
        return None
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout + proc.stderr)
        raise SystemExit(f"child failed ({proc.returncode}): {' '.join(cmd)}")
    return proc.stdout


def generate_model(name, out_dir):
    """Writes one model's folder; returns (facts, meta) with meta['_missing'] reasons."""
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    for fname in os.listdir(d):  # stale files from an earlier run must not survive
        os.remove(os.path.join(d, fname))
    missing = {}
    with tempfile.TemporaryDirectory() as tmp:
        facts_path = os.path.join(tmp, "facts.json")
        run_child(["--child", "fx", "--model", name, "--out", out_dir, "--facts", facts_path])
        with open(facts_path) as f:
            child = json.load(f)

        for phase in ("eager", "aot"):
            ir_name = "ir_eager.txt" if phase == "eager" else "ir_aot_forward.txt"
            if run_child(["--child", "lazy", "--model", name, "--out", out_dir,
                          "--phase", phase, "--what", "ir"], allow_segfault=True) is None:
                missing[ir_name] = ("torch._lazy.debug.dump_ir segfaults in this torch "
                                    "(LazyTensor::data() via GetTensorsDump) on graphs "
                                    "holding split/chunk view outputs; executing the same "
                                    "graph works, see metrics and ltc_save.txt")
            run_child(["--child", "lazy", "--model", name, "--out", out_dir,
                       "--phase", phase, "--what", "metrics"])

        save_base = os.path.join(tmp, "ltc_save.txt")
        env = dict(os.environ, LTC_SAVE_TENSORS_FILE=save_base, LTC_SAVE_TENSORS_FMT="text")
        save_note = run_child(["--child", "save", "--model", name], env=env).strip()
        written = sorted(p for p in os.listdir(tmp) if p.startswith("ltc_save.txt"))
        if len(written) != 1:
            raise SystemExit(f"expected one save file in {tmp}, found {written}")
        with open(os.path.join(tmp, written[0])) as f:
            save_text = f.read()
        _write(os.path.join(d, "ltc_save.txt"), save_text)

    facts = {}
    for fname in FX_FILES + ["fx_symbolic_trace_readable.txt"]:
        facts[f"{name}/{fname}"] = child[fname]
    for fname in IR_FILES:
        if fname not in missing:
            with open(os.path.join(d, fname)) as f:
                facts[f"{name}/{fname}"] = ir_facts(f.read())
    for fname in METRICS_FILES:
        with open(os.path.join(d, fname)) as f:
            facts[f"{name}/{fname}"] = metrics_facts(f.read())
    facts[f"{name}/ltc_save.txt"] = save_file_facts(save_text)
    meta = {k: v for k, v in child.items() if k.startswith("_")}
    meta["_missing"] = missing
    meta["_save_note"] = save_note
    return facts, meta


def file_sizes(out_dir, names):
    sizes = {}
    for name in names:
        d = os.path.join(out_dir, name)
        for fname in sorted(os.listdir(d)):
            sizes[f"{name}/{fname}"] = os.path.getsize(os.path.join(d, fname))
    return sizes


def write_readme(out_dir, names, facts, metas, versions, command):
    lines = [
        "# generated: real PyTorch 1.13 dumps of small models",
        "",
        "Written by `tools/gen_testdata.py` (do not edit by hand; rerun it). Command:",
        "",
        "```",
        command,
        "```",
        "",
        f"Versions: torch {versions['torch']}, torchvision {versions['torchvision']}, "
        f"Python {versions['python']} (Debian python3-torch / python3-torchvision).",
        "",
        "`mobilenet_v2/`, `squeezenet1_0/`, `tiny_gpt/`, `alexnet/`, `densenet121/`, "
        "`convnext_mini/`, `efficientnet_b0/`, `regnet_y_400mf/`, `vgg11_bn/`, `mnasnet0_5/` "
        "and `crosslevel.json` are "
        "written by `tools/gen_crosslevel.py` (module-level against aten-level FX, make_fx and "
        "AOT forward; see its docstring).",
        "",
        "## Models",
        "",
    ]
    for name in names:
        lines.append(f"- `{name}/`: {metas[name]['_description']}")
    missing = [(name, fname, why) for name in names
               for fname, why in sorted(metas[name]["_missing"].items())]
    if missing:
        lines += ["", "Not produced (no file, no facts entry):", ""]
        for name, fname, why in missing:
            lines.append(f"- `{name}/{fname}`: {why}")
    notes = [(name, metas[name]["_save_note"]) for name in names if metas[name]["_save_note"]]
    if notes:
        lines += ["", "Save-file notes:", ""]
        for name, note in notes:
            lines.append(f"- `{name}/ltc_save.txt`: {note}")
    lines += [
        "",
        "## Files in each model folder",
        "",
        "| file | what it is |",
        "|---|---|",
        "| `fx_symbolic_trace.txt` | `torch.fx.symbolic_trace(model).code`: module calls "
        "(`self.conv1(x)`, `getattr(self.layer1, \"0\").conv1(...)`), `torch.flatten`, "
        "operators, method calls |",
        "| `fx_symbolic_trace_readable.txt` | `print_readable()` of the same GraphModule "
        "(1.13: no `print_output` argument; stdout captured). Same graph as above. |",
        "| `fx_make_fx.txt` | `make_fx(model)(x).code` under `torch.no_grad()`: aten ops "
        "(`torch.ops.aten.*`), parameters as `get_attr` (`_param_constant0 = "
        "self._param_constant0`), one placeholder `arg0_1` |",
        "| `fx_aot_forward.txt` | `functorch.compile.aot_module` forward graph (parameters "
        "require grad): `primals_*` inputs (parameters, buffers, then the input), extra "
        "outputs saved for backward |",
        "| `fx_aot_backward.txt` | the matching backward graph (triggered by "
        "`.sum().backward()` over the float outputs); returns one gradient per primal, "
        "`None` for non-differentiable ones |",
        "| `ir_eager.txt` | `torch._lazy.debug.dump_ir(outputs, \"text\")` of the eager "
        "forward on device `lazy` (TorchScript backend) under `torch.no_grad()` |",
        "| `ir_aot_forward.txt` | the same dump for the AOT forward GraphModule run on "
        "device `lazy` with its recorded inputs; every output passed as a root |",
        "| `metrics_eager.txt`, `metrics_aot.txt` | `torch._lazy.metrics.metrics_report()` "
        "(= `torch._C._lazy._metrics_report()`, the C++ report text) after `reset()`, the "
        "run, `mark_step()`; timings vary per run |",
        "| `ltc_save.txt` | the file written under `LTC_SAVE_TENSORS_FILE=<path> "
        "LTC_SAVE_TENSORS_FMT=text`: 3 inference steps (the first also uploads the "
        "parameters, so steps 2 and 3 are identical) then 3 training steps (forward, "
        "backward, SGD; the first creates the gradients, so steps 5 and 6 are identical), "
        "one `mark_step()` each |",
        "",
        "## Facts (`facts.json`)",
        "",
        "Computed independently of graphdiff: FX counts from the GraphModule objects, IR "
        "counts from the text with regexes.",
        "",
        "- FX: `nodes` = placeholders + call_function/call_module/call_method nodes, "
        "excluding projections (`operator.getitem` with an int index and `getattr` such as "
        "`max_1.values`) and `get_attr`; `inputs` = placeholders; `outputs` = entries in "
        "the returned tuple/list (`output_nones` of them are `None`); `ops`: "
        "`torch.ops.aten.X.ovl` -> `aten::X`, torch functions (`torch.flatten`) -> "
        "`aten::flatten`, `operator.add` -> `aten::add`, `operator.iadd` -> `aten::add_`, "
        "call_method `m` -> `aten::m`, call_module -> `module::<dotted target>`, placeholder "
        "-> `fx::placeholder`.",
        "- IR: `nodes` = `%N = ` lines, `inputs` = `*::device_data` nodes, `outputs` = "
        "`ROOT=` tags (a node returned several times, e.g. both outputs of `aten::max`, "
        "carries one tag only), `ops` = histogram of every line's op.",
        "- metrics: `counters` (name -> Value), `metric_samples` (name -> TotalSamples).",
        "- ltc_save: `graphs` = records, per record nodes/inputs/outputs, `hash_count` "
        "(entries in `Hashes: (...)`), `hash_set_index` (records with equal index had "
        "identical hashes: the repeated step).",
        "",
        "| file | nodes | inputs | outputs | distinct ops |",
        "|---|---|---|---|---|",
    ]
    for key in sorted(facts):
        f = facts[key]
        if "nodes" in f:
            lines.append(f"| `{key}` | {f['nodes']} | {f['inputs']} | {f['outputs']} | "
                         f"{len(f['ops'])} |")
    lines += ["", "| save file | graphs | distinct hash sets | nodes per graph |",
              "|---|---|---|---|"]
    for name in names:
        f = facts[f"{name}/ltc_save.txt"]
        per = ", ".join(str(r["nodes"]) for r in f["records"])
        lines.append(f"| `{name}/ltc_save.txt` | {f['graphs']} | {f['distinct_hash_sets']} "
                     f"| {per} |")
    lines += [
        "",
        "## Observed behaviour of PyTorch 1.13 worth knowing",
        "",
        "- IR dumps list outputs via `ROOT=k`; when one node feeds several outputs (both "
        "results of `aten::max`, or a tensor returned twice) only one index is printed, "
        "so `ROOT=` count <= number of tensors dumped.",
        "- Upstream LTC types look like `[Float[2,8]]` / `[Float[4], Long[4]]`; multi-output "
        "nodes carry `num_outputs=`; device data is `lazy_tensors::device_data` with "
        "`device=CPU0`; every line ends with `NodeType=<mangled C++ name>`.",
        "- The save file has no device suffix here; records start with "
        "`[ScheduleSyncTensorsGraph]`, `Python Stacktrace:` reads `(No Python Frames:-1)` "
        "under Python 3.11, and hashes are printed without leading zeros (31-hex-digit "
        "hashes occur). The first record of a run also syncs parameter uploads "
        "(`aten::detach_copy` roots).",
        "- The order of the AOT forward's extra outputs (tensors saved for backward), and "
        "so of the backward's inputs, changes from run to run (functorch 1.13 collects them "
        "in a set): regenerating reorders `fx_aot_*` returns and `ir_aot_forward.txt` ROOT "
        "indices.",
        "- FX symbolic tracing cannot unpack tuples (`a, b = x.max(1)`) on Python 3.11 "
        "with torch 1.13, so the models index results explicitly.",
        "",
        "## Sizes (bytes)",
        "",
    ]
    for key, size in file_sizes(out_dir, names).items():
        lines.append(f"- `{key}`: {size}")
    _write(os.path.join(out_dir, "README.md"), "\n".join(lines) + "\n")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None,
                        help="output folder (default: <repo>/testdata/generated)")
    parser.add_argument("--models", default=",".join(MODEL_NAMES))
    parser.add_argument("--child", choices=["fx", "lazy", "save"], help=argparse.SUPPRESS)
    parser.add_argument("--phase", choices=["eager", "aot"], help=argparse.SUPPRESS)
    parser.add_argument("--what", choices=["ir", "metrics"], help=argparse.SUPPRESS)
    parser.add_argument("--model", help=argparse.SUPPRESS)
    parser.add_argument("--facts", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    try:
        import torch  # noqa: F401
        import torchvision  # noqa: F401
    except ImportError as e:
        sys.stderr.write(f"gen_testdata.py needs torch and torchvision ({e}); run it with "
                         "/usr/bin/python3 (Debian python3-torch 1.13). CI does not run it.\n")
        return 2

    if args.child == "fx":
        child_fx(args.model, args.out, args.facts)
        return 0
    if args.child == "lazy":
        child_lazy(args.model, args.out, args.phase, args.what)
        return 0
    if args.child == "save":
        child_save(args.model)
        return 0

    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out_dir = os.path.abspath(args.out or os.path.join(repo, "testdata", "generated"))
    os.makedirs(out_dir, exist_ok=True)
    names = [n for n in args.models.split(",") if n]
    for n in names:
        if n not in MODEL_NAMES:
            parser.error(f"unknown model {n!r}")

    all_facts = {}
    metas = {}
    for name in names:
        print(f"[gen_testdata] {name}", file=sys.stderr)
        facts, meta = generate_model(name, out_dir)
        all_facts.update(facts)
        metas[name] = meta

    too_big = {k: s for k, s in file_sizes(out_dir, names).items() if s > MAX_FILE_BYTES}
    if too_big:
        sys.stderr.write(f"warning: files over {MAX_FILE_BYTES} bytes: {too_big}\n")

    with open(os.path.join(out_dir, "facts.json"), "w") as f:
        json.dump(dict(sorted(all_facts.items())), f, indent=1, sort_keys=True)
        f.write("\n")
    import torch
    import torchvision

    versions = {"torch": torch.__version__, "torchvision": torchvision.__version__,
                "python": sys.version.split()[0]}
    rel_out = os.path.relpath(out_dir, repo)
    command = f"cd <repo> && /usr/bin/python3 tools/gen_testdata.py --out {rel_out}"
    write_readme(out_dir, names, all_facts, metas, versions, command)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
