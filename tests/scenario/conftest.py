# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The `host` and `host_factory` fixtures: the SVM emulator by default; the
illumos host the tests run on when SVMRAM_TEST_HOST=real (as root, with
SVMRAM_TEST_DISKS naming two spare slices whose data may be destroyed).
Anything else refuses the whole session before a test runs, with one
message that says what to set (docs/testing-on-a-real-host.md).

On a real host, the tests marked @pytest.mark.emulator_only and the tests
that build their own emulated host (they use neither fixture) are skipped
with the reason; every other scenario test gets a fresh copy of the
article's layout, torn down after it.
"""

import os
import platform
import shutil

import pytest

import preflight  # noqa: E402  (tests/scenario is on sys.path)
from hosts import EmulatorOnly, RealHost, run_step  # noqa: E402

SCENARIO = os.path.dirname(os.path.abspath(__file__))
HOST_FIXTURES = {"host", "host_factory"}
OWN_HOST = ("builds its own emulated host (uses neither the host nor the "
            "host_factory fixture)")

# (kind, slices), decided once per session by pytest_collection_modifyitems.
_SESSION = {}


def host_kind():
    if "kind" not in _SESSION:
        geteuid = getattr(os, "geteuid", lambda: -1)
        try:
            _SESSION["kind"], _SESSION["slices"] = preflight.host_config(
                os.environ, platform.system(), geteuid())
        except preflight.Refusal as refusal:
            raise pytest.UsageError(str(refusal))
    return _SESSION["kind"], _SESSION["slices"]


def _in_scenario(item):
    path = str(getattr(item, "path", None) or item.fspath)
    return path.startswith(SCENARIO + os.sep)


def real_host_plan(items):
    """[(item, None)] for the scenario items that run on a real host, and
    [(item, reason)] for those it skips."""
    plan = []
    for item in items:
        if not _in_scenario(item):
            continue
        mark = item.get_closest_marker("emulator_only")
        if mark is not None:
            reason = mark.args[0] if mark.args else "needs the emulator"
        elif not HOST_FIXTURES & set(item.fixturenames):
            reason = OWN_HOST
        else:
            reason = None
        plan.append((item, reason and "emulator only: " + reason))
    return plan


def pytest_collection_modifyitems(session, config, items):
    kind, slices = host_kind()
    plan = real_host_plan(items)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if os.environ.get("SVMRAM_TEST_SHOW_REAL_PLAN") and reporter is not None:
        # Which tests SVMRAM_TEST_HOST=real would run: for the docs and CI.
        for item, reason in plan:
            reporter.write_line("real host: %s %s%s" % (
                "SKIP" if reason else "RUN ", item.nodeid,
                " (%s)" % reason if reason else ""))
    if kind == "emulator":
        return
    for item, reason in plan:
        if reason:
            item.add_marker(pytest.mark.skip(reason=reason))
    on_real = [item for item, reason in plan if not reason]
    if not on_real:
        return
    from hosts import gather_facts
    found = preflight.problems(gather_facts(slices), slices)
    if found:
        raise pytest.UsageError(str(preflight.Refusal(
            "svmram scenario tests: this host is not ready for "
            "SVMRAM_TEST_HOST=real (nothing was changed):", found,
            "See %s." % preflight.DOC)))
    if reporter is not None:
        reporter.write_line(
            "svmram: %d scenario tests on this illumos host, slices %s (their "
            "data is destroyed); emulator-only tests are skipped, and there "
            "is no data-safety monitor here." % (len(on_real),
                                                 " ".join(slices)))


def _real_host(directory, layout, request):
    _, slices = host_kind()
    real = RealHost(directory, slices)
    try:
        real.build(layout)
    except Exception as exc:
        pytest.exit("svmram: could not build %s's host on %s: %s" % (
            request.node.nodeid, " ".join(slices), exc), returncode=3)
    return real


def _tear_down(real, request):
    left = real.close()
    if left:
        pytest.exit("svmram: after %s, teardown could not remove: %s.  "
                    "Remove these by hand before running the tests again."
                    % (request.node.nodeid, "; ".join(left)), returncode=3)


# The emulator's release profiles (docs/emulator-profiles.md) every test
# with the host or host_factory fixture runs on; SVMRAM_TEST_RELEASES
# (comma-separated) narrows them.  A real host is whatever it is.
RELEASES = tuple(os.environ.get(
    "SVMRAM_TEST_RELEASES", "illumos-2016,solaris11,solaris10").split(","))


def pytest_generate_tests(metafunc):
    """On the emulator, each test with the host or host_factory fixture
    runs once per release profile; a real host is what it is."""
    for mark in metafunc.definition.iter_markers("parametrize"):
        names = mark.args[0]
        if "release" in (names.replace(" ", "").split(",")
                         if isinstance(names, str) else names):
            return          # the test names its own profiles
    if "release" in metafunc.fixturenames and \
            os.environ.get("SVMRAM_TEST_HOST", "emulator") == "emulator":
        metafunc.parametrize("release", RELEASES)


@pytest.fixture
def release():
    """The emulator's release profile (parametrized above); None on a
    real host."""
    return None


@pytest.fixture
def host(tmp_path, request, release):
    """The article's host: on the emulator a private copy of one built
    once per session (base_hosts); on a real host built here and torn
    down after the test."""
    kind, _ = host_kind()
    if kind == "emulator":
        yield request.getfixturevalue("base_hosts").copy(
            tmp_path / "host", "article", release)
        return
    real = _real_host(tmp_path / "host", "article", request)
    try:
        yield real
    finally:
        _tear_down(real, request)


@pytest.fixture
def host_after(host, request, release):
    """after(STEP, ...) -> the `host` fixture's host after the steps
    (hosts.run_step: ("svmram", ARG...) must exit 0 and its trace is
    cleared; ("reboot", OPTION...) on the emulator only).  On the emulator
    the host is replaced by a copy of a base host that went through the
    same steps once per session; on a real host the steps run here."""
    def after(*steps):
        if host.kind != "emulator":
            for step in steps:
                run_step(host, step)
            return host
        shutil.rmtree(host.dir)
        return request.getfixturevalue("base_hosts").copy(
            host.dir, "article", release, steps)
    return after


@pytest.fixture
def host_factory(tmp_path, request, release):
    """make(NAME) -> a new host built from tests/scenario/hosts/NAME.json,
    or from the emulator preset NAME.  On a real host only the article's
    layouts exist ("article", mounted, and "closed-article"), one at a
    time."""
    kind, _ = host_kind()
    made = []

    def make(name="article"):
        made.append(name)
        directory = tmp_path / ("host-%d-%s" % (len(made), name))
        if kind != "emulator":
            if name not in RealHost.LAYOUTS:
                raise EmulatorOnly(
                    "the host %r exists only on the emulator; mark the test "
                    "@pytest.mark.emulator_only" % name)
            if len(made) > 1:
                raise RuntimeError("a real host holds one layout at a time")
            made[-1] = _real_host(directory, name, request)
            return made[-1]
        return request.getfixturevalue("base_hosts").copy(
            directory, name, release)
    yield make
    for real in made:
        if isinstance(real, RealHost):
            _tear_down(real, request)
