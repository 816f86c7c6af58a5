# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The md planner's view of one array and what surrounds it (pure).

host.py (MdHost.observe) builds a Snapshot from sysfs and /proc; the
planners apply steps to Snapshots; the executor compares the Snapshot a
step promised with the one it re-reads afterwards (differences()).
"""

from dataclasses import dataclass, field, replace
from typing import Dict, Optional, Tuple

from .model import IN_SYNC, RECOVERING, SPARE, Array, Brd, Disk


@dataclass(frozen=True)
class Snapshot:
    target: str                     # md0
    array: Optional[Array]
    brd: Brd = Brd()
    disks: Dict[str, Disk] = field(default_factory=dict)  # named ones
    kernel: Tuple[int, int, int, str] = (0, 0, 0, "")
    mem_total_kib: int = 0
    mem_available_kib: int = 0
    mounted_on: Optional[str] = None    # where the array is mounted

    def evolve(self, **changes):
        return replace(self, **changes)


def differences(expected, observed):
    """What in `observed` breaks the promise `expected` makes; [] if none.

    A member promised as recovering may already be in sync, or still be
    a spare that md's thread has not yet given a slot; one promised as a
    spare may be in a slot already, recovering or in sync (md's own
    recovery of it); every other promised role, slot and write-mostly
    flag must match.  The component
    size never changes.  A promise of 0 raid devices (or component size
    0) promises nothing about them: an inactive array does not show them;
    with no members besides, nothing about its members either (their
    write-mostly flags show only once it runs).
    """
    problems = []
    name = expected.target
    exp, obs = expected.array, observed.array
    if (exp is None) != (obs is None):
        problems.append("%s %s" % (name, "still exists" if exp is None
                                   else "does not exist"))
    elif exp is not None:
        if exp.running != obs.running:
            problems.append("%s is %s, expected it %s" % (
                name, obs.state, "running" if exp.running else "inactive"))
        if exp.level and obs.level != exp.level:
            problems.append("%s is %s, expected %s" % (name, obs.level,
                                                        exp.level))
        if exp.raid_disks and obs.raid_disks != exp.raid_disks:
            problems.append("%s has %d raid devices, expected %d" % (
                name, obs.raid_disks, exp.raid_disks))
        if exp.component_kib and obs.component_kib != exp.component_kib:
            problems.append("%s has members of %d KiB, expected %d" % (
                name, obs.component_kib, exp.component_kib))
        if exp.speed_max[1] != obs.speed_max[1] or (
                exp.speed_max[1] and exp.speed_max != obs.speed_max):
            problems.append("the recovery speed limit of %s is %s, "
                            "expected %s" % (name, _speed(obs.speed_max),
                                             _speed(exp.speed_max)))
        want = {m.name: m for m in exp.members}
        got = {m.name: m for m in obs.members}
        if not exp.raid_disks and not exp.members:
            want = got = {}
        for member in sorted(set(want) | set(got)):
            w, g = want.get(member), got.get(member)
            if w is None:
                problems.append("%s is a member of %s, expected it not"
                                % (member, name))
            elif g is None:
                problems.append("%s is not a member of %s" % (member, name))
            else:
                problems += _member_differences(name, w, g)
    if expected.brd.loaded != observed.brd.loaded:
        problems.append("brd is %s" % ("not loaded" if expected.brd.loaded
                                       else "still loaded"))
    elif expected.brd.loaded and (
            expected.brd.rd_size_kib != observed.brd.rd_size_kib):
        problems.append("brd's devices are %d KiB, expected %d" % (
            observed.brd.rd_size_kib, expected.brd.rd_size_kib))
    return problems


def _speed(limit):
    kib, local = limit
    return "%d KiB/s (local)" % kib if local else "the system's"


def _member_differences(array, want, got):
    problems = []
    role = got.role
    if want.role == RECOVERING:
        ok = role in (RECOVERING, IN_SYNC, SPARE)
    elif want.role == SPARE:
        # md gives a spare a free slot and recovers it on its own, any
        # moment: a disk back after a boot without it was a spare when
        # the restore looked and recovering after its next step (issue
        # 21, the Debian guest)
        ok = role in (SPARE, RECOVERING, IN_SYNC)
    else:
        ok = role == want.role
    if not ok:
        problems.append("%s in %s is %s, expected %s" % (
            got.name, array, role, want.role))
    elif want.slot is not None and got.slot is not None and \
            want.slot != got.slot:
        problems.append("%s is in slot %d of %s, expected %d" % (
            got.name, got.slot, array, want.slot))
    if want.write_mostly != got.write_mostly:
        problems.append("%s in %s is %swrite-mostly" % (
            got.name, array, "not " if want.write_mostly else ""))
    return problems
