# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Shared test setup: make lib/ importable without installing anything."""

import os
import signal
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIB = os.path.join(REPO, "lib")
if LIB not in sys.path:
    sys.path.insert(0, LIB)

# Where lib/ cannot be written (a read-only checkout), the processes the
# tests start keep their bytecode in a directory of this user's instead
# of compiling svmram and the emulator at every call (svmsim's
# pycache_prefix(); the emulated commands get it in DIR/bin).
_CACHE = os.path.join(LIB, "svmsim", "__pycache__")
if "PYTHONPYCACHEPREFIX" not in os.environ and not os.access(
        _CACHE if os.path.isdir(_CACHE) else os.path.dirname(_CACHE),
        os.W_OK):
    from svmsim.cli import pycache_prefix
    _prefix = pycache_prefix()
    if _prefix is not None:
        os.environ["PYTHONPYCACHEPREFIX"] = _prefix

SCENARIO = os.path.join(REPO, "tests", "scenario")
if SCENARIO not in sys.path:
    sys.path.insert(0, SCENARIO)
# The parser tests' helpers (the fuzz harness fuzzing.py, which md's
# parser tests share too; render_p.py).
PARSE = os.path.join(REPO, "tests", "parse")
if PARSE not in sys.path:
    sys.path.insert(0, PARSE)


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def base_hosts(tmp_path_factory):
    """hosts.Bases: emulated hosts built once per session (per xdist
    worker) and copied for each test that asks for one; the scenario
    tests' `host`, `host_factory` and `host_after` fixtures, and the
    bad-input catalogue's hosts, are such copies.  Emulator only: on a
    real host (SVMRAM_TEST_HOST=real) the fixtures build as they did."""
    from hosts import Bases
    return Bases(tmp_path_factory.mktemp)


@pytest.fixture
def lock_holder(request):
    """hold(HOST) -> a hosts.LockHolder: another process holds HOST's
    svmram lock from now until the test ends, passed or failed (this
    fixture's finalizer releases it), or until its release()."""
    from hosts import LockHolder

    def hold(host):
        holder = LockHolder(host)
        request.addfinalizer(holder.release)
        return holder
    return hold


# Each test's kind, from where it lives (pytest.ini lists the markers):
# `pytest -m unit` runs the pure tests (parsers, models, planners, the
# core) in seconds; `-m "not vm"` everything but the QEMU guests.
KIND_OF_DIRECTORY = {
    "parse": "unit",
    "svmram": "unit",
    "md": "scenario",
    "scenario": "scenario",
    "badinput": "scenario",
    "illumos": "scenario",
    "svmsim": "emulator",
    "svmsim_smf": "emulator",
    "svmsim_boot": "emulator",
    "packaging": "packaging",
    "ansible": "packaging",
    "vm": "vm",
}
# Files whose kind is not their directory's: md's pure tests (no fake
# kernel, no process), and the core's tests that start processes.
KIND_OF_FILE = {
    "md/test_parse.py": "unit",
    "md/test_planner.py": "unit",
    "md/test_fuzz.py": "unit",
    "svmram/test_lock.py": "scenario",
    "svmram/test_boundary.py": "scenario",
    "ansible/test_emulator_play.py": "scenario",
}


def pytest_collection_modifyitems(config, items):
    tests = os.path.join(REPO, "tests") + os.sep
    for item in items:
        path = str(item.path)
        if not path.startswith(tests):
            continue
        rel = path[len(tests):].replace(os.sep, "/")
        kind = KIND_OF_FILE.get(rel) or KIND_OF_DIRECTORY.get(
            rel.split("/", 1)[0])
        if kind is None:
            raise pytest.UsageError(
                "tests/conftest.py: no kind for %s; add its directory to "
                "KIND_OF_DIRECTORY" % rel)
        item.add_marker(kind)


class _XdistGroups:
    """What pytest-xdist's --dist loadgroup (make test-suite) does with
    @pytest.mark.xdist_group(NAME): the test's id gets "@NAME", and the
    tests of a name go to one worker.  pytest-xdist 3.8 sets that id in
    an attribute pytest 9 no longer reads (Node._nodeid; pytest 9 keeps
    Node._id), so the groups were silently ignored: this sets it where
    xdist did not.  The groups: the fault matrix's tests of one clean run
    (scenario/test_faults.py), the packages' module fixtures (packaging),
    the three-mirror host of scenario/test_status_flags.py."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config, items):
        if not getattr(config.option, "loadgroup", False):
            return
        for item in items:
            names = sorted({str(mark.args[0] if mark.args else
                                mark.kwargs.get("name", "default"))
                            for mark in item.iter_markers("xdist_group")})
            if not names or "@" in item.nodeid.rpartition("]")[2]:
                continue            # no group, or xdist set it
            ident = getattr(item, "_id", None)
            if ident is not None and hasattr(type(ident), "parse"):
                item._id = type(ident).parse(
                    "%s@%s" % (item.nodeid, "_".join(names)))


def pytest_configure(config):
    config.pluginmanager.register(_XdistGroups(), "svmram-xdist-groups")
    # A shell without job control starts its background commands with
    # SIGINT ignored (nohup, `cmd &` in a script), and svmram rightly
    # leaves an ignored signal ignored: the tests of Ctrl-C, in this
    # process and in the svmram and sh processes it starts, need SIGINT
    # as a terminal's start has it, or they fail or wait for ever.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
