# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Issue 9: planner hazards an admin met.  A cancelled resync, a RAM
submirror svmram did not create, a disk submirror split off by hand, and
a reboot between the last steps of a rotate setup."""

import json
import os

import pytest

import releases

from hosts import EmulatedHost, host_file

def ok(result):
    assert result.returncode == 0, result.stderr
    return result


def copied(host):
    return json.loads(host.sim("state").stdout)["copied_blocks"].get("d10", 0)


@pytest.mark.emulator_only("reboots the host")
def test_teardown_during_the_boot_copy_into_ram(host):
    ok(host.svmram("setup", "-y", "d10"))
    ok(host.reboot())
    host.sim("freeze")
    ok(host.svmram("restore", "d10"))
    ok(host.sim("tick", "2"))
    assert "Resyncing" in host.cmd("metastat", "d10").stdout
    # Slowly on: where detach leaves a hole (solaris10), putting the disks
    # back in order resyncs one, which a frozen host would never finish.
    ok(host.sim("thaw", "--step", "1"))
    result = ok(host.svmram("teardown", "-y", "d10"))
    assert "Traceback" not in result.stderr
    assert ["metasync", "-c", "d10"] in host.trace()
    assert ["metadetach", "-f", "d10", "d13"] in host.trace()
    assert host.metastat_p() == host.article(releases.ORIGINAL)
    assert host.violations() == []


@pytest.mark.emulator_only("reboots the host")
def test_teardown_rerun_after_a_cancelled_boot_copy(host):
    """An earlier svmram (or the admin) cancelled the boot copy."""
    ok(host.svmram("setup", "-y", "d10"))
    ok(host.reboot())
    host.sim("freeze")
    ok(host.svmram("restore", "d10"))
    ok(host.cmd("metasync", "-c", "d10"))
    assert "Resync cancelled" in host.cmd("metastat", "d10").stdout
    ok(host.sim("thaw"))    # teardown may resync a disk (solaris10)
    result = ok(host.svmram("teardown", "-y", "d10"))
    assert "Traceback" not in result.stderr
    assert host.metastat_p() == host.article(releases.ORIGINAL)
    assert host.violations() == []


def test_setup_refuses_a_ram_submirror_it_did_not_create(tmp_path):
    """With memory for both ramdisks, so that only the foreign RAM
    submirror can stop setup."""
    with open(host_file("closed-article"), encoding="utf-8") as stream:
        layout = json.load(stream)
    layout["physmem"] = 4 * 1024 ** 3
    big = tmp_path / "big.json"
    big.write_text(json.dumps(layout))
    host = EmulatedHost(tmp_path / "host", host_file=str(big))
    ok(host.cmd("ramdiskadm", "-a", "mine", "240m"))
    for kind, target in (("dsk", "/dev/ramdisk/mine"),
                         ("rdsk", "/dev/rramdisk/mine")):
        os.symlink(target, os.path.join(host.root, "dev", kind, "c95t0d0s0"))
    ok(host.cmd("metainit", "d14", "1", "1", "c95t0d0s0"))
    ok(host.cmd("metattach", "d10", "d14"))
    ok(host.sim("tick"))
    before = host.state_digest()
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode != 0
    assert "d14" in result.stderr and "did not create" in result.stderr
    assert host.state_digest() == before
    assert host.trace() == []


def test_teardown_leaves_a_split_off_disk_submirror_alone(host):
    ok(host.svmram("setup", "-y", "d10"))
    ok(host.cmd("metadetach", "d10", "d12"))      # a backup copy
    host.clear_trace()
    result = ok(host.svmram("teardown", "-y", "d10"))
    assert "d12 is no longer in d10 and is left alone" in result.stdout
    assert not any(argv[0] == "metattach" for argv in host.trace())
    assert host.metastat_p("d10") == host.article(
        "d10 -m /dev/md/rdsk/d11 1\nd11 1 1 /dev/rdsk/c0d1s0\n")


def test_teardown_reattach_brings_a_split_off_disk_back(host):
    ok(host.svmram("setup", "-y", "d10"))
    ok(host.cmd("metadetach", "d10", "d12"))
    ok(host.svmram("teardown", "-y", "--reattach", "d10"))
    assert host.metastat_p() == host.article(releases.ORIGINAL)


@pytest.mark.emulator_only("kills svmram and reboots the host")
def test_a_reboot_late_in_a_rotate_refills_ram_in_place(host):
    """Killed after its last metattach (the disks are already behind the
    RAM submirror), then a reboot: the resumed setup refills the RAM
    submirror with metareplace -e instead of rotating both disks again."""
    if releases.release(host) == releases.SOLARIS10:
        pytest.skip("a rotate's sequence; where metadetach leaves a hole "
                    "setup fills it instead (the fault matrix's solaris10 "
                    "profile covers faults there)")
    result = host.svmram_killed("metattach", 3, "setup", "-y", "d10")
    assert result.returncode == -9, result.stderr
    ok(host.sim("tick"))
    ok(host.reboot())
    host.clear_trace()
    before = copied(host)
    ok(host.svmram("setup", "-y", "d10"))
    trace = host.trace()
    assert ["metareplace", "-e", "d10", "c90t0d0s0"] in trace
    assert not any(argv[0] in ("metadetach", "metattach") for argv in trace)
    # One RAM refill, not two disk resyncs and a RAM one (1.4 M blocks).
    assert copied(host) - before == 465885
    ok(host.sim("tick"))
    assert host.metastat_p("d10").startswith(
        "d10 -m /dev/md/rdsk/d13 /dev/md/rdsk/d11 /dev/md/rdsk/d12 -r 1\n")
    assert host.violations() == []


@pytest.mark.emulator_only("kills svmram and reboots the host")
def test_a_setup_killed_while_a_disk_reattaches_resumes_after_a_reboot(host):
    """Killed right after re-attaching the first disk submirror (d11 is
    resyncing behind d12 and d13), then a reboot in the middle of that
    resync: the boot resumes it, and the resumed setup waits for it
    instead of failing at a metadetach SVM refuses during a resync."""
    if releases.release(host) == releases.SOLARIS10:
        pytest.skip("a rotate's sequence; where metadetach leaves a hole "
                    "setup fills it instead (the fault matrix's solaris10 "
                    "profile covers faults there)")
    _killed_while_d11_reattaches_then_rebooted(host)
    assert "Resync in progress" in host.cmd("metastat", "d10").stdout
    result = ok(host.svmram("setup", "-y", "d10"))
    assert "Traceback" not in result.stderr
    assert "setup d10: resuming the setup recorded in " in result.stderr
    # The RAM submirror is refilled where it is (slot 1), then only d12
    # goes round: no detach of d13, one disk resync.
    assert [argv[:2] for argv in releases.after_slot_test(
            host, host.trace())] == [
        ["ramdiskadm", "-a"], ["metareplace", "-e"], ["metadetach", "d10"],
        ["metattach", "d10"], ["metaparam", "-r"]] + [["svccfg", "-f"], ["svcadm", "enable"]]
    ok(host.sim("tick"))
    assert host.metastat_p() == host.article(
        "d10 -m /dev/md/rdsk/d13 /dev/md/rdsk/d11 /dev/md/rdsk/d12 -r 1\n"
        "d13 1 1 /dev/rdsk/c90t0d0s0\n"
        "d11 1 1 /dev/rdsk/c0d1s0\n"
        "d12 1 1 /dev/rdsk/c1d0s0\n")
    assert host.svmram("status", "d10").returncode == 0
    assert host.violations() == []


def _killed_while_d11_reattaches_then_rebooted(host):
    result = host.svmram_killed("metattach", 2, "setup", "-y", "d10")
    assert result.returncode == -9, result.stderr
    ok(host.sim("tick", "1"))
    assert "Resync in progress" in host.cmd("metastat", "d10").stdout
    ok(host.reboot())
    host.clear_trace()


@pytest.mark.emulator_only("kills svmram and reboots the host")
def test_a_teardown_waits_out_a_boot_resync_beside_an_erred_ram_submirror(
        host):
    """The same state, undone instead: the wait for the boot resync is not
    stopped by the RAM submirror in maintenance, which no resync mends."""
    _killed_while_d11_reattaches_then_rebooted(host)
    assert "Resync in progress" in host.cmd("metastat", "d10").stdout
    result = ok(host.svmram("teardown", "-y", "d10"))
    assert "Traceback" not in result.stderr
    assert releases.after_slot_test(host, host.trace())[0] == [
        "metadetach", "-f", "d10", "d13"]
    assert host.metastat_p() == host.article(releases.ORIGINAL)
    assert host.violations() == []


@pytest.mark.emulator_only("kills svmram and reboots the host")
def test_a_pending_resync_of_a_pass_0_mirror_is_started_not_waited_for(
        host):
    """Pass 0: at boot svc:/system/metasync leaves the mirror alone, so
    the resync a reboot interrupted stays pending ('Invoke: metasync d10')
    until someone runs metasync.  The resumed setup starts it instead of
    polling for ever."""
    ok(host.cmd("metaparam", "-p", "0", "d10"))
    _killed_while_d11_reattaches_then_rebooted(host)
    assert "Invoke: metasync d10" in host.cmd("metastat", "d10").stdout
    result = ok(host.svmram("setup", "-y", "d10"))
    assert "Start the resync SVM left pending in d10" in result.stderr
    assert releases.after_slot_test(host, host.trace())[0] == [
        "metasync", "d10"]
    ok(host.sim("tick"))
    assert host.svmram("status", "d10").returncode == 0
    assert host.violations() == []


@pytest.mark.emulator_only("kills svmram and reboots the host")
def test_a_setup_killed_after_its_record_leaves_the_refill_to_restore(host):
    """Killed after writing the record, before enabling the instance, then
    a reboot at which another program's ramdisk takes the device number
    the record holds.  The rerun only enables the instance: its restore
    replaces the RAM component onto a new link and records the new
    number, so status says d10 serves from RAM (the rerun itself used to
    refill onto the new number and leave the record naming the old)."""
    host.install()
    # Killed once svccfg -f wrote the whole record (its last command
    # refreshes it), before setup's journal and the enable.
    result = host.svmram_killed("svccfg", 1, "setup", "-y", "d10")
    assert result.returncode == -9, result.stderr
    ok(host.reboot("--boot-ramdisk", "other=1048576"))
    host.clear_trace()
    result = ok(host.svmram("setup", "-y", "d10"))
    assert [argv[:2] for argv in host.trace() if argv[0] != "dd"][:1] == [
        ["svcadm", "enable"]]
    ok(host.sim("tick"))
    status = host.svmram("status", "d10")
    assert status.returncode == 0, status.stdout
    assert "c91t0d0s0" in host.metastat_p("d10")
    assert host.violations() == []
