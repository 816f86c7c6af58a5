# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram status: is each configured mirror serving its reads from RAM,
and do its disk submirrors still hold current copies?

Each mirror gets a verdict; the exit status is the worst one's, so
monitoring can use it: 0 serving, 4 (EXIT_NOT_SERVING) not serving from
RAM, 5 (EXIT_DEGRADED) a recorded disk submirror is not current, 6
(EXIT_ONLY_COPY_IN_RAM) none is while the RAM submirror is Okay: the
ramdisk holds the only current copy.  --json prints the documented schema
(format 1, docs/status-json.md); -H and -o print fields for scripts; -x
only the mirrors that are not serving; -q nothing.

--nagios follows the Nagios plugin convention instead: one line, exit 0
OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN; each mirror gets a grade (health())
that tells a boot's copy into RAM (WARNING) from a failure (CRITICAL).

The host is read once for all mirrors (backend.HostReading): one svcs, one
svcprop, one `metastat -p`, one `metastat`, one ramdiskadm, however many
mirrors are configured.
"""

import json
import sys

from ..run import run as run_command
from ..errors import (EXIT_DEGRADED, EXIT_NOT_SERVING, EXIT_OK,
                      EXIT_ONLY_COPY_IN_RAM, ParseError, RefusedError,
                      SvmramError, UsageError)
from ..svm import consistency, names, record
from ..svm.backend import HostReading
from ..svm.intent import Intent
from ..svm.snapshot import OKAY, RESYNCING
from . import common

SUMMARY = "show whether each configured mirror reads from RAM"
JSON_FORMAT = 1

# The verdicts, least severe first, and their exit statuses.
VERDICT_EXIT = {"serving": EXIT_OK, "not_serving": EXIT_NOT_SERVING,
                "degraded": EXIT_DEGRADED,
                "only_copy_in_ram": EXIT_ONLY_COPY_IN_RAM}

# --nagios: the Nagios plugin API's return codes.
OK, WARNING, CRITICAL, UNKNOWN = 0, 1, 2, 3
GRADES = ("OK", "WARNING", "CRITICAL", "UNKNOWN")
NAGIOS_NAME = "SVMRAM"

# -o: the fields, in the order svmram(8) lists them.
FIELDS = ("mirror", "verdict", "health", "serving", "ram", "ramstate",
          "resync", "ramdisk", "ramdiskstate", "size", "disks", "current",
          "redundancy", "service", "method")
DEFAULT_FIELDS = ("mirror", "verdict", "health", "ram", "ramstate", "resync",
                  "ramdisk", "service")


def add_arguments(parser):
    parser.add_argument("mirror", nargs="?", help="only this mirror")
    parser.add_argument("-j", "--json", action="store_true",
                        help="machine-readable output (docs/status-json.md)")
    parser.add_argument("-H", dest="scripted", action="store_true",
                        help="fields for scripts: no header, one tab "
                             "between fields")
    parser.add_argument("-o", dest="fields", metavar="FIELD[,FIELD]...",
                        help="the fields to print, of: %s (default %s)" % (
                            ",".join(FIELDS), ",".join(DEFAULT_FIELDS)))
    parser.add_argument("-p", dest="parsable", action="store_true",
                        help="exact numbers: bytes, percent without %%")
    parser.add_argument("-x", dest="problems", action="store_true",
                        help="only the mirrors that are not serving from RAM")
    parser.add_argument("-q", dest="quiet", action="store_true",
                        help="print nothing; the exit status says it")
    parser.add_argument("--nagios", action="store_true",
                        help="one line and exit 0 OK, 1 WARNING, 2 CRITICAL, "
                             "3 UNKNOWN (a Nagios plugin)")


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
    # The ramdisk holds the only copy only if it exists: early in a boot
    # SVM may still call a RAM submirror Okay whose ramdisk is gone.
    ram_okay = intent.ram in m.slots and m.state_of(intent.ram) == OKAY \
        and intent.ramdisk in snap.ramdisks
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


class Problems:
    """What keeps one mirror from OK under --nagios, graded as it is
    found: `critical` needs an administrator; `warning` passes by itself
    (the copy into RAM after a boot or a setup, a disk resync, a setup or
    teardown that is running)."""

    def __init__(self, service):
        self.critical, self.warning = [], []
        self.disks = ()         # the recorded disk submirrors, for -o disks
        # Before or during the start method at boot: svmram restore has not
        # finished yet, so a missing ramdisk or an erred RAM submirror is
        # what every boot looks like.
        self.booting = service is not None and (
            service.endswith("*") or
            service in ("offline", "uninitialized", "-"))

    def add(self, words, passing=False):
        (self.warning if passing else self.critical).append(words)

    def unless_booting(self, words):
        self.add(words, passing=self.booting)


def mirror_status(mirror, reading, service, found):
    """(status, problems) of a configured mirror: `service` is its
    instance's state, `found` its record ({} when incomplete)."""
    reasons, problems = [], Problems(service)
    if service is None:
        return {"mirror": mirror, "serving_from_ram": False,
                "verdict": "not_serving",
                "reasons": ["%s does not exist" % record.fmri(mirror)],
                "configured": False}, problems
    try:
        intent = Intent.from_json(record.to_intent_json(found),
                                  record.fmri(mirror))
    except RefusedError as error:       # a setup stopped while writing it
        return {"mirror": mirror, "serving_from_ram": False,
                "verdict": "not_serving",
                "reasons": [error.message], "configured": False}, problems
    problems.disks = intent.disks
    backend = reading.backend(mirror, intent)
    snap = backend.observe(smf=(found, service))
    m = snap.mirror
    submirrors = []

    def reason(words, passing=False):
        reasons.append(words)
        problems.add(words, passing)

    if not snap.has_replicas:
        reason("there are no state database replicas")
    elif m is None:
        reason("the mirror %s does not exist" % mirror)
    else:
        for slot, (name, state) in enumerate(zip(m.slots, m.states)):
            submirrors.append({"slot": slot, "name": name, "state": state,
                               "ram": name == intent.ram})
        if intent.ram not in m.slots:
            reason("%s is not a submirror of %s" % (intent.ram, mirror))
        elif m.slots[0] != intent.ram:
            reason("%s is in slot %d, not slot 0" % (
                intent.ram, m.slots.index(intent.ram)))
        elif intent.ram in m.offline:
            reason("%s is offline" % intent.ram)
        elif m.states[0] != "Okay":
            words = describe_state(intent.ram, m.states[0])
            reasons.append(words)
            if m.states[0] == RESYNCING:
                problems.add("copying into RAM: %s%s" % (words, "" if
                             m.resync_percent is None else ", %d %% done"
                             % m.resync_percent), passing=True)
            else:
                problems.unless_booting(words)
        if m.read_option != "first":
            reason("the read option is %s, not first" % m.read_option)
    present = intent.ramdisk in snap.ramdisks
    recorded_dev = found.get("ramdisk_dev")
    dev = snap.ramdisk_devs.get(intent.ramdisk)
    if not present:
        reasons.append("the ramdisk %s does not exist" % intent.ramdisk)
        problems.unless_booting(reasons[-1])
    elif dev != recorded_dev:
        reasons.append("the ramdisk's device number is %s, recorded %s" % (
            dev, recorded_dev))
        problems.unless_booting(reasons[-1])
    if service != "online":
        reasons.append("%s is %s" % (record.fmri(mirror), service))
        problems.add(service_words(mirror, service, problems.booting),
                     passing=problems.booting)
    redundancy = disk_redundancy(snap, intent) if m else None
    wrong = consistency.contradictions(snap, intent) \
        if snap.has_replicas else []
    if wrong:
        reason("%s does not match the host: %s" % (
            record.fmri(mirror), "; ".join(wrong)))
    if redundancy is not None and redundancy["state"] == "lost":
        problems.critical.insert(0, "DATA AT RISK: the ramdisk %s holds the "
                                 "only current copy (%s)" % (
                                     intent.ramdisk,
                                     ", ".join(redundancy["reasons"])))
    elif redundancy is not None and redundancy["state"] == "degraded":
        # A resync of the disks, or the optimized resync every boot
        # leaves pending (Needs maintenance, Invoke: metasync) until
        # svc:/system/metasync runs it, passes by itself.
        resyncing = all(words.endswith(" is resyncing")
                        for words in redundancy["reasons"])
        problems.add("disk redundancy degraded (%s)" % ", ".join(
            redundancy["reasons"]),
            passing=resyncing or (problems.booting and m.pending))
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
    }, problems


