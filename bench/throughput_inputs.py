#!/usr/bin/env python3
# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""Builds the inputs of tools/bench_throughput.sh from real testdata graphs.

  throughput_inputs.py GRAPHDIFF TESTDATA NODES FILES OUT

Writes, under OUT:
  fx_left.txt, fx_right.txt    FX graphs one after another, about NODES nodes
  fx_one_left.txt, fx_one_right.txt
                               one FX graph of about NODES nodes: the biggest
                               real AOT forward graph's body over and over,
                               values renamed in each copy
  fx_typed_left.txt, fx_typed_right.txt
                               the same from the typed torch 2.x fixture
                               (fixtures/fx/print_readable_v2_0.py)
  fx_log.txt                   a TORCH_LOGS=aot_graphs log: three small typed
                               graphs (joint, forward, backward) a compile,
                               copies to about NODES nodes
  fx_small.txt                 the same graphs without the log prefixes
  trace_log.txt                a TORCH_TRACE log: the fixture's two compiles of
                               small typed graphs among records that are not
                               graphs, copies to about NODES nodes
  fx_module_left.txt, fx_module_right.txt
                               the same from the largest symbolic_trace graph
                               (module calls), each copy calling its own
                               modules: an op per node
  fx_getattr_left.txt, fx_getattr_right.txt
                               the same from the symbolic_trace graph whose
                               module calls are most often spelled with
                               getattr (a Sequential's numbered layers:
                               `getattr(getattr(self.features, "3"), "0")`)
  hlo_left.txt, hlo_right.txt  HLO modules one after another, about NODES nodes
  save.txt                     save-file records (no two in a row alike)
  save_small.txt, save_small_right.txt
                               save-file records of a few nodes each (an
                               `.item()` a step), in the three framings of
                               fixtures/ir: LTC's, and torch_xla's old and new
                               with their Python frames; the right side with
                               a few planted op changes
  fx_tiny_left.txt, fx_tiny_right.txt
                               the FX graphs of testdata under 3 KB (an MLP,
                               a transformer block: a few to 30 nodes each)
                               one after another, the same way
  metrics.txt                  metrics reports one after another, about
                               100 bytes per node of NODES (a report per step)
  dir_left/, dir_right/        FILES graph files (IR, FX, HLO) in folders of
                               100; the right side renumbered (IR and HLO
                               ids shifted) with a few planted op changes.
                               Testdata has fewer distinct graphs, so files
                               repeat, as ranks and recompiles repeat them
  distinct_left/, distinct_right/
                               the same, but no two files alike: each file's
                               IR and HLO ids shifted and FX variables
                               renamed by its own amount on both sides
