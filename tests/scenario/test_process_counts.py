# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""How many processes svmram starts on the article host (issue 29
section 3: on a real host each is tens of milliseconds, and the start
method's timeout is fixed): setup at most 55, the boot restore after it
at most 20, status 5, on every release profile; the boot restore's exact
commands.  bench/cli --processes prints the same counts as a table."""

import pytest

pytestmark = pytest.mark.emulator_only(
    "reboots the host; counts what svmram starts on the emulator")

TARGETS = {"setup": 55, "restore": 20, "status": 5}
FMRI = "svc:/system/svmram:d10"
KSTAT = ["kstat", "-p", "unix:0:system_pages:physmem",
         "unix:0:system_pages:freemem", "unix:0:system_pages:availrmem",
         "unix:0:system_misc:boot_time"]

# The boot restore of the article's d10 after setup, every profile: the
# record and the host read once (memory too: the ramdisk is missing), the
# other instances (none to open), then each step checked against what it
# can change, read after it (the ramdisk: ramdiskadm; the replace and its
# resync: the two metastat), and each next round planned from that.
RESTORE = [
    ["svcs", "-H", "-o", "state", FMRI],
    ["svcprop", "-p", "svmram", FMRI],
    ["metastat", "-p"],
    ["metastat", "d10"],
    ["ramdiskadm"],
    ["svcs", "-H", "-o", "state", FMRI],
    ["svcprop", "-p", "svmram", FMRI],
    KSTAT,
    ["svcs", "-H", "-o", "inst", "svc:/system/svmram:*"],
    ["ramdiskadm", "-a", "svmram_d10", "228m"],
    ["ramdiskadm"],
    ["metareplace", "-e", "d10", "c90t0d0s0"],
    ["metasync", "-c", "d10"],
    ["metasync", "2048", "d10"],
    ["metastat", "-p"],
    ["metastat", "d10"],
]


def run(host, *args):
    host.clear_trace()
    result = host.svmram(*args)
    assert result.returncode == 0, result.stderr
    return host.trace(changes_only=False)


def test_setup_restore_and_status_start_no_more_than_the_targets(host):
    host.install()
    assert host.sim("thaw", "--step", "100").returncode == 0
    counts = {"setup": len(run(host, "setup", "-y", "d10"))}
    host.clear_trace()
    assert host.reboot().returncode == 0
    restore = host.trace(changes_only=False)
    counts["restore"] = len(restore)
    assert host.sim("tick").returncode == 0
    status = run(host, "status", "d10")
    counts["status"] = len(status)
    assert {call: count for call, count in counts.items()
            if count > TARGETS[call]} == {}, counts
    assert restore == RESTORE
    assert status == [
        ["svcs", "-H", "-o", "inst,state", FMRI],
        ["svcprop", "-f", "-p", "svmram", FMRI],
        ["metastat", "-p"], ["metastat", "d10"], ["ramdiskadm"]]
    assert host.violations() == []
