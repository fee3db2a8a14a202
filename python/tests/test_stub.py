# Copyright 2026 The graphdiff Authors. SPDX-License-Identifier: Apache-2.0
"""The type stub, the docstrings and the version stay in step with the module."""

import ast
import inspect
import pathlib
import re
import subprocess

import graphdiff

STUB = pathlib.Path(graphdiff.__file__).with_name("__init__.pyi")


def stub_tree():
    return ast.parse(STUB.read_text())


def test_stub_declares_exactly_the_public_api():
    tree = stub_tree()
    declared = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    declared.add("__version__")
    assert declared == set(graphdiff.__all__)


def test_stub_attributes_exist():
    for node in stub_tree().body:
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(graphdiff, node.name)
        for item in node.body:
            if isinstance(item, ast.AnnAssign):
                name = item.target.id
            elif isinstance(item, ast.FunctionDef):
                name = item.name
            else:
                continue
            if node.name in ("GraphdiffError", "GraphBudgetExceeded") and name in ("result",):
                continue  # set on instances
            assert hasattr(cls, name), "%s.%s is in the stub, not in the module" % (node.name, name)


def parameters(fn):
    """Parameter names: from the signature, or for an extension function from
    the first docstring line pybind11 writes ("diff(left: object, ...) -> ...")."""
    try:
        return [p for p in inspect.signature(fn).parameters]
    except (TypeError, ValueError):
        first = fn.__doc__.split("\n")[0]
        inner = first[first.index("(") + 1:first.rindex(") ->")]
        return [re.match(r"\*?\*?(\w+)", part.strip()).group(1)
                for part in inner.split(", ") if part.strip() not in ("*", "")]


def test_stub_signatures_match():
    for node in stub_tree().body:
        if not isinstance(node, ast.FunctionDef):
            continue
        stub = [a.arg for a in node.args.args + node.args.kwonlyargs]
        if node.args.vararg:
            stub.append(node.args.vararg.arg)
        actual = parameters(getattr(graphdiff, node.name))
        if node.name == "stats":
            actual = ["dumps" if a == "args" else a for a in actual]
        assert stub == actual, node.name


def test_everything_public_is_documented():
    for name in graphdiff.__all__:
        if name == "__version__":
            continue
        obj = getattr(graphdiff, name)
        assert (obj.__doc__ or "").strip(), name + " has no docstring"


def test_version_is_the_clis(cli):
    out = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True)
    assert graphdiff.__version__ == out.stdout.strip()
