# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Step constructors for md (pure).  Each takes the Snapshot before the
step and the intent, and returns a Step whose ``expect`` is the Snapshot
after it, so a planner can chain them and the executor can check them.

A step runs commands (actions.Run of argv naming programs.PROGRAMS) or
writes sysfs attributes (actions.WriteFile); each action gives both what
the host does and the -n script's line, so the two cannot drift.
"""

from dataclasses import replace

from ..actions import Run, WriteFile
from ..plan import Step
from . import record
from .host import unit_name
from .model import Brd, Member

# When the kernel refuses a sysfs write.
WRITE_ADVICE = "The kernel refused the change; see dmesg."


def dev(name):
    return "/dev/" + name


def md_attr(array, attr):
    return "/sys/block/%s/md/%s" % (array, attr)


def sysfs_step(key, summary, writes, expect, why=""):
    """A step that writes each (path, value) of `writes` to sysfs."""
    return Step(key=key, summary=summary,
                do=tuple(WriteFile(path, value, advice=WRITE_ADVICE)
                         for path, value in writes),
                why=why, expect=expect)


# md/sync_speed_max while md copies the array into the RAM member, in
# KiB/s.  md caps every resync at it (200000 by default: 200 MB/s, below
# a fast disk's read) even when nothing else uses the disks; under other
# I/O it still slows to sync_speed_min, so applications keep priority.
# svmram sets md's own limit, so that the disks alone bound the copy
# (issue 37: 2000000, 2 GB/s, was below a PCIe 4 NVMe disk's 7 GB/s):
# INT_MAX, the largest value every kernel takes and compares unchanged.
# md.c: sync_max_store parses it with kstrtouint (simple_strtoul into an
# int before) into mddev->sync_speed_max, and speed_max() returns it as
# an int, which md_do_sync compares with its current speed
# ("if (currspeed > speed_max(mddev))"); above INT_MAX that int would be
# negative, holding the copy at sync_speed_min (read, not tried).
RAISED_SPEED_KIB = 2147483647
# What svmram raised it to before: a host upgraded while md copies still
# has it, and stop, teardown and the next restore put it back too.
EARLIER_RAISED_SPEEDS_KIB = (2000000,)
# md.c: static int sysctl_speed_limit_max = 200000.
MD_DEFAULT_SPEED_KIB = 200000


def raise_speed(snap, it):
    a = snap.array
    return sysfs_step(
        "raise speed %s" % it.array,
        "Raise the recovery speed limit of %s to md's maximum, %d "
        "KiB/s." % (it.array, RAISED_SPEED_KIB),
        ((md_attr(it.array, "sync_speed_max"), str(RAISED_SPEED_KIB)),),
        snap.evolve(array=replace(a, speed_max=(RAISED_SPEED_KIB, True))),
        why="md caps the copy at %d KiB/s otherwise, and the disks "
            "alone should bound it; with other I/O it still slows to "
            "sync_speed_min.  Put back to the system's limit once the "
            "RAM member is in sync." % a.speed_max[0])


def reset_speed(snap, it):
    a = snap.array
    return sysfs_step(
        "reset speed %s" % it.array,
        "Put the recovery speed limit of %s back to the system's." % (
            it.array),
        ((md_attr(it.array, "sync_speed_max"), "system"),),
        # md's default: raise_speed replaces nothing else.
        snap.evolve(array=replace(a, speed_max=(MD_DEFAULT_SPEED_KIB,
                                                False))))


def load_brd(snap, it):
    return Step(
        key="load brd",
        summary="Load brd with one RAM disk of %d KiB (/dev/%s)." % (
            it.rd_size_kib, it.ram),
        do=(Run(("modprobe", "brd", "rd_nr=1",
                 "rd_size=%d" % it.rd_size_kib)),),
        why="brd's size is a module parameter shared by all its devices; "
            "svmram owns the module.",
        expect=snap.evolve(brd=Brd(loaded=True, rd_size_kib=it.rd_size_kib,
                                   rd_nr=1, devices=(it.ram,),
                                   holders={it.ram: ()})))


def unload_brd(snap, it):
    return Step(
        key="unload brd",
        summary="Unload brd, which frees its memory.",
        do=(Run(("rmmod", "brd")),),
        expect=snap.evolve(brd=Brd()))


def create(snap, it, array):
    """mdadm --create: the RAM member first, every disk write-mostly, an
    internal bitmap, no write-behind; md's initial resync copies the RAM
    member (blank) over the disks."""
    disks = tuple(it.disks)
    argv = ("mdadm", "--create", dev(it.array), "--run", "--metadata=1.2",
            "--level=1", "--raid-devices=%d" % (len(disks) + 1),
            "--bitmap=internal", dev(it.ram), "--write-mostly") + tuple(
                dev(d) for d in disks)
    return Step(
        key="create %s" % it.array,
        summary="Create %s: RAID-1 of %s and the write-mostly disk%s %s, "
                "with an internal bitmap." % (
                    it.array, it.ram, "s" if len(disks) > 1 else "",
                    " ".join(disks)),
        do=(Run(argv),),
        why="This destroys what the disks held.  md then resyncs the "
            "members; reads are served by %s." % it.ram,
        wait_resync=it.array,
        copies_blocks=it.rd_size_kib * 2,
        expect=snap.evolve(array=array))


def grow_add(snap, it, wait=True):
    """Grow raid-devices by one, adding the RAM member into the new slot
    (one mdadm call; research 2c, 2d)."""
    a = snap.array
    ram = Member(it.ram, a.raid_disks, frozenset(
        ["in_sync"] if wait else ["spare"]), it.offset_sectors)
    array = replace(a, raid_disks=a.raid_disks + 1).with_member(ram)
    return Step(
        key="grow-add %s" % it.ram,
        summary="Grow %s to %d raid devices, adding %s%s." % (
            it.array, a.raid_disks + 1, it.ram,
            " and wait for its recovery" if wait else ""),
        do=(Run(("mdadm", "--grow", dev(it.array),
                 "--raid-devices=%d" % (a.raid_disks + 1), "--add",
                 dev(it.ram))),),
        why="md copies the array onto it; the disks keep serving reads "
            "ahead of the recovery front.",
        wait_resync=it.array if wait else None,
        copies_blocks=a.component_kib * 2,
        expect=snap.evolve(array=array))


def add(snap, it, wait=True):
    """Add the RAM member into the empty slot of a degraded array.  Always
    --add, never --re-add: a blank device must get a full recovery
    (mdadm refuses --re-add for it anyway, research 2b)."""
    a = snap.array
    used = {m.slot for m in a.members}
    free = min(s for s in range(a.raid_disks + 1) if s not in used)
    ram = Member(it.ram, free, frozenset(["in_sync"] if wait else ["spare"]),
                 it.offset_sectors)
    return Step(
        key="add %s" % it.ram,
        summary="Add %s to %s%s." % (it.ram, it.array,
                                     " and wait for its recovery" if wait
                                     else "; md recovers it"),
        do=(Run(("mdadm", dev(it.array), "--add", dev(it.ram))),),
        wait_resync=it.array if wait else None,
        copies_blocks=a.component_kib * 2,
        expect=snap.evolve(array=a.with_member(ram)))


def re_add(snap, it, disk):
    """Put a recorded disk that is back, but not in the array, into its
    slot again, as mdadm's incremental assembly does with a disk that
    appears while its array runs: --re-add (md takes the disk back into
    the slot its superblock names, keeps its write-mostly flag and
    recovers from the bitmap only what changed while it was out; mdadm
    refuses when the bitmap cannot say, and nothing changes).  Before
    the RAM member is added: md gives a new member the lowest free slot,
    the disk's."""
    a = snap.array
    member = Member(disk, None, frozenset(
        ["write_mostly"] if it.write_mostly_wanted(disk) else []))
    return Step(
        key="re-add %s" % disk,
        summary="Re-add %s to %s; md recovers what changed while it was "
                "out." % (disk, it.array),
        do=(Run(("mdadm", dev(it.array), "--re-add", dev(disk))),),
        why="%s is back but not in %s; it goes back into its slot before "
            "the RAM member is added, which would otherwise take that "
            "slot." % (disk, it.array),
        expect=snap.evolve(array=a.with_member(member)))


