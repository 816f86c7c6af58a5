# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""SIGHUP (a dropped ssh session) on md's fake kernel leaves the host as
SIGTERM does (issue 36 section 3.6): sent to svmram by mdadm as its grow
step's command returns, svmram finishes the step (the fake kernel's
recovery is done at once), stops before the next, keeps its journal, says where it stopped and exits 128 +
the signal; the rerun finishes the setup.  The SVM emulator's:
tests/scenario/test_hangup.py."""

import json
import os
import signal
import subprocess
import sys

import pytest

from mdcli import GROWN, HERE, Host

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
