# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The backend boundary (issue 13, section 1): the subcommands and the
neutral core import no backend package; they reach a backend through
backend.py's interface, picked by registry.py alone."""

import ast
import glob
import os
import re
import subprocess
import sys

import pytest

LIB = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "lib", "svmram")
NEUTRAL = sorted(glob.glob(os.path.join(LIB, "commands", "*.py"))) + [
    os.path.join(LIB, name) for name in (
        "plan.py", "execute.py", "journal.py", "lock.py", "cli.py",
        "actions.py", "backend.py", "testcut.py", "target.py",
        "context.py", "atomic.py", "streams.py", "unitescape.py",
        "copytime.py")]
BACKENDS = ("svm", "md")


def imported(path):
    """Every module `path` imports, as an absolute dotted name."""
    with open(path, encoding="utf-8") as stream:
        tree = ast.parse(stream.read(), path)
    package = os.path.relpath(os.path.dirname(path),
                              os.path.dirname(LIB)).split(os.sep)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] \
                if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.append(module)
            # `from .. import svm` imports the package svm.
            found += ["%s.%s" % (module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(
                node.func, "attr", getattr(node.func, "id", "")) in (
                    "import_module", "__import__"):
            found += [arg.value for arg in node.args
                      if isinstance(arg, ast.Constant) and
                      isinstance(arg.value, str)]
    return found


def backend_imports(path):
    return [name for name in imported(path)
            if any(name == "svmram." + b or name.startswith("svmram.%s." % b)
                   for b in BACKENDS)]


@pytest.mark.parametrize("path", NEUTRAL,
                         ids=[os.path.relpath(p, LIB) for p in NEUTRAL])
def test_no_backend_package_is_imported(path):
    assert os.path.exists(path)
    assert backend_imports(path) == []


def test_every_top_level_module_is_held_to_the_boundary():
    """A module at the top of lib/svmram is neutral core: it is in
    NEUTRAL (no backend import) or WORDED (no backend word), never
    beside them as a backend's side tool (svm/tojson.py is SVM's)."""
    top = {os.path.basename(p) for p in glob.glob(os.path.join(LIB, "*.py"))}
    held = {os.path.basename(p) for p in NEUTRAL + WORDED
            if os.path.dirname(p) == LIB}
    assert top - held == {"__init__.py"}


def test_the_check_sees_every_form_of_import(tmp_path, monkeypatch):
    commands = tmp_path / "svmram" / "commands"
    commands.mkdir(parents=True)
    monkeypatch.setitem(globals(), "LIB", str(tmp_path / "svmram"))
    module = commands / "bad.py"
    for text in ("from ..svm import names\n", "from ..svm.backend import X\n",
                 "from .. import md\n", "import svmram.svm.record\n",
                 "importlib.import_module('svmram.md.backend')\n"):
        module.write_text(text)
        assert backend_imports(str(module)), text
    module.write_text("from .. import registry, run\nfrom . import common\n")
    assert backend_imports(str(module)) == []


def test_only_the_registry_names_the_backends():
    """registry.py is the one module outside the backend packages that
    knows their names."""
    with open(os.path.join(LIB, "registry.py"), encoding="utf-8") as stream:
        assert "svmram.svm.backend:SvmBackend" in stream.read()


def test_the_registry_picks_svm_for_metadevice_names(tmp_path):
    """SVM's host: an emulated root without /sys/block."""
    from svmram import registry
    from svmram.svm.backend import SvmBackend
    assert type(registry.for_target("d10")) is SvmBackend
    assert [text for text in ("d10", "d0", "blue/d10", "/dev/md0", "md0",
                              "/dev/md/d10", "d10x")
            if SvmBackend.owns(text, str(tmp_path))] == [
                "d10", "d0", "blue/d10"]


# --- words (issue 19, section 2) ---------------------------------------------

# Words that belong to one backend: the neutral code takes them from the
# backend's Words table (backend.py) instead of printing them itself.
BACKEND_WORDS = ("submirror", "metadevice", "metastat", "metattach", "SMF",
                 "svcs", "svcadm", "ramdiskadm", "ksh", "start method",
                 "mdadm", "/proc/mdstat", "brd", "sysfs", "/dev/md", "md's",
                 "RAM member", "boot unit", "systemctl", "Solaris",
                 "illumos", "Linux", "Volume Manager", "svccfg", "svcprop",
                 "kstat", "metadb", "metainit", "metaclear", "metasync",
                 "metareplace", "metadetach", "metaparam", "lofiadm",
                 "modprobe", "mdmonitor", "udev", "RAID-1")
WORDED = NEUTRAL + [os.path.join(LIB, name) for name in (
    "run.py", "errors.py", "registry.py", "interrupt.py", "progress.py")]


def _docstrings(tree):
    """The docstring nodes of `tree` (they never print)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                             ast.AsyncFunctionDef)) and node.body and \
                isinstance(node.body[0], ast.Expr) and \
                isinstance(node.body[0].value, ast.Constant):
            found.add(id(node.body[0].value))
    return found


def backend_words(path):
    """(line, word) of each backend word in a string literal of `path`
    that may print: docstrings aside, and nothing else."""
    with open(path, encoding="utf-8") as stream:
        tree = ast.parse(stream.read(), path)
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip:
            found += [(node.lineno, word) for word in BACKEND_WORDS
                      if re.search(r"(?<![A-Za-z])" + re.escape(word),
                                   node.value)]
    return found


@pytest.mark.parametrize("path", WORDED,
                         ids=[os.path.relpath(p, LIB) for p in WORDED])
def test_neutral_code_prints_no_backend_word(path):
    assert backend_words(path) == []


def test_the_word_check_sees_literals_and_spares_docstrings(tmp_path):
    module = tmp_path / "bad.py"
    for text, hits in (
            ('"""Drives metastat."""\nX = 1\n', []),
            ('def f():\n    """brd."""\n    return "the submirror"\n',
             [(3, "submirror")]),
            ('y = f"{a} submirrors"\n', [(1, "submirror")]),
            ('COMMANDS = {"metastat": "/usr/sbin/metastat"}\n',
             [(1, "metastat"), (1, "metastat")]),
            ('help = "cat /proc/mdstat and mdadm"\n',
             [(1, "mdadm"), (1, "/proc/mdstat")]),
            ('x = "bread, embroidery, the kernel\'s files"\n', [])):
        module.write_text(text)
        assert sorted(backend_words(str(module))) == sorted(hits), text


@pytest.mark.parametrize("target, loaded, not_loaded", [
    ("/dev/md0", "svmram.md.backend", "svmram.svm"),
    ("d10", "svmram.svm.backend", "svmram.md"),
])
def test_naming_a_target_imports_no_other_backend(target, loaded,
                                                  not_loaded):
    """registry.py asks each backend's names module alone whether it owns
    a name: picking md imports svm/names.py of SVM's and nothing more,
    and picking SVM at most md/names.py of md's."""
    code = (
        "import sys\n"
        "from svmram import registry\n"
        "registry.for_target(%r, '/nonexistent')\n"
        "print(sorted(m for m in sys.modules if m.startswith('svmram.')))\n"
        % target)
    out = subprocess.run([sys.executable, "-c", code], check=True,
                         capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=os.path.dirname(
                             LIB))).stdout
    modules = ast.literal_eval(out)
    assert loaded in modules
    assert {m for m in modules if m == not_loaded or
            m.startswith(not_loaded + ".")} <= {not_loaded,
                                                not_loaded + ".names"}


# --- identifiers (issue 29 section 1) ------------------------------------------

def identifiers(path):
    """(line, name) of every name `path` binds or reads: variables,
    parameters, attributes, keywords, functions and classes."""
    with open(path, encoding="utf-8") as stream:
        tree = ast.parse(stream.read(), path)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.arg):
            found.append((node.lineno, node.arg))
        elif isinstance(node, ast.Attribute):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.keyword) and node.arg:
            found.append((node.value.lineno, node.arg))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                               ast.ClassDef)):
            found.append((node.lineno, node.name))
    return found


@pytest.mark.parametrize("path", WORDED,
                         ids=[os.path.relpath(p, LIB) for p in WORDED])
def test_the_neutral_core_names_its_values_in_neutral_words(path):
    """A target, its copies: no identifier of the neutral core is called
    after one backend's kind of target (user-facing names, such as the
    status field `mirror`, are documented contracts and stay)."""
    assert [(line, name) for line, name in identifiers(path)
            if "mirror" in name.lower()] == []


def test_the_identifier_check_sees_a_parameter_and_an_attribute(tmp_path):
    module = tmp_path / "bad.py"
    for text in ("def f(mirror): pass\n", "x.mirror = 1\n",
                 "f(other_mirror=1)\n", "class Mirrors: pass\n"):
        module.write_text(text)
        assert [name for _, name in identifiers(str(module))
                if "mirror" in name.lower()], text
