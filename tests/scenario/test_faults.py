# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The fault matrix (faultmatrix.py): setup by rotate and by swap,
teardown and the boot restore; at every step a command fails, svmram is
killed, the host reboots (and again in the middle of the next resync), it
reboots with the ramdisk memory taken, or it reboots and another boot
service creates a ramdisk first.  Then the same with two and three
mirrors set up.  After the administrator's
obvious next action the data-safety monitor is clean, the host is set up
and serving from RAM or exactly as it was, and the messages said what
happened.  `bench/faults` prints the same matrix as a table.

Each (procedure, kind) is one test; its cases run a few at a time, each on
its own emulated host.  Then: a setup whose rollback fails as well.
"""

import os
import re

import pytest

import faultmatrix as fm
import inprocess
from faultmatrix import (JOURNAL, arm, clone, differs, digest,
                         fault_text, is_set_up, no_traceback)
from hosts import killing_bindir


# Session scope: each clean run is built once, by the first worker
# (pytest-xdist) that needs it, whichever of the matrix's groups (below)
# it is given, in whatever order; the other workers load it from the
# temporary root they share (faultmatrix.shared_clean).  No release is
# the default one (hosts.EmulatedHost), so it shares that one's runs.
@pytest.fixture(scope="session")
def clean(tmp_path_factory):
    made = {}
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent          # the workers' common root

    def get(method, mirrors=1, release=None):
        release = release or os.environ.get("SVMRAM_TEST_RELEASE") or \
            fm.RELEASES[0]
        key = (method, mirrors, release)
        if key not in made:
            made[key] = fm.shared_clean(
                shared / ("clean-%s-%d-%s" % key), method, mirrors, release)
        return made[key]
    return get


def on_clean(method, release=None, mirrors=1):
    """The xdist group of the tests that start from the clean run of
    (method, release, mirrors): make test-suite (--dist loadgroup) gives
    them to one worker, which builds that run once while the other
    worker runs other tests, instead of waiting for it."""
    return pytest.mark.xdist_group("faults-%s-%s-%d" % (
        method, release or fm.RELEASES[0], mirrors))


# Teardown runs the same commands after either method (the RAM submirror
# is first either way), so the matrix tears down the rotate host only.
@on_clean("swap")
def test_teardown_is_the_same_after_either_method(clean):
    assert [c.argv for c in clean("swap").teardown] == \
        [c.argv for c in clean("rotate").teardown]


# The matrix is most of the suite's time.  Its tests go to the workers
# (make test-suite: -n auto --dist loadgroup) in groups, one per clean run
# (on_clean): before, the tests of one run went to both workers at once,
# and one waited while the other built the run.  A group is a minute or
# two of work, and other tests follow it, so no worker is left with a
# long tail.


def run_matrix(clean, procedure, kind, tmp_path, mirrors=1, release=None):
    """The cases of one procedure and kind: they hit every step of the
    clean run, are all of that kind, and each ends as the matrix wants."""
    found = fm.cases(clean, [procedure], [kind], mirrors, release)
    steps = {c.step for c in fm.procedure_commands(clean, procedure, mirrors,
                                                   release)}
    assert {case.step for case in found} == steps
    assert {case.kind for case in found} == {kind}
    outcomes = fm.run_cases(clean, found, tmp_path)
    assert all(o.ok for o in outcomes), fm.report(outcomes)


@pytest.mark.parametrize("kind", fm.KINDS)
@pytest.mark.parametrize("release,procedure", [
    pytest.param(release, procedure, marks=on_clean(
        "swap" if procedure == "setup-swap" else "rotate", release))
    for release in fm.RELEASES for procedure in fm.PROCEDURES])
def test_fault_matrix(clean, release, procedure, kind, tmp_path):
    """Release profiles of the emulator (docs/emulator-profiles.md): on
    solaris11 and solaris10 setup first tests the slot behaviour on a
    scratch mirror; solaris11 has SMF's degraded state, and on solaris10
    metadetach leaves a hole, which setup fills."""
    run_matrix(clean, procedure, kind, tmp_path, release=release)


# One test per kind: a boot here restores every mirror, and the restore
# with three mirrors is the matrix's longest part.
@pytest.mark.parametrize("mirrors,procedure,kind", [
    pytest.param(mirrors, procedure, kind,
                 marks=on_clean("rotate", mirrors=mirrors))
    for mirrors in fm.OTHER_MIRRORS for procedure in sorted(fm.MULTI_KINDS)
    for kind in fm.MULTI_KINDS[procedure]])
def test_fault_matrix_with_other_mirrors(clean, mirrors, procedure, kind,
                                         tmp_path):
    """d10's procedures while d20 (and d30) are set up too, all closed at
    boot: every boot restores them all, in SMF's order."""
    run_matrix(clean, procedure, kind, tmp_path, mirrors=mirrors)


