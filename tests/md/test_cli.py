# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The svmram command on md (issue 12, the CLI wiring), on a fake kernel
(mdcli.py, fakekernel.py: fake mdadm, modprobe, rmmod and systemctl
moving a fake sysfs tree captured from a real kernel,
fixtures/vm-after-teardown: a clean two-disk RAID-1 md0 with an internal
bitmap).  Exact argv sequences (SVMRAM_TRACE), the record, the
unit's state, the tree after teardown and after a rollback, exit codes
and messages."""

import json
import os
import subprocess
import sys

import pytest

import fakekernel
import faketree
import inprocess
from mdcli import (GROWN, IS_ENABLED, RECORD, SETUP_ARGVS, STOP_ARGVS, UNIT,
                   Host, set_up, stopped_by_the_unit)

from svmram import run

def test_setup_dry_run_prints_the_sh_script_and_changes_nothing(host):
    before = host.sysfs()
    rc, out, err, argvs = host.svmram("setup", "-n", "/dev/md0")
    assert (rc, argvs) == (0, [IS_ENABLED]), err
    lines = out.splitlines()
    assert lines[0] == "#!/bin/sh"
    assert "# Method: grow." in lines
    bindir = host.bindir
    state = host.path("/sys/block/md0/md/dev-%s/state")
    for line in (
            "%s/modprobe brd rd_nr=1 rd_size=131072" % bindir,
            "%s/mdadm --grow /dev/md0 --raid-devices=3 --add /dev/ram0"
            % bindir,
            "wait_resync md0",
            "printf %%s writemostly > %s" % (state % "vda"),
            "printf %%s writemostly > %s" % (state % "vdb"),
            "%s/systemctl enable %s" % (bindir, UNIT),
            "%s/systemctl start %s" % (bindir, UNIT)):
        assert line in lines
    assert any(line.startswith("mkdir -p %s && printf" % host.path(
        "/etc/svmram/md")) for line in lines)
    assert host.sysfs() == before
    assert not os.path.exists(host.path(RECORD))
    assert subprocess.run(["sh", "-n"], input=out, text=True).returncode == 0


def test_setup_on_the_existing_array(host):
    out, err = set_up(host)
    assert out == "md0: reads are served from the RAM member /dev/ram0; " \
                  "the disks vda vdb are write-mostly.\n"
    assert host.record() == GROWN
    assert [host.state(d) for d in ("vda", "vdb", "ram0")] == [
        "in_sync,write_mostly", "in_sync,write_mostly", "in_sync"]
    assert host.unit() == ["enabled", "active"]
    assert not os.path.exists(host.path("/var/svmram/md0.journal"))
    # A second setup (issue 38: automation reruns it) has nothing to
    # do, changing nothing; so has -n, whose output stays a script.
    for option in ("-y", "-n"):
        rc, out, err, argvs = host.svmram("setup", option, "/dev/md0")
        assert (rc, out, err) == (0, "%smd0 is already set up; nothing to "
                                  "do.\n" % ("# " if option == "-n" else ""),
                                  ""), err
        assert argvs == SETUP_ARGVS[-2:] and host.record() == GROWN
    # Asked for other disks, it is still refused.
    rc, out, err, argvs = host.svmram("setup", "-y", "--disks", "/dev/vda",
                                      "/dev/md0")
    assert rc == 3 and err.splitlines()[0] == \
        "svmram: md0 is recorded with the disks vda vdb", err
    assert host.record() == GROWN


def test_status_and_status_json(host):
    rc, out, err, argvs = host.svmram("status")
    assert (rc, out) == (0, "No array is set up for reads from RAM.\n")
    rc, out, err, _ = host.svmram("status", "/dev/md0")
    assert rc == 4 and "md0: NOT serving reads from RAM: md0 is not set " \
                       "up by svmram (no record %s)" % RECORD in out
    set_up(host)
    rc, out, err, _ = host.svmram("status", "/dev/md0")
    assert (rc, out) == (0, (
        "md0: serving reads from RAM (/dev/ram0 in sync, the disks "
        "write-mostly)\n"
        "    members:    vda in_sync, vdb in_sync, ram0 in_sync (RAM)\n"
        "    RAM disk:   ram0, present\n"
        "    service:    svmram@md0.service active\n"))
    rc, out, err, argvs = host.svmram("status", "--json")
    assert rc == 0, err
    assert argvs == [["systemctl", "is-enabled", UNIT],
                     ["systemctl", "is-active", UNIT]]
    found = json.loads(out)
    assert found["format"] == 2
    [entry] = found["targets"]
    assert {key: entry[key] for key in (
        "target", "configured", "verdict", "serving_from_ram", "reasons",
        "disk_redundancy", "ram_copy", "method", "sync_percent",
        "size_blocks", "boot_service", "read_policy")} == {
        "target": "md0", "configured": True, "verdict": "serving",
        "serving_from_ram": True, "reasons": [],
        "disk_redundancy": {"state": "full", "current": ["vda", "vdb"],
                            "reasons": [], "fixes": []},
        "ram_copy": "ram0", "method": "grow", "sync_percent": None,
        "size_blocks": 260096, "read_policy": None,
        "boot_service": {"name": UNIT, "state": "active"}}
    # One schema: no key of md's own names beside the neutral ones.
    assert sorted(entry) == sorted([
        "target", "configured", "verdict", "serving_from_ram", "reasons",
        "disk_redundancy", "ram_copy", "method", "read_policy",
        "size_blocks", "sync_percent", "sync_bytes_per_second",
        "sync_seconds_left", "scrub", "raised_speed_limit", "copies", "ramdisk",
        "boot_service"])
    assert entry["copies"] == [
        {"slot": 0, "name": "vda", "state": "in_sync", "ram": False,
         "write_mostly": True},
        {"slot": 1, "name": "vdb", "state": "in_sync", "ram": False,
         "write_mostly": True},
        {"slot": 2, "name": "ram0", "state": "in_sync", "ram": True,
         "write_mostly": False}]
    assert entry["ramdisk"]["present"] is True
    rc, out, err, _ = host.svmram("status", "/dev/md0")
    assert (rc, out.splitlines()[0]) == (
        0, "md0: serving reads from RAM (/dev/ram0 in sync, the disks "
           "write-mostly)")
    # The unit disabled by hand: not serving (4).
    host.set_unit("disabled", "active")
    rc, out, err, _ = host.svmram("status", "-j")
    [entry] = json.loads(out)["targets"]
    assert (rc, entry["verdict"], entry["reasons"]) == (
        4, "not_serving", ["its boot unit %s is disabled" % UNIT])
    # A disk gone from the array: degraded (5).
    host.set_unit("enabled", "active")
    faketree.remove(host.root, "/sys/block/md0/md/dev-vdb")
    rc, out, err, _ = host.svmram("status", "--json")
    [entry] = json.loads(out)["targets"]
    assert (rc, entry["verdict"], entry["disk_redundancy"]["reasons"]) == (
        5, "degraded", ["vdb is not in md0"])


def test_teardown_goes_back_to_the_original_array(host):
    before = host.sysfs()
    set_up(host)
    rc, out, err, argvs = host.svmram("teardown", "-y", "/dev/md0")
    assert rc == 0, err
    assert argvs == [
        ["systemctl", "is-enabled", UNIT], ["systemctl", "is-active", UNIT],
        ["mdadm", "/dev/md0", "--fail", "/dev/ram0", "--remove",
         "/dev/ram0"],
        ["mdadm", "--grow", "/dev/md0", "--raid-devices=2"],
        ["rmmod", "brd"],
        ["systemctl", "disable", "--now", UNIT]]
    assert out == "md0: the RAM member is gone; the disks vda vdb serve " \
                  "reads again.\n"
    assert host.sysfs() == before
    assert not os.path.exists(host.path(RECORD))
    assert not os.path.exists(host.path(RECORD + ".teardown"))
    assert host.unit() == ["disabled", "inactive"]
    rc, out, err, argvs = host.svmram("teardown", "-y", "/dev/md0")
    assert (rc, argvs) == (3, [])
    assert "md0 is not set up by svmram (%s does not exist)" % RECORD in err


def test_restore_after_a_clean_stop(host):
    """The array as the unit's stop leaves it: RAM member removed, raid
    devices shrunk, brd unloaded, disks still write-mostly."""
    stopped_by_the_unit(host)
    rc, out, err, argvs = host.svmram("status", "/dev/md0")
    assert rc == 4
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert rc == 0, err
    assert argvs == SETUP_ARGVS[2:4]
    assert out == "md0: md is copying the disks onto /dev/ram0; the disks " \
                  "serve reads until it is in sync.\n"
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert (rc, argvs) == (0, [])
    assert out == "md0: nothing to do: /dev/ram0 is in sync.\n"


@pytest.mark.parametrize("args, code, words", [
    (("setup", "-y", "/dev/sda"), 2,
     "svmram: '/dev/sda' is not an md array name: name an md array as "
     "/dev/mdN, /dev/md/NAME or mdN"),
    (("setup", "-y", "/dev/md5"), 3, "svmram: there is no array md5"),
    (("setup", "-y", "/dev/md/nothing"), 3,
     "svmram: /dev/md/nothing is not a block device"),
    (("setup", "-y", "/dev/md0", "--disks", "/dev/vdz"), 3,
     "svmram: /dev/vdz is not a block device"),
])
def test_refusals_change_nothing(host, args, code, words):
    before = host.sysfs()
    rc, out, err, argvs = host.svmram(*args)
    assert rc == code
    assert [argv for argv in argvs if argv[:2] != IS_ENABLED[:2]] == []
    assert words in err.splitlines()
    assert host.sysfs() == before


def test_an_array_that_is_not_raid1_is_refused(host):
    faketree.write(host.root, "/sys/block/md0/md/level", "raid5")
    before = host.sysfs()
    rc, out, err, argvs = host.svmram("setup", "-y", "/dev/md0")
    assert (rc, argvs) == (3, [IS_ENABLED])
    assert err.splitlines() == [
        "svmram: md0 is raid5, not RAID-1",
        "svmram: svmram only adds a RAM member to RAID-1 arrays."]
    assert host.sysfs() == before and not os.path.exists(host.path(RECORD))


def test_a_failed_step_rolls_back(host):
    before = host.sysfs()
    faketree.write(host.root, "/" + fakekernel.FAIL, "mdadm --grow")
    rc, out, err, argvs = host.svmram("setup", "-y", "/dev/md0")
    assert rc == 1
    assert argvs == SETUP_ARGVS[:4] + [["rmmod", "brd"],
                                      ["systemctl", "disable", "--now", UNIT]]
    assert "svmram: rolling back to the original configuration" in err
    assert "Everything was rolled back; md0 is as it was before." in err
    assert "mdadm: injected failure" in err
    assert host.sysfs() == before
    assert not os.path.exists(host.path(RECORD))
    assert not os.path.exists(host.path(RECORD + ".teardown"))
    assert not os.path.exists(host.path("/var/svmram/md0.journal"))
    # the unit the setup had enabled is disabled again
    assert host.unit() == ["disabled", "inactive"]
    # Then the setup goes through.
    set_up(host)


def test_setup_of_a_new_array_from_disks_then_teardown(tmp_path):
    host = Host(tmp_path, "vm-before.sysfs.txt")
    for disk in ("vda", "vdb"):
        faketree.write(host.root, "/dev/" + disk, "")
    rc, out, err, argvs = host.svmram("setup", "-y", "/dev/md0", "--disks",
                                      "/dev/vda,/dev/vdb")
    assert rc == 0, err
    assert argvs == SETUP_ARGVS[:3] + [
        ["mdadm", "--create", "/dev/md0", "--run", "--metadata=1.2",
         "--level=1", "--raid-devices=3", "--bitmap=internal", "/dev/ram0",
         "--write-mostly", "/dev/vda", "/dev/vdb"]] + SETUP_ARGVS[4:]
    assert host.record() == dict(GROWN, created=True)
    assert [host.state(d) for d in ("vda", "vdb", "ram0")] == [
        "in_sync,write_mostly", "in_sync,write_mostly", "in_sync"]
    rc, out, err, argvs = host.svmram("teardown", "-y", "md0")
    assert rc == 0, err
    assert argvs[2:] == [
        ["mdadm", "/dev/md0", "--fail", "/dev/ram0", "--remove",
         "/dev/ram0"],
        ["mdadm", "--grow", "/dev/md0", "--raid-devices=2"],
        ["rmmod", "brd"], ["systemctl", "disable", "--now", UNIT]]
    # The array setup created stays, on its disks alone.
    assert [host.state(d) for d in ("vda", "vdb")] == ["in_sync", "in_sync"]
    with open(host.path("/sys/block/md0/md/raid_disks")) as stream:
        assert stream.read() == "2\n"
    assert not os.path.exists(host.path(RECORD))


# The time-to-RAM note where the disks cannot be read (the fake tree has
# no /dev nodes): what the estimate needs, and why it is not known.
NOT_MEASURED = (
    "Time to RAM: 127.0 MiB over one disk's sequential read rate, not "
    "measured here (cannot read /dev/vda: No such file or directory; "
    "cannot read /dev/vdb: No such file or directory), at setup and at "
    "every boot's restore; the disks serve reads until then, and other I/O "
    "slows the copy (md keeps at least sync_speed_min).")


def test_check_and_setup_n_say_how_long_the_copy_into_ram_takes(host):
    """issue 37, 3: the array's size over the slowest disk's sequential
    read, measured now (the fake kernel's DISK_READ_MBS: vdb at 150 MB/s,
    143 MiB/s; 133169152 bytes take 0.89 s, 1 s rounded up), or over
    md's limit where the administrator set one below it."""
    faketree.write(host.root, "/" + fakekernel.DISK_READ_MBS,
                   "vda 180\nvdb 150")
    note = ("Time to RAM: about 1 s (127.0 MiB at 143 MiB/s, vdb's "
            "sequential read measured now: 64 MiB, O_DIRECT, the slowest "
            "disk), at setup and at every boot's restore; the disks serve "
            "reads until then, and other I/O slows the copy (md keeps at "
            "least sync_speed_min).")
    rc, out, err, argvs = host.svmram("check", "/dev/md0")
    assert (rc, argvs) == (0, [IS_ENABLED])
    assert out.splitlines()[1].endswith("nothing is stopped. " + note)
    rc, out, err, _ = host.svmram("setup", "-n", "/dev/md0")
    assert rc == 0 and "# " + note in out.splitlines()
    # the administrator's own limit (local), below the disks: md's
    # limit bounds the copy, 130048 KiB at 8000 KiB/s in 17 s
    faketree.write(host.root, "/sys/block/md0/md/sync_speed_max",
                   "8000 (local)")
    rc, out, err, _ = host.svmram("check", "--json", "/dev/md0")
    assert rc == 0
    assert json.loads(out)["mirrors"][0]["detail"].endswith(
        "Time to RAM: about 17 s (127.0 MiB at 7.8 MiB/s, md's "
        "sync_speed_max set on this host; the disks read 143 MiB/s), at "
        "setup and at every boot's restore; the disks serve reads until "
        "then, and other I/O slows the copy (md keeps at least "
        "sync_speed_min).")