def wait_recovery(snap, it):
    a = snap.array
    ram = a.member(it.ram)
    return Step(
        key="wait %s" % it.array,
        summary="Wait for the recovery of %s in %s." % (it.ram, it.array),
        wait_resync=it.array,
        expect=snap.evolve(array=a.with_member(replace(
            ram, flags=ram.flags - {"spare"} | {"in_sync"}))))


def grow(snap, it, wait=True):
    """The RAM member is a spare of a complete array (added without the
    grow, or the grow was cut short): grow by one, md puts the spare in the
    new slot and recovers it."""
    a = snap.array
    ram = a.member(it.ram)
    member = replace(ram, slot=a.raid_disks, flags=frozenset(
        ["in_sync"] if wait else ["spare"]))
    return Step(
        key="grow %s" % it.array,
        summary="Grow %s to %d raid devices, so that the spare %s is used%s."
                % (it.array, a.raid_disks + 1, it.ram,
                   " and wait for its recovery" if wait else ""),
        do=(Run(("mdadm", "--grow", dev(it.array),
                 "--raid-devices=%d" % (a.raid_disks + 1))),),
        wait_resync=it.array if wait else None,
        copies_blocks=a.component_kib * 2,
        expect=snap.evolve(array=replace(
            a, raid_disks=a.raid_disks + 1).with_member(member)))


