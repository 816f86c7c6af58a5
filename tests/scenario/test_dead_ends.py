# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""No dead ends (issue 20, section 3): wherever svmram stops, what it
says leads somewhere.  Each case follows svmram's advice and checks that
it works: the exact commands, the final metastat -p, the messages, and a
data-safety monitor that never fired."""

import json
import os
import subprocess

import pytest

import inprocess
import releases
from hosts import PYTHON, Result, run_script
from old_svmram import patch as old_svmram_patch

HERE = os.path.dirname(os.path.abspath(__file__))
OLD_SVMRAM = os.path.join(HERE, "old_svmram.py")

FMRI = "svc:/system/svmram:d10"


def old_svmram(host, *args):
    """svmram as a release that accepted a reserved --name (old_svmram.py;
    in the test's process unless SVMRAM_TEST_PROCESSES asks for
    processes)."""
    if inprocess.enabled():
        undo = old_svmram_patch()
        try:
            return host.svmram(*args)
        finally:
            undo()
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
    assert host.metastat_p() == releases.ORIGINAL
    assert "svmram_probe" not in host.ramdisks()
    assert host.violations() == []


# --- b. a -n script that stopped half-way ------------------------------------

def journal_path(host):
    return os.path.join(host.root, "var", "svmram", "d10.journal")


def stop_a_setup_script_half_way(host):
    """`svmram setup -n d10` run by ksh93 until its metattach fails: the
    ramdisk, its links and the RAM stripe d13 are left."""
    assert host.sim("thaw", "--step", "100").returncode == 0
    script = host.svmram("setup", "-n", "d10")
    assert script.returncode == 0, script.stderr
    assert host.sim("faults", "add", "metattach", "--nth", "1", "--exit",
                    "1", "--message", "metattach: d10: stopped here"
                    ).returncode == 0
    ran = run_script(host, script.stdout)
    assert ran.returncode != 0
    assert "metattach: d10: stopped here" in ran.stderr
    assert host.sim("faults", "clear").returncode == 0
    assert "svmram_d10" in host.ramdisks()
    assert "d13 1 1 /dev/rdsk/c90t0d0s0\n" in host.metastat_p()
    # It left the journal a run leaves, naming what it chose.
    with open(journal_path(host), encoding="utf-8") as stream:
        stored = json.load(stream)
    assert (stored["operation"], stored["intent"]["ramdisk"],
            stored["intent"]["ram"], stored["intent"]["link"]) == (
        "setup", "svmram_d10", "d13", "c90t0d0s0")
    host.clear_trace()


@pytest.mark.emulator_only("runs the -n script with ksh93 on the emulator")
@pytest.mark.parametrize("release", [releases.ILLUMOS, releases.SOLARIS11])
def test_b_setup_finishes_what_a_stopped_setup_script_began(host_factory):
    host = host_factory("article")
    stop_a_setup_script_half_way(host)
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert ("setup d10: resuming the setup recorded in %s; the choices made "
            "then are kept.\n" % journal_path(host)) in result.stderr
    assert [argv for argv in host.trace() if argv[0] not in (
        "svccfg", "svcadm")] == releases.on(
        host, releases.ROTATE[2:], releases.slot_test(91) +
        releases.ROTATE[2:])
    assert host.metastat_p() == releases.set_up_metastat_p(host)
    assert not os.path.exists(journal_path(host))
    assert host.cmd("svcs", "-H", "-o", "state", FMRI).stdout == "online\n"
    assert host.violations() == []


@pytest.mark.emulator_only("runs the -n script with ksh93 on the emulator")
@pytest.mark.parametrize("release", [releases.ILLUMOS, releases.SOLARIS11])
def test_b_teardown_removes_what_a_stopped_setup_script_made(host_factory):
    host = host_factory("article")
    stop_a_setup_script_half_way(host)
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert host.trace() == releases.CLEANUP
    assert host.metastat_p() == releases.ORIGINAL
    assert host.ramdisks().count("/dev/ramdisk/") == 0
    assert not os.path.lexists(os.path.join(host.root, "dev", "dsk",
                                            "c90t0d0s0"))
    assert not os.path.exists(journal_path(host))
    assert host.violations() == []


# --- d. what the administrator cleared on purpose ---------------------------

SET_UP = (("svmram", "setup", "-y", "d10"),)
RAM_PARTS = [["metaclear", "d13"], ["ramdiskadm", "-d", "svmram_d10"],
             ["svcadm", "disable", "-s", FMRI], ["svccfg", "delete", FMRI]]


def gone(host):
    """Nothing svmram built for d10 is left."""
    assert "svmram_d10" not in host.ramdisks()
    assert not os.path.lexists(os.path.join(host.root, "dev", "dsk",
                                            "c90t0d0s0"))
    assert not os.path.lexists(os.path.join(host.root, "dev", "rdsk",
                                            "c90t0d0s0"))
    assert host.cmd("svcs", FMRI).returncode != 0
    assert not os.path.exists(journal_path(host))


@pytest.mark.emulator_only("unmounts d10 on the emulator")
def test_d_teardown_does_not_recreate_a_mirror_cleared_by_hand(host_after):
    """The administrator cleared d10 after setup (no svmram operation was
    under way): teardown removes the RAM submirror, its ramdisk, links and
    record, and neither recreates d10 nor copies d11 over d12."""
    host = host_after(*SET_UP)
    assert host.unmount("d10").returncode == 0
    assert host.cmd("metaclear", "d10").returncode == 0
    host.clear_trace()
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert host.trace() == RAM_PARTS
    assert result.stdout == (
        "d10: the RAM submirror and its ramdisk are gone.\n"
        "d10: d10 does not exist and no svmram operation was under way, so "
        "it was cleared by hand: teardown did not recreate it, and d11 and "
        "d12 are left alone ('metainit d10 -m d11', then 'metattach d10 "
        "d12', makes it again from d11).\n")
    assert sorted(host.metastat_p().splitlines()) == [
        "d11 1 1 /dev/rdsk/c0d1s0", "d12 1 1 /dev/rdsk/c1d0s0"]
    gone(host)
    assert host.violations() == []


@pytest.mark.emulator_only("unmounts d10 on the emulator")
def test_d_teardown_after_the_whole_mirror_was_cleared_by_hand(host_after):
    """`metaclear -r d10` cleared d10 and all its submirrors, the RAM one
    too: teardown removes the ramdisk, the links and the record."""
    host = host_after(*SET_UP)
    assert host.unmount("d10").returncode == 0
    assert host.cmd("metaclear", "-r", "d10").returncode == 0
    host.clear_trace()
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert host.trace() == RAM_PARTS[1:]
    assert result.stdout == (
        "d10: the RAM submirror and its ramdisk are gone.\n"
        "d10: d10 does not exist and no svmram operation was under way, so "
        "it was cleared by hand: teardown did not recreate it, and d11 and "
        "d12 do not exist either.\n")
    assert host.metastat_p() == ""
    gone(host)
    assert host.violations() == []


@pytest.mark.emulator_only("detaches the RAM submirror by hand")
def test_d_teardown_after_the_ram_submirror_was_cleared_by_hand(host_after):
    host = host_after(*SET_UP)
    assert host.cmd("metadetach", "d10", "d13").returncode == 0
    assert host.cmd("metaclear", "d13").returncode == 0
    host.clear_trace()
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    # Where setup left the disks in another order (a hole in the slots),
    # teardown puts them back, as always.
    assert host.trace() == [["metaparam", "-r", "roundrobin", "d10"]] + \
        releases.on(host, [], [], [["metadetach", "d10", "d11"],
                                   ["metattach", "d10", "d11"]]) + \
        RAM_PARTS[1:]
    assert host.metastat_p() == releases.ORIGINAL
    gone(host)
    assert host.violations() == []


# --- c. a RAM submirror made by hand, the article's way ---------------------

def set_up_by_hand(host):
    """The article's result, made by hand before svmram was installed:
    the ramdisk testdisk linked as c5t0d0s0, the stripe d13 on it first
    in d10, read option first; no svmram record."""
    for argv in (("ramdiskadm", "-a", "testdisk", "228m"),):
        assert host.cmd(*argv).returncode == 0
    os.symlink("/dev/ramdisk/testdisk",
               os.path.join(host.root, "dev", "dsk", "c5t0d0s0"))
    os.symlink("/dev/rramdisk/testdisk",
               os.path.join(host.root, "dev", "rdsk", "c5t0d0s0"))
    assert host.sim("thaw", "--step", "100").returncode == 0
    for argv in (("metainit", "d13", "1", "1", "c5t0d0s0"),
                 ("metattach", "d10", "d13"),
                 ("metadetach", "d10", "d11"), ("metattach", "d10", "d11"),
                 ("metadetach", "d10", "d12"), ("metattach", "d10", "d12"),
                 ("metaparam", "-r", "first", "d10")):
        assert host.cmd(*argv).returncode == 0, argv
        host.cmd("metastat", "d10")         # the resync runs to its end
    assert host.metastat_p("d10").splitlines()[0] == (
        "d10 -m /dev/md/rdsk/d13 /dev/md/rdsk/d11 /dev/md/rdsk/d12 -r 1")
    host.clear_trace()


BY_HAND = (
    "svmram: d10 reads from the RAM submirror d13 in slot 0 (ramdisk "
    "testdisk, linked as c5t0d0s0), which svmram did not set up: there is "
    "no svc:/system/svmram:d10\n"
    "svmram: svmram does not take over a RAM submirror it did not create.  "
    "To remove it, once 'metastat d10' shows every submirror Okay: "
    "metaparam -r roundrobin d10; metadetach d10 d13; metaclear d13; "
    "ramdiskadm -d testdisk; rm /dev/dsk/c5t0d0s0 /dev/rdsk/c5t0d0s0.  "
    "Then 'svmram setup d10' makes it svmram's, with a boot restore.\n")


def follow(host, advice):
    """Run the commands of `advice` as the administrator would: the
    ones between 'Okay: ' and the first '.  '."""
    commands = advice.split("Okay: ", 1)[1].split(".  ", 1)[0]
    for text in commands.split("; "):
        argv = text.split()
        if argv[0] == "rm":
            for path in argv[1:]:
                os.unlink(os.path.join(host.root, path.lstrip("/")))
            continue
        result = host.cmd(*argv)
        assert result.returncode == 0, (argv, result.stderr)


@pytest.mark.emulator_only("makes a RAM submirror by hand on the emulator")
@pytest.mark.parametrize("release", [releases.ILLUMOS, releases.SOLARIS11])
@pytest.mark.parametrize("operation", ["setup", "teardown"])
def test_c_a_ram_submirror_made_by_hand_is_named_with_a_way_out(
        host_factory, operation):
    host = host_factory("article")
    set_up_by_hand(host)
    before = host.state_digest()
    result = host.svmram(operation, "-y", "d10")
    assert (result.returncode, result.stderr) == (3, BY_HAND)
    assert host.trace() == []
    assert host.state_digest() == before
    # Following the advice works: the mirror is as before, and svmram
    # sets it up as its own.
    follow(host, BY_HAND)
    assert host.metastat_p() == releases.ORIGINAL
    assert "testdisk" not in host.ramdisks()
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert host.metastat_p() == releases.set_up_metastat_p(host)
    assert host.violations() == []


# --- e. a boot service that can never run -----------------------------------

@pytest.mark.emulator_only("reboots the emulator")
def test_e_nagios_is_critical_when_the_boot_service_can_never_run(
        host_after):
    """After a reboot with svc:/system/metasync disabled, the boot service
    stays offline for ever (svcs -x: its dependency is disabled): that is
    no boot in progress but a wait with no end, CRITICAL."""
    host = host_after(*SET_UP)
    host.install()          # the boot service runs the installed method
    assert host.cmd("svcadm", "disable", "svc:/system/metasync:default"
                    ).returncode == 0
    assert host.reboot().returncode == 0
    assert host.cmd("svcs", "-H", "-o", "state", FMRI).stdout == \
        "offline\n"
    assert "Reason: Service svc:/system/metasync:default is disabled." in \
        host.cmd("svcs", "-x", FMRI).stdout
    result = host.svmram("status", "--nagios", "d10")
    assert (result.returncode, result.stderr) == (2, ""), result.stdout
    assert result.stdout == (
        "SVMRAM CRITICAL - d10: d13 needs maintenance, the ramdisk "
        "svmram_d10 does not exist, svc:/system/svmram:d10 is offline and "
        "cannot start: its dependency svc:/system/metasync:default is "
        "disabled (svcs -x svmram:d10 says why) | serving=0;;;0;1 "
        "d10_disks_current=2;;;0;2\n")
    # The advice works: once metasync runs, the boot service restores d10
    # (svc.startd starts it then; the emulator's does at the next boot,
    # docs/emulator-smf.md).
    assert host.cmd("svcadm", "enable", "svc:/system/metasync:default"
                    ).returncode == 0
    assert host.reboot().returncode == 0
    assert host.cmd("svcs", "-H", "-o", "state", FMRI).stdout == \
        "online\n"
    result = host.svmram("status", "--nagios", "d10")
    assert result.returncode in (0, 1), result.stdout
    assert "cannot start" not in result.stdout
    assert host.violations() == []