def test_check(host):
    rc, out, err, argvs = host.svmram("check")
    assert (rc, argvs) == (0, [IS_ENABLED])
    assert out.splitlines() == [
        "ok       kernel    Linux 6.1.0-56-cloud-amd64",
        "md0: ready: existing array: md0 grows from 2 to 3 raid devices, "
        "adding a RAM member of 131072 KiB (130048 KiB of data + 1024 KiB "
        "of data offset); nothing is stopped. " + NOT_MEASURED]
    set_up(host)
    rc, out, err, argvs = host.svmram("check", "--json", "/dev/md0")
    assert rc == 0
    assert json.loads(out)["mirrors"] == [{
        "mirror": "md0", "verdict": "set up",
        "detail": "recorded in %s" % RECORD}]
    # set up, but its unit failed: setup starts it, and check says so
    # (it said "set up", as if nothing were to do)
    host.set_unit("enabled", "failed")
    rc, out, err, argvs = host.svmram("check", "/dev/md0")
    assert (rc, err) == (0, "")
    assert out.splitlines()[1:] == [
        "md0: ready: md0 is set up but its boot unit %s is failed; setup "
        "starts it." % UNIT]
    host.set_unit("enabled", "active")
    faketree.write(host.root, "/sys/block/md0/md/level", "raid5")
    faketree.remove(host.root, "/" + RECORD[1:])
    rc, out, err, argvs = host.svmram("check", "/dev/md0")
    assert rc == 3
    assert out.splitlines()[1:] == [
        "md0: refused: md0 is raid5, not RAID-1",
        "    svmram only adds a RAM member to RAID-1 arrays."]


