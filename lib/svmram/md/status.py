# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The status of the arrays svmram set up, as backend.Status
(docs/status-json.md, format 2), with the Problems that grade them for
--nagios: which member serves reads, the recovery's progress, rate and
time left, the write-mostly flags, whether the disks hold a current copy,
and the boot unit's state.

read_statuses() reads the host (the record, sysfs and /proc, the unit's
state) and array_status() builds each Status from what was read (pure),
as svm/status.py does for SVM's mirrors.
"""

from ..backend import Problems, Status
from ..copytime import duration_text, rate_text, seconds_left
from . import record
from .host import MdHost, unit_name
from .model import FAULTY, IN_SYNC, RECOVERING, SPARE
from .planner import limit_outlasts_copy


def read_statuses(root, array=None):
    """[(Status, Problems)] of `array`, or of every array the record store
    names (the files under /etc/svmram/md)."""
    arrays = [array] if array is not None else record.recorded_arrays(root)
    found = []
    for name in arrays:
        host = MdHost(name, root)
        it = record.recorded_intent(root, name)
        if it is None:
            found.append((not_configured(name), Problems()))
            continue
        found.append(array_status(host.observe(it), it,
                                  host.boot_service_state()))
    return found


def _array_reasons(snap, it, percent, rate=None, left=None):
    """Why the array does not serve reads from RAM, as md shows it
    (`percent`, `rate`, `left`: the recovery's)."""
    a = snap.array
    if a is None:
        return ["%s is not assembled" % it.array]
    ram = a.member(it.ram)
    reasons = []
    if not a.running:
        reasons.append("%s is %s" % (it.array, a.state))
    if ram is None:
        reasons.append("%s is not in %s" % (it.ram, it.array))
    elif a.scrubbing and (ram.role == RECOVERING or (
            ram.role == SPARE and a.degraded)):
        reasons.append("%s waits for the end of %s: md copies into it "
                       "only then, and the disks serve reads meanwhile" % (
                           it.ram, a.scrub_words()))
    elif ram.role == RECOVERING or (ram.role == SPARE and a.degraded):
        reasons.append("%s is recovering%s; the disks serve reads ahead of "
                       "the recovery" % (it.ram, progress_words(
                           percent, rate, left)))
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
    return reasons


def recovery_percent(a):
    """The resync's or recovery's percent as /proc/mdstat shows it (md's
    own figure, which the administrator compares with); from
    md/sync_completed only when mdstat shows none (it lags by up to a
    sixteenth of the array).  None while md runs a check or repair: its
    progress line is the scrub's (Array.scrub_percent), not a copy's."""
    if a.scrubbing:
        return None
    if a.mdstat_percent is not None:
        return a.mdstat_percent
    done = a.sync_completed
    if a.sync_action in ("recover", "resync") and isinstance(done, tuple) \
            and done[1]:
        return done[0] * 100 // done[1]
    return None


def recovery_rate(a):
    """(bytes per second, seconds left) of the array's resync or
    recovery as md/sync_speed and md/sync_completed show it while one
    runs: md's rate over its last marks (md.c sync_speed_show), the
    sectors left at that rate; the seconds None while the rate is 0.
    (None, None) when md runs none or shows no figures."""
    done = a.sync_completed
    if a.sync_action not in ("recover", "resync") or \
            a.sync_rate_kib is None or not isinstance(done, tuple) or \
            not done[1]:
        return None, None
    rate = a.sync_rate_kib * 1024
    return rate, seconds_left((done[1] - done[0]) * 512, rate)


def progress_words(percent, rate, left):
    """' (25% done, 480 MiB/s, about 1 min 05 s left)', or less of it."""
    words = [] if percent is None else ["%d%% done" % percent]
    if rate is not None:
        words.append(rate_text(rate))
    if left is not None:
        words.append("about %s left" % duration_text(left))
    return " (%s)" % ", ".join(words) if words else ""


def scrub(a):
    """Status.scrub: {action: "check" or "repair", percent} while md runs
    one, else None."""
    if a is None or not a.scrubbing:
        return None
    return {"action": a.sync_action, "percent": a.scrub_percent}


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


def array_status(snap, it, service_state):
    """(Status, Problems) of a recorded array from the Snapshot observed
    and the boot unit's state (pure)."""
    a, brd = snap.array, snap.brd
    percent = recovery_percent(a) if a is not None else None
    rate, left = recovery_rate(a) if a is not None else (None, None)
    reasons = _array_reasons(snap, it, percent, rate, left)
    unit = unit_name(it.array)
    if service_state == "failed":
        # the restore said why, and what to do, in the unit's journal
        reasons.append("its boot unit %s is failed (journalctl -b -u %s "
                       "says why and what to do)" % (unit, unit))
    elif service_state != "active":
        reasons.append("its boot unit %s is %s" % (
            unit, service_state or "missing"))
    ram = a.member(it.ram) if a is not None else None
    redundancy = _redundancy(a, it, ram) if a is not None else None
    verdict = "serving" if not reasons else "not_serving"
    if redundancy is not None and redundancy["state"] == "degraded":
        verdict = "degraded"
    elif redundancy is not None and redundancy["state"] == "lost":
        verdict = "only_copy_in_ram"
    copies = [{"slot": m.slot, "name": m.name, "state": m.role,
               "ram": m.name == it.ram, "write_mostly": m.write_mostly}
              for m in sorted(a.members, key=lambda m: (
                  m.slot is None, m.slot if m.slot is not None else 0,
                  m.name))] if a is not None else []
    found = Status(
        target=it.array, configured=True, verdict=verdict,
        serving_from_ram=not reasons, reasons=reasons,
        disk_redundancy=redundancy,
        ram_copy=it.ram, method="create" if it.created else "grow",
        read_policy=None,
        size_blocks=a.component_kib * 2 if a is not None else None,
        sync_percent=percent, sync_bytes_per_second=rate,
        sync_seconds_left=left, scrub=scrub(a),
        raised_speed_limit=raised_speed_limit(a, it), copies=copies,
        ramdisk={"name": it.ram,
                 "present": brd.loaded and it.ram in brd.devices,
                 "size_bytes": brd.rd_size_kib * 1024 if brd.loaded
                 else None,
                 "device": None, "recorded_device": None,
                 "device_matches": brd.loaded and
                 brd.rd_size_kib == it.rd_size_kib},
        boot_service={"name": unit, "state": service_state})
    # The boot window, as on SVM (svm/status.py booting): the unit's
    # restore runs, and a RAM member that is not back yet is what every
    # boot looks like.  systemd bounds it (TimeoutStartSec, then the unit
    # is failed: CRITICAL); an enabled unit that is not running is no
    # boot: it starts in sysinit.target, before any monitor runs.
    problems = Problems(booting=service_state == "activating",
                        disks=tuple(it.disks))
    not_back_yet = ("%s is not in %s" % (it.ram, it.array),
                    "brd is not loaded",
                    "its boot unit %s is activating" % unit)
    for words in reasons:
        recovering = ram is not None and ram.role in (RECOVERING, SPARE) \
            and words.startswith(it.ram)
        if words in not_back_yet:
            problems.unless_booting(words)
        else:
            problems.add(words, passing=recovering)
    add_redundancy_problems(problems, it, redundancy)
    return found, problems


def raised_speed_limit(a, it):
    """svmram's raised recovery speed limit where it outlasts the copy
    into RAM (planner.limit_outlasts_copy: svmram-copy@'s --after-copy
    failed or gave up, or the restore ran outside its unit), with the
    command that puts the system's back; None otherwise."""
    if not limit_outlasts_copy(a, it):
        return None
    return {"kib_per_second": a.speed_max[0],
            "fix": "svmram restore --after-copy %s" % it.array}


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
