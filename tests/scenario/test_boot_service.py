# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The boot service end to end: `make install` into the emulated root, and
every reboot runs the real ksh93 method smf/svmram, which runs the
installed svmram restore, the way svc.startd would."""

import os
import shutil
import subprocess

import pytest

from hosts import REPO

FMRI = "svc:/system/svmram:d10"

pytestmark = [pytest.mark.skipif(shutil.which("ksh") is None,
                                 reason="ksh93 is needed to run the method"),
              pytest.mark.emulator_only("installs into the emulated root and "
                                        "reboots it")]


@pytest.fixture
def installed(host):
    done = subprocess.run(["make", "-s", "install", "DESTDIR=" + host.root],
                          cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    host.cmd("svccfg", "import", os.path.join(
        host.root, "lib/svc/manifest/system/svmram.xml"))
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert service(host) == "online"
    return host


def service(host):
    return host.cmd("svcs", "-H", "-o", "state", FMRI).stdout.strip()


def log(host):
    with open(os.path.join(host.root, "var/svc/log/system-svmram:d10.log")) \
            as stream:
        return stream.read()


def serving(host):
    return host.svmram("status", "d10").returncode == 0


def test_normal_boot_restores_and_reads_come_from_ram_again(installed):
    host = installed
    host.clear_trace()
    assert host.reboot().returncode == 0
    assert service(host) == "online"
    assert "d10: d13 is resyncing from the disk submirrors" in log(host)
    assert host.trace() == [
        ["ramdiskadm", "-a", "svmram_d10", "228m"],
        ["metareplace", "-e", "d10", "c90t0d0s0"],
        ["metasync", "-c", "d10"], ["metasync", "2048", "d10"]]
    assert host.sim("tick").returncode == 0
    assert serving(host)
    assert host.violations() == []


def test_two_reboots_in_a_row_and_one_in_the_middle_of_the_copy(installed):
    host = installed
    host.sim("freeze")
    for _ in range(2):
        assert host.reboot().returncode == 0
        assert service(host) == "online"
        assert host.sim("tick", "3").returncode == 0
    assert host.sim("tick").returncode == 0
    assert serving(host)
    assert host.violations() == []


def test_too_little_memory_puts_the_instance_into_maintenance(installed):
    host = installed
    # Another ramdisk takes the memory before svmram's instance starts:
    # boot without services (the instance waits offline), take the memory,
    # then let SMF start it.
    assert host.reboot("--no-services").returncode == 0
    assert service(host) == "offline"
    assert host.cmd("ramdiskadm", "-a", "hog", "100m").returncode == 0
    assert host.cmd("svcadm", "enable", FMRI).returncode == 0
    assert service(host) == "maintenance"
    explain = host.cmd("svcs", "-x", FMRI).stdout
    assert "maintenance" in explain
    assert "/var/svc/log/system-svmram:d10.log" in explain
    text = log(host)
    assert "would exceed the ramdisk memory cap" in text
    assert "d10 keeps serving reads from its disk submirrors" in text
    assert 'Method "start" exited with status 96.' in text
    assert not serving(host)
    assert host.violations() == []
    # The operator frees the memory and clears the instance.
    assert host.cmd("ramdiskadm", "-d", "hog").returncode == 0
    assert host.cmd("svcadm", "clear", FMRI).returncode == 0
    assert service(host) == "online"
    assert host.sim("tick").returncode == 0
    assert serving(host)
    assert host.violations() == []


def test_a_torn_down_mirror_has_no_instance_left_to_run(installed):
    host = installed
    assert host.svmram("teardown", "-y", "d10").returncode == 0
    assert host.cmd("svcs", "-H", FMRI).returncode != 0
    assert host.reboot().returncode == 0
    assert host.ramdisks() == ""
    assert host.violations() == []
