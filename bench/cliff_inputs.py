#!/usr/bin/env python3
# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""Builds the inputs of tools/bench_cliffs.sh: dump shapes that once cost
time or memory growing faster than their size (a performance cliff), each at
a size given in bytes.

  cliff_inputs.py NAME BYTES OUT_PREFIX

Prints the files written: OUT_PREFIX.txt, or OUT_PREFIX_L.txt and
OUT_PREFIX_R.txt for a pair to diff. `cliff_inputs.py --list` prints the
shape names, one a line, with the command each is measured with. Only the
standard library is used, so Debian's python3 runs it.
"""
import sys


def ir_small(k, grow):
    """A 5-node IR graph whose batch dim is k + grow."""
    t = f"f32[{k + grow}]{{0}}"
    lines = ["IR {"]
    for i in range(5):
        if i < 2:
            lines.append(f"  %{i} = {t} xla::device_data(), xla_shape={t}, device=CPU:0")
        else:
            lines.append(f"  %{i} = {t} aten::add(%{i - 1}, %{i - 2}), xla_shape={t}")
    lines[-1] += ", ROOT=0"
    return "\n".join(lines) + "\n}\n"


def save_indented(n):
    """Save-file records whose IR blocks are indented under their markers:
    each block was sized for every line left in the file."""
    out = []
    size = 0
    k = 0
    while size < n:
        op = ("aten::relu", "aten::neg", "aten::abs")[k % 3]
        r = ("[ScheduleSyncTensorsGraph]\nHashes: (%032x)\n\n## BEGIN_GRAPH\n" % k +
             "  IR {\n"
             "    %0 = f32[4]{0} xla::device_data(), device=CPU:0\n"
             f"    %1 = f32[4]{{0}} {op}(%0), ROOT=0\n"
             "  }\n\n## END_GRAPH\n\n")
        out.append(r)
        size += len(r)
        k += 1
    return "".join(out)


def hlo_call_chain(n):
    """Computation c_i calls c_{i-1}: the callee tally recursed a level a
    computation, past the stack at about 29,000."""
    k = n // 120
    s = "HloModule m\n\n"
    for i in range(k):
        body = f"fusion(f32[4]{{0}} %a), calls=%c{i - 1}" if i else "negate(f32[4]{0} %a)"
        s += (f"%c{i} (a: f32[4]) -> f32[4] {{\n  %a = f32[4]{{0}} parameter(0)\n"
              f"  ROOT %n = f32[4]{{0}} {body}\n}}\n\n")
    return s + (f"ENTRY %e (p: f32[4]) -> f32[4] {{\n  %p = f32[4]{{0}} parameter(0)\n"
                f"  ROOT %r = f32[4]{{0}} fusion(f32[4]{{0}} %p), kind=kLoop, calls=%c{k - 1}\n}}\n")


def hlo_call_chain_uniqop(n):
    """The same chain, each computation with an op of its own: every tally
    held every op below it."""
    k = n // 130
    s = "HloModule m\n\n"
    for i in range(k):
        call = f"\n  ROOT %f = f32[4]{{0}} fusion(f32[4]{{0}} %n), calls=%c{i - 1}" if i else ""
        root = "" if i else "ROOT "
        s += (f"%c{i} (a: f32[4]) -> f32[4] {{\n  %a = f32[4]{{0}} parameter(0)\n"
              f"  {root}%n = f32[4]{{0}} op{i}(f32[4]{{0}} %a){call}\n}}\n\n")
    return s + (f"ENTRY %e (p: f32[4]) -> f32[4] {{\n  %p = f32[4]{{0}} parameter(0)\n"
                f"  ROOT %r = f32[4]{{0}} fusion(f32[4]{{0}} %p), kind=kLoop, calls=%c{k - 1}\n}}\n")


def hlo_modules_without_layout(n):
    """Small modules without entry_computation_layout: a shape's last dim was
    looked for up to the next comma in the file."""
    def one(i):
        return (f"HloModule m{i}\n\nENTRY %e{i} {{\n  %p = f32[4]{{0}} parameter(0)\n"
                f"  ROOT %n = f32[4]{{0}} negate(f32[4]{{0}} %p)\n}}\n\n")
    return "".join(one(i) for i in range(n // len(one(0))))


def hlo_distinct_shapes(n):
    """One module, a chain of reshapes to ever new 1-D shapes: the same."""
    k = n // 40
    s = "HloModule m\n\nENTRY e {\n  p.0 = f32[%d]{0} parameter(0)\n" % (k + 1)
    prev = "p.0"
    for i in range(k):
        s += f"  r.{i} = f32[{k - i}]{{0}} reshape({prev})\n"
        prev = f"r.{i}"
    return s + f"  ROOT n = f32[1]{{0}} negate({prev})\n}}\n"


def fx_typed_projections(n):
    """Untyped multi-output calls, then a typed projection of each: each
    typed output moved the graph's whole list of types."""
    k = n // 110
    lines = ['def forward(self, x: "f32[4]"):']
    lines += [f"    m_{i} = torch.ops.aten.foo.default(x)" for i in range(k)]
    lines += [f'    g_{i}: "f32[4]" = m_{i}[0]' for i in range(k)]
    lines.append("    return (g_0,)")
    return "\n".join(lines) + "\n"


def diff_many_pairs(n):
    """Many small graph pairs, each with a finding of its own: the report
    writers matched every finding against every pair."""
    k = n // 450
    return ("".join(ir_small(i, 0) for i in range(k)),
            "".join(ir_small(i, 3) for i in range(k)))


# name -> (generator, graphdiff arguments before the file or files)
SHAPES = {
    "save_indented": (save_indented, "stats --jobs 1 --no-progress"),
    "hlo_call_chain": (hlo_call_chain, "stats --jobs 1 --no-progress"),
    "hlo_call_chain_uniqop": (hlo_call_chain_uniqop, "stats --jobs 1 --no-progress"),
    "hlo_modules_without_layout": (hlo_modules_without_layout, "stats --jobs 1 --no-progress"),
    "hlo_distinct_shapes": (hlo_distinct_shapes, "stats --jobs 1 --no-progress"),
    "fx_typed_projections": (fx_typed_projections, "stats --jobs 1 --no-progress"),
    "diff_text": (diff_many_pairs, "diff --jobs 1"),
    "diff_brief": (diff_many_pairs, "diff --jobs 1 -q"),
    "diff_html": (diff_many_pairs, "diff --jobs 1 --format html"),
    "diff_dot": (diff_many_pairs, "diff --jobs 1 --format dot"),
}


def main():
    if sys.argv[1:] == ["--list"]:
        for name, (_, args) in SHAPES.items():
            print(f"{name}\t{args}")
        return
    name, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    texts = SHAPES[name][0](size)
    if isinstance(texts, str):
        texts = (texts,)
    for i, text in enumerate(texts):
        path = out + ("" if len(texts) == 1 else "_LR"[i + 1]) + ".txt"
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print(path)


if __name__ == "__main__":
    main()