def set_write_mostly(snap, it, disk, on=True):
    a = snap.array
    member = a.member(disk)
    flags = member.flags | {"write_mostly"} if on else \
        member.flags - {"write_mostly"}
    value = "writemostly" if on else "-writemostly"
    return sysfs_step(
        "%swritemostly %s" % ("" if on else "-", disk),
        "%s write-mostly on %s." % ("Set" if on else "Clear", disk),
        ((md_attr(it.array, "dev-%s/state" % disk), value),),
        snap.evolve(array=a.with_member(replace(member, flags=flags))),
        why="md keeps the flag in the superblock." if on else "")


def fail_remove(snap, it):
    """Remove the RAM member, failing it first.  While md copies onto it,
    only fail it and wait for md to stop: in one mdadm call the remove
    can come before md's recovery thread lets go of the member (EBUSY;
    seen on a real kernel), and the next step removes it."""
    a = snap.array
    member = a.member(it.ram)
    if member.role != "faulty" and (a.sync_action != "idle" or
                                    member.role != "in_sync"):
        return Step(
            key="fail %s" % it.ram,
            summary="Fail %s in %s and wait for md to stop its recovery."
                    % (it.ram, it.array),
            do=(Run(("mdadm", dev(it.array), "--fail", dev(it.ram))),),
            why="md is copying onto %s; it is removed once md has let go "
                "of it." % it.ram,
            wait_resync=it.array,
            expect=snap.evolve(array=replace(
                a.with_member(replace(member, slot=None,
                                      flags=frozenset(["faulty"]))),
                sync_action="idle", sync_completed=None,
                sync_rate_kib=None)))
    argv = ("mdadm", dev(it.array)) + (
        () if member.role == "faulty" else ("--fail", dev(it.ram))) + (
            "--remove", dev(it.ram))
    return Step(
        key="fail-remove %s" % it.ram,
        summary="%s %s from %s." % (
            "Remove" if member.role == "faulty" else "Fail and remove",
            it.ram, it.array),
        do=(Run(argv),),
        expect=snap.evolve(array=replace(a.without_member(it.ram),
                                         degraded=a.degraded + 1)))


