# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""No dead ends (issue 20, section 3): wherever svmram stops, what it
says leads somewhere.  Each case follows svmram's advice and checks that
it works: the exact commands, the final metastat -p, the messages, and a
data-safety monitor that never fired."""

import os
import subprocess

import pytest

from hosts import PYTHON, Result

HERE = os.path.dirname(os.path.abspath(__file__))
OLD_SVMRAM = os.path.join(HERE, "old_svmram.py")

ORIGINAL_D10 = (
    "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 1\n"
    "d11 1 1 /dev/rdsk/c0d1s0\n"
    "d12 1 1 /dev/rdsk/c1d0s0\n")

FMRI = "svc:/system/svmram:d10"


def old_svmram(host, *args):
    """svmram as a release that accepted a reserved --name."""
    proc = subprocess.run(PYTHON + [OLD_SVMRAM] + list(args), env=host.env,
                          text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=False)
    return Result(proc.returncode, proc.stdout, proc.stderr)


# --- a. svmram's own scratch names ------------------------------------------

@pytest.mark.parametrize("name", ["svmram_probe0", "svmram_probe1"])
def test_a_reserved_ramdisk_name_is_refused_up_front(host, name):
    before = host.state_digest()
    for args in (("setup", "-y", "--name", name, "d10"),
                 ("setup", "-n", "--name", name, "d10")):
        result = host.svmram(*args)
        assert result.returncode == 2, result.stderr
        assert result.stderr.splitlines()[-2:] == [
            "svmram: ramdisk name %r is reserved: svmram's test of the slot "
            "behaviour makes and removes scratch ramdisks of that name"
            % name,
            "svmram: Give another name with --name, or leave --name out for "
            "svmram_d10."]
    assert host.trace() == []
    assert host.state_digest() == before
    # The advice works.
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert host.violations() == []


@pytest.mark.emulator_only("runs an older svmram's setup")
def test_a_a_mirror_recorded_with_a_reserved_name_keeps_working(host):
    """svmram's record wins over its name rules: a mirror an older svmram
    set up on svmram_probe0 is torn down, not called a leftover of the
    slot test."""
    result = old_svmram(host, "setup", "-y", "--name", "svmram_probe0",
                        "d10")
    assert result.returncode == 0, result.stderr
    status = host.svmram("status", "--nagios", "d10")
    assert status.returncode == 0, status.stdout + status.stderr
    host.clear_trace()
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert "removed" not in result.stderr
    assert ["ramdiskadm", "-d", "svmram_probe0"] in host.trace()
    assert host.metastat_p() == ORIGINAL_D10
    assert "svmram_probe" not in host.ramdisks()
    assert host.violations() == []
