# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram restore after a reboot: the normal boot, the blank-ramdisk
hazard, a changed device number, too little memory, interrupted
resyncs, repeated reboots, and idempotence."""

import json

import pytest

import releases

from hosts import EmulatedHost, wrapping_bindir

FMRI = "svc:/system/svmram:d10"

RESTORE_COMMANDS = [
    ["ramdiskadm", "-a", "svmram_d10", "228m"],
    ["metareplace", "-e", "d10", "c90t0d0s0"],
    ["metasync", "-c", "d10"],
    ["metasync", "2048", "d10"],
]


# The RAM component's row in `metastat d10` while SVM still thinks it Okay.
RAM_ROW_OKAY = "\tc90t0d0s0          0     No            Okay   No  \n"

# The article's disks, with d10 at pass 0 and not mounted at boot.
PASS_0_HOST = {
    "nodename": "myhost", "physmem": 1024 ** 3,
    "disks": {
        "c0d0": {"nhead": 16, "nsect": 63, "slices": {"0": 8388608, "7": 65520},
                 "devid": "id1,cmdk@AQEMU_HARDDISK=QM00001"},
        "c0d1": {"nhead": 15, "nsect": 63, "slices": {"0": 465885},
                 "devid": "id1,cmdk@AQEMU_HARDDISK=QM00002"},
        "c1d0": {"nhead": 15, "nsect": 63, "slices": {"0": 465885},
                 "devid": "id1,cmdk@AQEMU_HARDDISK=QM00003"}},
    "mounts": {"c0d0s0": "/"},
    "replicas": [{"slice": "c0d0s7", "count": 3}],
    "data": {"c0d1s0": 1, "c1d0s0": 1},
    "metadevices": ["d11 1 1 c0d1s0", "d12 1 1 c1d0s0", "d10 -m d11 d12 0"],
    "vfstab": {},
}


SETUP = ("svmram", "setup", "-y", "d10")


@pytest.fixture
def set_up(host_after):
    """The article's host after `svmram setup -y d10` (which must exit 0),
    its trace cleared; on the emulator a copy of one set up once."""
    return host_after(SETUP)


def reboot(host, *options):
    result = host.reboot(*options)
    assert result.returncode == 0, result.stderr
    host.clear_trace()


def serving(host):
    result = host.svmram("status", "d10")
    return result.returncode == 0, result.stdout


def finish_resyncs(host):
    assert host.sim("tick").returncode == 0


@pytest.mark.emulator_only("reboots the host")
def test_normal_boot(host_after):
    host = host_after(SETUP, ("reboot",))
    state = host.cmd("metastat", "d10").stdout
    assert "Invoke: metareplace d10 c90t0d0s0 <new device>" in state
    assert serving(host)[0] is False
    result = host.svmram("restore", "d10")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("d10: d13 is resyncing from the disk submirrors; "
                             "reads stay on disk until it is Okay.\n")
    assert host.trace() == RESTORE_COMMANDS
    finish_resyncs(host)
    assert serving(host) == (True, serving(host)[1])
    assert host.metastat_p("d10") == releases.set_up(host, releases.RAM_FIRST)
    assert host.violations() == []


@pytest.mark.emulator_only("reboots the host")
def test_restore_is_idempotent(set_up):
    host = set_up
    result = host.svmram("restore", "d10")
    assert (result.returncode, result.stdout) == (
        0, "d10: nothing to do: d13 is Okay.\n")
    reboot(host)
    host.sim("freeze")
    assert host.svmram("restore", "d10").returncode == 0
    host.clear_trace()
    again = host.svmram("restore", "d10")
    assert again.returncode == 0
    assert again.stdout.startswith("d10: nothing to do: d13 is resyncing (")
    assert host.trace() == []
    assert host.violations() == []


@pytest.mark.emulator_only("reboots the host")
def test_blank_ramdisk_hazard_forces_the_first_open(host_after):
    """Before metasync and the mounts, SVM still shows the RAM component
    Okay.  Restore must make SVM fail it before creating the ramdisk."""
    host = host_after(SETUP, ("reboot", "--before-metasync"))
    assert RAM_ROW_OKAY in host.cmd("metastat", "d10").stdout
    result = host.svmram("restore", "d10")
    # metasync has not run: the boot resync is pending.  Restore forces
    # the open, so that the RAM component fails; starts the pending resync
    # as svc:/system/metasync would (after a clean shutdown it has nothing
    # to copy); and only then creates the ramdisk and refills it.
    assert result.returncode == 0, result.stderr
    assert host.trace()[:3] == [
        ["dd", "if=/dev/md/rdsk/d10", "of=/dev/null", "count=1"],
        ["metasync", "d10"], ["ramdiskadm", "-a", "svmram_d10", "228m"]]
    assert host.trace()[3] == ["metareplace", "-e", "d10", "c90t0d0s0"]
    assert host.violations() == []


def test_blank_ramdisk_hazard_on_a_pass_0_mirror(tmp_path):
    """metasync -r never opens a pass-0 mirror, and this one is not in
    vfstab: after a full boot its RAM component still shows Okay."""
    description = dict(PASS_0_HOST)
    path = tmp_path / "pass0.json"
    path.write_text(json.dumps(description))
    host = EmulatedHost(tmp_path / "host", host_file=str(path))
    assert host.svmram("setup", "-y", "d10").returncode == 0
    reboot(host)
    assert RAM_ROW_OKAY in host.cmd("metastat", "d10").stdout
    result = host.svmram("restore", "d10")
    assert result.returncode == 0, result.stderr
    assert host.trace()[:2] == [
        ["dd", "if=/dev/md/rdsk/d10", "of=/dev/null", "count=1"],
        ["ramdiskadm", "-a", "svmram_d10", "228m"]]
    finish_resyncs(host)
    assert serving(host)[0] is True
    assert host.violations() == []


@pytest.mark.emulator_only("reboots the host")
def test_refuses_when_the_component_stays_okay(host_after):
    host = host_after(SETUP, ("reboot", "--before-metasync"))
    # An open that does not fail the component (a stand-in for an SVM
    # that behaves otherwise): dd "succeeds" and changes nothing.
    assert host.sim("faults", "add", "dd", "--nth", "1", "--exit", "0",
                    "--message", "").returncode == 0
    result = host.svmram("restore", "--wait", "0", "d10")
    assert result.returncode == 3
    assert host.trace() == [["dd", "if=/dev/md/rdsk/d10", "of=/dev/null",
                             "count=1"]]
    assert "SVM still shows the RAM component of d13 as Okay although the " \
           "ramdisk svmram_d10 does not exist" in result.stderr
    assert host.ramdisks() == ""
    assert host.violations() == []


@pytest.mark.emulator_only("reboots the host")
def test_changed_device_number_replaces_onto_a_new_link(host_after):
    host = host_after(SETUP, ("reboot",))
    assert host.cmd("ramdiskadm", "-a", "other", "1m").returncode == 0
    host.clear_trace()
    result = host.svmram("restore", "d10")
    assert result.returncode == 0, result.stderr
    assert host.trace()[:3] == [
        ["ramdiskadm", "-a", "svmram_d10", "228m"],
        ["metareplace", "d10", "c90t0d0s0", "c91t0d0s0"],
        ["svccfg", "-f", "/var/run/svmram.d10.svccfg"]]
    props = host.cmd("svcprop", "-p", "svmram", FMRI).stdout.splitlines()
    assert "svmram/link astring c91t0d0s0" in props
    assert "svmram/ramdisk_dev astring 250,2" in props
    finish_resyncs(host)
    ok, text = serving(host)
    assert ok, text
    assert "d13 1 1 /dev/rdsk/c91t0d0s0\n" in host.metastat_p("d10")
    assert host.violations() == []


@pytest.mark.emulator_only("reboots the host; a failing metareplace")
def test_a_failed_restore_names_the_step_as_the_run_counts_it(set_up):
    """restore plans again after every step, but a failure names the step
    by its place in the whole run: with the recorded device number taken,
    the third (the ramdisk, the new links, then the replace that fails),
    not "step 1"."""
    host = set_up
    reboot(host)
    assert host.cmd("ramdiskadm", "-a", "other", "1m").returncode == 0
    host.clear_trace()
    bindir = wrapping_bindir(
        host, "failbin", "metareplace", lambda real, bindir:
        "#!/bin/sh\necho 'metareplace: injected failure' >&2\nexit 1\n")
    result = host.svmram("restore", "d10", env={"SVMRAM_BINDIR": bindir})
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines()[:4] == [
        "restore d10: Create the ramdisk svmram_d10 of 228m.",
        "restore d10: Link /dev/dsk/c91t0d0s0 and /dev/rdsk/c91t0d0s0 to "
        "the ramdisk.",
        "restore d10: Replace the RAM component c90t0d0s0 of d10 by "
        "c91t0d0s0.",
        "svmram: step 3 failed (Replace the RAM component c90t0d0s0 of d10 "
        "by c91t0d0s0): %s/metareplace d10 c90t0d0s0 c91t0d0s0 failed: "
        "metareplace: injected failure" % bindir]
    assert host.violations() == []


@pytest.mark.emulator_only("reboots the host")
def test_too_little_memory_after_boot(host_after):
    host = host_after(SETUP, ("reboot",))
    assert host.cmd("ramdiskadm", "-a", "hog", "100m").returncode == 0
    host.clear_trace()
    before = host.metastat_p()
    result = host.svmram("restore", "d10")
    assert result.returncode == 3
    assert "would exceed the ramdisk memory cap" in result.stderr
    assert "d10 keeps serving reads from its disk submirrors" in result.stderr
    assert host.trace() == []
    assert host.metastat_p() == before
    assert host.violations() == []


@pytest.mark.emulator_only("reboots the host")
def test_reboot_in_the_middle_of_the_restore_resync(host_after):
    host = host_after(SETUP, ("reboot",))
    host.sim("freeze")
    assert host.svmram("restore", "d10").returncode == 0
    assert host.sim("tick", "4").returncode == 0
    reboot(host)
    assert "Invoke: metareplace" in host.cmd("metastat", "d10").stdout
    assert host.svmram("restore", "d10").returncode == 0
    finish_resyncs(host)
    assert serving(host)[0] is True
    assert host.violations() == []


@pytest.mark.emulator_only("reboots the host")
def test_two_reboots_in_a_row(host_after):
    host = host_after(SETUP, ("reboot",))
    reboot(host)
    assert host.svmram("restore", "d10").returncode == 0
    finish_resyncs(host)
    assert serving(host)[0] is True
    assert host.violations() == []


def test_restore_after_teardown_refuses(set_up):
    host = set_up
    assert host.svmram("teardown", "-y", "d10").returncode == 0
    result = host.svmram("restore", "d10")
    assert result.returncode == 3
    assert "d10 is not set up by svmram" in result.stderr
    assert "nothing to restore" in result.stderr


# --- a RAM submirror the administrator offlined ---------------------------

def offline_ram(host):
    assert host.cmd("metaoffline", "d10", "d13").returncode == 0
    host.clear_trace()


def test_refuses_an_offline_ram_submirror_with_its_ramdisk(set_up):
    """No reboot: the ramdisk may still hold d13's data, but svmram cannot
    know, so it neither says "nothing to do" nor runs metaonline."""
    host = set_up
    offline_ram(host)
    before = host.state_digest()
    result = host.svmram("restore", "d10")
    assert (result.returncode, result.stdout) == (3, "")
    assert result.stderr == (
        "svmram: d13, the RAM submirror of d10, is offline, so d10 does not "
        "read from RAM; restore does not bring it back: metaonline copies "
        "only the regions written while d13 was offline, and svmram cannot "
        "tell whether the ramdisk svmram_d10 still holds the rest\n"
        "svmram: If svmram_d10 has stayed in place since d13 was offlined "
        "(no reboot, not recreated), 'metaonline d10 d13' brings d13 back; "
        "otherwise run 'svmram teardown d10', then 'svmram setup d10'.  d10 "
        "keeps serving reads from its disk submirrors.\n")
    assert host.trace() == []
    assert host.state_digest() == before
    assert host.violations() == []


@pytest.mark.emulator_only("reboots the host")
def test_refuses_an_offline_ram_submirror_after_a_reboot(set_up):
    """After a reboot the ramdisk comes back blank: metaonline would copy
    only the regions written while d13 was offline, so the boot restore
    must refuse before creating it, and its advice must work."""
    host = set_up
    offline_ram(host)
    reboot(host)
    assert host.ramdisks() == ""
    before = host.state_digest()
    result = host.svmram("restore", "d10")
    assert (result.returncode, result.stdout) == (3, "")
    assert result.stderr == (
        "svmram: d13, the RAM submirror of d10, is offline and its ramdisk "
        "svmram_d10 is gone: a new ramdisk is blank and metaonline copies "
        "only the regions written while d13 was offline, so restore does "
        "not bring d13 back\n"
        "svmram: Do not run 'metaonline d10 d13'.  Run 'svmram teardown "
        "d10', then 'svmram setup d10'; d10 keeps serving reads from its "
        "disk submirrors.\n")
    assert host.trace() == []
    assert host.state_digest() == before
    for argv in (("teardown", "-y", "d10"), ("setup", "-y", "d10")):
        assert host.svmram(*argv).returncode == 0
    finish_resyncs(host)
    assert serving(host)[0] is True
    assert host.metastat_p("d10") == releases.set_up(host, releases.RAM_FIRST)
    assert host.violations() == []


@pytest.mark.emulator_only("injects metastat output")
def test_refuses_a_ram_submirror_in_a_state_it_cannot_mend(set_up):
    """Any state of the RAM submirror that restore has no step for (here
    Unavailable: its metadevice errored) is a refusal, never "nothing to
    do"."""
    host = set_up
    report = host.cmd("metastat", "d10").stdout.replace(
        "Submirror 0: d13\n      State: Okay         \n",
        "Submirror 0: d13\n      State: Unavailable  \n")
    assert "Unavailable" in report
    # restore reads `metastat -p`, then `metastat d10`.
    assert host.sim("faults", "add", "metastat", "--nth", "2", "--exit", "0",
                    "--stdout", report).returncode == 0
    result = host.svmram("restore", "d10")
    assert (result.returncode, result.stdout) == (3, "")
    assert result.stderr == (
        "svmram: d13, the RAM submirror of d10, is Unavailable, so d10 does "
        "not read from RAM, and restore has no safe way to bring it back\n"
        "svmram: Check 'metastat d10'; 'svmram teardown d10', then 'svmram "
        "setup d10' rebuild it.  d10 keeps serving reads from its disk "
        "submirrors.\n")
    assert host.trace() == []
