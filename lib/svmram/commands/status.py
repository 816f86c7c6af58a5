# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram status: is each configured target serving its reads from RAM,
and do its disk copies still hold current data?

Each target gets a verdict; the exit status is the worst one's, so
monitoring can use it: 0 serving, 4 (EXIT_NOT_SERVING) not serving from
RAM, 5 (EXIT_DEGRADED) a recorded disk submirror is not current, 6
(EXIT_ONLY_COPY_IN_RAM) none is while the RAM submirror is Okay: the
ramdisk holds the only current copy.  --json prints the documented schema
(format 2, docs/status-json.md); -H and -o print fields for scripts; -x
only the mirrors that are not serving; -q nothing.

--prometheus prints the metrics for node_exporter's textfile collector
(prometheus_lines(), the names in svmram(8)) and exits 0 once it has.

Status never fails open: what it cannot read (SMF, metastat, sysfs) is
an error, never "nothing set up": exit 1 (3, UNKNOWN, for --nagios), and
--prometheus prints svmram_up 0 before it fails.

--nagios follows the Nagios plugin convention instead: one line, exit 0
OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN; each target gets a grade (health())
that tells a boot's copy into RAM (WARNING) from a failure (CRITICAL).

The target's backend, or, given none, each backend whose host this is
(registry.for_hosts asks each), reads the host once for all its targets
(Backend.statuses) and gives each a status in the neutral schema
backend.py describes, with its Problems; this module grades, renders and
picks the exit status.
"""

import json
import sys
from types import MappingProxyType

from .. import __version__
from .. import run as run_module
from ..errors import (EXIT_DEGRADED, EXIT_FAILED, EXIT_NOT_SERVING, EXIT_OK,
                      EXIT_ONLY_COPY_IN_RAM, RefusedError, SvmramError,
                      UsageError, bug_advice, bug_text)
from . import common

JSON_FORMAT = 2

# The verdicts, least severe first, and their exit statuses.
VERDICT_EXIT = MappingProxyType(
    {"serving": EXIT_OK, "not_serving": EXIT_NOT_SERVING,
     "degraded": EXIT_DEGRADED,
     "only_copy_in_ram": EXIT_ONLY_COPY_IN_RAM})

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


def add_arguments(parser, argv=()):
    target = common.arguments_backend(argv).words.target
    parser.add_argument("target", nargs="?", metavar=target,
                        help="only this %s" % target)
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
                        help="only the %ss that are not serving from RAM"
                        % target)
    parser.add_argument("-q", dest="quiet", action="store_true",
                        help="print nothing; the exit status says it")
    parser.add_argument("--nagios", action="store_true",
                        help="one line and exit 0 OK, 1 WARNING, 2 CRITICAL, "
                             "3 UNKNOWN (a Nagios plugin)")
    parser.add_argument("--prometheus", action="store_true",
                        help="metrics for node_exporter's textfile "
                             "collector; exit 0 once printed, not 0 (after "
                             "svmram_up 0) when the host cannot be read")


def read_statuses(target=None):
    """[(backend, [(status, Problems)])]: the target named, with its
    backend; else, for every backend whose host this is (each is asked),
    every target its record store names.  Worst verdict first within a
    backend; each backend reads the host once (Backend.statuses), in a
    run context of its own (common.context_for, common.host_contexts)."""
    contexts = [common.context_for(target)] if target is not None \
        else common.host_contexts()
    groups = []
    for context in contexts:
        statuses = context.backend.statuses(context.name)
        # The worst first; sorted() keeps the name order among equals.
        groups.append((context.backend, sorted(
            statuses, key=lambda pair: -VERDICT_EXIT[pair[0].verdict])))
    return groups


# --- grading for --nagios and the health field ------------------------------

def health(status, problems, backend):
    """(grade, words) of one target: OK serving from RAM; WARNING while it
    gets there by itself; CRITICAL when an administrator must act."""
    name = status.target
    if status.verdict == "serving":
        return OK, "%s serves reads from RAM" % name
    critical, warning = list(problems.critical), list(problems.warning)
    if not status.configured:
        critical = list(status.reasons)
    unfinished = _unfinished(name, backend) \
        if _is_target(backend, name) else None
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
    return CRITICAL, "%s: %s" % (name, ", ".join(status.reasons))


def _is_target(backend, name):
    try:
        backend.target(name)
    except UsageError:
        return False
    return True


def _unfinished(target, backend):
    """(operation, running) when a setup or teardown of `target` has left
    its journal: running while another svmram holds the host lock."""
    try:
        data = common.journal_for(backend, common.target_of(
            backend, target)).load()
    except RefusedError:
        return ("setup or teardown", False)
    if data is None:
        return None
    try:
        with common.host_lock(0, dry_run=True):
            return data["operation"], False
    except RefusedError:
        return data["operation"], True


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
    return worst, "%s %s - %s | %s" % (NAGIOS_NAME, GRADES[worst],
                                       "; ".join(bad), " ".join(perf))


def run_nagios(args):
    try:
        graded = []
        groups = read_statuses(args.target)
        for backend, pairs in groups:
            for status, problems in pairs:
                grade, words = health(status, problems, backend)
                graded.append((status, grade, words, backend))
        grade, line = nagios_line(graded, [backend for backend, _ in groups])
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


# --- Prometheus --------------------------------------------------------------

# name -> (help, value of a configured Status, its Problems and the
# backend's Words); svmram(8) lists them.  Every metric is a gauge with
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
    ("svmram_disks_current",
     "The recorded disk copies known to hold current data (0 when their "
     "state cannot be read).",
     lambda s, p, w: len(s.disk_redundancy["current"])
     if s.disk_redundancy else 0),
    ("svmram_disks",
     "The disk copies setup recorded.",
     lambda s, p, w: len(p.disks)),
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
            label = _label(status.target)
            lines.append('%s{target="%s",device="%s"} %s' % (
                name, label, label, _number(value)))
    return lines


def run_prometheus(args):
    """--prometheus: exit 0 once the metrics are printed, so that
    `svmram status --prometheus > F.$$ && mv F.$$ F` replaces the file;
    when the host cannot be read, svmram_up 0 and the error (exit 1), so
    that it keeps the old one."""
    try:
        groups = read_statuses(args.target)
    except UsageError:
        raise
    except Exception as error:
        # A comment line (the text format ignores it) says what could not
        # be read, for whoever reads the output.
        sys.stdout.write("\n".join(prometheus_up_lines(0) + [
            "# svmram: %s" % " ".join(json_error(error)["error"][
                "message"].split())]) + "\n")
        raise
    sys.stdout.write("\n".join(prometheus_lines(
        [(backend.words, sorted(pairs, key=lambda pair: pair[0].target))
         for backend, pairs in groups])) + "\n")
    return EXIT_OK


# --- text, fields and JSON ---------------------------------------------------

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
        lines.append("    %-11s %d %% done" % (backend.words.sync + ":",
                                             status.sync_percent))
    disk = status.ramdisk
    lines.append("    %-11s %s, %s%s" % (
        backend.words.ram_device + ":", disk["name"],
        "present" if disk["present"] else "missing",
        ", device %s" % disk["device"] if disk["device"] else ""))
    service = status.boot_service
    lines.append("    service:    %s %s" % (service["name"],
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


def _ram_state(status):
    return next((s["state"] for s in status.copies if s["ram"]), None)


def _ramdisk_state(status):
    disk = status.ramdisk
    return "missing" if not disk["present"] else \
        "present" if disk["device_matches"] else "renumbered"


def _size(status, parsable):
    if status.size_blocks is None:
        return None
    size = status.size_blocks * 512
    return str(size) if parsable else nicenum(size)


def _sync(status, parsable):
    if status.sync_percent is None:
        return None
    return "%d%s" % (status.sync_percent, "" if parsable else "%")


def _redundancy(status, key):
    redundancy = status.disk_redundancy
    if redundancy is None:
        return None
    return ",".join(redundancy[key]) if key == "current" \
        else redundancy[key]


# -o FIELD -> its value, from (status, problems, grade, parsable); the
# second column: whether it applies to a target svmram did not set up.
FIELD_VALUES = MappingProxyType({
    "mirror": (lambda s, p, g, x: s.target, True),
    "verdict": (lambda s, p, g, x: s.verdict, True),
    "health": (lambda s, p, g, x: GRADES[g], True),
    "serving": (lambda s, p, g, x: "yes" if s.serving_from_ram else "no",
                True),
    "ram": (lambda s, p, g, x: s.ram_copy, False),
    "ramstate": (lambda s, p, g, x: _ram_state(s), False),
    "resync": (lambda s, p, g, x: _sync(s, x), False),
    "ramdisk": (lambda s, p, g, x: s.ramdisk["name"], False),
    "ramdiskstate": (lambda s, p, g, x: _ramdisk_state(s), False),
    "size": (lambda s, p, g, x: _size(s, x), False),
    "disks": (lambda s, p, g, x: ",".join(p.disks), False),
    "current": (lambda s, p, g, x: _redundancy(s, "current"), False),
    "redundancy": (lambda s, p, g, x: _redundancy(s, "state"), False),
    "service": (lambda s, p, g, x: s.boot_service["state"], False),
    "method": (lambda s, p, g, x: s.method, False),
})
assert tuple(FIELD_VALUES) == FIELDS


def field_value(field, status, problems, grade, parsable):
    """One field of one target; "-" when it does not apply."""
    value_of, always = FIELD_VALUES[field]
    value = value_of(status, problems, grade, parsable) \
        if always or status.configured else None
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


def nothing_set_up(backend):
    text = none_set_up(backend)
    return text[0].upper() + text[1:] + "."


def check_options(args):
    columns = args.scripted or args.fields is not None or args.parsable
    if args.nagios and (columns or args.json or args.problems):
        raise UsageError("--nagios prints one line; it takes none of -H, "
                         "-o, -p, -j (--json) or -x")
    if args.prometheus and (columns or args.json or args.problems or
                            args.nagios or args.quiet):
        raise UsageError("--prometheus prints every target's metrics; it "
                         "takes none of -H, -o, -p, -j (--json), -x, -q or "
                         "--nagios")
    if args.json and columns:
        raise UsageError("-j (--json) prints every field; it takes none of "
                         "-H, -o or -p")
    return chosen_fields(args.fields) if columns else None


def json_error(error):
    """--json when the host cannot be read: what could not be read, and
    the exit status; no "targets" key, so that a reader that takes the
    list finds none rather than an empty one (nothing set up)."""
    if isinstance(error, SvmramError):
        message, advice, code = error.message, error.advice, error.exit_code
    else:
        message, advice, code = bug_text(error), bug_advice(
            run_module.targets()), EXIT_FAILED
    return {"format": JSON_FORMAT,
            "error": {"message": message, "advice": advice,
                      "exit_status": code}}


def read_statuses_or_json_error(target):
    """read_statuses(), or the JSON error object on stdout and the error
    raised again, for the CLI to report on stderr and exit with."""
    try:
        return read_statuses(target)
    except UsageError:
        raise
    except Exception as error:
        json.dump(json_error(error), sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
        raise


def run(args):
    fields = check_options(args)
    if args.nagios:
        return run_nagios(args)
    if args.prometheus:
        return run_prometheus(args)
    if args.json and not args.quiet:
        groups = read_statuses_or_json_error(args.target)
    else:
        groups = read_statuses(args.target)
    code = max((VERDICT_EXIT[status.verdict] for _, pairs in groups
                for status, _ in pairs), default=EXIT_OK)
    if args.quiet:
        return code
    # Each backend's targets (several backends: those whose host this
    # is), with the ones shown.
    shown = [(backend, pairs, [(status, problems) for status, problems
                               in pairs if not args.problems or
                               status.verdict != "serving"])
             for backend, pairs in groups]
    lines = []
    if args.json:
        json.dump({"format": JSON_FORMAT,
                   "targets": [status.to_json() for _, _, chosen in shown
                               for status, _ in chosen]},
                  sys.stdout, indent=2, sort_keys=True)
        sys.stdout.write("\n")
    elif fields is not None:
        rows = [(status, problems, health(status, problems, backend)[0]
                 if "health" in fields else OK, args.parsable)
                for backend, _, chosen in shown
                for status, problems in chosen]
        if rows or not args.problems:
            lines = render_fields(rows, fields, args.scripted)
        elif not args.scripted:
            lines = [all_serving_line(pairs, backend)
                     for backend, pairs, _ in shown]
    else:
        for backend, pairs, chosen in shown:
            if args.problems and not chosen:
                lines.append(all_serving_line(pairs, backend))
            elif not chosen:
                lines.append(nothing_set_up(backend))
            for status, _ in chosen:
                lines += render_text(status, backend)
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")
    return code