def test_setup_without_the_boot_unit_installed_is_refused(host):
    os.unlink(host.path(fakekernel.UNIT_FILE))
    before = host.sysfs()
    for args in (("setup", "-n", "/dev/md0"), ("setup", "-y", "/dev/md0")):
        rc, out, err, argvs = host.svmram(*args)
        assert (rc, out, argvs) == (3, "", [IS_ENABLED])
        assert err.splitlines() == [
            "svmram: the boot unit %s is not installed, so nothing would "
            "bring back the RAM member of md0 after a boot" % UNIT,
            "svmram: Reinstall svmram's package (apt install "
            "./svmram_VERSION_all.deb), or from its source tree run 'make "
            "install-linux', then run setup again."]
    assert host.sysfs() == before and not os.path.exists(host.path(RECORD))
    # check gives setup's verdict (issue 37, 4: it said "ready", exit 0)
    rc, out, err, argvs = host.svmram("check", "/dev/md0")
    assert (rc, err, argvs) == (3, "", [IS_ENABLED])
    assert out.splitlines()[1:] == [
        "md0: refused: the boot unit %s is not installed, so nothing would "
        "bring back the RAM member of md0 after a boot" % UNIT,
        "    Reinstall svmram's package (apt install "
        "./svmram_VERSION_all.deb), or from its source tree run 'make "
        "install-linux', then run setup again."]