def service_words(mirror, service, booting):
    fmri = record.fmri(mirror)
    if booting:
        return "%s is %s: svmram restore has not finished since boot" % (
            fmri, service)
    if service == "maintenance":
        return "%s is in maintenance (svcs -x svmram:%s says why)" % (
            fmri, mirror)
    return "%s is %s" % (fmri, service)


def verdict(serving, redundancy):
    if redundancy is not None and redundancy["state"] == "lost":
        return "only_copy_in_ram"
    if redundancy is not None and redundancy["state"] == "degraded":
        return "degraded"
    return "serving" if serving else "not_serving"


def read_statuses(mirror=None):
    """[(status, problems)] of the mirror named, or of every instance of
    svc:/system/svmram, worst verdict first; the host is read once."""
    if mirror is not None:
        mirror = names.metadevice(mirror, "mirror")
    reading = HostReading(common.host_root())
    services = reading.services(mirror)
    if mirror is not None:
        services = {mirror: services.get(mirror)}
    records = reading.records(mirror) if any(
        state is not None for state in services.values()) else {}
    # The one `metastat` names the mirrors whose records are whole.
    reading.mirrors = tuple(sorted(
        name for name, state in services.items()
        if state is not None and names.is_metadevice(name) and
        _intent(name, records.get(name, {})) is not None))
    statuses = []
    for name in sorted(services):
        if names.is_metadevice(name):
            statuses.append(mirror_status(name, reading, services[name],
                                          records.get(name, {})))
        else:
            statuses.append((not_a_mirror(name), Problems(services[name])))
    # The worst first; sorted() keeps the name order among equals.
    return sorted(statuses, key=lambda pair: -VERDICT_EXIT[
        pair[0]["verdict"]])


