# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""How long md's copy into the RAM member should take on this host (pure),
for `check` and `setup` (issue 37, 3): the array's size over the slower
of the disks' measured sequential read and md's speed limit during the
copy.  md reads one disk for it (raid1.c raid1_sync_request), so it
cannot go faster than reading that disk once."""

from ..copytime import duration_text, rate_text, seconds_left

MIB = 1 << 20
# How much of each disk check and setup read to measure its sequential
# read rate (host.disk_read_rates), 1 MiB at a time.
RATE_SAMPLE_BYTES = 64 * MIB


def copy_time_note(size_bytes, rates, limit_kib, raised):
    """The note, e.g. 'Time to RAM: about 46 s (8.0 GiB at 180 MiB/s,
    vdb's sequential read measured now: 64 MiB, O_DIRECT, the slower
    disk), ...'.  `rates` {disk: (bytes/s, None) or (None, why)}
    (host.disk_read_rates), `limit_kib` md's sync_speed_max during the
    copy, `raised` whether that is svmram's raise (md's maximum) rather
    than the administrator's own limit."""
    size = _size_text(size_bytes)
    measured = {d: r for d, (r, _) in rates.items() if r}
    limit = limit_kib * 1024
    tail = (", at setup and at every boot's restore; the disks serve "
            "reads until then, and other I/O slows the copy (md keeps at "
            "least sync_speed_min).")
    if not measured:
        why = "; ".join(w for _, w in sorted(
            (d, w) for d, (_, w) in rates.items() if w)) or "no disk"
        bound = "" if raised else ", and at least %s (md's sync_speed_max " \
            "set on this host, %s)" % (
                duration_text(seconds_left(size_bytes, limit)),
                rate_text(limit))
        return "Time to RAM: %s over one disk's sequential read rate, not " \
            "measured here (%s)%s%s" % (size, why, bound, tail)
    slowest = min(sorted(measured), key=lambda d: measured[d])
    rate = measured[slowest]
    if raised or rate <= limit:
        based = "%s's sequential read measured now: %d MiB, O_DIRECT%s" % (
            slowest, RATE_SAMPLE_BYTES // MIB,
            ", the slowest disk" if len(measured) > 1 else "")
    else:
        based = "md's sync_speed_max set on this host; the disks read " \
            "%s" % rate_text(rate)
        rate = limit
    return "Time to RAM: about %s (%s at %s, %s)%s" % (
        duration_text(seconds_left(size_bytes, rate)), size,
        rate_text(rate), based, tail)


def _size_text(size):
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        size /= 1024
        if size < 1024 or unit == "TiB":
            return "%.1f %s" % (size, unit)
    return ""