def test_check_refuses_what_setup_refuses_and_readies_what_it_does(host):
    """One verdict (backend.setup_verdict): an array that is not there,
    and a systemd that does not answer, refuse both; a ready array is
    what setup -n then plans."""
    for array in ("/dev/md5", "/dev/md0"):
        if array == "/dev/md0":
            faketree.write(host.root, "/" + fakekernel.FAIL,
                           "systemctl is-enabled")
        rc, out, err, _ = host.svmram("check", array)
        checked = out.splitlines()[1]
        if array == "/dev/md0":
            faketree.write(host.root, "/" + fakekernel.FAIL,
                           "systemctl is-enabled")
        rc2, out2, err2, _ = host.svmram("setup", "-n", array)
        assert (rc, rc2, out2) == (3, 3 if array == "/dev/md5" else 1, "")
        assert checked == "%s: refused: %s" % (
            array[5:], err2.splitlines()[0][len("svmram: "):])
    rc, out, err, argvs = host.svmram("check", "/dev/md0")
    assert (rc, argvs) == (0, [IS_ENABLED])
    rc2, out2, err2, _ = host.svmram("setup", "-n", "/dev/md0")
    assert rc2 == 0
    # setup's notes, one a line, are check's detail
    lines = out2.splitlines()
    notes = lines[lines.index("# Method: grow.") + 1:[
        n for n, line in enumerate(lines) if line.startswith("# Cost:")][0]]
    assert len(notes) == 2 and notes[1] == "# " + NOT_MEASURED
    assert out.splitlines()[1][len("md0: ready: "):] == " ".join(
        line[2:] for line in notes)


def test_stop_takes_the_ram_member_out_then_restore_brings_it_back(host):
    """The unit's ExecStop and ExecStart: svmram stop, then at the next
    boot svmram restore."""
    set_up(host)
    rc, out, err, argvs = host.svmram("stop", "/dev/md0")
    assert (rc, argvs) == (0, STOP_ARGVS), err
    assert out == ("md0: the RAM member is out; the next boot assembles the "
                   "array from its disks.\n")
    assert os.path.exists(host.path(RECORD))
    rc, out, err, argvs = host.svmram("stop", "/dev/md0")
    assert (rc, argvs) == (0, [])
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert (rc, argvs) == (0, SETUP_ARGVS[2:4]), err


def test_stop_stands_aside_without_a_record_or_during_a_teardown(host):
    rc, out, err, argvs = host.svmram("stop", "md0")
    assert (rc, argvs) == (0, [])
    assert out == ("md0: not set up by svmram (%s does not exist); nothing "
                   "to stop.\n" % RECORD)
    set_up(host)
    faketree.write(host.root, RECORD + ".teardown", "")
    rc, out, err, argvs = host.svmram("stop", "/dev/md0")
    assert (rc, argvs) == (0, [])
    assert out == ("md0: a teardown of it is running or was cut short, and "
                   "finishes it; nothing to stop.\n")


def test_stop_is_md_s_alone():
    env = dict(os.environ)
    env.pop("SVMRAM_ROOT", None)
    rc, out, err = inprocess.svmram(("stop", "d10"), env,
                                    runner=run.start_process)
    assert (rc, out) == (2, "")
    assert err.startswith("svmram: 'stop' is the shutdown step of md's boot "
                          "unit; SVM needs none")


def test_stop_stands_aside_at_once_while_teardown_holds_the_lock(
        host, lock_holder):
    """Teardown's first step writes the marker; its step "disable unit"
    runs systemctl disable --now, which runs the unit's ExecStop (svmram
    stop) while teardown holds the host lock: stop must stand aside without waiting
    for that lock, as under systemd (INVOCATION_ID) it would wait."""
    set_up(host)
    faketree.write(host.root, RECORD + ".teardown", "")
    lock_holder(host)
    rc, out, err, argvs = host.svmram("stop", "/dev/md0",
                                      env={"INVOCATION_ID": "test"})
    assert (rc, argvs, err) == (0, [], "")
    assert out == ("md0: a teardown of it is running or was cut short, and "
                   "finishes it; nothing to stop.\n")


def test_a_failed_restore_names_the_step_as_the_run_counts_it(host):
    """restore plans again after every step, but a failure names the step
    by its place in the whole run: here the third (load brd, raise the
    recovery speed limit, then the grow that fails), not "step 1"."""
    set_up(host)
    rc, _, err, _ = host.svmram("stop", "/dev/md0")
    assert rc == 0, err
    faketree.write(host.root, "/" + fakekernel.FAIL, "mdadm --grow")
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert rc == 1
    assert argvs == SETUP_ARGVS[2:4]
    assert err.splitlines()[:4] == [
        "restore md0: Load brd with one RAM disk of 131072 KiB (/dev/ram0).",
        "restore md0: Raise the recovery speed limit of md0 to md's "
        "maximum, 2147483647 KiB/s.",
        "restore md0: Grow md0 to 3 raid devices, adding ram0.",
        "svmram: step 3 failed (Grow md0 to 3 raid devices, adding ram0): "
        "%s/mdadm --grow /dev/md0 --raid-devices=3 --add /dev/ram0 failed: "
        "mdadm: injected failure" % host.bindir]


