#!/usr/bin/env python3
# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""Write module-level and aten-level FX dumps of held-out models into testdata/generated/.

Usage (developers only; CI has no torch and never runs this):

    /usr/bin/python3 tools/gen_crosslevel.py [--out testdata/generated]

Use Debian's /usr/bin/python3 with python3-torch (1.13) and python3-torchvision.

These models test cross-level alignment on modules whose names say little
(`features.3.conv.0.0`, `classifier.0`, `h.0.attn.c_attn`): the aligner must
be led by structure. For every model (see MODELS) it writes <out>/<model>/:

  fx_symbolic_trace.txt  torch.fx.symbolic_trace(model).code (call_module nodes)
  fx_make_fx.txt         make_fx(model)(x).code under torch.no_grad() (aten ops)
  fx_aot_forward.txt     AOTAutograd's forward graph (gen_testdata.capture_aot):
                         parameters and buffers lifted to `primals_*` inputs
                         before the user's input, saved activations returned
                         after the model's outputs

and for tiny_gpt also

  fx_make_fx_pregrad.txt the same aten graph after a rewrite in the style of
                         inductor's pre-grad passes and autocast: every `view`
                         becomes `reshape`, and every `mm`/`addmm`/`bmm` operand
                         and result goes through a `prims.convert_element_type`
                         (to float32), so one op becomes several while the GELU
                         blocks stay unchanged

