# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram setup and teardown on a host (the emulator unless configured
otherwise): exact command sequences, the final metastat -p, the SMF
record, and a data-safety monitor that never fired.  The expected texts
are the article's; host.article() puts in a real host's slices and sizes,
and releases.py gives what differs on the emulator's release profiles."""

import os

import pytest

import releases

FMRI = "svc:/system/svmram:d10"

ROTATE_COMMANDS = [
    ["ramdiskadm", "-a", "svmram_d10", "228m"],
    ["metainit", "d13", "1", "1", "c90t0d0s0"],
    ["metattach", "d10", "d13"],
    ["metadetach", "d10", "d11"],
    ["metattach", "d10", "d11"],
    ["metadetach", "d10", "d12"],
    ["metattach", "d10", "d12"],
    ["metaparam", "-r", "first", "d10"],
]

TEARDOWN_COMMANDS = [
    ["metaparam", "-r", "roundrobin", "d10"],
    ["metadetach", "d10", "d13"],
    ["metaclear", "d13"],
    ["ramdiskadm", "-d", "svmram_d10"],
    ["svcadm", "disable", "-s", FMRI],
    ["svccfg", "delete", FMRI],
]


def svm_commands(host):
    return [argv for argv in host.trace()
            if argv[0] not in ("svccfg", "svcadm")]


def record_commands(host):
    return [argv for argv in host.trace() if argv[0] in ("svccfg", "svcadm")]


def test_setup_rotates_a_mounted_mirror(host):
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("d10: reads are served from the RAM submirror "
                             "d13 (ramdisk svmram_d10).\n")
    assert "auto chose rotate" not in result.stdout
    assert svm_commands(host) == host.article(releases.setup_commands(host))
    assert host.metastat_p("d10") == host.article(
        releases.set_up_metastat_p(host))
    assert host.violations() == []
    # The record in one svccfg process (its command file, smf.py), then
    # the enable once the lock is released.
    assert record_commands(host) == [
        ["svccfg", "-f", "/var/run/svmram.d10.svccfg"],
        ["svcadm", "enable", "-s", FMRI]]
    assert not os.path.exists(host.root + "/var/run/svmram.d10.svccfg")
    props = host.cmd("svcprop", "-p", "svmram", FMRI).stdout
    assert props.splitlines() == [host.article(line) for line in (
        "svmram/mirror astring d10", "svmram/ram astring d13",
        "svmram/ramdisk astring svmram_d10",
        "svmram/size_bytes count 239075328",
        "svmram/link astring c90t0d0s0", "svmram/method astring rotate",
        "svmram/disks astring d11,d12",
        "svmram/read_option astring roundrobin",
        "svmram/write_option astring parallel",
        "svmram/pass_num count 1", "svmram/size_blocks count 465885",
        "svmram/ramdisk_dev astring 250,1", "svmram/format count 1")]
    assert host.cmd("svcs", "-H", "-o", "state", FMRI).stdout == "online\n"
    links = host.root + "/dev/dsk/c90t0d0s0"
    assert os.readlink(links) == "/dev/ramdisk/svmram_d10"


def test_teardown_after_rotate_restores_the_original(host_after):
    host = host_after(("svmram", "setup", "-y", "d10"))
    result = host.svmram("teardown", "-y", "d10")
    assert result.returncode == 0, result.stderr
    assert host.trace() == host.article(releases.teardown_commands(host)) + \
        TEARDOWN_COMMANDS[-2:]
    assert host.metastat_p("d10") == host.article(releases.ORIGINAL)
    assert host.ramdisks() == ""
    assert host.cmd("svcs", "-H", FMRI).returncode != 0
    assert host.violations() == []


def test_setup_teardown_setup_again(host):
    for command in ("setup", "teardown", "setup"):
        result = host.svmram(command, "-y", "d10")
        assert result.returncode == 0, (command, result.stderr)
    assert host.metastat_p("d10") == host.article(
        releases.set_up_metastat_p(host))
    assert host.violations() == []


def test_setup_of_a_mirror_set_up_the_same_way_has_nothing_to_do(
        host_after):
    """Issue 38: automation runs setup again and again; a mirror set up
    already as asked is "nothing to do" (exit 0), for setup and setup -n,
    options naming what the record holds included, and nothing runs."""
    host = host_after(("svmram", "setup", "-y", "d10"))
    before = host.state_digest()
    for args in (("-y",), ("-n",), ("-y", "--method", "rotate",
                                    "--name", "svmram_d10")):
        result = host.svmram("setup", *args, "d10")
        assert (result.returncode, result.stderr) == (0, ""), args
        assert result.stdout == "%sd10 is already set up; nothing to do.\n" \
            % ("# " if "-n" in args else "")
    assert host.trace() == []
    assert host.state_digest() == before
    assert host.violations() == []