def enodev_reads(host):
    path = host.path("/" + fakekernel.ENODEV_READS)
    if not os.path.exists(path):
        return 0
    with open(path) as stream:
        return int(stream.read())


def test_a_removed_member_whose_attributes_read_enodev_is_gone(host):
    """After `mdadm --remove`, md deletes the member's sysfs directory a
    moment later, and meanwhile its attributes fail with ENODEV (md.c
    rdev_attr_show once rdev->mddev is NULL).  The step after the
    removal reads the array then: the member is gone, not a failure.
    stop, teardown and a setup's rollback all read it so."""
    set_up(host)
    rc, out, err, argvs = host.svmram("stop", "/dev/md0")
    assert (rc, argvs) == (0, STOP_ARGVS), err
    assert "svmram:" not in err
    assert enodev_reads(host) > 0
    rc, _, err, _ = host.svmram("restore", "/dev/md0")
    assert rc == 0, err
    os.unlink(host.path("/" + fakekernel.ENODEV_READS))
    rc, out, err, argvs = host.svmram("teardown", "-y", "/dev/md0")
    assert rc == 0, err
    assert enodev_reads(host) > 0
    assert not os.path.exists(host.path(RECORD))


def test_restore_adds_no_ram_member_while_a_recorded_disk_is_missing(host):
    """A disk missing at boot (issue 21, 3): restore must not give the
    RAM member the disk's empty slot (md's --add takes the lowest free
    one), and says what to do; status says the same, exit 5."""
    set_up(host)
    rc, out, err, argvs = host.svmram("stop", "/dev/md0")
    assert (rc, argvs) == (0, STOP_ARGVS), err
    host.command(["mdadm", "/dev/md0", "--fail", "/dev/vdb", "--remove",
                   "/dev/vdb"])
    pull_disk(host, "vdb")
    before = host.sysfs()
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert (rc, argvs, out) == (3, [], "")
    assert err.splitlines() == [
        "svmram: vdb is not in md0, so restore adds no RAM member (it would "
        "take the slot the disk comes back to); md0 serves reads from vda",
        "svmram: When the disk is back, add it again (mdadm /dev/md0 --add "
        "/dev/vdb), wait for md's recovery of it (mdadm --wait /dev/md0), "
        "then systemctl restart svmram@md0.service."]
    assert host.sysfs() == before
    # the unit's ExecStart failed: systemd says failed
    host.set_unit("enabled", "failed")
    rc, out, err, argvs = host.svmram("status", "/dev/md0")
    assert rc == 5, out + err
    assert out.splitlines()[:3] == [
        "md0: DEGRADED: only 1 of 2 disks holds current data (vdb is not "
        "in md0).",
        "md0: mdadm /dev/md0 --add /dev/vdb.",
        "md0: NOT serving reads from RAM: ram0 is not in md0; brd is not "
        "loaded; its boot unit svmram@md0.service is failed (journalctl -b "
        "-u svmram@md0.service says why and what to do)"], out
    # the advice works: the disk back, restore adds the RAM member
    pull_disk(host, "vdb", back=True)
    host.command(["mdadm", "/dev/md0", "--add", "/dev/vdb"])
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert (rc, argvs) == (0, SETUP_ARGVS[2:4]), err


def pull_disk(host, disk, back=False):
    """The disk's block device gone from /sys (a disk missing at boot),
    or back."""
    away = host.path("/pulled-" + disk)
    there = host.path("/sys/block/" + disk)
    link = host.path("/sys/class/block/" + disk)
    if back:
        os.rename(away, there)
        os.symlink(there, link)
    else:
        os.rename(there, away)
        os.unlink(link)


def slots(host):
    base = host.path("/sys/block/md0/md")
    found = {}
    for entry in sorted(os.listdir(base)):
        if entry.startswith("dev-"):
            with open(os.path.join(base, entry, "slot")) as slot, \
                    open(os.path.join(base, entry, "state")) as state:
                found[entry[4:]] = (slot.read().strip(),
                                    state.read().strip())
    return found


def stopped_with_vdb_out(host):
    """md0 as a boot finds it after `svmram stop` when vdb had been
    missing at the boot before: vda alone in sync, vdb out of md0 (md's
    start left it out: its superblock is older) but there."""
    set_up(host)
    rc, out, err, argvs = host.svmram("stop", "/dev/md0")
    assert (rc, argvs) == (0, STOP_ARGVS), err
    host.command(["mdadm", "/dev/md0", "--fail", "/dev/vdb", "--remove",
                   "/dev/vdb"])
    # md's work queue has deleted the member's directory by then
    faketree.remove(host.root, "/sys/block/md0/md/dev-vdb")


