# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The boot restore's plan for md (pure, convergent like the setup,
teardown and stop planners of planner.py): start the array if it came up
inactive, load brd, add a fresh RAM member.  The facts behind each
decision are in docs/md-backend.md."""

from ..errors import RefusedError
from ..plan import Plan, converge_plan
from . import steps
from .host import unit_name
from .consistency import check_brd_free, refuse_foreign
from .model import FAULTY, IN_SYNC, SPARE
from .planner import (check_kernel, check_memory, disks_in_sync,
                      limit_outlasts_copy, md_default, refuse_scrub,
                      speed_back, state_command)


def plan_restore(snap, it):
    """The boot restore: start the array if it came up inactive, load brd,
    add a fresh RAM member; nothing waits for the recovery."""
    check_kernel(snap)
    plan = Plan("restore", it.array)

    def next_step(snap, it):
        # md gives a re-added disk its slot a moment later (a spare
        # meanwhile): the restore waits for it and plans again from what
        # md shows then.
        if plan.steps and plan.steps[-1].key.startswith("re-add "):
            return None
        return _next_restore_step(snap, it)

    converge_plan(plan, snap, it, next_step, it.array,
                  state_command(it))
    if plan.steps and plan.steps[-1].key.startswith("run "):
        plan.notes.append(
            "%s is inactive, which hides its raid devices: after starting "
            "it, restore plans again from what it shows." % it.array)
    elif plan.steps and plan.steps[-1].key.startswith("re-add "):
        plan.notes.append(
            "md puts the disk back into its slot a moment after the "
            "re-add: restore then waits for that and plans again from "
            "what %s shows." % it.array)
    return plan


def plan_start(snap, it):
    """What a restore standing aside for an unfinished setup or teardown
    still does: start the array if it came up inactive, nothing else."""
    plan = Plan("restore", it.array)
    a = snap.array
    if a is not None and a.state == "inactive":
        refuse_foreign(a, it)
        plan.steps.append(steps.run_array(snap, it, as_found=True))
    return plan


def plan_after_copy(snap, it):
    """svmram-copy@'s, once md's copy into RAM has ended (restore
    --after-copy): the recovery speed limit that setup or restore raised
    for the copy goes back to the system's, where
    planner.limit_outlasts_copy says it outlasts the copy, so that
    what md runs next (Debian's mdcheck, which starts right after the
    copy, or a resync of the disks) runs under the administrator's
    limit.  Nothing else: a RAM member still to be copied (the unit's
    wait ran out, or md copies nothing on a frozen or read-only array)
    keeps the raised limit, and a limit that is not svmram's is left as
    it is."""
    plan = Plan("restore", it.array)
    a = snap.array
    if a is None or not a.running:
        return plan
    refuse_foreign(a, it)
    if limit_outlasts_copy(a, it):
        plan.steps.append(steps.reset_speed(snap, it))
    return plan


def _next_restore_step(snap, it):
    a = snap.array
    if a is None:
        raise RefusedError("%s is not assembled" % it.array,
                           "Assemble it (mdadm --assemble --scan), then run "
                           "svmram restore again.")
    refuse_foreign(a, it)
    if a.state == "inactive":
        return steps.run_array(snap, it)
    if not a.raid_disks:
        return None                 # started: plan again from what it shows
    if not a.running:
        raise RefusedError("%s is %s" % (it.array, a.state),
                           "Start it first (mdadm --run /dev/%s)." % it.array)
    if not disks_in_sync(a, it):
        raise RefusedError(
            "no disk member of %s is in sync, so there is nothing to copy "
            "into RAM" % it.array,
            "Repair the array (mdadm --detail /dev/%s)." % it.array)
    for disk in it.disks:
        member = a.member(disk)
        if member is not None and not member.write_mostly:
            return steps.set_write_mostly(snap, it, disk)
    ram = a.member(it.ram)
    if ram is not None and ram.role == FAULTY:
        return steps.fail_remove(snap, it)
    if ram is not None and ram.role == SPARE and \
            a.raid_disks == len(it.disks):
        _refuse_scrub(a, it)
        return steps.grow(snap, it, wait=False)
    if ram is not None:
        # In sync (then the limit goes back), or md is recovering it.
        return speed_back(snap, it) if ram.role == IN_SYNC else None
    step = _disks_back(snap, it)
    if step is not None:
        return step
    _refuse_scrub(a, it)
    if not snap.brd.loaded:
        check_brd_free(snap, it)
        check_memory(snap, it.rd_size_kib)
        return steps.load_brd(snap, it)
    check_brd_free(snap, it)
    if md_default(a):
        return steps.raise_speed(snap, it)
    if a.raid_disks == len(it.disks):
        return steps.grow_add(snap, it, wait=False)
    return steps.add(snap, it, wait=False)


def _refuse_scrub(a, it):
    """At boot svmram@ starts before mdcheck's units and md's copy into
    RAM ends before they start (svmram-copy@ is ordered before them), so
    a scrub running here is another one: an administrator's, or one
    started while the unit was stopped."""
    refuse_scrub(a, "restore", "systemctl restart %s" % unit_name(it.array))


def _disks_back(snap, it):
    """Every recorded disk in its slot before a RAM member is added: md
    gives a new member the lowest free slot, and a disk whose slot the
    RAM member took comes back only by a full recovery, in another slot
    (issue 28: on trixie a restore added ram0 while md was taking back a
    disk that had been missing, and ram0 got the disk's slot).  A disk
    that is back but not in the array, and that nothing else holds, is
    re-added (the next step); one that is not there, or that md lists
    without a slot, is refused (restore's wait_for_disks has already
    waited, bounded, for md and udev to take it back)."""
    a = snap.array
    for disk in it.disks:
        info = snap.disks.get(disk)
        if a.member(disk) is None and info is not None and \
                not info.holders and info.mounted_on is None:
            return steps.re_add(snap, it, disk)
    _refuse_missing_disks(a, it)
    _refuse_slotless_disks(a, it)
    return None


def _refuse_slotless_disks(a, it):
    """A recorded disk md lists without a slot: a spare md has not yet
    put back into its slot (it does so when it starts recovering it), or
    a faulty one."""
    for disk in it.disks:
        member = a.member(disk)
        if member is None or member.role not in (SPARE, FAULTY):
            continue
        others = " ".join(d for d in disks_in_sync(a, it) if d != disk)
        if member.role == SPARE:
            raise RefusedError(
                "%s is a spare in %s, not yet back in its slot, so restore "
                "adds no RAM member (it would take that slot); %s serves "
                "reads from %s" % (disk, it.array, it.array, others),
                "Wait for md's recovery of %s (mdadm --wait /dev/%s), then "
                "systemctl restart %s." % (disk, it.array,
                                           unit_name(it.array)))
        raise RefusedError(
            "%s is faulty in %s, so restore adds no RAM member (it would "
            "take the disk's slot); %s serves reads from %s" % (
                disk, it.array, it.array, others),
            "Take it out and add it again (mdadm /dev/%s --remove /dev/%s; "
            "mdadm /dev/%s --re-add /dev/%s; where mdadm refuses the "
            "re-add, mdadm --zero-superblock /dev/%s first, then mdadm "
            "/dev/%s --add /dev/%s), wait for md's recovery of it (mdadm "
            "--wait /dev/%s), then systemctl restart %s." % (
                it.array, disk, it.array, disk, disk, it.array, disk,
                it.array, unit_name(it.array)))


def _refuse_missing_disks(a, it):
    """No new RAM member while a recorded disk is not in the array (it was
    missing at boot, or md kicked it out): md would give the RAM member
    the lowest free slot, the disk's, and the disk could then come back
    only by a full recovery instead of its bitmap's.  The array runs on
    the disks it has, as md alone would run it."""
    missing = [d for d in it.disks if a.member(d) is None]
    if not missing:
        return
    names = " ".join(missing)
    raise RefusedError(
        "%s %s not in %s, so restore adds no RAM member (it would take "
        "the slot the disk comes back to); %s serves reads from %s" % (
            names, "is" if len(missing) == 1 else "are", it.array, it.array,
            " ".join(d for d in it.disks if d not in missing)),
        "When the disk is back, add it again (%s), wait for md's recovery "
        "of it (mdadm --wait /dev/%s), then systemctl restart %s." % (
            "; ".join("mdadm /dev/%s --add /dev/%s" % (it.array, d)
                      for d in missing), it.array, unit_name(it.array)))
