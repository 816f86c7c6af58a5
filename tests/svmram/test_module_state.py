# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""No module-level mutable state in lib/svmram but the named seams (issue
29 section 1): what one run works with is its run context
(svmram/context.py), passed down, never a module's dict or list.

Every module of the package is imported and each of its attributes
looked at: a dict, list, set, bytearray or deque (or a subclass) is
refused unless it is one of SEAMS below.  A lookup table is a constant:
an ALL_CAPS name bound to a tuple, a frozenset or a MappingProxyType,
which the walk lets pass because they cannot change."""

import collections
import importlib
import pkgutil

import svmram

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
}

def modules():
    yield svmram
    for info in pkgutil.walk_packages(svmram.__path__, "svmram."):
        yield importlib.import_module(info.name)


def module_state():
    """'module.name' of every mutable container a module binds."""
    found = set()
    for module in modules():
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            if isinstance(value, MUTABLE):
                found.add("%s.%s" % (module.__name__, name))
    return found


def test_no_module_holds_mutable_state_but_the_named_seams():
    assert sorted(module_state() - SEAMS) == []


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