Node counts come from `graphdiff stats`. Only the standard library is used,
so Debian's python3 runs it.
"""
import json
import os
import re
import subprocess
import sys


def nodes_of(graphdiff, path):
    out = subprocess.run([graphdiff, "stats", "--format", "json", "--no-progress", path],
                         check=True, capture_output=True, text=True).stdout
    return sum(g["nodes"] for g in json.loads(out)["graphs"])


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def renumber(text, kind, shift):
    """The same graph with other ids: what a re-run of the same model dumps."""
    if kind == "ir":
        return re.sub(r"%(\d+)", lambda m: "%" + str(int(m.group(1)) + shift), text)
    if kind == "hlo":
        # Instruction names only: a computation's name is part of what calls it.
        defined = set(re.findall(r"^\s*(?:ROOT\s+)?%([\w.-]+)\s*=", text, re.M))

        def rename(m):
            name = m.group(1)
            base, dot, num = name.rpartition(".")
            if name not in defined or not dot or not num.isdigit():
                return m.group(0)
            return "%{}.{}".format(base, int(num) + shift)
        return re.sub(r"%([\w.-]+)", rename, text)
    return text


def rename_defined(text, definition, use, sep, shift):
    """Names the text defines (`definition`'s group 1, ending in SEP and a
    number) numbered `shift` higher wherever `use` finds them."""
    defined = set(re.findall(definition, text, re.M))

    def rename(m):
        name = m.group(0)
        if name not in defined:
            return name
        base, _, num = name.rpartition(sep)
        return "{}{}{}".format(base, sep, int(num) + shift)
    return re.sub(use, rename, text)


def rename_fx(text, shift):
    """FX code whose numbered variables (add_3) are numbered otherwise."""
    return rename_defined(text, r"^\s*(\w+?_\d+)\s*=", r"\b\w+?_\d+\b", "_", shift)


def rename_short_hlo(text, shift):
    """Short-form HLO (names without %) whose instructions are numbered otherwise."""
    return rename_defined(text, r"^\s*(?:ROOT\s+)?([\w-]+\.\d+)\s*=",
                          r"(?<![\w.%-])[\w-]+\.\d+(?![\w.-])", ".", shift)


def distinct(text, kind, shift):
    """A copy of a graph file that no other copy repeats byte for byte."""
    if kind == "fx":
        return rename_fx(text, shift)
    out = renumber(text, kind, shift)
    return rename_short_hlo(out, shift) if out == text and kind == "hlo" else out


# One planted change per kind: an op swapped for another of the same shape.
PLANTS = {
    "ir": [("aten::add(", "aten::sub("), ("aten::mul(", "aten::div("),
           ("aten::relu(", "aten::gelu(")],
    "fx": [("aten.add.Tensor", "aten.sub.Tensor"), ("aten.mul.Tensor", "aten.div.Tensor"),
           ("aten.relu.default", "aten.gelu.default"), ("torch.relu", "torch.sigmoid"),
           ("torch.cat(", "torch.stack(")],
    "hlo": [(" add(", " subtract("), (" multiply(", " divide("), (" maximum(", " minimum(")],
}


def plant(text, kind):
    for old, new in PLANTS[kind]:
        if old in text:
            return text.replace(old, new, 1)
    return text


def replicate(parts, graphdiff, target, left_path, right_path, kind):
    """Writes parts over and over until about `target` nodes; the right side
    gets a planted change in three of the copies."""
    one = "\n".join(parts) + "\n"
    probe = left_path + ".probe"
    write(probe, one)
    per = max(nodes_of(graphdiff, probe), 1)
    os.remove(probe)
    copies = max(1, -(-target // per))
    planted = {copies // 4, copies // 2, (3 * copies) // 4}
    with open(left_path, "w", encoding="utf-8") as left, \
            open(right_path, "w", encoding="utf-8") as right:
        for i in range(copies):
            left.write(one)
            right.write(plant(one, kind) if i in planted else one)
    return copies * per


def one_fx_graph(text, graphdiff, target, left_path, right_path, modules=False):
    """One FX graph of about `target` nodes from the body of `text`, repeated
    with each copy's values renamed (`relu` -> `relu_c7`): one forward as long
    as a model with that many blocks. With `modules`, each copy also calls
    modules of its own (`self.features.conv0` -> `self.features_c7.conv0`),
    as a symbolic_trace of a deep model does: an op per module call. The
    right side gets a planted change in three of the copies."""
    lines = text.split("\n")
    d = next(i for i, l in enumerate(lines) if l.lstrip().startswith("def forward"))
    body, ret = [], None
    for line in lines[d + 1:]:
        if line.strip().startswith("return"):
            ret = line
            break
        if line.strip():
            body.append(line)
    bound = set(m.group(1) for m in (re.match(r"\s+(\w+)\s*[:=]", l) for l in body) if m)
    ident = re.compile(r"(?<![.\w])[A-Za-z_]\w*")

    def rename(line, copy):
        if copy == 0:
            return line
        line = ident.sub(lambda m: m.group(0) + "_c%d" % copy if m.group(0) in bound else m.group(0),
                         line)
        if modules:
            line = re.sub(r"\bself\.(\w+)", lambda m: "self.%s_c%d" % (m.group(1), copy), line)
        return line
    # Nodes a copy adds: two copies less one (the signature's inputs are shared).
    probe = left_path + ".probe"
    counts = []
    for n in (1, 2):
        write(probe, "\n".join(lines[:d + 1] + [rename(l, c) for c in range(n) for l in body] +
                               [rename(ret, n - 1)]) + "\n")
        counts.append(nodes_of(graphdiff, probe))
    os.remove(probe)
    per = max(counts[1] - counts[0], 1)
    base = counts[0] - per
    copies = max(1, -(-(target - base) // per))
    planted = {copies // 4, copies // 2, (3 * copies) // 4}
    with open(left_path, "w", encoding="utf-8") as left, \
            open(right_path, "w", encoding="utf-8") as right:
        head = "\n".join(lines[:d + 1]) + "\n"
        left.write(head)
        right.write(head)
        for c in range(copies):
            block = "\n".join(rename(l, c) for l in body) + "\n"
            left.write(block)
            right.write(plant(block, "fx") if c in planted else block)
        tail = rename(ret, copies - 1) + "\n"
        left.write(tail)
        right.write(tail)
    return base + copies * per


def small_graph_log(text, graphdiff, target, log_path, bare_path):
    """Copies of a TORCH_LOGS log of small typed graphs (AOT joint, forward and
    backward of one layer), each with its own frame id, to about `target`
    nodes; and the same graphs without the log prefixes, as print_readable
    prints them one after another."""
    probe = log_path + ".probe"
    write(probe, text)
    per = nodes_of(graphdiff, probe)
    os.remove(probe)
    copies = max(1, (target + per - 1) // per)
    # glog's header, then the frame id and the logger's tag, each in brackets.
    prefix = re.compile(r"^[VIWEDF]\d{4} [\d:.]+ +\d+ [^\]]+\] (?:\[[^\]]*\] )*", re.M)
    with open(log_path, "w", encoding="utf-8") as log, open(bare_path, "w", encoding="utf-8") as bare:
        for i in range(copies):
            copy = text.replace("[0/0]", "[{}/0]".format(i))
            log.write(copy)
            bare.write(prefix.sub("", copy))
    return copies * per


def trace_log(text, graphdiff, target, path):
    """Copies of a TORCH_TRACE log to about `target` nodes, each copy's
    compiles with frame ids of their own, as one long run logs them."""
    probe = path + ".probe"
    write(probe, text)
    per = nodes_of(graphdiff, probe)
    os.remove(probe)
    frames = len(set(re.findall(r'"frame_id": (\d+)', text)))
    copies = max(1, (target + per - 1) // per)
    ids = re.compile(r'\[(\d+)/(\d+)\]|"frame_id": (\d+)')
    def shift(m, by):
        if m.group(3) is not None:
            return '"frame_id": {}'.format(int(m.group(3)) + by)
        return "[{}/{}]".format(int(m.group(1)) + by, m.group(2))
    with open(path, "w", encoding="utf-8") as f:
        for i in range(copies):
            f.write(ids.sub(lambda m: shift(m, i * frames), text))
    return copies * per


def main():
    graphdiff, testdata, target, files, out = sys.argv[1:6]
    target, files = int(target), int(files)
    gen = os.path.join(testdata, "generated")
    models = sorted(d for d in os.listdir(gen) if os.path.isdir(os.path.join(gen, d)))
    fx = [read(os.path.join(gen, m, f)) for m in models for f in sorted(os.listdir(os.path.join(gen, m)))
          if f.startswith("fx_") and not f.endswith("readable.txt")]
    hlo_dir = os.path.join(testdata, "fixtures", "hlo")
    hlo = [read(os.path.join(hlo_dir, f)) for f in sorted(os.listdir(hlo_dir))]
    saves = [read(os.path.join(gen, m, "ltc_save.txt")) for m in models
             if os.path.exists(os.path.join(gen, m, "ltc_save.txt"))]
    n_fx = replicate(fx, graphdiff, target, os.path.join(out, "fx_left.txt"),
                     os.path.join(out, "fx_right.txt"), "fx")
    # Small models' graphs (an MLP, a transformer block): a log of 10^5
    # graphs of a few nodes, where the cost of each pair, not of each node,
    # tells.
    n_fx_tiny = replicate([t for t in fx if len(t) < 3000], graphdiff, target,
                          os.path.join(out, "fx_tiny_left.txt"),
                          os.path.join(out, "fx_tiny_right.txt"), "fx")
    aot = [t for t in fx if "def forward(self, primals_" in t]
    n_fx_one = one_fx_graph(max(aot, key=len), graphdiff, target,
                            os.path.join(out, "fx_one_left.txt"),
                            os.path.join(out, "fx_one_right.txt"))
    # Torch 2.x prints result types (`mul: f32[2, 4] = ...`), which the
    # generated 1.13 graphs lack: the typed fixture's body, renamed per copy.
    n_fx_typed = one_fx_graph(read(os.path.join(testdata, "fixtures", "fx", "print_readable_v2_0.py")),
                              graphdiff, target, os.path.join(out, "fx_typed_left.txt"),
                              os.path.join(out, "fx_typed_right.txt"))
    # A symbolic_trace graph calls modules, each its own op: DenseNet-121's,
    # the largest, with every copy's modules renamed.
    symbolic = [os.path.join(gen, m, "fx_symbolic_trace.txt") for m in models
                if os.path.exists(os.path.join(gen, m, "fx_symbolic_trace.txt"))]
    n_fx_module = one_fx_graph(read(max(symbolic, key=os.path.getsize)), graphdiff, target,
                               os.path.join(out, "fx_module_left.txt"),
                               os.path.join(out, "fx_module_right.txt"), modules=True)
    # Layers in a Sequential are numbered, and FX writes a call of one as
    # getattr calls: the graph that spells the most calls that way.
    spelled = max(symbolic, key=lambda p: read(p).count("getattr("))
    n_fx_getattr = one_fx_graph(read(spelled), graphdiff, target,
                                os.path.join(out, "fx_getattr_left.txt"),
                                os.path.join(out, "fx_getattr_right.txt"), modules=True)
    # TORCH_LOGS=aot_graphs: three small typed graphs a compile, thousands of
    # compiles; and the same graphs bare.
    n_fx_log = small_graph_log(read(os.path.join(testdata, "fixtures", "fx", "aot_graphs_v2_4.log")),
                               graphdiff, target, os.path.join(out, "fx_log.txt"),
                               os.path.join(out, "fx_small.txt"))
    n_trace = trace_log(read(os.path.join(testdata, "fixtures", "fx", "torch_trace_v2_5.log")),
                        graphdiff, target, os.path.join(out, "trace_log.txt"))
    n_hlo = replicate(hlo, graphdiff, target, os.path.join(out, "hlo_left.txt"),
                      os.path.join(out, "hlo_right.txt"), "hlo")
    n_save = replicate(saves, graphdiff, target, os.path.join(out, "save.txt"),
                       os.path.join(out, "save_right.txt"), "ir")
    os.remove(os.path.join(out, "save_right.txt"))
    ir_dir = os.path.join(testdata, "fixtures", "ir")
    small = [read(os.path.join(ir_dir, f)) for f in
             ("ltc_real_save.txt", "xla_old_hashes.txt", "xla_new_root_hashes.txt")]
    n_save_small = replicate(small, graphdiff, target, os.path.join(out, "save_small.txt"),
                             os.path.join(out, "save_small_right.txt"), "ir")

    # Metrics: every real report of testdata in turn, as a run that prints
    # one per step leaves them.
    reports = [read(os.path.join(gen, m, f)) for m in models for f in sorted(os.listdir(os.path.join(gen, m)))
               if f.startswith("metrics_")]
    for f in ("torch_xla_style.txt", "torch113_lazy_ts.txt"):
        reports.append(read(os.path.join(testdata, "fixtures", "metrics", f)))
    reports = [r.rstrip("\n") + "\n" for r in reports]
    with open(os.path.join(out, "metrics.txt"), "w") as f:
        written, i = 0, 0
        while written < 100 * target:
            report = reports[i % len(reports)]
            f.write(report)
            written += len(report)
            i += 1

    # The directory: every single-graph IR, FX and HLO file of testdata, in turn.
    singles = []
    for m in models:
        for f in sorted(os.listdir(os.path.join(gen, m))):
            kind = "ir" if f.startswith("ir_") else "fx" if f.startswith("fx_") else None
            if kind:
                singles.append((f, kind, read(os.path.join(gen, m, f))))
    for f in sorted(os.listdir(hlo_dir)):
        singles.append((f, "hlo", read(os.path.join(hlo_dir, f))))
    planted = {files // 3, files // 2, (2 * files) // 3}
    for i in range(files):
        name, kind, text = singles[i % len(singles)]
        rel = os.path.join("{:04d}".format(i // 100), "{:05d}_{}".format(i, name))
        write(os.path.join(out, "dir_left", rel), text)
        right = renumber(text, kind, 1000 + i % 7)
        write(os.path.join(out, "dir_right", rel), plant(right, kind) if i in planted else right)
        left = distinct(text, kind, 100000 + 10 * i)
        write(os.path.join(out, "distinct_left", rel), left)
        right = renumber(left, kind, 1000 + i % 7)
        write(os.path.join(out, "distinct_right", rel), plant(right, kind) if i in planted else right)
    print("inputs: FX {} nodes, small FX graphs {} nodes, one FX graph {} nodes, one typed FX graph {} nodes, one FX graph "
          "of module calls {} nodes, spelled with getattr {} nodes, small typed FX graphs {} "
          "nodes (logged and bare), "
          "TORCH_TRACE log {} nodes, HLO {} nodes, save file {} nodes, save file of small "
          "records {} nodes, {} files per directory".format(
              n_fx, n_fx_tiny, n_fx_one, n_fx_typed, n_fx_module, n_fx_getattr, n_fx_log, n_trace, n_hlo, n_save,
              n_save_small, files))


if __name__ == "__main__":
    main()
