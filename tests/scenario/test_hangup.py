# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""SIGHUP (a dropped ssh session, a closed terminal) at the worst step
point leaves the host as SIGTERM does (issue 36 section 3.6): right after
the metaclear of a swap setup, of a copy setup and of a copy teardown,
svmram still runs the metainit of the same step, then stops, says where,
keeps its journal and exits 128 + the signal (129, 143); the rerun
finishes the job.  Ctrl-C at the same point: test_interrupt.py; every
command's point: test_hangup_matrix.py; the selftest stopped by SIGHUP:
test_selftest.py."""

import json
import os
import signal
import subprocess
import sys

import pytest

from hosts import SVMRAM, wrapping_bindir

pytestmark = pytest.mark.emulator_only("signals svmram after a command")

JOURNAL = "var/svmram/d10.journal"

# (host, the command, what runs before it)
CASES = {
    "setup-swap": ("swap", ("setup", "-y", "d10"), ()),
    "setup-copy": ("unlabeled-x86", ("setup", "-y", "--allow-label", "d10"),
                   ()),
    "teardown-copy": ("unlabeled-x86", ("teardown", "-y", "d10"),
                      (("setup", "-y", "--allow-label", "d10"),)),
}


def signalled_after_metaclear(host, args, signum):
    """svmram ARGS as a process whose `metaclear d10`, as it returns,
    sends `signum` to svmram's process group (as a terminal's hangup or
    Ctrl-C reaches it): (exit status, stderr with the host's root as
    ROOT and the signal's name as SIGNAL, the trace, metastat -p, the
    journal with the same name as SIGNAL)."""
    bindir = wrapping_bindir(host, "sigbin", "metaclear", lambda real, _: (
        "#!/bin/sh\n%s \"$@\"\nstatus=$?\n"
        "[ \"$*\" = d10 ] && kill -%d -$(ps -o pgid= -p $PPID | tr -d ' ')\n"
        "exit $status\n" % (real, signum)))
    host.clear_trace()
    proc = subprocess.Popen(
        [sys.executable, SVMRAM] + list(args),
        env=dict(host.env, SVMRAM_BINDIR=bindir), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    _, err = proc.communicate(timeout=300)
    name = signal.Signals(signum).name
    with open(os.path.join(host.root, JOURNAL), encoding="utf-8") as stream:
        journal = stream.read().replace(name, "SIGNAL")
    return (proc.returncode,
            err.replace(host.root, "ROOT").replace(name, "SIGNAL"),
            host.trace(), host.metastat_p(), json.loads(journal))


@pytest.mark.parametrize("case", sorted(CASES))
def test_sighup_right_after_metaclear_leaves_the_host_as_sigterm_does(
        host_factory, case):
    layout, args, before = CASES[case]
    seen = {}
    for signum in (signal.SIGTERM, signal.SIGHUP):
        host = host_factory(layout)
        for earlier in before:
            done = host.svmram(*earlier)
            assert done.returncode == 0, done.stderr
        seen[signum] = signalled_after_metaclear(host, args, signum)
        code, err, trace, _, journal = seen[signum]
        assert code == 128 + signum, err
        assert "Traceback" not in err
        # The step's metainit ran after the signal; nothing after it.
        assert trace[-2][0] == "metaclear" and trace[-1][0] == "metainit"
        assert "svmram: SIGNAL: stopping as soon as this step's commands " \
            "have finished" in err.splitlines()
        assert journal["operation"] == args[0]
        assert host.violations() == []
        again = host.svmram(*args)
        assert again.returncode == 0, again.stderr
        assert host.violations() == []
        if args[0] == "setup":
            assert "RAM" in host.svmram("status", "d10").stdout
        else:
            assert host.ramdisks() == ""
    term, hup = seen[signal.SIGTERM], seen[signal.SIGHUP]
    assert (term[0], hup[0]) == (143, 129)
    assert term[1:] == hup[1:]
