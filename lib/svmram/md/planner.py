# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Refusals and plans for md: setup (new or existing array), teardown and
the boot unit's stop (pure); restore.py plans the boot restore,
consistency.py checks an intent against the host.

The planners are convergent, like the SVM ones: from whatever state they
observe they apply one step at a time to the Snapshot until the goal
holds, so a rerun after a failure, a kill or a power cut resumes where
the host is.  The facts behind each decision are in docs/md-backend.md.
"""

import re
from dataclasses import replace

from ..errors import RefusedError
from ..plan import Plan, converge_plan
from . import steps
from .consistency import check_brd_free, refuse_foreign
from .intent import Intent, check_array_name
from .model import FAULTY, IN_SYNC, SPARE, Array, Member

MIN_FREE_PERCENT = 10           # memory the RAM member must leave free
MIN_DISK_SECTORS = 8192         # 4 MiB: less makes no sense for a member
RAM = "ram0"
# Kernels whose raid1 read balancing (6.9 refactor) crashes or corrupts a
# degraded array whose in-sync members are all write-mostly -- the boot
# restore's state -- until 36a5c03f2327 and c916ca35308d (research 3.4).
# Neither fix is in a 6.9 release (6.9.y ended before them); in 6.10.y we
# did not establish which stable release has both, so all of 6.10 is out.
BAD_KERNELS = ((6, 9), (6, 10))
_DISK = re.compile(r"[a-z][a-z0-9_!.-]{0,31}\Z")


def _refuse(message, advice):
    raise RefusedError(message, advice=advice)


# --- checks shared by every operation ----------------------------------------

def check_kernel(snap):
    major, minor, _, release = snap.kernel
    if (major, minor) in BAD_KERNELS:
        _refuse("kernel %s has the raid1 read-balancing bugs of 6.9 and 6.10 "
                "(fixed by 36a5c03f2327 and c916ca35308d in 6.11): a degraded "
                "array whose other members are all write-mostly can crash or "
                "return wrong data, which is this setup's state at every boot"
                % release,
                "Boot a kernel of 6.11 or later, or a long-term kernel such "
                "as 6.6 or 6.1, then run svmram again.")


def check_memory(snap, kib, action="the RAM member"):
    if not snap.mem_total_kib:
        return
    floor = snap.mem_total_kib * MIN_FREE_PERCENT // 100
    if snap.mem_available_kib - kib < floor:
        _refuse("%s needs %d KiB of memory and only %d KiB are available; "
                "at least %d%% of memory (%d KiB) must stay free" % (
                    action, kib, snap.mem_available_kib, MIN_FREE_PERCENT,
                    floor),
                "Free memory or use a smaller array; the array keeps serving "
                "reads from its disks meanwhile.")


def _ram_members(array):
    return [m.name for m in array.members if m.name.startswith("ram")]


def _disk_names(array):
    return tuple(m.name for m in sorted(
        (m for m in array.members if not m.name.startswith("ram")),
        key=lambda m: (m.slot is None, m.slot, m.name)))


# --- choosing what setup does ------------------------------------------------


def refuse_scrub(a, command, again):
    """No RAM member while md checks or repairs the array: md starts its
    recovery only when the scrub ends (md runs one sync action at a
    time), and Debian's mdcheck lets a check run 6 hours at a time, so
    the RAM member would sit unfilled for as long.  Nothing is paused:
    the scrub is not svmram's (mdcheck keeps its position in its own
    marker, and takes any end of the check for the check done)."""
    if a.scrubbing:
        _refuse("%s is running; md would copy into a RAM member only after "
                "it, so %s adds none now" % (a.scrub_words(), command),
                "Let it end (cat /sys/block/%s/md/sync_action says idle "
                "then), and run %s." % (a.name, again))


def _refuse_without_internal_bitmap(a):
    """svmram needs md's classic internal bitmap (the re-add of a disk
    that was out copies only what changed).  mdadm 4.4 and later create
    none unless asked (Create.c, mdadm.c: commit e97c4e18 "ask user if
    bitmap is not set"), so arrays made by hand on Debian 13 have none;
    `mdadm --grow --bitmap=internal` gives one on 4.2 to 4.6 (Grow.c
    Grow_addbitmap).  A bitmap in a file arises only with mdadm before
    4.4 (commit 581ba134 "remove bitmap file support").  The lockless
    bitmap (kernel 6.18, mdadm 4.6 --bitmap=lockless, "experimental")
    recovers a new member only where the array was written
    (md-llbitmap.c, llbitmap_skip_sync_blocks), so a blank RAM member
    would keep zeros where the disks were never written, and it has no
    md/bitmap/backlog to show write-behind: refused until checked on a
    real host."""
    name = a.name
    if re.match(r"\+[0-9]+\Z", a.bitmap):
        return
    if a.bitmap == "none":
        _refuse("%s has no write-intent bitmap (mdadm 4.4 and later create "
                "none unless asked)" % name,
                "Give it an internal bitmap first (mdadm --grow "
                "--bitmap=internal /dev/%s), then run setup again." % name)
    _refuse("%s has %s; svmram needs md's classic internal bitmap" % (
        name, "a bitmap in a file" if a.bitmap == "file" else
        "a lockless bitmap (llbitmap)" if a.bitmap == "llbitmap" else
        "a bitmap of kind %s" % a.bitmap),
        "Replace it (mdadm --grow --bitmap=none /dev/%s, then mdadm --grow "
        "--bitmap=internal /dev/%s; cat /sys/block/%s/md/bitmap_type, where "
        "it exists, then shows [bitmap]), then run setup again." % (
            name, name, name))

def choose_setup(snap, array, disks=()):
    """Check everything and decide (Intent, notes) for `svmram setup`, or
    refuse with the reason.  `disks` (kernel names) are needed only for a
    new array."""
    check_array_name(array)
    check_kernel(snap)
    if snap.array is None:
        it, notes = _choose_new(snap, array, tuple(disks))
    else:
        if disks and set(disks) != set(_disk_names(snap.array)):
            _refuse("%s exists and its disks are %s, not %s" % (
                array, " ".join(_disk_names(snap.array)), " ".join(disks)),
                "Name no disks to set up the existing array, or name a new "
                "array to create one.")
        it, notes = _choose_existing(snap, snap.array)
    check_brd_free(snap, it)
    if not snap.brd.loaded:
        check_memory(snap, it.rd_size_kib)
    return it, notes


def _choose_new(snap, array, disks):
    if not disks:
        _refuse("there is no array %s" % array,
                "Name the disks to create it from (they are overwritten), "
                "or an existing RAID-1 array.")
    if len(set(disks)) != len(disks):
        _refuse("a disk is named twice", "Name each disk once.")
    for disk in disks:
        if not _DISK.match(disk) or disk.startswith(("ram", "md", "zram")):
            _refuse("%s is not a disk svmram can use" % disk,
                    "Name whole disks or partitions (/dev/sdb, /dev/vdb1); "
                    "RAM disks and md arrays are not disk members.")
        info = snap.disks.get(disk)
        if info is None:
            _refuse("there is no block device %s" % disk,
                    "lsblk lists the block devices.")
        uses = []
        if info.holders:
            uses.append("held by " + " ".join(info.holders))
        if info.mounted_on:
            uses.append("mounted on " + info.mounted_on)
        if info.partitions:
            uses.append("has partitions " + " ".join(info.partitions))
        if uses:
            _refuse("%s is in use (%s)" % (disk, ", ".join(uses)),
                    "svmram creates arrays only on unused disks; name "
                    "another.")
        if info.size_sectors < MIN_DISK_SECTORS:
            _refuse("%s is only %d KiB" % (disk, info.size_sectors // 2),
                    "Use disks of at least %d KiB." % (MIN_DISK_SECTORS // 2))
    # The RAM member as large as the smallest disk: mdadm sizes the array
    # to its smallest member, so it is never the one that limits it.
    size = min(snap.disks[d].size_sectors for d in disks) // 2
    it = Intent(array=array, disks=disks, ram=RAM, rd_size_kib=size,
                created=True)
    return it, ["new array: %s is created from %s (overwritten) and a RAM "
                "member of %d KiB." % (array, " ".join(disks), size)]


def _choose_existing(snap, a):
    name = a.name
    if not a.running:
        _refuse("%s is %s, not running" % (name, a.state),
                "Start it first (mdadm --run /dev/%s)." % name)
    if a.level != "raid1":
        _refuse("%s is %s, not RAID-1" % (name, a.level or "of no level"),
                "svmram only adds a RAM member to RAID-1 arrays.")
    rams = _ram_members(a)
    if rams:
        _refuse("%s already has a RAM member (%s)" % (name, rams[0]),
                "svmram status shows it; svmram teardown undoes svmram's "
                "setup.  A RAM member svmram did not add must be removed "
                "by hand (mdadm /dev/%s --fail /dev/%s --remove /dev/%s)."
                % (name, rams[0], rams[0]))
    if a.metadata != "1.2":
        _refuse("%s has metadata %s; svmram supports 1.2 only" % (
            name, a.metadata),
            "Its RAM member's size is only known for 1.2 superblocks "
            "(at the start of each member).")
    in_sync = [m for m in a.members if m.role == IN_SYNC]
    if not in_sync:
        _refuse("%s has no disk member in sync" % name,
                "Repair the array first (mdadm --detail /dev/%s)." % name)
    if a.degraded or len(in_sync) != a.raid_disks or \
            len(a.members) != len(in_sync):
        _refuse("%s is degraded or has spare or failed members (%d of %d "
                "raid devices in sync, %d members)" % (
                    name, len(in_sync), a.raid_disks, len(a.members)),
                "Repair it first and remove any spare (mdadm --detail "
                "/dev/%s shows them); svmram adds its RAM member only to a "
                "complete array." % name)
    refuse_scrub(a, "setup", "svmram setup again")
    if a.sync_action != "idle" or a.resync_start is not None:
        _refuse("%s is busy (%s)" % (name, a.sync_action if a.sync_action !=
                                     "idle" else "a resync is pending"),
                "Wait until cat /sys/block/%s/md/sync_action says idle."
                % name)
    _refuse_without_internal_bitmap(a)
    if a.backlog:
        _refuse("%s has write-behind enabled (bitmap backlog %d): md "
                "could acknowledge writes the disks do not have yet" % (
                    name, a.backlog),
                "Re-create the bitmap without --write-behind (mdadm --grow "
                "--bitmap=none, then --bitmap=internal).")
    offset = max(m.offset_sectors for m in in_sync)
    size = a.component_kib + (offset + 1) // 2
    disks = _disk_names(a)
    it = Intent(array=name, disks=disks, ram=RAM, rd_size_kib=size,
                offset_sectors=offset, created=False,
                write_mostly_before=frozenset(m.name for m in in_sync
                                              if m.write_mostly))
    return it, ["existing array: %s grows from %d to %d raid devices, "
                "adding a RAM member of %d KiB (%d KiB of data + %d KiB of "
                "data offset); nothing is stopped." % (
                    name, a.raid_disks, a.raid_disks + 1, size,
                    a.component_kib, (offset + 1) // 2)]


# --- the plans ---------------------------------------------------------------

def plan_setup(snap, it):
    plan = Plan("setup", it.array,
                method="create" if it.created else "grow")
    converge_plan(plan, snap, it, _next_setup_step, it.array,
                  state_command(it))
    return plan


def plan_teardown(snap, it):
    plan = Plan("teardown", it.array)
    converge_plan(plan, snap, it, _next_teardown_step, it.array,
                  state_command(it))
    return plan


def plan_stop(snap, it):
    """The boot unit's stop (ExecStop, at shutdown): remove the RAM member
    and shrink raid-devices back to the disks, so that the next boot is
    an ordinary, complete assembly (research 2d); the disks stay
    write-mostly for the next restore; brd is unloaded.  An array that is
    not running is left alone."""
    plan = Plan("stop", it.array)
    converge_plan(plan, snap, it, _next_stop_step, it.array,
                  state_command(it))
    return plan


def state_command(it):
    """What shows the array, for the refusal of a planner that loops."""
    return "mdadm --detail /dev/%s" % it.array


def disks_in_sync(a, it):
    return [d for d in it.disks if a.member(d) is not None and
            a.member(d).role == IN_SYNC]


def _next_setup_step(snap, it):
    a = snap.array
    if a is None:
        if not snap.brd.loaded:
            return steps.load_brd(snap, it)
        return steps.create(snap, it, _created_array(snap, it))
    refuse_foreign(a, it)
    if not a.running:
        _refuse("%s is %s" % (it.array, a.state),
                "Start it first (mdadm --run /dev/%s)." % it.array)
    ram = a.member(it.ram)
    if ram is not None and ram.role == FAULTY:
        return steps.fail_remove(snap, it)
    if ram is None:
        if not snap.brd.loaded:
            return steps.load_brd(snap, it)
        if md_default(a):
            return steps.raise_speed(snap, it)
        if a.raid_disks == len(it.disks):
            return steps.grow_add(snap, it)
        return steps.add(snap, it)
    if ram.role == SPARE and a.raid_disks == len(it.disks):
        return steps.grow(snap, it)
    if ram.role != IN_SYNC:
        return steps.wait_recovery(snap, it)
    for disk in it.disks:
        member = a.member(disk)
        if member is not None and not member.write_mostly:
            return steps.set_write_mostly(snap, it, disk)
    return speed_back(snap, it)


def md_default(a):
    """The recovery speed limit is md's default (the sysctl
    dev.raid.speed_limit_max as the kernel starts it, not set on the
    array).  An administrator's own limit, on the array or system-wide,
    is left alone."""
    return a.speed_max == (steps.MD_DEFAULT_SPEED_KIB, False)


def raised(a):
    """The recovery speed limit is the one svmram sets, or set before."""
    return a.speed_max[1] and a.speed_max[0] in (
        (steps.RAISED_SPEED_KIB,) + steps.EARLIER_RAISED_SPEEDS_KIB)


def limit_outlasts_copy(a, it):
    """svmram's raised recovery speed limit is still on the running array
    `a` though md copies nothing into RAM (its RAM member in sync, faulty
    or gone, md idle): what restore --after-copy puts back
    (restore.plan_after_copy), and what status reports until then."""
    if a is None or not a.running or not raised(a) or \
            a.sync_action != "idle":
        return False
    ram = a.member(it.ram)
    return ram is None or ram.role in (IN_SYNC, FAULTY)


def speed_back(snap, it):
    """Once md copies nothing, the system's limit again."""
    a = snap.array
    if raised(a) and a.sync_action == "idle":
        return steps.reset_speed(snap, it)
    return None