def _intent(mirror, found):
    try:
        return Intent.from_json(record.to_intent_json(found),
                                record.fmri(mirror))
    except RefusedError:
        return None


# --- grading for --nagios and the health field ------------------------------

def health(status, problems):
    """(grade, words) of one mirror: OK serving from RAM; WARNING while it
    gets there by itself; CRITICAL when an administrator must act."""
    name = status["mirror"]
    if status["verdict"] == "serving":
        return OK, "%s serves reads from RAM" % name
    critical, warning = list(problems.critical), list(problems.warning)
    if not status["configured"]:
        critical = list(status["reasons"])
    unfinished = _unfinished(name) if names.is_metadevice(name) else None
    if unfinished is not None:
        operation, running = unfinished
        at_risk = any(words.startswith("DATA AT RISK")
                      for words in critical)
        if running and not at_risk:
            return WARNING, "%s: a %s of %s is running" % (
                name, operation, name)
        if not running:
            critical.append("a %s of %s has not finished (svmram %s %s "
                            "finishes it)" % (operation, name, operation,
                                              name))
    if critical:
        return CRITICAL, "%s: %s" % (name, ", ".join(critical + warning))
    if warning:
        return WARNING, "%s: %s" % (name, ", ".join(warning))
    # Not serving for a reason no rule above grades: never call it OK.
    return CRITICAL, "%s: %s" % (name, ", ".join(status["reasons"]))


