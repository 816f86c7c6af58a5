"""svmram status: is each configured mirror serving its reads from RAM?

Exit 0 when every mirror is, 4 (EXIT_NOT_SERVING) when any is not, so
monitoring can use it.  --json prints the documented schema (format 1,
docs/status-json.md).
"""

import json
import sys

from ..run import run as run_command
from ..errors import EXIT_NOT_SERVING, EXIT_OK, ParseError, RefusedError
from ..svm import consistency, names, record
from ..svm.backend import SvmBackend
from ..svm.intent import Intent
from . import common

SUMMARY = "show whether each configured mirror reads from RAM"
JSON_FORMAT = 1


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
            "reasons": ["%s is not named after a mirror; svmram did not "
                        "make it" % record.fmri(name)]}


def describe_state(name, state):
    """'d13 needs maintenance', 'd13 is resyncing'."""
    if state == "Needs maintenance":
        return "%s needs maintenance" % name
    return "%s is %s" % (name, state.lower())


def mirror_status(mirror):
    backend = SvmBackend(mirror, common.host_root())
    service = backend.service_state()
    found = backend.record_properties() if service else None
    reasons = []
    if found is None:
        return {"mirror": mirror, "serving_from_ram": False,
                "reasons": ["%s does not exist" % record.fmri(mirror)],
                "configured": False}
    try:
        intent = Intent.from_json(record.to_intent_json(found),
                                  record.fmri(mirror))
    except RefusedError as error:       # a setup stopped while writing it
        return {"mirror": mirror, "serving_from_ram": False,
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
    wrong = consistency.contradictions(snap, intent) \
        if snap.has_replicas else []
    if wrong:
        reasons.append("%s does not match the host: %s" % (
            record.fmri(mirror), "; ".join(wrong)))
    return {
        "mirror": mirror, "configured": True,
        "serving_from_ram": not reasons, "reasons": reasons,
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


def render_text(status):
    name = status["mirror"]
    if status["serving_from_ram"]:
        lines = ["%s: serving reads from RAM (%s in slot 0, read option "
                 "first)" % (name, status["ram_submirror"])]
    else:
        lines = ["%s: NOT serving reads from RAM: %s" % (
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
    if args.json:
        json.dump({"format": JSON_FORMAT, "mirrors": statuses}, sys.stdout,
                  indent=2, sort_keys=True)
        sys.stdout.write("\n")
    elif not statuses:
        sys.stdout.write("No mirror is set up for reads from RAM.\n")
    else:
        for status in statuses:
            sys.stdout.write("\n".join(render_text(status)) + "\n")
    if all(status["serving_from_ram"] for status in statuses):
        return EXIT_OK
    return EXIT_NOT_SERVING

