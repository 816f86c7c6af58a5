# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""No import circle inside a package of lib/ (issue 19 §4).

The graph is read from the source with ``ast``, so an import hidden
inside a function counts as much as one at the top of a module: a circle
that only closes at run time is still a circle.  ``from pkg import name``
counts as an import of ``pkg.name`` when that is a module, of ``pkg``
otherwise; a package's ``__init__`` is a module like any other.
"""

import ast
import os

import pytest

LIB = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "lib")


def modules(package):
    """{dotted module name: path} for every .py file under lib/PACKAGE."""
    found = {}
    for top, dirs, files in os.walk(os.path.join(LIB, package)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(top, name)
            parts = os.path.relpath(path, LIB)[:-3].split(os.sep)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(name, path, known):
    """The modules of ``known`` that module ``name`` imports, anywhere in
    its source."""
    with open(path, encoding="utf-8") as stream:
        tree = ast.parse(stream.read(), path)
    is_package = path.endswith("__init__.py")
    here = name.split(".") if is_package else name.split(".")[:-1]
    targets = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets.add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module
                                          else []))
            else:
                source = node.module
            for alias in node.names:
                sub = "%s.%s" % (source, alias.name)
                targets.add(sub if sub in known else source)
    edges = set()
    for target in targets:
        # "import a.b.c" imports a, a.b and a.b.c; keep the deepest known.
        while target and target not in known:
            target = target.rpartition(".")[0]
        if target and target != name:
            edges.add(target)
    return edges


def graph(package):
    known = modules(package)
    return {name: imports(name, path, known)
            for name, path in known.items()}


def cycles(edges):
    """Every strongly connected component of more than one module
    (Tarjan), each sorted, the list sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(edges.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def test_the_graph_sees_imports_inside_functions():
    edges = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert cycles(edges) == [["a", "b"]]
    tree_edges = imports("svmsim.dispatch",
                         os.path.join(LIB, "svmsim", "dispatch.py"),
                         modules("svmsim"))
    # dispatch imports startd only inside a function.
    assert "svmsim.startd" in tree_edges


@pytest.mark.parametrize("package", ["svmsim", "svmram"])
def test_no_import_circle(package):
    assert cycles(graph(package)) == []