# The copy method (issue 20 §1) on the x86 layout, whose mirror is not
# labeled: its setup (copy, compare, metaclear and metainit in one step),
# its teardown (metaclear and metainit from the disks) and its boot
# restore (the label blocks copied before metareplace -e), on every
# release profile; on the first, fail and kill hit three commands of each
# step, elsewhere every kind hits the last.
@pytest.mark.parametrize("kind", fm.KINDS)
@pytest.mark.parametrize("release,procedure", [
    pytest.param(release, procedure, marks=on_clean("copy", release))
    for release in fm.RELEASES for procedure in fm.COPY_PROCEDURES])
def test_fault_matrix_of_the_copy_method(clean, release, procedure, kind,
                                         tmp_path):
    run_matrix(clean, procedure, kind, tmp_path, release=release)


# --- a rollback that fails too -----------------------------------------------

# (method, the setup command that fails, the rollback's first command, which
# fails as well).  None of these programs has read-only calls, so the
# rollback's command is that program's next call.
FAILED_ROLLBACKS = [
    ("rotate", ("metattach", "d10", "d11"), ("metattach", "d10", "d11")),
    ("swap", ("metainit", "d10", "-m", "d13", "d11", "d12", "-r", "1"),
     ("metainit", "d10", "-m", "d11", "1")),
    ("swap", ("svccfg", "-f", "/var/run/svmram.d10.svccfg"),
     ("metaparam", "-r", "roundrobin", "d10")),
]


def rollback_fails(clean_run, failing_argv, back_argv, directory):
    """The setup fails, then its rollback fails at its first command: the
    journal stays, setup refuses to run over it, teardown finishes the
    rollback, and setup then converges."""
    host = clone(clean_run.pristine, directory)
    command = next(c for c in clean_run.setup
                   if tuple(c.argv) == failing_argv)
    before = [c for c in clean_run.setup if c.argv[0] == back_argv[0]
              and clean_run.setup.index(c) <= clean_run.setup.index(command)]
    arm(host, command.argv, command.nth)
    arm(host, list(back_argv), len(before) + 1)
    result = host.svmram("setup", "-y", "d10")
    problems = no_traceback(result)
    if result.returncode != 1:
        return ["exit status %d:\n%s" % (result.returncode, result.stderr)]
    changes = host.trace()
    at = changes.index(list(failing_argv))
    if changes[at + 1:at + 2] != [list(back_argv)]:
        problems.append("the rollback began with %r" % changes[at + 1:at + 2])
    bindir = host.env["SVMRAM_BINDIR"]
    text = result.stderr
    said = r"; rolling back failed too: step 1 failed \([^)]+\): %s\n" % (
        re.escape("%s failed: %s" % (os.path.join(bindir, " ".join(back_argv)),
                                     fault_text(back_argv))))
    if not re.search(said, text):
        problems.append("the message does not report the failed rollback "
                        "(%r):\n%s" % (said, text))
    advice = ("svmram: Run 'svmram teardown d10' to finish the rollback, or "
              "finish it by hand:\n#!/bin/ksh93\n")
    if advice not in text:
        problems.append("no advice %r" % advice)
    script = text[text.index("#!/bin/ksh93"):] if "#!/bin/ksh93" in text \
        else ""
    if "\n%s\n" % os.path.join(bindir, " ".join(back_argv)) not in script:
        problems.append("the script does not run %r" % (back_argv,))
    if not os.path.exists(os.path.join(host.root, JOURNAL)):
        problems.append("no journal was left")
    host.sim("faults", "clear")
    left = digest(host)
    again = host.svmram("setup", "-y", "d10")
    if again.returncode != 3 or "svmram: a teardown of d10 has not " \
            "finished\nsvmram: Run 'svmram teardown d10' to finish it.\n" \
            != again.stderr or digest(host) != left:
        problems.append("setup over the journal: exit %d\n%s" % (
            again.returncode, again.stderr))
    finish = host.svmram("teardown", "-y", "d10")
    if finish.returncode != 0:
        return problems + ["teardown failed:\n" + finish.stderr]
    problems += differs(host, clean_run.original)
    rerun = host.svmram("setup", "-y", "d10")
    if rerun.returncode != 0:
        return problems + ["the rerun failed:\n" + rerun.stderr]
    return problems + is_set_up(host, clean_run) + host.violations()


