# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram status: is each configured mirror serving its reads from RAM,
and do its disk submirrors still hold current copies?

Each mirror gets a verdict; the exit status is the worst one's, so
monitoring can use it: 0 serving, 4 (EXIT_NOT_SERVING) not serving from
RAM, 5 (EXIT_DEGRADED) a recorded disk submirror is not current, 6
(EXIT_ONLY_COPY_IN_RAM) none is while the RAM submirror is Okay: the
ramdisk holds the only current copy.  --json prints the documented schema
(format 1, docs/status-json.md).
"""

import json
import sys

from ..run import run as run_command
from ..errors import (EXIT_DEGRADED, EXIT_NOT_SERVING, EXIT_OK,
                      EXIT_ONLY_COPY_IN_RAM, ParseError, RefusedError)
from ..svm import consistency, names, record
from ..svm.backend import SvmBackend
from ..svm.intent import Intent
from ..svm.snapshot import OKAY, RESYNCING
from . import common

SUMMARY = "show whether each configured mirror reads from RAM"
JSON_FORMAT = 1

# The verdicts, least severe first, and their exit statuses.
VERDICT_EXIT = {"serving": EXIT_OK, "not_serving": EXIT_NOT_SERVING,
                "degraded": EXIT_DEGRADED,
                "only_copy_in_ram": EXIT_ONLY_COPY_IN_RAM}


def add_arguments(parser):
    parser.add_argument("mirror", nargs="?", help="only this mirror")
    parser.add_argument("--json", action="store_true",
                        help="machine-readable output")


def configured_mirrors():
    """The instances of svc:/system/svmram, i.e. the configured mirrors."""
    result = run_command("svcs", ["-H", "-o", "inst", record.SERVICE + ":*"],
                     check=False)
    found = []
    for lineno, line in enumerate(result.stdout.splitlines(), 1):
        if len(line.split()) > 1:
            raise ParseError("expected one instance name", lineno, line,
                             "svcs")
        if line.strip():
            found.append(line.strip())
    return sorted(found)


def not_a_mirror(name):
    """The status of an instance that svmram cannot have made."""
    return {"mirror": name, "serving_from_ram": False, "configured": False,
            "verdict": "not_serving",
            "reasons": ["%s is not named after a mirror; svmram did not "
                        "make it" % record.fmri(name)]}


def describe_state(name, state):
    """'d13 needs maintenance', 'd13 is resyncing'."""
    if state == "Needs maintenance":
        return "%s needs maintenance" % name
    return "%s is %s" % (name, state.lower())


def disk_redundancy(snap, intent):
    """Which recorded disk submirrors hold current data.  Only Okay counts:
    every other state (offline or erred show as Needs maintenance; Last
    Erred, Unavailable, Resyncing as a target, Resync cancelled, or one
    this code does not know) is not a current copy, nor is a recorded
    disk submirror that is no longer in the mirror."""
    m, current, reasons = snap.mirror, [], []
    for disk in intent.disks:
        if disk not in m.slots:
            reasons.append("%s is not in %s" % (disk, intent.mirror))
        elif m.state_of(disk) == OKAY:
            current.append(disk)
        elif disk in m.offline:
            reasons.append("%s is offline" % disk)
        else:
            reasons.append(describe_state(disk, m.state_of(disk)))
    ram_okay = intent.ram in m.slots and m.state_of(intent.ram) == OKAY
    if not current and ram_okay:
        state = "lost"
    else:
        state = "degraded" if reasons else "full"
    return {"state": state, "current": current, "reasons": reasons,
            "fixes": disk_fixes(snap, intent)}


def disk_fixes(snap, intent):
    """What brings each recorded disk submirror that is not current back."""
    m, fixes = snap.mirror, []
    for disk in intent.disks:
        stripe = snap.stripes.get(disk)
        erred = [c for c, state in zip(stripe.components,
                                       stripe.component_states)
                 if state in ("Maintenance", "Last Erred")] if stripe else []
        if disk not in m.slots:
            fixes.append("metattach %s %s (unless it was split off on "
                         "purpose)" % (intent.mirror, disk))
        elif disk in m.offline:
            fixes.append("metaonline %s %s" % (intent.mirror, disk))
        elif m.state_of(disk) == RESYNCING:
            fixes.append("let the resync of %s finish" % disk)
        elif erred:
            fixes.append("metareplace %s %s NEWDISK, or metareplace -e %s %s "
                         "once it is repaired" % (intent.mirror, erred[0],
                                                   intent.mirror, erred[0]))
        elif m.state_of(disk) != OKAY:
            fixes.append("for %s, run the command after 'Invoke:' in "
                         "'metastat %s'" % (disk, intent.mirror))
    return fixes


def mirror_status(mirror):
    backend = SvmBackend(mirror, common.host_root())
    service = backend.service_state()
    found = backend.record_properties() if service else None
    reasons = []
    if found is None:
        return {"mirror": mirror, "serving_from_ram": False,
                "verdict": "not_serving",
                "reasons": ["%s does not exist" % record.fmri(mirror)],
                "configured": False}
    try:
        intent = Intent.from_json(record.to_intent_json(found),
                                  record.fmri(mirror))
    except RefusedError as error:       # a setup stopped while writing it
        return {"mirror": mirror, "serving_from_ram": False,
                "verdict": "not_serving",
                "reasons": [error.message], "configured": False}
    backend.intent = intent
    snap = backend.observe(smf=(found, service))
    m = snap.mirror
    submirrors = []
    if not snap.has_replicas:
        reasons.append("there are no state database replicas")
    elif m is None:
        reasons.append("the mirror %s does not exist" % mirror)
    else:
        for slot, (name, state) in enumerate(zip(m.slots, m.states)):
            submirrors.append({"slot": slot, "name": name, "state": state,
                               "ram": name == intent.ram})
        if intent.ram not in m.slots:
            reasons.append("%s is not a submirror of %s" % (intent.ram, mirror))
        elif m.slots[0] != intent.ram:
            reasons.append("%s is in slot %d, not slot 0" % (
                intent.ram, m.slots.index(intent.ram)))
        elif intent.ram in m.offline:
            reasons.append("%s is offline" % intent.ram)
        elif m.states[0] != "Okay":
            reasons.append(describe_state(intent.ram, m.states[0]))
        if m.read_option != "first":
            reasons.append("the read option is %s, not first" % m.read_option)
    present = intent.ramdisk in snap.ramdisks
    recorded_dev = found.get("ramdisk_dev")
    dev = snap.ramdisk_devs.get(intent.ramdisk)
    if not present:
        reasons.append("the ramdisk %s does not exist" % intent.ramdisk)
    elif dev != recorded_dev:
        reasons.append("the ramdisk's device number is %s, recorded %s" % (
            dev, recorded_dev))
    if service != "online":
        reasons.append("%s is %s" % (record.fmri(mirror), service))
    redundancy = disk_redundancy(snap, intent) if m else None
    wrong = consistency.contradictions(snap, intent) \
        if snap.has_replicas else []
    if wrong:
        reasons.append("%s does not match the host: %s" % (
            record.fmri(mirror), "; ".join(wrong)))
    return {
        "mirror": mirror, "configured": True,
        "verdict": verdict(not reasons, redundancy),
        "serving_from_ram": not reasons, "reasons": reasons,
        "disk_redundancy": redundancy,
        "ram_submirror": intent.ram, "method": intent.method,
        "read_option": m.read_option if m else None,
        "size_blocks": m.size_blocks if m else None,
        "resync_percent": m.resync_percent if m else None,
        "submirrors": submirrors,
        "ramdisk": {"name": intent.ramdisk, "present": present,
                    "size_bytes": intent.size_bytes, "device": dev,
                    "recorded_device": recorded_dev,
                    "device_matches": present and dev == recorded_dev},
        "service": {"fmri": record.fmri(mirror), "state": service},
    }


def verdict(serving, redundancy):
    if redundancy is not None and redundancy["state"] == "lost":
        return "only_copy_in_ram"
    if redundancy is not None and redundancy["state"] == "degraded":
        return "degraded"
    return "serving" if serving else "not_serving"


def redundancy_lines(status):
    """The loudest lines first: lost or degraded disk redundancy."""
    name, redundancy = status["mirror"], status.get("disk_redundancy")
    if status["verdict"] == "only_copy_in_ram":
        return [
            "%s: DATA AT RISK: the ramdisk %s holds the only current copy "
            "of %s; no disk submirror is current (%s).  A power loss or "
            "reboot now loses data." % (
                name, status["ramdisk"]["name"], name,
                "; ".join(redundancy["reasons"])),
            "%s: do not reboot or power off; bring a disk submirror back "
            "now: %s." % (name, "; ".join(redundancy["fixes"]))]
    if status["verdict"] == "degraded":
        recorded = len(redundancy["current"]) + len(redundancy["reasons"])
        return [
            "%s: DEGRADED: only %d of %d disk submirrors holds current "
            "data (%s)." % (name, len(redundancy["current"]), recorded,
                            "; ".join(redundancy["reasons"])),
            "%s: %s." % (name, "; ".join(redundancy["fixes"]))]
    return []


def render_text(status):
    name = status["mirror"]
    lines = redundancy_lines(status) if status["configured"] else []
    if status["serving_from_ram"]:
        lines += ["%s: serving reads from RAM (%s in slot 0, read option "
                 "first)" % (name, status["ram_submirror"])]
    else:
        lines += ["%s: NOT serving reads from RAM: %s" % (
            name, "; ".join(status["reasons"]))]
    if not status["configured"]:
        return lines
    subs = ", ".join("%s %s%s" % (s["name"], s["state"],
                                  " (RAM)" if s["ram"] else "")
                     for s in status["submirrors"])
    if subs:
        lines.append("    submirrors: %s" % subs)
    if status["resync_percent"] is not None:
        lines.append("    resync:     %d %% done" % status["resync_percent"])
    disk = status["ramdisk"]
    lines.append("    ramdisk:    %s, %s%s" % (
        disk["name"], "present" if disk["present"] else "missing",
        ", device %s" % disk["device"] if disk["device"] else ""))
    service = status["service"]
    lines.append("    service:    %s %s" % (service["fmri"],
                                            service["state"] or "missing"))
    return lines


def run(args):
    mirrors = ([names.metadevice(args.mirror, "mirror")] if args.mirror
               else configured_mirrors())
    statuses = [mirror_status(mirror) if names.is_metadevice(mirror)
                else not_a_mirror(mirror) for mirror in mirrors]
    # The worst first; sorted() keeps the name order among equals.
    statuses = sorted(statuses, key=lambda status: -VERDICT_EXIT[
        status["verdict"]])
    if args.json:
        json.dump({"format": JSON_FORMAT, "mirrors": statuses}, sys.stdout,
                  indent=2, sort_keys=True)
        sys.stdout.write("\n")
    elif not statuses:
        sys.stdout.write("No mirror is set up for reads from RAM.\n")
    else:
        for status in statuses:
            sys.stdout.write("\n".join(render_text(status)) + "\n")
    return max((VERDICT_EXIT[status["verdict"]] for status in statuses),
               default=EXIT_OK)