def shrink(snap, it, disks):
    a = snap.array
    members = tuple(replace(m, slot=None) for m in a.members)
    return Step(
        key="shrink %s" % it.array,
        summary="Shrink %s to %d raid device%s." % (
            it.array, disks, "" if disks == 1 else "s"),
        do=(Run(("mdadm", "--grow", dev(it.array),
                 "--raid-devices=%d" % disks) + (
                     ("--force",) if disks == 1 else ())),),
        why="The next boot then assembles it as an ordinary, complete "
            "array (research 2d)." + (
                "  mdadm wants --force for a RAID-1 of one device."
                if disks == 1 else ""),
        expect=snap.evolve(array=replace(a, raid_disks=disks, degraded=0,
                                         members=members)))


def run_array(snap, it, as_found=False):
    """Start an array that came up inactive (udev's incremental assembly
    waits for the RAM member that vanished with the power, research 2b).
    The disks come up in sync and write-mostly as svmram leaves them; as
    found (a setup or teardown cut short), nothing is promised of them:
    an inactive array does not show their write-mostly flags."""
    a = snap.array
    members = () if as_found else tuple(
        Member(m.name, None, frozenset(["in_sync"]) | (
            frozenset(["write_mostly"]) if m.name in it.disks and
            it.write_mostly_wanted(m.name) else frozenset()),
            m.offset_sectors)
        for m in a.members if m.name in it.disks)
    return Step(
        key="run %s" % it.array,
        summary="Start %s, which came up inactive without its RAM member."
                % it.array,
        do=(Run(("mdadm", "--run", dev(it.array))),),
        why="Nothing else starts it at once: udev's assembly waits for "
            "the RAM member, and mdadm-last-resort@, where udev starts one, "
            "only after 30 seconds; its mounts fail meanwhile.",
        expect=snap.evolve(array=replace(
            a, state="clean", level="raid1", members=members,
            raid_disks=0)))


# --- the record and the boot unit --------------------------------------------
# Setup enables the boot unit before its first change to the array,
# teardown disables it once the RAM member is out: whenever the disks'
# superblocks name a RAM member, a boot after a power cut finds the array
# inactive, and only the unit's restore starts it.  These steps change
# nothing the Snapshot holds: each expects `snap` as it is.

def enable_unit(snap, array):
    unit = unit_name(array)
    return Step(
        key="enable unit",
        summary="Enable the boot unit %s." % unit,
        do=(Run(("systemctl", "enable", unit)),),
        why="From the next step on, a boot after a power cut finds %s "
            "inactive, and the unit's restore starts it." % array,
        expect=snap)


def start_unit_argv(array, enabled):
    """What setup runs once the host lock is released (a plan's
    `afterwards`): start the boot unit it enabled (`enabled`, a step of
    the plan), else enable and start it.  Its restore takes the lock."""
    unit = unit_name(array)
    return ("systemctl", "start", unit) if enabled else \
        ("systemctl", "enable", "--now", unit)


def disable_unit(snap, array):
    unit = unit_name(array)
    return Step(
        key="disable unit",
        summary="Disable the boot unit %s." % unit,
        do=(Run(("systemctl", "disable", "--now", unit)),),
        why="%s no longer has a RAM member for a boot to restore." % array,
        expect=snap)


def write_record(snap, it):
    path = record.record_path(it.array)
    return Step(
        key="write record",
        summary="Record what setup decided in %s." % path,
        do=(record.WriteRecord(path, record.record_text(it)),),
        why="Teardown and the boot unit read it; it is written before "
            "anything changes.",
        expect=snap)


def mark_teardown(snap, it):
    path = record.record_path(it.array)
    return Step(
        key="mark teardown",
        summary="Mark the teardown in %s." % record.marker_path(path),
        do=(record.MarkTeardown(path),),
        why="Until the record is gone the unit's restore and stop "
            "stand aside, so a boot never undoes half a teardown.",
        expect=snap)


def remove_record(snap, it):
    path = record.record_path(it.array)
    return Step(
        key="remove record",
        summary="Remove the record %s." % path,
        do=(record.RemoveRecord(path),), expect=snap)
