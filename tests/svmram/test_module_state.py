# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""No module-level mutable state in lib/svmram but the named seams (issue
29 section 1): what one run works with is its run context
(svmram/context.py), passed down, never a module's dict or list.  The
emulator, lib/svmsim, is held to the same rule (review 4.2): what one
emulated command works with is its host's state, loaded and saved by it.

Every module of the package is imported and each of its attributes
looked at: a dict, list, set, bytearray or deque (or a subclass) is
refused unless it is one of SEAMS below.  A lookup table is a constant:
an ALL_CAPS name bound to a tuple, a frozenset or a MappingProxyType,
which the walk lets pass because they cannot change."""

import ast
import collections
import importlib
import inspect
import os
import pkgutil

import svmram
import svmsim

MUTABLE = (dict, list, set, bytearray, collections.deque)

# The named seams: state that is process-wide by nature, each documented
# where it lives.  run.start (a function, THE test seam for the commands
# svmram runs) is one too, and is not a container.
SEAMS = {
    # The signal state shared by the handler and the critical sections:
    # a signal's disposition belongs to the process (interrupt.py).
    "svmram.interrupt.PROCESS",
    # The test switch SVMRAM_TEST_CUT, read once from the environment
    # per run (testcut.py).
    "svmram.testcut._state",
    # The emulator's, each per process by nature (an emulated command is a
    # process of its own; tests/scenario/inprocess.py runs them in one):
    # the start hook svcadm and svccfg run start methods with and the
    # starts this process has begun (smf/restarter.py, set anew by
    # begin_process at each SMF command);
    "svmsim.smf.restarter._start_hook",
    "svmsim.smf.restarter._pending_cause",
    # the SMF repository texts this process parsed, and how many times it
    # read one (smf/store.py: a cache checked against the file's text);
    "svmsim.smf.store._parsed",
    "svmsim.smf.store._reads",
    # the clock a test injects (smf/_common.py set_clock);
    "svmsim.smf._common._clock",
    # the command line parser, built once per process (cli.py parser).
    "svmsim.cli._PARSER",
}

def modules(package=svmram):
    yield package
    for info in pkgutil.walk_packages(package.__path__,
                                      package.__name__ + "."):
        if info.name != "svmsim.__main__":      # it runs the emulator
            yield importlib.import_module(info.name)


def module_state(package=svmram):
    """'module.name' of every mutable container a module binds, and
    'module.name.attribute' of every one a class of the module or an
    object of the package's that a module binds holds (a class's table,
    a Programs' command table)."""
    found = set()
    for module in modules(package):
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            where = "%s.%s" % (module.__name__, name)
            if isinstance(value, MUTABLE):
                found.add(where)
            if where in SEAMS:
                continue
            if inspect.isclass(value):
                held = vars(value) if value.__module__ == module.__name__ \
                    else {}
            elif type(value).__module__.startswith(
                    package.__name__ + ".") and \
                    hasattr(value, "__dict__"):
                held = vars(value)
            else:
                held = {}
            found |= {"%s.%s" % (where, attribute)
                      for attribute, inner in held.items()
                      if not attribute.startswith("__") and
                      isinstance(inner, MUTABLE)}
    return found


def run_time_bindings(package=svmram):
    """'file:line' of every statement in lib/PACKAGE that binds a module's
    or a class's name while it runs: a `global` statement (but of a named
    seam), or an assignment to an attribute of `cls` (a class's cache)
    anywhere but in __init_subclass__, which runs once, when a class is
    made."""
    found = []
    top = os.path.dirname(package.__file__)
    for directory, _, files in os.walk(top):
        for name in sorted(files):
            if not name.endswith(".py"):
                continue
            path = os.path.join(directory, name)
            with open(path, encoding="utf-8") as stream:
                tree = ast.parse(stream.read(), path)
            at = os.path.relpath(path, top)
            module = ".".join([package.__name__] + [
                part for part in os.path.splitext(at)[0].split(os.sep)
                if part != "__init__"])
            for function in ast.walk(tree):
                if isinstance(function, ast.Global) and not all(
                        "%s.%s" % (module, name) in SEAMS
                        for name in function.names):
                    found.append("%s:%d" % (at, function.lineno))
                if not isinstance(function, ast.FunctionDef) or \
                        function.name == "__init_subclass__":
                    continue
                for node in ast.walk(function):
                    targets = node.targets if isinstance(node, ast.Assign) \
                        else [node.target] if isinstance(
                            node, (ast.AugAssign, ast.AnnAssign)) else []
                    found += ["%s:%d" % (at, node.lineno) for target in targets
                              if isinstance(target, ast.Attribute) and
                              isinstance(target.value, ast.Name) and
                              target.value.id == "cls"]
    return found


def test_no_module_holds_mutable_state_but_the_named_seams():
    assert sorted(module_state() - SEAMS) == []


def test_no_module_or_class_name_is_bound_while_svmram_runs():
    assert run_time_bindings() == []


def test_no_emulator_module_holds_mutable_state_but_the_named_seams():
    assert sorted(module_state(svmsim) - SEAMS) == []


def test_no_emulator_name_is_bound_while_it_runs_but_the_seams():
    assert run_time_bindings(svmsim) == []


def test_every_named_seam_exists():
    for seam in SEAMS:
        module, _, name = seam.rpartition(".")
        assert hasattr(importlib.import_module(module), name), seam


def test_the_walk_finds_a_module_s_dict_and_lets_a_frozen_table_pass(
        monkeypatch):
    from types import MappingProxyType
    from svmram import plan
    monkeypatch.setattr(plan, "_CACHE", {}, raising=False)
    monkeypatch.setattr(plan, "FROZEN", MappingProxyType({}), raising=False)
    found = module_state()
    assert "svmram.plan._CACHE" in found
    assert "svmram.plan.FROZEN" not in found
    monkeypatch.setattr(plan.Plan, "CACHE", [], raising=False)
    monkeypatch.setattr(plan.Plan, "NAMES", (), raising=False)
    from svmram.svm import programs
    monkeypatch.setattr(programs.PROGRAMS, "extra", {}, raising=False)
    # The table, as its backend module binds it too; NAMES is frozen.
    assert module_state() - found == {
        "svmram.plan.Plan.CACHE", "svmram.svm.programs.PROGRAMS.extra",
        "svmram.svm.backend.PROGRAMS.extra"}


def test_the_scan_finds_a_global_and_a_class_s_cache(tmp_path, monkeypatch):
    (tmp_path / "cached.py").write_text(
        "class A:\n"
        "    @classmethod\n"
        "    def keys(cls):\n"
        "        cls._cache = {}\n"
        "    def __init_subclass__(cls):\n"
        "        cls.TABLE = ()\n"
        "def use():\n"
        "    global STATE\n")
    monkeypatch.setattr(svmram, "__file__", str(tmp_path / "__init__.py"))
    assert run_time_bindings() == ["cached.py:4", "cached.py:8"]


def test_no_module_holds_a_run_s_deadline_backend_or_words():
    """They live in the run context (context.py), which nothing keeps in
    a module; the backends' Words tables (WORDS) are the constants they
    are made of."""
    from svmram import backend, run
    held = []
    for module in modules():
        for name, value in vars(module).items():
            if isinstance(value, (run.Deadline, backend.Backend)) or (
                    isinstance(value, backend.Words) and name != "WORDS"):
                held.append("%s.%s" % (module.__name__, name))
    assert held == []