def test_restore_waits_until_md_has_put_a_returning_disk_in_its_slot(host):
    """The race of issue 28 (trixie, the disk back at boot): udev's
    incremental assembly re-added vdb to the running md0, which lists it
    as a spare until md's thread gives it its slot a moment later.  A
    RAM member added meanwhile took the lowest free slot, vdb's ("step 3
    failed (Grow md0 to 3 raid devices, adding ram0): afterwards ram0 is
    in slot 1 of md0, expected 2") and vdb went to slot 2, a full
    recovery.  restore waits (bounded) until vdb is in its slot, then
    adds ram0 into the new one."""
    stopped_with_vdb_out(host)
    # udev's mdadm --incremental: vdb a spare of md0, no slot yet
    host.command(["mdadm", "/dev/md0", "--re-add", "/dev/vdb"])
    faketree.write(host.root, "/sys/block/md0/md/dev-vdb/slot", "none")
    faketree.write(host.root, "/sys/block/md0/md/dev-vdb/state",
                   "write_mostly")
    faketree.write(host.root, "/sys/block/md0/md/degraded", "1")
    assert slots(host) == {"vda": ("0", "in_sync,write_mostly"),
                           "vdb": ("none", "write_mostly")}
    # md's thread gives vdb its slot at the 6th look at md0
    faketree.write(host.root, "/" + fakekernel.MD_THREAD, "6")
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert (rc, argvs) == (0, SETUP_ARGVS[2:4]), err
    assert out.splitlines() == [
        "restore md0: waiting up to 20 s for md to take vdb back into its "
        "slot",
        "md0: md is copying the disks onto /dev/ram0; the disks serve "
        "reads until it is in sync."]
    assert slots(host) == {"ram0": ("2", "in_sync"),
                           "vda": ("0", "in_sync,write_mostly"),
                           "vdb": ("1", "in_sync,write_mostly")}


def test_restore_re_adds_a_disk_that_is_back_before_the_ram_member(host):
    """vdb is there but md left it out of md0, and nothing re-added it
    within the wait: restore re-adds it (md takes it back into its slot
    and recovers from the bitmap what changed), then adds ram0 into the
    new slot."""
    stopped_with_vdb_out(host)
    rc, out, err, argvs = host.svmram("restore", "--wait-disks", "1",
                                      "/dev/md0")
    assert (rc, argvs) == (0, [["mdadm", "/dev/md0", "--re-add",
                                "/dev/vdb"]] + SETUP_ARGVS[2:4]), err
    assert out.splitlines()[0] == (
        "restore md0: waiting up to 1 s for md to take vdb back into its "
        "slot")
    assert err.splitlines()[:2] == [
        "restore md0: Re-add vdb to md0; md recovers what changed while "
        "it was out.",
        "restore md0: Load brd with one RAM disk of 131072 KiB (/dev/ram0)."]
    assert slots(host) == {"ram0": ("2", "in_sync"),
                           "vda": ("0", "in_sync,write_mostly"),
                           "vdb": ("1", "in_sync,write_mostly")}
    rc, out, err, argvs = host.svmram("status", "/dev/md0")
    assert rc == 0, out + err


def test_restore_adds_no_ram_member_when_mdadm_refuses_the_re_add(host):
    """mdadm refuses the re-add (the bitmap cannot say what changed):
    restore stops before the RAM member, quoting mdadm, and says how md
    takes the disk back (mdadm --add alone refuses a disk whose
    superblock says it was a member)."""
    stopped_with_vdb_out(host)
    before = host.sysfs()
    faketree.write(host.root, "/" + fakekernel.FAIL,
                   "mdadm /dev/md0 --re-add")
    rc, out, err, argvs = host.svmram("restore", "--wait-disks", "0",
                                      "/dev/md0")
    assert (rc, argvs) == (3, [["mdadm", "/dev/md0", "--re-add",
                                "/dev/vdb"]])
    assert err.splitlines()[1:] == [
        "svmram: step 1 failed (Re-add vdb to md0; md recovers what "
        "changed while it was out): %s/mdadm /dev/md0 --re-add /dev/vdb "
        "failed: mdadm: injected failure, so restore adds no RAM member "
        "(it would take the slot of vdb); md0 serves reads from vda"
        % host.bindir,
        "svmram: md can take vdb back only by a full recovery: mdadm "
        "--zero-superblock /dev/vdb (mdadm's own advice; the data is on "
        "vda), mdadm /dev/md0 --add /dev/vdb, wait for md's recovery of it "
        "(mdadm --wait /dev/md0), then systemctl restart "
        "svmram@md0.service."]
    assert host.sysfs() == before


def test_restore_adds_no_ram_member_while_a_disk_stays_a_spare(host):
    """md has not put vdb into its slot when the wait ends: no RAM
    member, which would take that slot."""
    stopped_with_vdb_out(host)
    host.command(["mdadm", "/dev/md0", "--re-add", "/dev/vdb"])
    faketree.write(host.root, "/sys/block/md0/md/dev-vdb/slot", "none")
    faketree.write(host.root, "/sys/block/md0/md/dev-vdb/state",
                   "write_mostly")
    before = host.sysfs()
    rc, out, err, argvs = host.svmram("restore", "--wait-disks", "1",
                                      "/dev/md0")
    assert (rc, argvs) == (3, [])
    assert err.splitlines() == [
        "svmram: vdb is a spare in md0, not yet back in its slot, so "
        "restore adds no RAM member (it would take that slot); md0 serves "
        "reads from vda",
        "svmram: Wait for md's recovery of vdb (mdadm --wait /dev/md0), "
        "then systemctl restart svmram@md0.service."]
    assert host.sysfs() == before


# mdadm 4.4 on Debian 13's kernel 6.12 (issue 28, 5; the Debian guest)
BAD_BLOCKS_FAILURE = "mdadm: add new device failed for /dev/ram0 as 2: " \
    "Invalid argument"


def bad_block_entries(host):
    for disk, entry in (("vda", "100000 8"), ("vdb", "100016 8")):
        faketree.write(host.root, "/sys/block/md0/md/dev-%s/bad_blocks"
                       % disk, entry)
    faketree.write(host.root, "/" + fakekernel.FAIL,
                   "mdadm --grow\n" + BAD_BLOCKS_FAILURE)


def bad_blocks_advice(then):
    return (
        "svmram: The disks of md0 have bad-block log entries (vda: 1, vdb: "
        "1; mdadm --examine-badblocks /dev/vda lists them): mdadm copies "
        "their bad-blocks flag onto the new RAM member, and kernels since "
        "6.7 refuse that member (mdadm issue 267, pull request 154, fixed in "
        "mdadm 4.5: Debian 14 has it, Debian 13's 4.4 does not), so md0 "
        "cannot have a RAM member until this system's mdadm is 4.5 or "
        "later; it serves reads from its disks meanwhile.  " + then)