@on_clean("swap")
def test_a_failed_rollback_is_finished_by_teardown(clean, tmp_path):
    found = {}
    for n, (method, fail, back) in enumerate(FAILED_ROLLBACKS):
        problems = rollback_fails(clean(method), fail, back,
                                  tmp_path / str(n))
        if problems:
            found["%s: %s, then %s" % (method, " ".join(fail),
                                       " ".join(back))] = problems
    assert not found, "\n\n".join("%s:\n  %s" % (what, "\n  ".join(p))
                                   for what, p in found.items())


# --- the checkpoints the stopped kinds start from ----------------------------

def _whole(host):
    """Everything in the emulated host that a case can see: the digest,
    the emulator's state and SMF repository, and the journal's text."""
    def text(*path):
        try:
            with open(os.path.join(*path), encoding="utf-8") as stream:
                return stream.read()
        except FileNotFoundError:
            return None
    # SMF stamps a state change with the wall clock.
    smf = re.sub(r'"state_time": [0-9.e+-]+', '"state_time": T',
                 text(host.dir, "smf.json"))
    return dict(digest(host), state=text(host.dir, "state.json"), smf=smf,
                journal_text=text(host.root, JOURNAL))


@on_clean("rotate")
@pytest.mark.parametrize("operation", ["setup", "teardown"])
def test_a_checkpoint_is_the_host_svmram_killed_there_leaves(
        clean, operation, tmp_path):
    """The kill, reboot, memcap and foreign cases of setup and teardown
    start from a copy of the clean run's checkpoint after their command
    (faultmatrix.CHECKPOINTED), not from svmram killed there: at the last
    command of each step (and of the probe), the two hosts are the same.
    So is the host svmram killed in the test's process leaves
    (EmulatedHost.svmram_killed, which the tests that kill svmram use)."""
    run = clean("rotate")
    start = run.pristine if operation == "setup" else run.set_up
    chosen = [c for c in getattr(run, operation) if c.index == c.size - 1]
    assert chosen
    for n, command in enumerate(chosen):
        host = clone(start, tmp_path / str(n))
        bindir = killing_bindir(host, command.argv[0], command.nth)
        result = host.svmram(operation, "-y", "d10",
                             env={"SVMRAM_BINDIR": bindir})
        assert result.returncode == -9, (str(command), result.stderr)
        point = run.checkpoints[(operation, command.argv[0], command.nth)]
        killed_there = _whole(host)     # digest() reads: once per host
        assert killed_there == _whole(point), str(command)
        if inprocess.enabled():
            here = clone(start, tmp_path / ("%d-here" % n))
            killed = here.svmram_killed(command.argv[0], command.nth,
                                        operation, "-y", "d10")
            assert (killed.returncode, killed.stderr) == (
                -9, result.stderr.replace(bindir, here.env["SVMRAM_BINDIR"]
                                          ).replace(host.dir, here.dir))
            assert _whole(here) == killed_there, str(command)
