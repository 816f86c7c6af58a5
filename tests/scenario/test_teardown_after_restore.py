# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram teardown right after a restore, while the RAM submirror still
resyncs (issue 27): teardown cancels that resync before it detaches the
RAM submirror.  When the resync ends between teardown's plan and its
'metasync -c', the cancel finds nothing to cancel (mirror_resync.c
mirror_ioctl_resync: MD_RI_KILL without MD_UN_RESYNC_ACTIVE returns 0)
and the RAM submirror is Okay rather than "Resync cancelled": teardown
goes on, it does not stop there and ask for a rerun."""

import pytest

from releases import ORIGINAL

pytestmark = pytest.mark.emulator_only(
    "ends the resync at a chosen moment (svmsim thaw, tick)")



@pytest.fixture
def restoring(host_after):
    """Set up, rebooted, restored: the RAM submirror's resync runs (frozen
    where restore left it)."""
    host = host_after(("svmram", "setup", "-y", "d10"), ("reboot",))
    result = host.svmram("restore", "d10")
    assert result.returncode == 0, result.stderr
    assert host.sim("freeze").returncode == 0
    assert "Resync in progress" in host.cmd("metastat", "d10").stdout
    host.clear_trace()
    return host


def test_teardown_while_the_ram_submirror_resyncs(restoring):
    host = restoring
    if host.release() == "solaris10":
        # Its plan waits for a disk submirror's resync (metadetach leaves
        # a hole there, so teardown reorders by detach and attach).
        assert host.sim("thaw").returncode == 0
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert host.metastat_p() == ORIGINAL
    assert host.ramdisks() == ""
    assert host.violations() == []


def test_the_resync_ends_just_before_teardown_cancels_it(restoring):
    host = restoring

    def end_the_resync(argv):
        # Right after teardown's first step (the read option), before
        # 'metasync -c': the resync SVM was running ends.
        if argv[0].endswith("/metaparam"):
            assert host.sim("thaw").returncode == 0
            assert host.sim("tick").returncode == 0

    result = host.svmram("teardown", "-y", "d10", after=end_the_resync)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    # The cancel ran after the resync had ended, and changed nothing;
    # teardown went on (on Solaris 10 after its slot test).
    trace = host.trace()
    first = trace.index(["metaparam", "-r", "roundrobin", "d10"])
    assert trace[first + 1:first + 3] == [
        ["metasync", "-c", "d10"], ["metadetach", "-f", "d10", "d13"]]
    assert host.metastat_p() == ORIGINAL
    assert host.ramdisks() == ""
    assert host.cmd("svcs", "-H", "svc:/system/svmram:d10").returncode != 0
    assert host.violations() == []