def test_setup_refused_for_the_disks_bad_block_logs_says_why(host):
    """mdadm refuses the RAM member of an array whose disks have bad-block
    log entries (mdadm PR 154): setup quotes mdadm, rolls back, and says
    why and what to do instead of "fix the cause"."""
    bad_block_entries(host)
    rc, out, err, argvs = host.svmram("setup", "-y", "/dev/md0")
    assert (rc, argvs[:4]) == (1, SETUP_ARGVS[:4])
    lines = err.splitlines()
    assert ("svmram: step 5 failed (Grow md0 to 3 raid devices, adding ram0 "
            "and wait for its recovery): %s/mdadm --grow /dev/md0 "
            "--raid-devices=3 --add /dev/ram0 failed: %s" % (
                host.bindir, BAD_BLOCKS_FAILURE)) in lines
    assert lines[-1] == bad_blocks_advice(
        "Run 'svmram setup md0' again once mdadm is 4.5 or later.")
    assert "md0 is as it was before." in lines[-2]
    assert not os.path.exists(host.path(RECORD))


def test_restore_refused_for_the_disks_bad_block_logs_says_why(host):
    set_up(host)
    rc, out, err, argvs = host.svmram("stop", "/dev/md0")
    assert (rc, argvs) == (0, STOP_ARGVS), err
    bad_block_entries(host)
    rc, out, err, argvs = host.svmram("restore", "/dev/md0")
    assert (rc, argvs) == (1, SETUP_ARGVS[2:4])
    assert err.splitlines()[-2:] == [
        "svmram: step 3 failed (Grow md0 to 3 raid devices, adding ram0): "
        "%s/mdadm --grow /dev/md0 --raid-devices=3 --add /dev/ram0 failed: "
        "%s" % (host.bindir, BAD_BLOCKS_FAILURE),
        bad_blocks_advice("'svmram teardown md0' ends the setup, so that "
                          "the boot unit stops trying; set it up again once "
                          "mdadm is 4.5 or later.")]
    # the advice works: teardown leaves the array on its disks
    rc, out, err, argvs = host.svmram("teardown", "-y", "/dev/md0")
    assert rc == 0, err
    assert not os.path.exists(host.path(RECORD))


def into_a_closed_pipe(host, *args, stderr_too=False):
    """sbin/svmram ARGS (fake_svmram.py) with stdout (and with stderr_too
    stderr) a pipe whose reader has exited (`svmram ARGS | true`): (exit
    status, stderr, or "" when it went into the pipe)."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        proc = subprocess.run(
            [sys.executable, os.path.join(os.path.dirname(__file__),
                                          "fake_svmram.py")] + list(args),
            stdin=subprocess.DEVNULL, stdout=writer,
            stderr=writer if stderr_too else subprocess.PIPE,
            text=True, env=host.environment(), timeout=120, check=False)
    finally:
        os.close(writer)
    return proc.returncode, proc.stderr or ""


@pytest.mark.parametrize("args", [
    ("--help",), ("status", "--help"), ("status",), ("status", "--json"),
    ("setup", "-n", "/dev/md0"), ("check",), ("check", "--json")])
def test_output_into_a_closed_pipe_exits_141_and_says_nothing(host, args):
    """Issue 36 section 3.7: `svmram status --help | true` printed a
    BrokenPipeError traceback.  Output into a closed pipe is SIGPIPE's
    exit status and nothing on stderr, as any command's."""
    assert into_a_closed_pipe(host, *args) == (141, "")


# subcommand: [(md0 set up first, the arguments after its name)]: every
# output format, a dry run's script, a change (test_closed_pipe.py's
# FORMS on SVM).
MD_FORMS = {
    "status": [(False, ()), (False, ("--json",)), (False, ("--nagios",)),
               (False, ("--prometheus",)), (True, ()),
               (True, ("--json", "/dev/md0")), (True, ("--nagios",)),
               (True, ("--prometheus",)), (True, ("-H", "-p")),
               (True, ("-x",))],
    "check": [(False, ()), (False, ("--json",)), (False, ("/dev/md0",))],
    "setup": [(False, ("-n", "/dev/md0")), (False, ("-y", "/dev/md0"))],
    "teardown": [(True, ("-n", "/dev/md0")), (True, ("-y", "/dev/md0"))],
    "restore": [(True, ("-n", "/dev/md0")), (True, ("/dev/md0",))],
    "stop": [(True, ("-n", "/dev/md0")), (True, ("/dev/md0",))],
    "selftest": [(False, ()), (False, ("--json",))],
}


def every_md_form():
    """(md0 set up first, svmram's arguments): the top level's forms,
    then each subcommand's --help, a usage error and MD_FORMS."""
    from svmram import cli
    cases = [(False, ("--help",)), (False, ("--version",)), (False, ()),
             (False, ("--no-such-option",))]
    for name in cli.SUBCOMMANDS:
        cases += [(False, (name, "--help")),
                  (False, (name, "--no-such-option"))]
        cases += [(set_up_first, (name,) + args)
                  for set_up_first, args in MD_FORMS.get(name, ())]
    return cases


def test_md_forms_name_every_subcommand():
    from svmram import cli
    assert sorted(MD_FORMS) == sorted(cli.SUBCOMMANDS)


@pytest.mark.parametrize("stderr_too", [False, True],
                         ids=["stdout", "stdout-and-stderr"])
@pytest.mark.parametrize("set_up_first,args", every_md_form(),
                         ids=lambda value: " ".join(value) if isinstance(
                             value, tuple) else "set-up" if value else "-")
