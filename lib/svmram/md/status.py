# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What `svmram status` says about an md array (pure): which member
serves reads, the recovery's progress, the write-mostly flags, and
whether the disks hold a current copy.

describe() holds md's own facts (members, bitmap, brd); report() turns
them into the neutral backend.Status of
docs/status-json.md (format 2), with the Problems that grade it.
"""

from ..backend import Problems, Status
from ..errors import (EXIT_DEGRADED, EXIT_NOT_SERVING, EXIT_OK,
                      EXIT_ONLY_COPY_IN_RAM)
from . import record
from .host import unit_name
from .model import FAULTY, IN_SYNC, RECOVERING, SPARE

VERDICTS = {"serving": EXIT_OK, "not_serving": EXIT_NOT_SERVING,
            "degraded": EXIT_DEGRADED,
            "only_copy_in_ram": EXIT_ONLY_COPY_IN_RAM}


def describe(snap, it):
    """The status entry of `it.array` from a Snapshot and the record."""
    a = snap.array
    if a is None:
        return {"array": it.array, "configured": True,
                "verdict": "not_serving", "serving_from_ram": False,
                "reasons": ["%s is not assembled" % it.array]}
    ram = a.member(it.ram)
    percent = recovery_percent(a)
    reasons = []
    if not a.running:
        reasons.append("%s is %s" % (it.array, a.state))
    if ram is None:
        reasons.append("%s is not in %s" % (it.ram, it.array))
    elif ram.role == RECOVERING or (ram.role == SPARE and a.degraded):
        reasons.append("%s is recovering%s; the disks serve reads ahead of "
                       "the recovery" % (it.ram, "" if percent is None else
                                         " (%d%% done)" % percent))
    elif ram.role != IN_SYNC:
        reasons.append("%s is %s" % (it.ram, ram.role))
    for disk in it.disks:
        member = a.member(disk)
        # A faulty member serves nothing: the disk redundancy names it.
        if member is not None and not member.write_mostly and \
                member.role != FAULTY:
            reasons.append("%s is not write-mostly, so it serves reads too"
                           % disk)
    if not snap.brd.loaded:
        reasons.append("brd is not loaded")
    redundancy = _redundancy(a, it, ram)
    verdict = "serving" if not reasons else "not_serving"
    if redundancy["state"] == "degraded":
        verdict = "degraded"
    elif redundancy["state"] == "lost":
        verdict = "only_copy_in_ram"
    members = [{"slot": m.slot, "name": m.name, "state": m.role,
                "ram": m.name == it.ram, "write_mostly": m.write_mostly}
               for m in sorted(a.members, key=lambda m: (
                   m.slot is None, m.slot if m.slot is not None else 0,
                   m.name))]
    return {
        "array": it.array, "configured": True, "verdict": verdict,
        "serving_from_ram": not reasons, "reasons": reasons,
        "disk_redundancy": redundancy, "ram_member": it.ram,
        "method": "create" if it.created else "grow",
        "array_state": a.state, "raid_disks": a.raid_disks,
        "degraded": a.degraded, "component_kib": a.component_kib,
        "recovery_percent": percent, "members": members,
        "bitmap": a.bitmap, "write_behind_backlog": a.backlog,
        "brd": {"loaded": snap.brd.loaded,
                "rd_size_kib": snap.brd.rd_size_kib or None,
                "recorded_kib": it.rd_size_kib,
                "size_matches": snap.brd.rd_size_kib == it.rd_size_kib}}


def exit_code(entry):
    return VERDICTS[entry["verdict"]]


def recovery_percent(a):
    """The resync's or recovery's percent as /proc/mdstat shows it (md's
    own figure, which the administrator compares with); from
    md/sync_completed only when mdstat shows none (it lags by up to a
    sixteenth of the array)."""
    if a.mdstat_percent is not None:
        return a.mdstat_percent
    done = a.sync_completed
    if a.sync_action in ("recover", "resync") and isinstance(done, tuple) \
            and done[1]:
        return done[0] * 100 // done[1]
    return None


def _redundancy(a, it, ram):
    current, reasons, fixes = [], [], []
    dev = "/dev/" + it.array
    for disk in it.disks:
        member = a.member(disk)
        if member is not None and member.role == IN_SYNC:
            current.append(disk)
        elif member is None:
            reasons.append("%s is not in %s" % (disk, it.array))
            fixes.append("mdadm %s --add /dev/%s" % (dev, disk))
        elif member.role == FAULTY:
            reasons.append("%s is faulty" % disk)
            fixes.append("mdadm %s --remove /dev/%s, then --add it (or a "
                         "replacement)" % (dev, disk))
        else:
            reasons.append("%s is %s" % (disk, member.role))
            fixes.append("none: md is recovering it" if member.role ==
                         RECOVERING else "mdadm --grow %s --raid-devices=%d"
                         % (dev, a.raid_disks + 1))
    if not a.running:
        # Its disks are spares until md starts it: no --add or --grow
        # works on an inactive array, --run does (degraded, RAM-less).
        fixes = ["mdadm --run %s" % dev]
    if not current and ram is not None and ram.role == IN_SYNC:
        state = "lost"
    elif len(current) < len(it.disks):
        state = "degraded"
    else:
        state = "full"
    return {"state": state, "current": current, "reasons": reasons,
            "fixes": fixes}


# --- the neutral status ------------------------------------------------------

def not_configured(array):
    return Status.unconfigured(array, "%s is not set up by svmram (no "
                               "record %s)" % (array,
                                               record.record_path(array)))


def report(snap, it, service_state):
    """(Status, Problems) of a recorded array: describe()'s facts under
    the neutral names, and the boot unit's state."""
    entry = describe(snap, it)
    reasons = list(entry["reasons"])
    unit = unit_name(it.array)
    if service_state == "failed":
        # the restore said why, and what to do, in the unit's journal
        reasons.append("its boot unit %s is failed (journalctl -b -u %s "
                       "says why and what to do)" % (unit, unit))
    elif service_state != "active":
        reasons.append("its boot unit %s is %s" % (
            unit, service_state or "missing"))
    verdict = entry["verdict"]
    if verdict == "serving" and reasons:
        verdict = "not_serving"
    a = snap.array
    brd = snap.brd
    found = Status(
        target=it.array, configured=True, verdict=verdict,
        serving_from_ram=not reasons, reasons=reasons,
        disk_redundancy=entry.get("disk_redundancy"),
        ram_copy=it.ram, method="create" if it.created else "grow",
        read_policy=None,
        size_blocks=a.component_kib * 2 if a is not None else None,
        sync_percent=entry.get("recovery_percent"),
        copies=[dict(m) for m in entry.get("members", [])],
        ramdisk={"name": it.ram,
                 "present": brd.loaded and it.ram in brd.devices,
                 "size_bytes": brd.rd_size_kib * 1024 if brd.loaded
                 else None,
                 "device": None, "recorded_device": None,
                 "device_matches": brd.loaded and
                 brd.rd_size_kib == it.rd_size_kib},
        boot_service={"name": unit, "state": service_state})
    problems = Problems(booting=service_state in ("activating", "enabled"),
                        disks=tuple(it.disks))
    ram = a.member(it.ram) if a is not None else None
    for words in reasons:
        recovering = ram is not None and ram.role in (RECOVERING, SPARE) \
            and words.startswith(it.ram)
        problems.add(words, passing=recovering)
    add_redundancy_problems(problems, it, entry.get("disk_redundancy"))
    return found, problems


def add_redundancy_problems(problems, it, redundancy):
    """A failed or missing disk is CRITICAL, named (issue 28, 3); only
    md's recovery of a disk passes by itself."""
    if redundancy is None or redundancy["state"] == "full":
        return
    if redundancy["state"] == "lost":
        problems.critical.insert(0, "DATA AT RISK: %s holds the only "
                                 "current copy (%s)" % (
                                     it.ram, ", ".join(redundancy["reasons"])))
        return
    problems.add("disk redundancy degraded (%s)" % ", ".join(
        redundancy["reasons"]), passing=all(
            words.endswith(" is " + RECOVERING)
            for words in redundancy["reasons"]))
