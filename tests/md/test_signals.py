# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""SIGHUP (a dropped ssh session) on md's fake kernel leaves the host as
SIGTERM does (issue 36 section 3.6): sent to svmram by mdadm as its grow
step's command returns, svmram finishes the step (the fake kernel's
recovery is done at once), stops before the next, keeps its journal,
says where it stopped and exits 128 + the signal; the rerun finishes the
setup.  Then the same after every command of every md command that
changes the host (setup, teardown, stop, restore), svmram in the test's
process.  The SVM emulator's: tests/scenario/test_hangup.py and
test_hangup_matrix.py."""

import json
import os
import pathlib
import signal
import subprocess
import sys

import pytest

import inprocess
from mdcli import (GROWN, HERE, RECORD, Host, fake_sysfs, set_up,
                   stopped_by_the_unit)

JOURNAL = "/var/svmram/md0.journal"


def signalling_mdadm(bindir, signum):
    """bindir's mdadm, which sends `signum` to its caller (svmram) once
    an `mdadm --grow ... --add` has done its work."""
    path = os.path.join(bindir, "mdadm")
    with open(path, "w", encoding="utf-8") as stream:
        stream.write(
            "#!%s\nimport os, sys\nsys.path.insert(0, %r)\n"
            "import fakekernel\n"
            "status = fakekernel.main('mdadm', sys.argv[1:])\n"
            "if '--grow' in sys.argv and '--add' in sys.argv:\n"
            "    os.kill(os.getppid(), %d)\n"
            "sys.exit(status)\n" % (sys.executable, HERE, signum))


def signalled_setup(tmp_path, signum):
    host = Host(tmp_path / signal.Signals(signum).name)
    signalling_mdadm(host.bindir, signum)
    proc = subprocess.run(
        [sys.executable, os.path.join(HERE, "fake_svmram.py"), "setup", "-y",
         "/dev/md0"], stdin=subprocess.DEVNULL, capture_output=True,
        text=True, env=host.environment(), timeout=120, check=False)
    name = signal.Signals(signum).name
    with open(host.path(JOURNAL), encoding="utf-8") as stream:
        journal = json.loads(stream.read().replace(name, "SIGNAL"))
    return host, (proc.returncode,
                  proc.stderr.replace(host.root, "ROOT").replace(
                      host.bindir, "BIN").replace(name, "SIGNAL"),
                  journal)


def test_sighup_in_setups_grow_step_leaves_the_array_as_sigterm_does(
        tmp_path):
    seen = {}
    for signum in (signal.SIGTERM, signal.SIGHUP):
        host, seen[signum] = signalled_setup(tmp_path, signum)
        code, err, journal = seen[signum]
        assert code == 128 + signum, err
        assert "Traceback" not in err
        lines = err.splitlines()
        assert "svmram: SIGNAL: stopping as soon as this step's commands " \
            "have finished" in lines
        assert lines[-3:] == [
            "svmram: the setup of md0 was stopped by SIGNAL after step 5 of "
            "8 (Grow md0 to 3 raid devices, adding ram0 and wait for its "
            "recovery); nothing was undone.",
            "svmram: md0 now: clean, 3 raid devices: ram0 in_sync (RAM), vda "
            "in_sync, vdb in_sync.  Current data: on vda and vdb.",
            "svmram: Run 'svmram setup md0' to finish the setup (it resumes "
            "from ROOT/var/svmram/md0.journal), or 'svmram teardown md0' to "
            "undo it."], err
        assert (journal["operation"], journal["completed"],
                journal["failed"]) == (
            "setup", ["write record", "enable unit", "load brd",
                      "raise speed md0"],
            {"step": "grow-add ram0", "message": "interrupted by SIGNAL"})
        rc, _, again, _ = host.svmram("setup", "-y", "/dev/md0")
        assert rc == 0, again
        assert host.record() == GROWN
        assert not os.path.exists(host.path(JOURNAL))
    assert seen[signal.SIGTERM][0] == 143
    assert seen[signal.SIGHUP][0] == 129
    assert seen[signal.SIGTERM][1:] == seen[signal.SIGHUP][1:]


# --- SIGHUP after every command (issue 36, Done-when 5) ---------------------

class UncaughtSignal(BaseException):
    """The signal met the default action's stand-in: svmram did not catch
    it, and a real process would have died there."""


def _default_action(signum, frame):   # pylint: disable=unused-argument
    raise UncaughtSignal(signal.Signals(signum).name)


# flow: (what runs before it, the command)
FLOWS = {
    "setup": (None, ("setup", "-y", "/dev/md0")),
    "teardown": (set_up, ("teardown", "-y", "/dev/md0")),
    "stop": (set_up, ("stop", "/dev/md0")),
    "restore": (stopped_by_the_unit, ("restore", "/dev/md0")),
}


def flow_host(directory, flow):
    """A fresh host for `flow`, brought to where its command starts."""
    os.makedirs(directory)
    host = Host(pathlib.Path(directory))
    before = FLOWS[flow][0]
    if before is not None:
        before(host)
    return host


def md_state(host):
    """What a run leaves: /sys, svmram's record, the unit, the journal."""
    record = host.path(RECORD)
    journal = host.path(JOURNAL)
    return (host.sysfs(), host.unit(),
            _json_or_none(record), _json_or_none(journal))