def test_no_form_prints_a_traceback_into_a_closed_pipe(
        tmp_path, set_up_first, args, stderr_too):
    """Every form of every subcommand (the CLI's own list), into a closed
    pipe on stdout (`| true`) and on both streams (`2>&1 | true`): no
    traceback nor "Exception ignored"; 141 if output was lost, else the
    form's own exit status (issue 36 section 3.7, Done-when 5)."""
    hosts = {}
    for name in ("open", "closed"):
        (tmp_path / name).mkdir()
        hosts[name] = Host(tmp_path / name)
        if set_up_first:
            set_up(hosts[name])
    rc0, out0, err0, _ = hosts["open"].svmram(*args)
    rc, err = into_a_closed_pipe(hosts["closed"], *args,
                                 stderr_too=stderr_too)
    for words in ("Traceback", "Exception ignored", "internal error"):
        assert words not in err, (args, err)
    lost = out0 or (stderr_too and err0)
    assert rc == (141 if lost else rc0), (args, err)


def test_a_setup_whose_output_goes_into_a_closed_pipe_still_finishes(host):
    """Setup's last line goes into the closed pipe after its last step:
    the array is set up, and the exit status says the output was lost."""
    rc, err = into_a_closed_pipe(host, "setup", "-y", "/dev/md0")
    assert (rc, err.splitlines()[-1]) == (
        141, "setup md0: step 8 of 8: Put the recovery speed limit of md0 "
             "back to the system's."), err
    rc, out, err, _ = host.svmram("status", "/dev/md0")
    assert rc == 0, out + err
    assert host.record() == GROWN


# mdadm 4.4 and later create no bitmap unless asked (issue 37, 2)
NO_BITMAP = [
    "svmram: md0 has no write-intent bitmap (mdadm 4.4 and later create "
    "none unless asked)",
    "svmram: Give it an internal bitmap first (mdadm --grow "
    "--bitmap=internal /dev/md0), then run setup again."]


def test_setup_refuses_an_array_without_a_bitmap_and_its_advice_works(host):
    faketree.write(host.root, "/sys/block/md0/md/bitmap/location", "none")
    before = host.sysfs()
    rc, out, err, argvs = host.svmram("setup", "-y", "/dev/md0")
    assert (rc, out, argvs) == (3, "", [IS_ENABLED])
    assert err.splitlines() == NO_BITMAP
    assert host.sysfs() == before
    rc, out, err, argvs = host.svmram("check", "/dev/md0")
    assert (rc, argvs) == (3, [IS_ENABLED])
    assert out.splitlines()[1:] == [
        "md0: refused: " + NO_BITMAP[0][len("svmram: "):],
        "    " + NO_BITMAP[1][len("svmram: "):]]
    # the advice, followed
    host.command(["mdadm", "--grow", "/dev/md0", "--bitmap=internal"])
    out, err = set_up(host)
    assert host.record() == GROWN


def llbitmap(host):
    """md0 with the lockless bitmap of kernel 6.18 and mdadm 4.6: md shows
    its kind in md/bitmap_type (md.c bitmap_type_show) and its files
    under md/llbitmap/, with no md/bitmap/ (md-llbitmap.c
    md_llbitmap_group)."""
    faketree.remove(host.root, "/sys/block/md0/md/bitmap")
    faketree.write(host.root, "/sys/block/md0/md/bitmap_type",
                   "none bitmap [llbitmap] ")
    faketree.write(host.root, "/sys/block/md0/md/llbitmap/metadata",
                   "chunksize 128")


def test_setup_and_check_refuse_the_lockless_bitmap(host):
    llbitmap(host)
    before = host.sysfs()
    rc, out, err, argvs = host.svmram("setup", "-y", "/dev/md0")
    assert (rc, out, argvs) == (3, "", [IS_ENABLED])
    refusal = [
        "md0 has a lockless bitmap (llbitmap); svmram needs md's classic "
        "internal bitmap",
        "Replace it (mdadm --grow --bitmap=none /dev/md0, then mdadm --grow "
        "--bitmap=internal /dev/md0; cat /sys/block/md0/md/bitmap_type, "
        "where it exists, then shows [bitmap]), then run setup again."]
    assert err.splitlines() == ["svmram: " + line for line in refusal]
    assert host.sysfs() == before
    rc, out, err, argvs = host.svmram("check", "/dev/md0")
    assert (rc, argvs) == (3, [IS_ENABLED])
    assert out.splitlines()[1:] == ["md0: refused: " + refusal[0],
                                    "    " + refusal[1]]


def test_the_classic_bitmap_named_by_bitmap_type_is_accepted(host):
    """A kernel 6.18 or later names md's classic bitmap in md/bitmap_type
    and keeps md/bitmap/location: setup goes on."""
    faketree.write(host.root, "/sys/block/md0/md/bitmap_type",
                   "none [bitmap] llbitmap ")
    set_up(host)
    assert host.record() == GROWN


def test_the_listing_the_package_scripts_and_completion_read(host):
    """`svmram status -H -o mirror,unit,ramstate`: every recorded target,
    its boot unit and whether its RAM copy is in it ("-" once the unit's
    stop took it out), which debian/svmram.prerm, postinst and the bash
    completion read instead of md's own files (issue 37 section 5)."""
    listing = ("status", "-H", "-o", "mirror,unit,ramstate")
    rc, out, err, _ = host.svmram(*listing)
    assert (rc, out) == (0, "")
    set_up(host)
    rc, out, err, _ = host.svmram(*listing)
    assert (rc, out) == (0, "md0\tsvmram@md0.service\tin_sync\n")
    rc, out, err, argvs = host.svmram("stop", "/dev/md0")
    assert (rc, argvs) == (0, STOP_ARGVS), err
    rc, out, err, _ = host.svmram(*listing)
    assert out == "md0\tsvmram@md0.service\t-\n" and rc in (4, 5, 6), err