def _unfinished(mirror):
    """(operation, running) when a setup or teardown of `mirror` has left
    its journal: running while another svmram holds the host lock."""
    try:
        data = common.journal_for(mirror).load()
    except RefusedError:
        return ("setup or teardown", False)
    if data is None:
        return None
    try:
        with common.host_lock(0, dry_run=True):
            return data["operation"], False
    except RefusedError:
        return data["operation"], True


def nagios_line(graded):
    """(grade, the one line) for --nagios."""
    if not graded:
        return UNKNOWN, "%s UNKNOWN - no mirror is set up for reads from " \
            "RAM" % NAGIOS_NAME
    worst = max(grade for _, grade, _ in graded)
    bad = [words for _, grade, words in graded if grade != OK]
    good = [status["mirror"] for status, grade, _ in graded if grade == OK]
    if good:
        bad.append("%s serve%s reads from RAM" % (
            ", ".join(good), "s" if len(good) == 1 else ""))
    perf = ["serving=%d;;;0;%d" % (
        sum(1 for status, _, _ in graded if status["serving_from_ram"]),
        len(graded))]
    perf += ["%s_resync=%d%%;;;0;100" % (status["mirror"],
                                         status["resync_percent"])
             for status, _, _ in graded
             if status.get("resync_percent") is not None]
    return worst, "%s %s - %s | %s" % (NAGIOS_NAME, GRADES[worst],
                                       "; ".join(bad), " ".join(perf))


def run_nagios(args):
    try:
        graded = []
        for status, problems in read_statuses(args.mirror):
            grade, words = health(status, problems)
            graded.append((status, grade, words))
        grade, line = nagios_line(graded)
    except UsageError:
        raise
    except SvmramError as error:
        grade, line = UNKNOWN, "%s UNKNOWN - %s" % (NAGIOS_NAME, " ".join(
            error.message.split()))
    except Exception as bug:            # pylint: disable=broad-except
        # Exit 1 would read as WARNING: a bug in svmram is UNKNOWN too.
        grade, line = UNKNOWN, "%s UNKNOWN - internal error: %s: %s (a bug " \
            "in svmram; run 'svmram status' for the report)" % (
                NAGIOS_NAME, type(bug).__name__, " ".join(str(bug).split()))
    if not args.quiet:
        sys.stdout.write(line + "\n")
    return grade


# --- text, fields and JSON ---------------------------------------------------

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


def chosen_fields(text):
    """The -o list, or UsageError naming the valid fields."""
    if text is None:
        return DEFAULT_FIELDS
    chosen = [field.strip() for field in text.split(",")]
    wrong = [field for field in chosen if field not in FIELDS]
    if wrong or not chosen:
        raise UsageError("-o: unknown field%s %s; the fields are %s" % (
            "s" if len(wrong) > 1 else "",
            ", ".join(repr(field) for field in wrong),
            ",".join(FIELDS)))
    return tuple(chosen)


def nicenum(number):
    """A size as zfs(8) shows it: 1024-based, three digits at most
    (512, 1.50K, 227M, 4.00G)."""
    value, suffix = float(number), ""
    for suffix in ("", "K", "M", "G", "T", "P"):
        if value < 1024 or suffix == "P":
            break
        value /= 1024
    if not suffix:
        return "%d" % number
    for digits in (2, 1, 0):
        text = "%.*f" % (digits, value)
        if len(text) <= 4:
            return text + suffix
    return "%.0f%s" % (value, suffix)


