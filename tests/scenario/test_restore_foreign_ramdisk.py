# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The boot restore never lets a ramdisk that is not a mirror's own take
its recorded device number while SVM still takes the RAM component for
Okay (issue 9).  SVM opens a component by the device number in its state
database, so a mirror opened while another ramdisk holds that number
reads that ramdisk as its RAM submirror's data.

The mirrors here are closed at boot and have pass 0, so that nothing at
boot opens them (metasync -r opens only pass 1-9 mirrors): the boot
restore is then the first to open them."""

import json
import os

import pytest

from hosts import HOSTS, EmulatedHost

pytestmark = pytest.mark.emulator_only(
    "reboots, ramdisks created at boot by other software, and the "
    "data-safety monitor")

FAILED = 1
GIB = 1 << 30


def closed_host(tmp_path, mirrors=("d10",)):
    """The article's layout, unmounted, with 4 GiB of memory and, for d20,
    a second mirror d20 = d21 + d22 of the same size."""
    with open(os.path.join(HOSTS, "closed-article.json")) as stream:
        desc = json.load(stream)
    desc["physmem"] = 4 * GIB
    if "d20" in mirrors:
        for disk, index in (("c2d0", 4), ("c3d0", 5)):
            desc["disks"][disk] = dict(desc["disks"]["c0d1"], devid=(
                "id1,cmdk@AQEMU_HARDDISK=QM0000%d" % index))
        desc["data"].update({"c2d0s0": 2, "c3d0s0": 2})
        desc["metadevices"] += ["d21 1 1 c2d0s0", "d22 1 1 c3d0s0",
                                "d20 -m d21 d22"]
    path = tmp_path / "host.json"
    path.write_text(json.dumps(desc))
    host = EmulatedHost(tmp_path / "host", host_file=str(path))
    for mirror in mirrors:
        result = host.svmram("setup", "-y", mirror)
        assert result.returncode == 0, result.stderr
        host.sim("tick")
        assert host.cmd("metaparam", "-p", "0", mirror).returncode == 0
    return host


def ram_component_line(host, mirror="d10", ram="d13"):
    text = host.cmd("metastat", mirror).stdout
    section = text.split("%s: Submirror of %s" % (ram, mirror), 1)[1]
    return [line for line in section.splitlines()
            if line.startswith("\tc90t")][0]


def test_a_foreign_ramdisk_holding_the_recorded_number_is_fenced_not_opened(
        tmp_path):
    host = closed_host(tmp_path)
    # Another boot service creates a ramdisk first: it gets minor 1,
    # the number d10's RAM component recorded.
    assert host.reboot("--boot-ramdisk", "other=1048576").returncode == 0
    # The emulator's monitor sees the hazard the boot made: d10's next
    # open would read the other ramdisk as d13's data.
    at_boot = host.violations()
    assert len(at_boot) == 1 and "after #" in at_boot[0] and \
        "svmsim reboot" in at_boot[0], at_boot
    host.clear_trace()
    result = host.svmram("restore", "d10")
    assert result.returncode == FAILED, result.stdout + result.stderr
    said = result.stderr.splitlines()
    assert said[0] == "restore d10: Detach d13 from d10."
    assert said[-2] == (
        "svmram: the ramdisk other, not d10's own, holds the device number "
        "250,1 that SVM recorded for d13, the RAM submirror of d10; svmram "
        "detached d13 so that d10 reads only from its disk submirrors")
    assert said[-1].startswith(
        "svmram: Delete the other ramdisk (ramdiskadm -d other)")
    # d10 was never opened onto the other ramdisk: the only change is the
    # detach, which does no I/O to it.
    assert host.trace() == [["metadetach", "-f", "d10", "d13"]]
    assert host.metastat_p("d10").startswith(
        "d10 -m /dev/md/rdsk/d11 /dev/md/rdsk/d12 ")
    assert host.violations() == at_boot
    # With the other ramdisk gone, teardown and setup read from RAM again.
    assert host.cmd("ramdiskadm", "-d", "other").returncode == 0
    assert host.svmram("teardown", "-y", "d10").returncode == 0
    assert host.svmram("setup", "-y", "d10").returncode == 0
    host.sim("tick")
    assert host.violations() == at_boot
    assert host.svmram("status", "d10").returncode == 0


def test_the_first_restore_opens_every_recorded_mirror_before_it_makes_a_ramdisk(
        tmp_path):
    host = closed_host(tmp_path, mirrors=("d10", "d20"))
    assert host.reboot().returncode == 0
    host.clear_trace()
    # d20's restore runs first; its ramdisk would get minor 1, which d10
    # recorded.  So it opens d10 first, and d10's component fails.
    result = host.svmram("restore", "d20")
    assert result.returncode == 0, result.stderr
    assert host.trace()[:2] == [
        ["dd", "if=/dev/md/rdsk/d10", "of=/dev/null", "count=1"],
        ["dd", "if=/dev/md/rdsk/d20", "of=/dev/null", "count=1"]]
    assert host.trace()[2][:3] == ["ramdiskadm", "-a", "svmram_d20"]
    assert "Maintenance" in ram_component_line(host)
    assert host.violations() == []
    result = host.svmram("restore", "d10")
    assert result.returncode == 0, result.stderr
    host.sim("tick")
    assert host.violations() == []
    for mirror in ("d10", "d20"):
        assert host.svmram("status", mirror).returncode == 0, mirror
