# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The RAM submirror's component as every planner sees it (pure): its
state, its links, and the step that makes SVM fail it at boot before any
ramdisk exists.  Setup (resuming after a reboot, planner.py) and restore
(restore.py) both refill a RAM submirror that lost its ramdisk, in this
order."""

from . import steps
from .snapshot import FAILED_COMPONENT

FAILED = FAILED_COMPONENT


def ram_component(snap, it):
    """(component name, state) of the RAM submirror."""
    view = snap.stripes[it.ram]
    states = view.component_states or ("Okay",)
    return view.components[0], states[0]


def links_ok(snap, it):
    """/dev/dsk and /dev/rdsk's it.link point at the intent's ramdisk."""
    return (snap.links.get("dsk/" + it.link) == it.block_link_target
            and snap.links.get("rdsk/" + it.link) == it.raw_link_target)


def opening_step(snap, it):
    """The step that opens `it.mirror` so that SVM marks its RAM component
    failed, before any ramdisk is created at boot; None when SVM already
    did, or when the ramdisk exists.

    SVM opens a component by the device number it recorded.  If a ramdisk
    other than the mirror's own holds that number, an open would take it
    for the RAM submirror's data: the step is then a fence instead, which
    detaches the RAM submirror without opening the mirror."""
    m = snap.mirror
    if m is None or it.ram not in m.slots or it.ram not in snap.stripes or \
            it.ramdisk in snap.ramdisks:
        return None
    if ram_component(snap, it)[1] in FAILED:
        return None
    holder = recorded_number_holder(snap, it)
    if holder:
        return steps.detach(snap, it, it.ram, force=True, why=(
            "The ramdisk %s holds the device number SVM recorded for %s: "
            "opening %s would read it as %s's data.  Detaching %s, which "
            "does no I/O to it, leaves %s reading from its disk submirrors."
            % (holder, it.ram, it.mirror, it.ram, it.ram, it.mirror)))
    return steps.force_open(snap, it)


def recorded_number_holder(snap, it):
    """A ramdisk other than the mirror's own that holds the device number
    SVM recorded for its RAM component, or None.  Without a record (a
    setup that has not finished) that number is unknown, so any other
    ramdisk may hold it."""
    recorded = (snap.record or {}).get("ramdisk_dev")
    holders = sorted(name for name, dev in snap.ramdisk_devs.items()
                     if name != it.ramdisk and dev == (recorded or dev))
    return holders[0] if holders else None