plus crosslevel.json (node/input/output counts and op histograms from the
GraphModule objects, as tools/gen_testdata.py computes them, and per model the
torch.nn class of every called module, `<model>/modules`, also for
gen_testdata.py's resnet18, mlp, transformer_block and multi_output; and
`<model>/aot`: how many AOT forward inputs are lifted parameters and buffers,
which input is the user's, and how many outputs are the model's own, from
the model's parameter list, not from the graph).

alexnet, densenet121 and convnext_mini were added after the aligner's
AOT-forward work, as a held-out check (convnext_mini then led to weighing
whether a module holds weights); efficientnet_b0 and regnet_y_400mf were
added after that (efficientnet_b0 led to function calls reading no weights,
alexnet to the Dropout-before-weights tie-break); vgg11_bn and mnasnet0_5
were added last and not looked at while the aligner was changed. Random weights,
seeded; nothing is downloaded. Models run in eval mode, so Dropout is the
identity and vanishes from the aten graph.
"""

import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_testdata  # noqa: E402  (fx_facts, the facts the main generator computes)

MODELS = ["mobilenet_v2", "squeezenet1_0", "tiny_gpt", "alexnet", "densenet121", "convnext_mini",
          "efficientnet_b0", "regnet_y_400mf", "vgg11_bn", "mnasnet0_5"]
MAX_FILE_BYTES = 300 * 1024
# torchvision models built with 10 classes: name -> (title, input side).
TORCHVISION_10_CLASSES = {
    "alexnet": ("AlexNet", 64),
    "densenet121": ("DenseNet-121", 32),
    "efficientnet_b0": ("EfficientNet-B0", 32),
    "regnet_y_400mf": ("RegNetY-400MF", 32),
    "vgg11_bn": ("VGG-11 with batch norm", 32),
    "mnasnet0_5": ("MNASNet 0.5", 32),
}


def _gpt_classes():
    import torch
    import torch.nn as nn

    class ErfGELU(nn.Module):
        # Written out, as models that predate nn.GELU do: the aten graph then
        # holds the `mul, mul, erf, add, mul` blocks that inductor leaves alone.
        def forward(self, x):
            return x * 0.5 * (1.0 + torch.erf(x * (1.0 / math.sqrt(2.0))))

    class Attention(nn.Module):
        def __init__(self, dim, heads):
            super().__init__()
            self.heads = heads
            self.c_attn = nn.Linear(dim, 3 * dim)
            self.c_proj = nn.Linear(dim, dim)
            self.attn_dropout = nn.Dropout(0.1)
            self.resid_dropout = nn.Dropout(0.1)

        def forward(self, x):
            b, t, c = 2, 4, 16  # constants: unpacking traced shapes fails on Python 3.11
            qkv = self.c_attn(x)
            q = qkv[:, :, 0:c].view(b, t, self.heads, c // self.heads).transpose(1, 2)
            k = qkv[:, :, c:2 * c].view(b, t, self.heads, c // self.heads).transpose(1, 2)
            v = qkv[:, :, 2 * c:3 * c].view(b, t, self.heads, c // self.heads).transpose(1, 2)
            att = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(c // self.heads))
            att = self.attn_dropout(torch.softmax(att, dim=-1))
            y = torch.matmul(att, v).transpose(1, 2).contiguous().view(b, t, c)
            return self.resid_dropout(self.c_proj(y))

    class Mlp(nn.Module):
        def __init__(self, dim):
            super().__init__()
            self.c_fc = nn.Linear(dim, 4 * dim)
            self.act = ErfGELU()
            self.c_proj = nn.Linear(4 * dim, dim)
            self.dropout = nn.Dropout(0.1)

        def forward(self, x):
            return self.dropout(self.c_proj(self.act(self.c_fc(x))))

    class Block(nn.Module):
        def __init__(self, dim, heads):
            super().__init__()
            self.ln_1 = nn.LayerNorm(dim)
            self.attn = Attention(dim, heads)
            self.ln_2 = nn.LayerNorm(dim)
            self.mlp = Mlp(dim)

        def forward(self, x):
            x = x + self.attn(self.ln_1(x))
            return x + self.mlp(self.ln_2(x))

    class TinyGpt(nn.Module):
        def __init__(self, vocab=32, ctx=4, dim=16, heads=2, layers=12):
            super().__init__()
            self.wte = nn.Embedding(vocab, dim)
            self.wpe = nn.Embedding(ctx, dim)
            self.drop = nn.Dropout(0.1)
            self.h = nn.ModuleList([Block(dim, heads) for _ in range(layers)])
            self.ln_f = nn.LayerNorm(dim)
            self.lm_head = nn.Linear(dim, vocab, bias=False)
            self.register_buffer("pos", torch.arange(ctx).unsqueeze(0))

        def forward(self, idx):
            x = self.drop(self.wte(idx) + self.wpe(self.pos))
            for block in self.h:
                x = block(x)
            return self.lm_head(self.ln_f(x))

    return TinyGpt


def _convnext_class():
    import torch.nn as nn

    class Block(nn.Module):
        # ConvNeXt-style: depthwise conv, LayerNorm over channels (channels
        # last), pointwise Linear, GELU, pointwise Linear, residual.
        def __init__(self, dim):
            super().__init__()
            self.dwconv = nn.Conv2d(dim, dim, 7, padding=3, groups=dim)
            self.norm = nn.LayerNorm(dim)
            self.pwconv1 = nn.Linear(dim, 4 * dim)
            self.act = nn.GELU()
            self.pwconv2 = nn.Linear(4 * dim, dim)

        def forward(self, x):
            y = self.dwconv(x).permute(0, 2, 3, 1)
            y = self.pwconv2(self.act(self.pwconv1(self.norm(y))))
            return x + y.permute(0, 3, 1, 2)

    class ConvNextMini(nn.Module):
        def __init__(self, dims=(8, 16), classes=10):
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(3, dims[0], 4, stride=4), nn.BatchNorm2d(dims[0]))
            self.stage1 = nn.Sequential(Block(dims[0]), Block(dims[0]))
            self.down = nn.Sequential(nn.BatchNorm2d(dims[0]), nn.Conv2d(dims[0], dims[1], 2, 2))
            self.stage2 = nn.Sequential(Block(dims[1]))
            self.pool = nn.AdaptiveAvgPool2d(1)
            self.head = nn.Linear(dims[1], classes)

        def forward(self, x):
            x = self.stage2(self.down(self.stage1(self.stem(x))))
            return self.head(self.pool(x).flatten(1))

    return ConvNextMini


def build_model(name):
    import torch

    torch.manual_seed(0)
    if name == "mobilenet_v2":
        import torchvision

        model = torchvision.models.mobilenet_v2()
        x = torch.randn(1, 3, 32, 32)
        desc = "torchvision MobileNetV2 (random weights), eval mode, input 1x3x32x32"
    elif name == "squeezenet1_0":
        import torchvision

        model = torchvision.models.squeezenet1_0()
        x = torch.randn(1, 3, 64, 64)
        desc = "torchvision SqueezeNet 1.0 (random weights), eval mode, input 1x3x64x64"
    elif name == "tiny_gpt":
        model = _gpt_classes()()
        x = torch.randint(0, 32, (2, 4))
        desc = ("GPT-2-style decoder written here: token and position Embedding, 12 blocks "
                "(LayerNorm, Linear c_attn split into q/k/v, softmax attention, c_proj, "
                "Dropout; LayerNorm, Linear c_fc, erf GELU written out, c_proj, Dropout), "
                "LayerNorm, lm_head; dim 16, 2 heads, input 2x4 token ids")
    elif name in TORCHVISION_10_CLASSES:
        import torchvision

        title, side = TORCHVISION_10_CLASSES[name]
        model = getattr(torchvision.models, name)(num_classes=10)
        x = torch.randn(1, 3, side, side)
        desc = (f"torchvision {title} (random weights, 10 classes), eval mode, "
                f"input 1x3x{side}x{side}")
    elif name == "convnext_mini":
        model = _convnext_class()()
        x = torch.randn(2, 3, 32, 32)
        desc = ("ConvNeXt-style network written here: conv+BatchNorm stem, blocks of depthwise "
                "conv, channels-last LayerNorm, Linear-GELU-Linear and residual, BatchNorm+conv "
                "downsampling, adaptive pooling, Linear head; input 2x3x32x32")
    else:
        raise ValueError(f"unknown model {name!r}")
    model.eval()
    return model, x, desc


def pregrad_rewrite(gm):
    """`view` -> `reshape`, and convert_element_type around every matmul (autocast style)."""
    import torch

    aten = torch.ops.aten
    convert = torch.ops.prims.convert_element_type.default
    graph = gm.graph
    for node in list(graph.nodes):
        if node.op != "call_function":
            continue
        if node.target is aten.view.default:
            node.target = aten.reshape.default
        elif node.target in (aten.mm.default, aten.addmm.default, aten.bmm.default):
            args = list(node.args)
            first = 1 if node.target is aten.addmm.default else 0
            for i in range(first, first + 2):
                with graph.inserting_before(node):
                    args[i] = graph.call_function(convert, (args[i], torch.float32))
            node.args = tuple(args)
            # The result is cast back: every reader now reads the convert.
            with graph.inserting_after(node):
                out = graph.call_function(convert, (node, torch.float32))
            node.replace_all_uses_with(out)
            out.args = (node, torch.float32)
    graph.lint()
    gm.recompile()
    return gm


def generate(name, out_dir):
    import copy

    import torch
    import torch.fx
    from torch.fx.experimental.proxy_tensor import make_fx

    model, x, desc = build_model(name)
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    facts = {}
    traced = torch.fx.symbolic_trace(copy.deepcopy(model))
    files = {"fx_symbolic_trace.txt": traced}
    with torch.no_grad():
        files["fx_make_fx.txt"] = make_fx(copy.deepcopy(model))(x)
        if name == "tiny_gpt":
            files["fx_make_fx_pregrad.txt"] = pregrad_rewrite(make_fx(copy.deepcopy(model))(x))
    fw, _, _ = gen_testdata.capture_aot(copy.deepcopy(model), x)
    files["fx_aot_forward.txt"] = fw
    for fname, gm in files.items():
        path = os.path.join(d, fname)
        with open(path, "w") as f:
            f.write(gm.code)
        size = os.path.getsize(path)
        if size > MAX_FILE_BYTES:
            raise SystemExit(f"{path}: {size} bytes, over {MAX_FILE_BYTES}")
        facts[f"{name}/{fname}"] = gen_testdata.fx_facts(gm)
    # Ground truth for the tests: the torch.nn class behind every module call.
    facts[f"{name}/modules"] = module_classes(traced)
    facts[f"{name}/aot"] = aot_facts(model, x)
    facts[f"{name}/identity_calls"] = identity_calls(traced, x)
    return facts, desc


def identity_calls(traced, x):
    """Function and method calls that return one of their inputs as is and
    unchanged in eval mode (`stochastic_depth` with training=False; not an
    in-place `relu`): they vanish from aten graphs."""
    import torch
    import torch.fx

    names = []

    class Probe(torch.fx.Interpreter):
        def run_node(self, n):
            args = [a for a in self.map_nodes_to_values(n.args, n) if isinstance(a, torch.Tensor)]
            before = [a.clone() for a in args]
            out = super().run_node(n)
            if n.op in ("call_function", "call_method") and isinstance(out, torch.Tensor):
                if any(a is out and torch.equal(a, b) for a, b in zip(args, before)):
                    names.append(n.name)
            return out

    with torch.no_grad():
        Probe(traced).run(x)
    return sorted(names)


def module_classes(traced):
    return {n.target: type(traced.get_submodule(n.target)).__name__
            for n in traced.graph.nodes if n.op == "call_module"}


def aot_facts(model, x):
    """What the AOT forward's signature holds, from the model rather than the graph.

    AOTAutograd calls the forward with the parameters, then the buffers, then
    the user's inputs, and returns the model's outputs before what backward
    saves."""
    import torch

    lifted = len(list(model.parameters())) + len(list(model.buffers()))
    with torch.no_grad():
        out = model(x)
    outputs = len(gen_testdata.flat_outputs(out))
    return {"lifted_inputs": lifted, "user_input": lifted, "model_outputs": outputs}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None,
                        help="output folder (default: <repo>/testdata/generated)")
    args = parser.parse_args(argv)
    try:
        import torch
        import torch.fx
        import torchvision
    except ImportError as e:
        sys.stderr.write(f"gen_crosslevel.py needs torch and torchvision ({e}); run it with "
                         "/usr/bin/python3 (Debian python3-torch 1.13).\n")
        return 2
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out_dir = os.path.abspath(args.out or os.path.join(repo, "testdata", "generated"))
    all_facts = {"_versions": {"torch": torch.__version__,
                               "torchvision": torchvision.__version__,
                               "python": sys.version.split()[0]}}
    for name in MODELS:
        facts, desc = generate(name, out_dir)
        all_facts.update(facts)
        all_facts[f"_description/{name}"] = desc
    # The module classes behind tools/gen_testdata.py's symbolic traces too,
    # so the same checks hold on its models (their files are not rewritten).
    for name in ("resnet18", "mlp", "transformer_block", "multi_output"):
        model, x, _ = gen_testdata.build_model(name)
        traced = torch.fx.symbolic_trace(model)
        all_facts[f"{name}/modules"] = module_classes(traced)
        all_facts[f"{name}/aot"] = aot_facts(model, x)
    with open(os.path.join(out_dir, "crosslevel.json"), "w") as f:
        json.dump(dict(sorted(all_facts.items())), f, indent=1, sort_keys=True)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