def test_setup_of_a_mirror_whose_boot_service_failed_is_refused(host_after):
    """A recorded mirror whose boot service is in maintenance is not
    "nothing to do": an automation tool would take exit 0 for health."""
    host = host_after(("svmram", "setup", "-y", "d10"))
    fmri = "svc:/system/svmram:d10"
    assert host.cmd("svcadm", "mark", "maintenance", fmri).returncode == 0
    before = host.state_digest()
    result = host.svmram("setup", "-y", "d10")
    assert (result.returncode, result.stdout) == (3, "")
    assert result.stderr.splitlines() == [
        "svmram: d10 is set up for reads from RAM, but its boot service "
        "%s is maintenance" % fmri,
        "svmram: 'svmram status d10' says what is wrong and what to do; "
        "'svmram teardown d10' undoes the setup."]
    assert host.state_digest() == before
    # check gives setup's verdict (it said "set up", exit 0)
    result = host.svmram("check", "d10")
    assert result.returncode == 3
    assert result.stdout.splitlines()[-2:] == [
        "d10: refused: d10 is set up for reads from RAM, but its boot "
        "service %s is maintenance" % fmri,
        "    'svmram status d10' says what is wrong and what to do; "
        "'svmram teardown d10' undoes the setup."]
    assert host.state_digest() == before


def test_dry_run_prints_the_plan_and_changes_nothing(host):
    before = host.state_digest()
    result = host.svmram("setup", "-n", "d10")
    assert result.returncode == 0, result.stderr
    script = result.stdout
    assert script.startswith("#!/bin/ksh93\n")
    assert "# Method: rotate.\n" in script
    assert "# auto chose rotate: d10 is mounted on /mnt and swap needs it " \
           "closed.\n" in script
    for argv in host.article(ROTATE_COMMANDS):
        assert "/%s %s\n" % (argv[0], " ".join(argv[1:])) in script
    assert host.trace() == []
    assert host.state_digest() == before


def test_status_after_setup_reports_serving(host, host_after):
    assert host.svmram("status").stdout == "No mirror is set up for reads " \
                                           "from RAM.\n"
    host = host_after(("svmram", "setup", "-y", "d10"))
    result = host.svmram("status")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[0] == (
        "d10: serving reads from RAM (d13 in slot 0, read option first)")


def test_setup_reads_each_source_once_before_it_plans(host):
    """Issue 13: what is observed is an explicit argument; setup reads the
    SMF record, then the host once, and the intent it chooses adds
    nothing to read."""
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 0, result.stderr
    argvs = host.trace(changes_only=False)
    first_change = argvs.index(host.trace()[0])
    assert argvs[:first_change] == host.article([
        ["svcs", "-H", "-o", "state", FMRI],
        ["metastat", "-p"], ["metastat", "d10"], ["ramdiskadm"],
        ["fuser", "/dev/md/dsk/d10"], ["fuser", "/dev/md/rdsk/d10"],
        ["prtvtoc", "-h", "/dev/rdsk/c0d1s0"],
        ["prtvtoc", "-h", "/dev/rdsk/c1d0s0"],
        ["kstat", "-p", "unix:0:system_pages:physmem",
         "unix:0:system_pages:freemem", "unix:0:system_pages:availrmem",
         "unix:0:system_misc:boot_time"],
        ["svcprop", "-p", "general/entity_stability", "svc:/system/svmram"]]
        # Where the slots must be tested first: what is there before it.
        + releases.on(host, [], [["metastat", "-p"], ["ramdiskadm"]]))


@pytest.mark.parametrize("planted", ["symlink", "hard link"])
def test_setup_writes_no_file_it_finds_where_it_writes_its_smf_record(
        host, planted):
    """The svccfg command file is svmram's own: a link planted at its name
    (symbolic, or a second name of a file) is neither followed, written
    nor removed; setup fails at that step, puts the host back as it was,
    and says what to do; once the link is gone, setup runs."""
    victim = os.path.join(host.root, "etc", "admin-file")
    with open(victim, "w", encoding="utf-8") as stream:
        stream.write("the admin's\n")
    name = os.path.join(host.root, "var", "run", "svmram.d10.svccfg")
    (os.symlink if planted == "symlink" else os.link)(victim, name)
    before = host.state_digest()
    result = host.svmram("setup", "-y", "d10")
    assert result.returncode == 1, result.stderr
    assert ("/var/run/svmram.d10.svccfg is there already and is not a file "
            "a killed svmram left") in result.stderr
    assert "Traceback" not in result.stderr
    assert os.path.islink(name) == (planted == "symlink")
    with open(victim, encoding="utf-8") as stream:
        assert stream.read() == "the admin's\n"
    assert host.state_digest() == before
    os.unlink(name)
    assert host.svmram("setup", "-y", "d10").returncode == 0
    assert not os.path.lexists(name)
    with open(victim, encoding="utf-8") as stream:
        assert stream.read() == "the admin's\n"
    os.unlink(victim)


def test_a_command_file_a_killed_run_left_is_written_over(host):
    """A plain command file of root's with one name, as a svmram killed
    between its write and its unlink leaves it, is svmram's own: setup
    writes over it and removes it after."""
    name = os.path.join(host.root, "var", "run", "svmram.d10.svccfg")
    with open(name, "w", encoding="utf-8") as stream:
        stream.write("select svc:/system/svmram:d10\n" * 40)
    assert host.svmram("setup", "-y", "d10").returncode == 0
    assert not os.path.lexists(name)