def _created_array(snap, it):
    members = (Member(it.ram, 0, frozenset(["in_sync"]), it.offset_sectors),
               ) + tuple(Member(d, i, frozenset(["in_sync", "write_mostly"]))
                         for i, d in enumerate(it.disks, 1))
    return Array(name=it.array, level="raid1", raid_disks=len(members),
                 state="clean", members=tuple(sorted(
                     members, key=lambda m: m.name)), bitmap="+8")


def _next_teardown_step(snap, it):
    a = snap.array
    if a is not None:
        refuse_foreign(a, it)
        if not a.running:
            _refuse("%s is %s" % (it.array, a.state),
                    "Start it first (mdadm --run /dev/%s)." % it.array)
        if not disks_in_sync(a, it):
            _refuse_only_copy(it)
        if raised(a):
            return steps.reset_speed(snap, it)
        for disk in it.disks:
            member = a.member(disk)
            if member is not None and member.write_mostly and \
                    disk not in it.write_mostly_before:
                return steps.set_write_mostly(snap, it, disk, on=False)
        step = _remove_ram(snap, it)
        if step is not None:
            return step
    return _unload_brd(snap, it)


def _next_stop_step(snap, it):
    a = snap.array
    if a is not None and a.running:
        refuse_foreign(a, it)
        if raised(a):
            return steps.reset_speed(snap, it)
        if a.member(it.ram) is not None and not disks_in_sync(a, it):
            _refuse_only_copy(it, "; svmram leaves it as it is")
        step = _remove_ram(snap, it)
        if step is not None:
            return step
    return _unload_brd(snap, it)


def _refuse_only_copy(it, leaves=""):
    _refuse("no disk member of %s is in sync; removing the RAM member "
            "would lose the only copy" % it.array,
            "Let the array recover onto a disk first (mdadm --detail "
            "/dev/%s)%s." % (it.array, leaves))


def _remove_ram(snap, it):
    """Teardown's and stop's: fail and remove the RAM member, then shrink
    raid-devices back to the disks; None when both are done."""
    a = snap.array
    if a.member(it.ram) is not None:
        return steps.fail_remove(snap, it)
    if a.raid_disks > len(it.disks):
        return steps.shrink(snap, it, len(it.disks))
    return None


def _unload_brd(snap, it):
    if snap.brd.loaded:
        check_brd_free(snap, replace(it, rd_size_kib=snap.brd.rd_size_kib))
        return steps.unload_brd(snap, it)
    return None
