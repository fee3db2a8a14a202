#!/usr/bin/env python3
# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""Parse rates on real graphs of models that are not in testdata/.

The throughput benchmark (tools/bench_throughput.sh) replicates testdata's
graphs; graphdiff is judged on graphs it has not seen. This writes the FX
graphs (symbolic_trace, make_fx, AOTAutograd forward and backward) and the
lazy-tensor IR of torchvision models that testdata/generated/ does not hold,
copies each file to about 60 MB (FX: graphs one after another; IR: one graph
of that many nodes, each copy renumbered by bench/replicate_ir from the same
build, since consecutive copies of an IR graph would fold into one record),
and prints `graphdiff stats --jobs 1` rates, best of three, lowest first.

    /usr/bin/python3 bench/heldout_models.py GRAPHDIFF OUT [--models a,b] [--dumps]

With --dumps it only writes the models' graph files to OUT, unreplicated,
for the alignment properties to be asked of them (README, "Development"):

    GRAPHDIFF_ALIGN_DUMPS=OUT build/tests/graphdiff_tests \
        --gtest_filter='AlignTestdataTest.Renumbered*:AlignTestdataTest.Planted*'

Developers only: needs Debian's python3-torch and python3-torchvision
(PyTorch 1.13), so use /usr/bin/python3. Each model and kind runs in a child
process (torch 1.13's lazy backend can crash on some graphs; such a file is
reported and skipped).
"""

import argparse
import os
import subprocess
import sys
import time

MODELS = [
    "resnet50", "googlenet", "shufflenet_v2_x1_0", "inception_v3", "vit_b_16", "swin_t",
    "mobilenet_v3_large", "efficientnet_v2_s", "resnext50_32x4d", "regnet_x_400mf",
    "convnext_tiny",
]
KINDS = ["sym", "makefx", "aot", "ir"]
TARGET_BYTES = 60_000_000


def child(name, kind, out):
    """Writes one model's graph of one kind to `out` (AOT: forward and backward)."""
    import copy

    import torch
    import torch.fx
    import torchvision

    torch.manual_seed(0)
    size = 299 if name == "inception_v3" else 224
    kwargs = ({"aux_logits": False, "init_weights": False}
              if name in ("inception_v3", "googlenet") else {})
    model = getattr(torchvision.models, name)(**kwargs).eval()
    x = torch.randn(1, 3, size, size)
    if kind == "sym":
        text = torch.fx.symbolic_trace(copy.deepcopy(model)).code
    elif kind == "makefx":
        from torch.fx.experimental.proxy_tensor import make_fx
        with torch.no_grad():
            text = make_fx(copy.deepcopy(model))(x).code
    elif kind == "aot":
        from functorch.compile import aot_module
        graphs = {}

        def keep(key):
            def compiler(gm, example_inputs):
                graphs[key] = gm
                return gm
            return compiler

        aot = aot_module(copy.deepcopy(model), fw_compiler=keep("fw"), bw_compiler=keep("bw"))
        aot(x).sum().backward()
        with open(out.replace("_fwd.txt", "_bwd.txt"), "w") as f:
            f.write(graphs["bw"].code)
        text = graphs["fw"].code
    else:
        import torch._lazy
        import torch._lazy.debug
        import torch._lazy.ts_backend
        torch._lazy.ts_backend.init()
        device = torch.device("lazy")
        lazy = copy.deepcopy(model).to(device)
        with torch.no_grad():
            y = lazy(x.to(device))
        text = torch._lazy.debug.dump_ir([y], "text")
    with open(out, "w") as f:
        f.write(text)


def replicate(path, out, replicate_ir):
    with open(path) as f:
        text = f.read()
    if not text.endswith("\n"):
        text += "\n"
    copies = TARGET_BYTES // max(len(text), 1) + 1
    if path.endswith("_ir.txt"):
        subprocess.run([replicate_ir, path, str(copies), "1", out], check=True,
                       stdout=subprocess.DEVNULL)
        return
    with open(out, "w") as f:
        f.write(text * copies)


def best_stats(graphdiff, path, runs=3):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([graphdiff, "stats", "--jobs", "1", path], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def main(argv):
    if len(argv) > 1 and argv[1] == "--child":
        child(argv[2], argv[3], argv[4])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("graphdiff")
    parser.add_argument("out")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--dumps", action="store_true",
                        help="only write the graph files, for the alignment properties")
    args = parser.parse_args(argv[1:])
    replicate_ir = os.path.join(os.path.dirname(os.path.abspath(args.graphdiff)), "bench",
                                "replicate_ir")
    if not args.dumps and not os.path.exists(replicate_ir):
        sys.exit(f"{replicate_ir} not found: build with -DGRAPHDIFF_BUILD_BENCHMARKS=ON")
    os.makedirs(args.out if args.dumps else os.path.join(args.out, "rep"), exist_ok=True)
    files = []
    for name in args.models.split(","):
        for kind in KINDS:
            out = os.path.join(args.out, f"{name}_{kind}{'_fwd' if kind == 'aot' else ''}.txt")
            if not os.path.exists(out):
                r = subprocess.run([sys.executable, __file__, "--child", name, kind, out],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if r.returncode != 0 or not os.path.exists(out):
                    last = r.stderr.strip().splitlines()[-1:] or [f"exit {r.returncode}"]
                    print(f"skipped {name} {kind}: {last[0]}", file=sys.stderr)
                    continue
            files.append(out)
            if kind == "aot":
                files.append(out.replace("_fwd.txt", "_bwd.txt"))
    if args.dumps:
        return 0
    rows = []
    for path in files:
        rep = os.path.join(args.out, "rep", os.path.basename(path))
        if not os.path.exists(rep):
            replicate(path, rep, replicate_ir)
        seconds = best_stats(args.graphdiff, rep)
        rows.append((os.path.getsize(rep) / 1e6 / seconds, seconds, os.path.basename(path)))
    for rate, seconds, name in sorted(rows):
        print(f"{rate:7.0f} MB/s  {seconds:.2f} s  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