def _json_or_none(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as stream:
        return json.load(stream)


def signalled_after(host, args, signum, nth):
    """svmram ARGS in the test's process, sent `signum` right after its
    nth command returns: (exit status, stderr, the commands run, the
    state), with the host's paths and the signal's name made neutral."""
    calls = []

    def runner(argv, env, timeout):
        result = host._start(argv, env, timeout)   # pylint: disable=W0212
        calls.append(argv)
        if len(calls) == nth:
            os.kill(os.getpid(), signum)
        return result
    previous = {number: signal.signal(number, _default_action)
                for number in (signal.SIGHUP, signal.SIGTERM)}
    try:
        with fake_sysfs():
            code, _, err = inprocess.svmram(args, host.environment(), "",
                                            runner=runner)
    except UncaughtSignal as uncaught:
        pytest.fail("svmram did not catch %s sent after %s" % (
            uncaught, " ".join(calls[-1])))
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    assert len(calls) >= nth, "the run made fewer commands than before"
    name = signal.Signals(signum).name
    text = json.dumps([err.decode("utf-8", "replace") if isinstance(
        err, bytes) else err, calls, md_state(host)])
    for path, word in ((host.root, "ROOT"), (host.bindir, "BIN"),
                       (name, "SIGNAL")):
        text = text.replace(path, word)
    return (code,) + tuple(json.loads(text))


@pytest.mark.parametrize("flow", sorted(FLOWS))
def test_sighup_after_every_command_leaves_the_array_as_sigterm_does(
        tmp_path, flow):
    """For each md command that changes the host and each command it
    runs, SIGHUP right after that command leaves /sys, the record, the
    unit, the journal, the commands run and the words as SIGTERM does;
    128 + the signal; the rerun finishes in both, to the state the clean
    run left (the SVM emulator's: tests/scenario/test_hangup_matrix.py)."""
    args = FLOWS[flow][1]
    clean = flow_host(str(tmp_path / "clean"), flow)
    rc, _, err, counted = clean.svmram(*args)
    assert rc == 0, err
    assert counted, "the clean run made no command"
    done = md_state(clean)
    for nth in range(1, len(counted) + 1):
        seen = {}
        for signum in (signal.SIGHUP, signal.SIGTERM):
            where = "%s after command %d (%s)" % (
                signal.Signals(signum).name, nth, " ".join(counted[nth - 1]))
            host = flow_host(str(tmp_path / ("%d-%d" % (nth, signum))),
                             flow)
            seen[signum] = signalled_after(host, args, signum, nth)
            assert seen[signum][0] == 128 + signum, (where, seen[signum][1])
            assert "Traceback" not in seen[signum][1], where
            rc, _, err, _ = host.svmram(*args)
            assert rc == 0, (where, err)
            assert md_state(host) == done, where
        assert seen[signal.SIGHUP][1:] == seen[signal.SIGTERM][1:], \
            "after command %d (%s)" % (nth, " ".join(counted[nth - 1]))
