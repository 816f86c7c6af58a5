# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram status --nagios: the one line of the Nagios plugin API, from
each target's grade (status_grade.health), with the performance data."""

from .status_grade import GRADES, OK, UNKNOWN
from .status_text import limit_words, none_set_up, scrub_words

NAGIOS_NAME = "SVMRAM"


def nagios_line(graded, backends):
    """(grade, the one line) for --nagios: `graded` holds (status, grade,
    words, backend) of every target of `backends`."""
    if not graded:
        return UNKNOWN, "%s UNKNOWN - %s" % (NAGIOS_NAME, "; ".join(
            none_set_up(backend) for backend in backends))
    worst = max(grade for _, grade, _, _ in graded)
    bad = [words for _, grade, words, _ in graded if grade != OK]
    good = [status.target for status, grade, _, _ in graded if grade == OK]
    if good:
        bad.append("%s serve%s reads from RAM" % (
            ", ".join(good), "s" if len(good) == 1 else ""))
    # A scrub (md's check or repair: Debian's mdcheck, monthly) is said,
    # but grades nothing: it reads the copies and copies nothing, the
    # target serves reads from RAM throughout, and the grade is what the
    # copies' states give (a scrub of a degraded array is CRITICAL for
    # the missing disk).  A scrub that finds a mismatch is md's to
    # report (mismatch_cnt), not svmram's.
    bad += [scrub_words(status, backend, named=True)
            for status, _, _, backend in graded if status.scrub is not None]
    # So is svmram's raised recovery speed limit left after the copy into
    # RAM: the target serves reads from RAM, the disks are current, and
    # only md's next resync or check runs faster than the system's limit.
    bad += [limit_words(status, named=True) for status, _, _, _ in graded
            if status.raised_speed_limit is not None]
    perf = ["serving=%d;;;0;%d" % (
        sum(1 for status, _, _, _ in graded if status.serving_from_ram),
        len(graded))]
    perf += ["%s_disks_current=%d;;;0;%d" % (
        status.target, len(status.disk_redundancy["current"]),
        len(status.disk_redundancy["current"]) +
        len(status.disk_redundancy["reasons"]))
        for status, _, _, _ in graded if status.disk_redundancy]
    perf += ["%s_%s=%d%%;;;0;100" % (status.target, backend.words.sync,
                                     status.sync_percent)
             for status, _, _, backend in graded
             if status.sync_percent is not None]
    perf += ["%s_scrub=%d%%;;;0;100" % (status.target,
                                        status.scrub["percent"])
             for status, _, _, _ in graded if status.scrub is not None and
             status.scrub["percent"] is not None]
    return worst, "%s %s - %s | %s" % (NAGIOS_NAME, GRADES[worst],
                                       "; ".join(bad), " ".join(perf))

