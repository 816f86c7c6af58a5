# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram status --prometheus: the text exposition format (0.0.4) for
node_exporter's textfile collector (svmram(8) names the metrics), on
standard output or, with --output, in a file replaced atomically."""

import errno
import os
import sys

from .. import __version__
from ..atomic import temporary_prefix, write_atomically
from ..errors import SvmramError

# name -> (help, value of a configured Status, its Problems and the
# backend's Words: None for no sample); svmram(8) lists them.  Every metric is a gauge with
# the labels target and device (node_exporter's node_md_* label, the same
# name).
METRICS = (
    ("svmram_serving_from_ram",
     "1 when the target serves its reads from RAM, else 0.",
     lambda s, p, w: 1 if s.serving_from_ram else 0),
    ("svmram_ram_copy_sync_ratio",
     "How much of the RAM copy holds current data, 0 to 1: 1 once it is "
     "current, the copy's progress while it is filled, 0 without one.",
     lambda s, p, w: ram_copy_ratio(s, w)),
    ("svmram_ram_copy_sync_bytes_per_second",
     "The rate of the copy into the RAM copy while it runs, as the system "
     "reports it (md/sync_speed); no sample when none runs or the system "
     "reports no rate (SVM).",
     lambda s, p, w: s.sync_bytes_per_second),
    ("svmram_ram_copy_sync_seconds_left",
     "The seconds the running copy into the RAM copy still needs at that "
     "rate; no sample when none runs or no rate is known.",
     lambda s, p, w: s.sync_seconds_left),
    ("svmram_disks_current",
     "The recorded disk copies known to hold current data (0 when their "
     "state cannot be read).",
     lambda s, p, w: len(s.disk_redundancy["current"])
     if s.disk_redundancy else 0),
    ("svmram_disks",
     "The disk copies setup recorded.",
     lambda s, p, w: len(p.disks)),
    ("svmram_scrub_ratio",
     "How far the system's own check of every copy (a scrub: a check or "
     "repair in md/sync_action) has read the target while it runs, 0 to "
     "1; no sample when none runs, its progress is not shown or the "
     "system has no scrub (SVM).",
     lambda s, p, w: scrub_ratio(s)),
)
# Printed first, whatever status could read.
UP_HELP = ("1 when svmram status read everything it needs; 0 when it could "
           "not (its error is on stderr, its exit status not 0), and no "
           "target follows.")
BUILD_INFO_HELP = "The version of svmram that wrote these metrics; always 1."


def ram_copy_ratio(status, words):
    """1 when the RAM copy is current, the copy's progress (0 to 1) while
    one runs, else 0."""
    ram = next((c for c in status.copies if c["ram"]), None)
    if ram is not None and ram["state"] == words.current_state:
        return 1
    if ram is not None and status.sync_percent is not None:
        return status.sync_percent / 100
    return 0


def scrub_ratio(status):
    """The scrub's progress, 0 to 1 (Status.scrub's whole percent), or
    None: no scrub runs (always so on SVM), or md shows no progress."""
    if status.scrub is None or status.scrub["percent"] is None:
        return None
    return status.scrub["percent"] / 100


def _label(value):
    return value.replace("\\", "\\\\").replace('"', '\\"').replace(
        "\n", "\\n")


def _number(value):
    return "%d" % value if value == int(value) else "%g" % value


def prometheus_up_lines(up):
    """svmram_build_info and svmram_up (1 read, 0 could not)."""
    return ["# HELP svmram_build_info %s" % BUILD_INFO_HELP,
            "# TYPE svmram_build_info gauge",
            'svmram_build_info{version="%s"} 1' % _label(__version__),
            "# HELP svmram_up %s" % UP_HELP, "# TYPE svmram_up gauge",
            "svmram_up %d" % up]


def prometheus_lines(groups):
    """The text exposition format (version 0.0.4) of every (status,
    problems) of each (words, pairs) in `groups` (a backend's Words and
    its targets): svmram_up 1, then for each metric its HELP and TYPE
    lines and one sample per target.  A target named that svmram did not
    set up has only svmram_serving_from_ram (0)."""
    lines = prometheus_up_lines(1)
    for name, text, value_of in METRICS:
        lines += ["# HELP %s %s" % (name, text), "# TYPE %s gauge" % name]
        for words, status, problems in (
                (words, status, problems) for words, pairs in groups
                for status, problems in pairs):
            if not status.configured and name != METRICS[0][0]:
                continue
            value = value_of(status, problems, words) \
                if status.configured else 0
            if value is None:
                continue
            label = _label(status.target)
            lines.append('%s{target="%s",device="%s"} %s' % (
                name, label, label, _number(value)))
    return lines


def check_output(path):
    """--output FILE: its directory must exist (svmram makes none); FILE
    must not be a directory."""
    directory = os.path.dirname(path) or "."
    if not os.path.isdir(directory) or os.path.isdir(path):
        raise SvmramError(
            "cannot write the metrics to %s: %s" % (
                path, "it is a directory" if os.path.isdir(path) else
                "there is no directory %s" % directory),
            advice="Name a file ending in .prom in node_exporter's textfile "
                   "directory (its --collector.textfile.directory).")


def publish(path, lines):
    """The exposition on standard output (`path` None), or replacing
    `path` through a temporary file beside it (atomic.py), so that the
    collector reads the old file or the new one, never a part, and
    nothing is left behind."""
    text = "\n".join(lines) + "\n"
    if path is None:
        sys.stdout.write(text)
        return
    try:
        write_atomically(path, text)
    except OSError as error:
        raise SvmramError(
            "cannot write the metrics to %s: %s" % (
                path, error.strerror or error),
            advice=output_advice(path, error)) from error


def output_advice(path, error):
    """What to do when `path` cannot be replaced: its temporary file's
    name too long, else the right to write in its directory."""
    name = os.path.basename(path)
    temporary = temporary_prefix(path) + "PID"
    if error.errno == errno.ENAMETOOLONG:
        return "Name a shorter file: svmram writes %s beside %s first and " \
               "renames it over %s." % (temporary, name, name)
    return "It writes %s beside %s and renames it over %s: run it as " \
           "root, as svmram(8)'s cron line does, or as a user who may " \
           "write in %s." % (temporary, name, name,
                             os.path.dirname(path) or ".")
