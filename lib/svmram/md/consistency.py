# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Does an intent (the record, or setup's choice) still describe the
host?  (pure)  Every md planner acts only on what the intent names: a
member it does not name, or a brd that is not svmram's, is refused
before anything changes."""

from ..errors import RefusedError


def check_brd_free(snap, it):
    """svmram owns brd: refuse a brd that something else loaded, unless it
    is svmram's own from an interrupted run (one device of our size, held
    by nothing or by our array)."""
    brd = snap.brd
    if brd.builtin:
        raise RefusedError(
            "brd is built into this kernel, so svmram cannot size its RAM "
            "disk", "Use a kernel with brd as a module (Debian's, Fedora's "
            "and Ubuntu's are).")
    if not brd.loaded:
        return
    held = {dev: h for dev, h in brd.holders.items()
            if h and tuple(h) != (it.array,)}
    if held:
        dev = sorted(held)[0]
        raise RefusedError(
            "brd is in use by something else (/dev/%s is held by %s)" % (
                dev, ", ".join(held[dev])),
            "svmram needs the brd module for itself; stop what uses "
            "/dev/%s and unload brd (rmmod brd) first." % dev)
    if brd.rd_size_kib != it.rd_size_kib or brd.rd_nr != 1:
        raise RefusedError(
            "brd is already loaded with %d device%s of %d KiB; svmram needs "
            "one of %d KiB" % (brd.rd_nr, "" if brd.rd_nr == 1 else "s",
                               brd.rd_size_kib, it.rd_size_kib),
            "brd's size is fixed when it loads: unload it (rmmod brd) if "
            "nothing uses it, then run svmram again.")


def refuse_foreign(a, it):
    """svmram only ever changes the members it recorded."""
    foreign = [m.name for m in a.members
               if m.name not in it.disks and m.name != it.ram]
    if foreign:
        raise RefusedError(
            "%s has member%s %s that svmram did not record" % (
                it.array, "s" if len(foreign) > 1 else "",
                " ".join(foreign)),
            "svmram never changes members it did not record; remove them "
            "by hand or set the array up again.")