def field_value(field, status, problems, grade, parsable):
    """One field of one mirror; "-" when it does not apply."""
    configured = status["configured"]
    redundancy = status.get("disk_redundancy") if configured else None
    ram = status.get("ram_submirror") if configured else None
    value = None
    if field == "mirror":
        value = status["mirror"]
    elif field == "verdict":
        value = status["verdict"]
    elif field == "health":
        value = GRADES[grade]
    elif field == "serving":
        value = "yes" if status["serving_from_ram"] else "no"
    elif field == "ram":
        value = ram
    elif field == "ramstate" and configured:
        value = next((s["state"] for s in status["submirrors"]
                      if s["ram"]), None)
    elif field == "resync" and configured and \
            status["resync_percent"] is not None:
        value = "%d%s" % (status["resync_percent"], "" if parsable else "%")
    elif field == "ramdisk" and configured:
        value = status["ramdisk"]["name"]
    elif field == "ramdiskstate" and configured:
        disk = status["ramdisk"]
        value = "missing" if not disk["present"] else \
            "present" if disk["device_matches"] else "renumbered"
    elif field == "size" and configured and \
            status["size_blocks"] is not None:
        size = status["size_blocks"] * 512
        value = str(size) if parsable else nicenum(size)
    elif field == "disks" and configured:
        value = ",".join(problems.disks)
    elif field == "current" and redundancy is not None:
        value = ",".join(redundancy["current"]) or None
    elif field == "redundancy" and redundancy is not None:
        value = redundancy["state"]
    elif field == "service":
        value = status["service"]["state"] if configured else None
    elif field == "method" and configured:
        value = status["method"]
    return "-" if value in (None, "") else value


def render_fields(rows, fields, scripted):
    """Tab-separated without a header (-H), else aligned columns under a
    header of the field names in capitals."""
    table = [[field_value(field, status, problems, grade, parsable)
              for field in fields]
             for status, problems, grade, parsable in rows]
    if scripted:
        return ["\t".join(row) for row in table]
    header = [field.upper() for field in fields]
    widths = [max(len(row[i]) for row in [header] + table)
              for i in range(len(fields))]
    return ["  ".join(cell.ljust(width) for cell, width in
                      zip(row, widths)).rstrip()
            for row in [header] + table]


def all_serving_line(pairs):
    """-x when no mirror has a problem."""
    if not pairs:
        return "No mirror is set up for reads from RAM."
    if len(pairs) == 1:
        return "%s serves reads from RAM" % pairs[0][0]["mirror"]
    return "all %d mirrors serve reads from RAM" % len(pairs)


def check_options(args):
    columns = args.scripted or args.fields is not None or args.parsable
    if args.nagios and (columns or args.json or args.problems):
        raise UsageError("--nagios prints one line; it takes none of -H, "
                         "-o, -p, -j (--json) or -x")
    if args.json and columns:
        raise UsageError("-j (--json) prints every field; it takes none of "
                         "-H, -o or -p")
    return chosen_fields(args.fields) if columns else None


def run(args):
    fields = check_options(args)
    if args.nagios:
        return run_nagios(args)
    pairs = read_statuses(args.mirror)
    code = max((VERDICT_EXIT[status["verdict"]] for status, _ in pairs),
               default=EXIT_OK)
    if args.quiet:
        return code
    shown = [(status, problems) for status, problems in pairs
             if not args.problems or status["verdict"] != "serving"]
    statuses = [status for status, _ in shown]
    lines = []
    if args.json:
        json.dump({"format": JSON_FORMAT, "mirrors": statuses}, sys.stdout,
                  indent=2, sort_keys=True)
        sys.stdout.write("\n")
    elif fields is not None:
        rows = [(status, problems, health(status, problems)[0]
                 if "health" in fields else OK, args.parsable)
                for status, problems in shown]
        if rows or not args.problems:
            lines = render_fields(rows, fields, args.scripted)
        elif not args.scripted:
            lines = [all_serving_line(pairs)]
    elif args.problems and not shown:
        lines = [all_serving_line(pairs)]
    elif not statuses:
        lines = ["No mirror is set up for reads from RAM."]
    else:
        for status in statuses:
            lines += render_text(status)
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")
    return code
