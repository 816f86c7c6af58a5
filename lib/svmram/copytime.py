# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""How long a copy into RAM takes, in words (pure): a rate, a duration,
and the time left of a copy whose rate and remaining bytes are known."""

MIB = 1 << 20


def seconds_left(remaining_bytes, bytes_per_second):
    """Whole seconds, rounded up; None when nothing moves (rate 0)."""
    if not bytes_per_second:
        return None
    return -(-remaining_bytes // bytes_per_second)


def rate_text(bytes_per_second):
    """'512 MiB/s', '3.5 MiB/s', '0.1 MiB/s'."""
    mib = bytes_per_second / MIB
    return ("%.0f" if mib >= 10 else "%.1f") % mib + " MiB/s"


def duration_text(seconds):
    """'45 s', '3 min 20 s', '2 h 05 min'."""
    seconds = int(seconds)
    if seconds < 60:
        return "%d s" % seconds
    if seconds < 3600:
        return "%d min %02d s" % divmod(seconds, 60)
    return "%d h %02d min" % (seconds // 3600, seconds % 3600 // 60)
