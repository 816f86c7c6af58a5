# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""No product function only tests call (issue 29 section 4): every
function, class, method and module-level name defined in lib/svmram is
reached from the product, never from tests/ or bench/ alone.  The same
walk holds the emulator, lib/svmsim, to it (issue 36, review 4.2): its
entry points are its own modules' statements (``python3 -m svmsim``, the
scripts cli.py writes into DIR/bin, which call dispatch.main).

The product's entry points are sbin/svmram, what the units and scripts of
smf/, systemd/, packaging/, debian/ and manifests/ name by a module path
(python3 -m svmram.svm.tojson), and every statement of a module of
lib/svmram that is not a definition (it runs on import: tables, an
`if __name__ == "__main__"` block).  An `__all__` list reaches nothing.

A definition is reached when code already reached names it: a
module-level name from its own module or from one that imports that
module (an import, or a module path or a module's name in a string, as
registry.py and cli.py import backends and subcommands and svmsim's
dispatch.py its programs; the names in a string of code a module writes,
as svmsim/cli.py's scripts); a method or class attribute by its name
alone, since dispatch is dynamic; a name beginning with a prefix a
reached string ends in "_" with (svmsim/cli.py's "cmd_" + command).
Names (NAME tokens, and the parts of identifier-like strings such as
"svmram.md.backend:MdBackend"), never prose: comments and docstrings
reach nothing.  This can keep too
much alive (two methods of the same name), never too little."""

import ast
import collections
import io
import os
import re
import tokenize

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
ENTRY_POINTS = ("sbin", "smf", "systemd", "packaging", "debian", "manifests",
                "bash-completion", "Makefile")
PACKAGES = ("svmram", "svmsim")
MODULE_PATH = re.compile(r"(?:svmram|svmsim)(?:\.[A-Za-z_]\w*)+(?::\w+)?")
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def _read(path):
    try:
        with open(path, encoding="utf-8") as stream:
            return stream.read()
    except (UnicodeDecodeError, OSError):
        return ""


def _names(source):
    """The names Python `source` says, and the parts of its
    identifier-like strings."""
    found = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            found.add(token.string)
        elif token.type == tokenize.STRING:
            try:
                value = ast.literal_eval(token.string)
            except (ValueError, SyntaxError):
                continue
            if isinstance(value, str) and re.fullmatch(r"[\w.:]+", value):
                found.update(re.split(r"[.:]", value))
            elif isinstance(value, str) and "import " in value:
                found.update(IDENTIFIER.findall(value))   # code it writes
    return found


def _module_paths(text):
    """The parts of every svmram module path in `text` (a unit, a
    script, a Makefile)."""
    found = set()
    for path in MODULE_PATH.findall(text):
        found.update(re.split(r"[.:]", path))
    return found


def _files(top):
    for directory, subdirectories, names in os.walk(top):
        subdirectories[:] = [d for d in subdirectories if d != "__pycache__"]
        for name in sorted(names):
            yield os.path.join(directory, name)


def _segment(lines, node):
    return "\n".join(lines[node.lineno - 1:node.end_lineno])


def _module(path):
    """A module's name; a package's __init__.py is named by its folder."""
    name = os.path.splitext(os.path.basename(path))[0]
    if name == "__init__":
        return os.path.basename(os.path.dirname(path))
    return name


def definitions(root, package="svmram"):
    """([(name, kind, file, line, names it uses)], names the modules'
    other statements use, {file: modules it can reach the names of})."""
    found, statements, sees = [], set(), collections.defaultdict(set)
    for path in _files(os.path.join(root, "lib", package)):
        if not path.endswith(".py"):
            continue
        where = os.path.relpath(path, root)
        source = _read(path)
        lines = source.splitlines()
        tree = ast.parse(source, path)
        sees[where].add(_module(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                sees[where].add((node.module or "").split(".")[-1])
                sees[where].update(alias.name for alias in node.names)
            elif isinstance(node, ast.Import):
                sees[where].update(alias.name.split(".")[-1]
                                   for alias in node.names)
            elif isinstance(node, ast.Constant) and \
                    isinstance(node.value, str):
                sees[where].update(
                    path.split(":")[0].split(".")[-1]
                    for path in MODULE_PATH.findall(node.value))
                if IDENTIFIER.fullmatch(node.value):
                    sees[where].add(node.value)   # a module by its name
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                found.append((node.name, "function", where, node.lineno,
                              _names(_segment(lines, node))))
            elif isinstance(node, ast.ClassDef):
                head = set()
                for part in node.decorator_list + node.bases + [
                        keyword.value for keyword in node.keywords]:
                    head |= _names(ast.get_source_segment(source, part))
                for inner in node.body:
                    used = _names(_segment(lines, inner))
                    if isinstance(inner, ast.FunctionDef) and not (
                            inner.name.startswith("__") and
                            inner.name.endswith("__")):
                        found.append((inner.name, "method of " + node.name,
                                      where, inner.lineno, used))
                    elif isinstance(inner, (ast.Assign, ast.AnnAssign)) \
                            and all(isinstance(t, ast.Name) and
                                    not t.id.startswith("__")
                                    for t in _targets(inner)):
                        found += [(t.id, "attribute of " + node.name, where,
                                   inner.lineno, used)
                                  for t in _targets(inner)]
                    else:               # dunders, docstrings: the class's
                        head |= used
                found.append((node.name, "class", where, node.lineno, head))
            elif isinstance(node, (ast.Assign, ast.AnnAssign)) and all(
                    isinstance(t, ast.Name) and not t.id.startswith("__")
                    for t in _targets(node)):
                used = _names(_segment(lines, node))
                found += [(t.id, "name", where, node.lineno, used)
                          for t in _targets(node)]
            elif not isinstance(node, (ast.Import, ast.ImportFrom)) and \
                    not _is_all(node):
                statements |= _names(_segment(lines, node))
    return found, statements, sees


def _is_all(node):
    """`__all__ = [...]`: it lists names for `import *`, which reaches
    nothing (an export only the list names is not used)."""
    return isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)


def _targets(node):
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def entry_names(root):
    """The names the product's entry points outside lib/svmram say."""
    found = set()
    for entry in ENTRY_POINTS:
        top = os.path.join(root, entry)
        for path in [top] if os.path.isfile(top) else _files(top):
            text = _read(path)
            python = path.endswith(".py") or text.startswith("#!/usr/bin/"
                                                              "python")
            found |= _names(text) if python else _module_paths(text)
    return found


def unreached(root=ROOT, package="svmram"):
    """'file:line name (kind)' of every definition of lib/PACKAGE the
    product does not reach."""
    nodes, statements, sees = definitions(root, package)
    roots = statements | entry_names(root)
    used_by = collections.defaultdict(set)      # file -> names it uses
    by_name = set(roots)                        # names any reached code uses
    reached = [False] * len(nodes)

    def is_reached(name, kind, where):
        if name in roots or any(name.startswith(prefix)
                                for prefix in prefixes):
            return True
        if kind.startswith(("method", "attribute")):
            return name in by_name
        return any(name in used and (user == where or
                                     _module(where) in sees[user])
                   for user, used in used_by.items())

    # A name built from a prefix, as svmsim/cli.py's
    # globals()["cmd_" + command]: a reached string "cmd_" reaches them.
    prefixes = set()
    changed = True
    while changed:
        changed = False
        for i, (name, kind, where, _, used) in enumerate(nodes):
            if not reached[i] and is_reached(name, kind, where):
                reached[i] = changed = True
                by_name.update(used)
                used_by[where].update(used)
                prefixes.update(word for word in used
                                if word.endswith("_") and
                                not word.startswith("_"))
    return ["%s:%d %s (%s)" % (where, line, name, kind)
            for (name, kind, where, line, _), done in zip(nodes, reached)
            if not done]


def test_no_product_function_only_tests_call():
    assert unreached() == []


def test_no_emulator_function_only_tests_call():
    """The emulator is held to the same rule (review 4.2): the scenario
    tests are only as true as it is."""
    assert unreached(package="svmsim") == []


def test_the_walk_finds_what_only_tests_reach(tmp_path):
    package = tmp_path / "lib" / "svmram"
    (package / "commands").mkdir(parents=True)
    (tmp_path / "sbin").mkdir()
    (tmp_path / "sbin" / "svmram").write_text(
        "#!/usr/bin/python3\nfrom svmram.cli import main\nmain()\n")
    (tmp_path / "systemd").mkdir()
    (tmp_path / "systemd" / "x.service").write_text(
        "# render is prose here\nExecStart=python3 -m svmram.tool\n")
    (package / "cli.py").write_text(
        "import importlib\n"
        "from .util import used_helper\n"
        "TABLE = {'status': 'svmram.commands.status'}\n"
        "def main():\n"
        "    '''Calls only_tests in a docstring.'''\n"
        "    used_helper()  # and render in a comment\n"
        "    importlib.import_module(TABLE['status']).run()\n")
    (package / "util.py").write_text(
        "def used_helper():\n    return Thing().go()\n"
        "def only_tests():\n    return chained()\n"
        "def chained():\n    return 1\n"
        "def render():\n    return 2\n"
        "class Thing:\n"
        "    def go(self):\n        return 3\n"
        "    def stay(self):\n        return 4\n")
    (package / "other.py").write_text("def render():\n    return 5\n")
    (package / "tool.py").write_text(
        "def main():\n    return 7\n"
        "if __name__ == '__main__':\n    main()\n")
    (package / "commands" / "status.py").write_text(
        "def run():\n    return 8\n")
    assert unreached(str(tmp_path)) == [
        "lib/svmram/other.py:1 render (function)",
        "lib/svmram/util.py:3 only_tests (function)",
        "lib/svmram/util.py:5 chained (function)",
        "lib/svmram/util.py:7 render (function)",
        "lib/svmram/util.py:12 stay (method of Thing)"]


def test_the_walk_follows_the_emulator_s_dynamic_calls(tmp_path):
    package = tmp_path / "lib" / "svmsim"
    (package / "programs").mkdir(parents=True)
    (package / "__main__.py").write_text(
        "from svmsim.cli import main\nmain()\n")
    (package / "cli.py").write_text(
        "SCRIPT = 'from svmsim.dispatch import main\\nmain()'\n"
        "def main():\n"
        "    open('x').write(SCRIPT)\n"
        "    globals()['cmd_' + 'x']()\n"
        "def cmd_init():\n    return 1\n")
    (package / "dispatch.py").write_text(
        "COMMANDS = {'ls': ('ls', 'run')}\n"
        "def main():\n"
        "    __import__('svmsim.programs.' + COMMANDS['ls'][0])\n")
    (package / "programs" / "__init__.py").write_text(
        "def helper():\n    return 2\n")
    (package / "programs" / "ls.py").write_text(
        "from svmsim.programs import helper\n"
        "def run():\n    return helper()\n"
        "def only_listed():\n    return 3\n"
        "__all__ = ['run', 'only_listed']\n")
    assert unreached(str(tmp_path), "svmsim") == [
        "lib/svmsim/programs/ls.py:4 only_listed (function)"]
