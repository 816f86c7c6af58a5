# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram status: the text a person reads, each target's lines, the
line for "nothing set up" (also --nagios's) or "all serving" (-x), and
one for each target left out."""

from ..copytime import duration_text, rate_text


def redundancy_lines(status, words):
    """The loudest lines first: lost or degraded disk redundancy."""
    name, redundancy = status.target, status.disk_redundancy
    if status.verdict == "only_copy_in_ram":
        return [
            "%s: DATA AT RISK: the %s %s holds the only current copy "
            "of %s; no %s is current (%s).  A power loss or reboot now "
            "loses data." % (
                name, words.ram_device, status.ramdisk["name"], name,
                words.disk_copy,
                "; ".join(redundancy["reasons"])),
            "%s: do not reboot or power off; bring a %s back now: %s." % (
                name, words.disk_copy, "; ".join(redundancy["fixes"]))]
    if status.verdict == "degraded":
        recorded = len(redundancy["current"]) + len(redundancy["reasons"])
        return [
            "%s: DEGRADED: only %d of %d %s holds current data (%s)." % (
                name, len(redundancy["current"]), recorded,
                words.disk_copies, "; ".join(redundancy["reasons"])),
            "%s: %s." % (name, "; ".join(redundancy["fixes"]))]
    return []


def render_text(status, backend):
    name = status.target
    lines = redundancy_lines(status, backend.words) \
        if status.configured else []
    if status.serving_from_ram:
        lines += ["%s: serving reads from RAM (%s)" % (
            name, backend.words.serving_detail(status))]
    else:
        lines += ["%s: NOT serving reads from RAM: %s" % (
            name, "; ".join(status.reasons))]
    if not status.configured:
        return lines
    subs = ", ".join("%s %s%s" % (s["name"], s["state"],
                                  " (RAM)" if s["ram"] else "")
                     for s in status.copies)
    if subs:
        lines.append("    %-11s %s" % (backend.words.copies + ":", subs))
    if status.sync_percent is not None:
        lines.append("    %-11s %d %% done%s" % (
            backend.words.sync + ":", status.sync_percent,
            sync_rate_words(status)))
    if status.scrub is not None:
        lines.append("    %-11s %s" % ("scrub:", scrub_words(status, backend)))
    if status.raised_speed_limit is not None:
        lines.append("    %-11s %s" % ("limit:", limit_words(status)))
    disk = status.ramdisk
    lines.append("    %-11s %s, %s%s" % (
        backend.words.ram_device + ":", disk["name"],
        "present" if disk["present"] else "missing",
        ", device %s" % disk["device"] if disk["device"] else ""))
    service = status.boot_service
    lines.append("    service:    %s %s" % (service["name"],
                                            service["state"] or "missing"))
    return lines


def scrub_words(status, backend, named=False):
    """The system's scrub of the target in words, as text and (named, with
    the target's name) --nagios say it: "md's check (scrub) of md0
    running, 37 % done"."""
    percent = status.scrub["percent"]
    return "%s%s running%s" % (
        backend.words.scrub.format(action=status.scrub["action"]),
        " of %s" % status.target if named else "",
        "" if percent is None else ", %d %% done" % percent)


def limit_words(status, named=False):
    """The recovery speed limit svmram raised for the copy into RAM and
    left behind it, as text and (named) --nagios say it: "2147483647
    KiB/s, raised by svmram for the copy into RAM, though nothing is
    copied now: 'svmram restore --after-copy md0' puts back the
    system's"."""
    limit = status.raised_speed_limit
    return "%s%d KiB/s, raised by svmram for the copy into RAM, though " \
           "nothing is copied now: '%s' puts back the system's" % (
               "%s's recovery speed limit is " % status.target
               if named else "", limit["kib_per_second"], limit["fix"])


def sync_rate_words(status):
    """', 480 MiB/s, about 1 min 05 s left' where the system reports the
    copy's rate (md), else nothing (SVM: metastat shows a percentage
    only)."""
    words = ""
    if status.sync_bytes_per_second is not None:
        words += ", " + rate_text(status.sync_bytes_per_second)
    if status.sync_seconds_left is not None:
        words += ", about %s left" % duration_text(status.sync_seconds_left)
    return words


def all_serving_line(pairs, backend):
    """-x when no target has a problem."""
    if not pairs:
        return nothing_set_up(backend)
    if len(pairs) == 1:
        return "%s serves reads from RAM" % pairs[0][0].target
    return "all %d %ss serve reads from RAM" % (len(pairs),
                                                backend.words.target)


def none_set_up(backend):
    """"no array is set up for reads from RAM", and why when the backend
    says."""
    why = backend.why_nothing_set_up()
    return "no %s is set up for reads from RAM%s" % (
        backend.words.target, ": " + why if why else "")


def left_out_lines(left_out):
    """A line for each target status left out (Backend.status_report)."""
    return ["%s is left out: %s; 'svmram status %s' shows it." % (
        entry["target"], entry["why"], entry["target"])
        for entry in left_out]


def nothing_set_up(backend):
    text = none_set_up(backend)
    return text[0].upper() + text[1:] + "."

