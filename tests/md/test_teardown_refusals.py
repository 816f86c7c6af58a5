# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""A teardown refused before its first step changes nothing.

md's teardown plan begins with "mark teardown" (backend.py _teardown):
it writes the marker /etc/svmram/md/md0.json.teardown, which the boot
unit's restore and stop stand aside for, and disables the unit.  Every
refusal that comes before that step -- bad input, the lock held, the
record or the journal unreadable, no confirmation, and the planner's
(planner.py _next_teardown_step: a member svmram did not record, the
array not running, no disk member in sync, brd not svmram's) -- must
leave no marker and no journal, the unit as enabled and active as it
was, the record as it was, and sysfs as it was; with its exact exit
status and message.  Driven as test_cli.py drives the command, on the
fake kernel."""

import glob
import os
import pty

import pytest

import faketree
from svmram.atomic import temporary_prefix
from mdcli import IS_ENABLED, RECORD, UNIT, Host, set_up

MARKER = RECORD + ".teardown"
JOURNAL = "/var/svmram/md0.journal"
LOCK = "/var/run/svmram.lock"
OBSERVED = [IS_ENABLED, ["systemctl", "is-active", UNIT]]
NOT_RUN = "Start it first (mdadm --run /dev/md0)."
DAMAGED = "Remove the record and set the array up again."


@pytest.fixture
def host(tmp_path):
    made = Host(tmp_path)
    # There as on any host: the lock's directory (commands that take the
    # lock would make it).
    os.makedirs(made.path("/var/run"))
    return made


def tree(host):
    """Every file, directory and link under the fake root with its text,
    but the lock file, which each run that takes the lock rewrites with
    its process id."""
    found = {}
    for dirpath, dirs, files in os.walk(host.root):
        for name in dirs + files:
            full = os.path.join(dirpath, name)
            rel = os.path.relpath(full, host.root)
            if rel == LOCK[1:]:
                continue
            if os.path.islink(full):
                found[rel] = "-> " + os.readlink(full)
            elif os.path.isdir(full):
                found[rel] = "dir"
            else:
                with open(full, "rb") as stream:
                    found[rel] = stream.read()
    return found


def read(host, path):
    with open(host.path(path), "rb") as stream:
        return stream.read()


def assert_unchanged(host, before, record, unit):
    assert not os.path.lexists(host.path(MARKER))
    assert not os.path.lexists(host.path(JOURNAL))
    assert not glob.glob(host.path(os.path.join(
        os.path.dirname(JOURNAL), temporary_prefix(JOURNAL) + "*")))
    assert host.unit() == unit
    if record is None:
        assert not os.path.lexists(host.path(RECORD))
    else:
        assert read(host, RECORD) == record
    assert tree(host) == before


# --- the planner's refusals, after a setup -----------------------------------

def no_disk_in_sync(host):
    for disk in ("vda", "vdb"):
        faketree.write(host.root, "/sys/block/md0/md/dev-%s/state" % disk,
                       "faulty")


def inactive(host):
    faketree.write(host.root, "/sys/block/md0/md/array_state", "inactive")


def foreign_member(host):
    for attr, value in (("slot", "3"), ("state", "in_sync"),
                        ("offset", "2048"), ("recovery_start", "none")):
        faketree.write(host.root, "/sys/block/md0/md/dev-vdc/" + attr, value)


def journal_member(host):
    foreign_member(host)
    faketree.write(host.root, "/sys/block/md0/md/dev-vdc/slot", "journal")
    faketree.write(host.root, "/sys/block/md0/md/dev-vdc/state", "journal")


def brd_held(host):
    faketree.write(host.root, "/sys/block/ram0/holders/dm-0", "")


def brd_two_devices(host):
    faketree.write(host.root, "/sys/module/brd/parameters/rd_nr", "2")


def brd_builtin(host):
    faketree.remove(host.root, "/sys/module/brd/initstate")


@pytest.mark.parametrize("change, argvs, lines", [
    (no_disk_in_sync, OBSERVED, [
        "svmram: no disk member of md0 is in sync; removing the RAM member "
        "would lose the only copy",
        "svmram: Let the array recover onto a disk first (mdadm --detail "
        "/dev/md0)."]),
    (inactive, OBSERVED, ["svmram: md0 is inactive", "svmram: " + NOT_RUN]),
    (foreign_member, OBSERVED, [
        "svmram: md0 has member vdc that svmram did not record",
        "svmram: svmram never changes members it did not record; remove "
        "them by hand or set the array up again."]),
    # read with the array, before the unit's state is asked
    (journal_member, [], [
        "svmram: md0 has a journal device (vdc)",
        "svmram: svmram only handles RAID-1 arrays without a journal."]),
    (brd_held, OBSERVED, [
        "svmram: brd is in use by something else (/dev/ram0 is held by "
        "dm-0, md0)",
        "svmram: svmram needs the brd module for itself; stop what uses "
        "/dev/ram0 and unload brd (rmmod brd) first."]),
    (brd_two_devices, OBSERVED, [
        "svmram: brd is already loaded with 2 devices of 131072 KiB; svmram "
        "needs one of 131072 KiB",
        "svmram: brd's size is fixed when it loads: unload it (rmmod brd) "
        "if nothing uses it, then run svmram again."]),
    (brd_builtin, OBSERVED, [
        "svmram: brd is built into this kernel, so svmram cannot size its "
        "RAM disk",
        "svmram: Use a kernel with brd as a module (Debian's, Fedora's and "
        "Ubuntu's are)."]),
], ids=lambda value: getattr(value, "__name__", None))
def test_a_teardown_the_planner_refuses_leaves_no_marker(
        host, change, argvs, lines):
    set_up(host)
    record = read(host, RECORD)
    change(host)
    before = tree(host)
    rc, out, err, run = host.svmram("teardown", "-y", "/dev/md0")
    assert (rc, out, err.splitlines()) == (3, "", lines)
    assert run == argvs             # the unit's state read at most
    assert_unchanged(host, before, record, ["enabled", "active"])


def test_a_teardown_refused_after_the_unit_was_disabled_leaves_it_so(host):
    """The unit disabled by hand: the refusal neither enables nor
    disables it."""
    set_up(host)
    record = read(host, RECORD)
    faketree.write(host.root, "/fake-systemd/" + UNIT, "disabled inactive")
    inactive(host)
    before = tree(host)
    rc, out, err, argvs = host.svmram("teardown", "-y", "/dev/md0")
    assert (rc, out, err.splitlines()) == (
        3, "", ["svmram: md0 is inactive", "svmram: " + NOT_RUN])
    assert argvs == [IS_ENABLED]
    assert_unchanged(host, before, record, ["disabled", "inactive"])


# --- refusals before anything is planned -------------------------------------

def test_a_teardown_refused_while_another_run_holds_the_lock(host,
                                                            lock_holder):
    set_up(host)
    record = read(host, RECORD)
    before = tree(host)
    with lock_holder(host):
        rc, out, err, argvs = host.svmram("teardown", "-y", "/dev/md0")
    assert (rc, out, argvs) == (3, "", [])
    assert err.splitlines() == [
        "svmram: another svmram command is running (lock %s is held)"
        % host.path(LOCK),
        "svmram: Wait for it to finish, then run this command again."]
    assert_unchanged(host, before, record, ["enabled", "active"])


def test_a_teardown_no_one_confirms_changes_nothing(host):
    """Without -y, on no terminal: refused once the plan is made."""
    set_up(host)
    record = read(host, RECORD)
    before = tree(host)
    rc, out, err, argvs = host.svmram("teardown", "/dev/md0")
    assert (rc, out, argvs) == (3, "", OBSERVED)
    assert err.splitlines() == [
        "svmram: svmram teardown md0 would change the system and no one can "
        "confirm it here",
        "svmram: Add -y to go ahead, or -n to see the plan."]
    assert_unchanged(host, before, record, ["enabled", "active"])


def test_a_teardown_answered_no_changes_nothing(host):
    """On a terminal, answered "n": the plan is shown, then refused."""
    set_up(host)
    record = read(host, RECORD)
    before = tree(host)
    master, slave = pty.openpty()
    try:
        os.write(master, b"n\n")
        rc, out, err, argvs = host.svmram("teardown", "/dev/md0",
                                          stdin=slave)
    finally:
        os.close(slave)
        os.close(master)
    assert (rc, out, argvs) == (3, "", OBSERVED)
    lines = err.splitlines()
    assert lines == [
        "svmram teardown md0: 8 steps.",
        "  Cost: no resync copies any data.",
        "  md0 stays open and in use throughout.",
        "   1. Mark the teardown in %s." % MARKER,
        "   2. Clear write-mostly on vda.",
        "   3. Clear write-mostly on vdb.",
        "   4. Fail and remove ram0 from md0.",
        "   5. Shrink md0 to 2 raid devices.",
        "   6. Unload brd, which frees its memory.",
        "   7. Disable the boot unit %s." % UNIT,
        "   8. Remove the record %s." % RECORD,
        "Proceed? [y/N] svmram: not confirmed; nothing was changed"]
    assert_unchanged(host, before, record, ["enabled", "active"])


def record_of_md1(host):
    text = read(host, RECORD).replace(b'"md0"', b'"md1"')
    faketree.write(host.root, RECORD, text.decode())


def record_not_json(host):
    faketree.write(host.root, RECORD, "{not json")


def record_without_disks(host):
    text = read(host, RECORD).replace(b'"disks"', b'"discs"')
    faketree.write(host.root, RECORD, text.decode())


def journal_damaged(host):
    faketree.write(host.root, JOURNAL, "garbage")


@pytest.mark.parametrize("change, code, lines", [
    (record_of_md1, 3, [
        "svmram: the record %s is for md1, not md0" % RECORD,
        "svmram: Check the file by hand."]),
    # unreadable, not refused: exit 1 (errors.py EXIT_FAILED)
    (record_not_json, 1, [
        "svmram: cannot read svmram's record %s: Expecting property name "
        "enclosed in double quotes: line 1 column 2 (char 1)"
        % ("{root}" + RECORD),
        "svmram: Check the file; svmram teardown needs it to undo the "
        "setup."]),
    (record_without_disks, 3, [
        "svmram: svmram's record is damaged ('disks')",
        "svmram: " + DAMAGED]),
], ids=lambda value: getattr(value, "__name__", None))
def test_a_teardown_refused_for_its_record_changes_nothing(
        host, change, code, lines):
    set_up(host)
    change(host)
    record = read(host, RECORD)
    before = tree(host)
    rc, out, err, argvs = host.svmram("teardown", "-y", "/dev/md0")
    assert (rc, out, argvs) == (code, "", [])
    assert err.splitlines() == [line.replace("{root}", host.root)
                                for line in lines]
    assert_unchanged(host, before, record, ["enabled", "active"])


def test_a_teardown_refused_for_a_damaged_journal_leaves_it_as_it_was(
        host):
    set_up(host)
    record = read(host, RECORD)
    journal_damaged(host)
    before = tree(host)
    rc, out, err, argvs = host.svmram("teardown", "-y", "/dev/md0")
    assert (rc, out, argvs) == (3, "", [])
    assert err.splitlines()[-1] == (
        "svmram: Check it by hand; remove it only once 'mdadm --detail "
        "/dev/md0' shows md0 in a state you understand.")
    assert read(host, JOURNAL) == b"garbage\n"
    assert not os.path.lexists(host.path(MARKER))
    assert host.unit() == ["enabled", "active"]
    assert read(host, RECORD) == record and tree(host) == before


@pytest.mark.parametrize("args, code, lines", [
    (("teardown", "-y", "/dev/sda"), 2, [
        "svmram: '/dev/sda' is not an md array name: name an md array as "
        "/dev/mdN, /dev/md/NAME or mdN"]),
    (("teardown", "-y", "/dev/md/nothing"), 3, [
        "svmram: /dev/md/nothing is not a block device"]),
    (("teardown", "-y", "/dev/md5"), 3, [
        "svmram: md5 is not set up by svmram (/etc/svmram/md/md5.json does "
        "not exist)",
        "svmram: svmram status lists the arrays it manages."]),
    (("teardown", "-y", "/dev/md0"), 3, [
        "svmram: md0 is not set up by svmram (%s does not exist)" % RECORD,
        "svmram: svmram status lists the arrays it manages."]),
])
def test_bad_input_or_no_setup_leaves_no_marker(host, args, code, lines):
    """Nothing set up (md0 as the fixture has it): a teardown refused for
    its input or for want of a record writes nothing."""
    before = tree(host)
    rc, out, err, argvs = host.svmram(*args)
    assert (rc, out, argvs) == (code, "", [])
    assert err.splitlines()[:len(lines)] == lines, err
    assert_unchanged(host, before, None, None)


def test_bad_input_after_a_setup_leaves_it_as_it_was(host):
    set_up(host)
    record = read(host, RECORD)
    before = tree(host)
    for args in (("teardown", "-y", "/dev/sda"),
                 ("teardown", "-y", "/dev/md0", "--disks", "vda"),
                 ("teardown", "-y", "-n", "/dev/md0", "/dev/md1")):
        rc, out, err, argvs = host.svmram(*args)
        assert (rc, out, argvs) == (2, "", []), args
        assert_unchanged(host, before, record, ["enabled", "active"])
