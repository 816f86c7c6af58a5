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
(prometheus_lines(), the names in svmram(8)) and exits 0 once it has;
with --output FILE it replaces FILE with them atomically instead, the
svmram_up 0 of a host it cannot read included.

Status never fails open: what it cannot read (SMF, metastat, sysfs) is
an error, never "nothing set up": exit 1 (3, UNKNOWN, for --nagios), and
--prometheus prints svmram_up 0 before it fails.

--nagios follows the Nagios plugin convention instead: one line, exit 0
OK, 1 WARNING, 2 CRITICAL, 3 UNKNOWN; each target gets a grade (health())
that tells a boot's copy into RAM (WARNING) from a failure (CRITICAL).

The target's backend, or, given none, each backend whose host this is
(registry.for_hosts asks each), reads the host once for all its targets
(Backend.statuses) and gives each a status in the neutral schema
backend.py describes, with its Problems; this module picks the format
and the exit status, and the formats are modules of their own:
status_grade (health(), the exit statuses), status_text, status_fields
(-o), status_nagios and status_prometheus.
"""

import json
import sys

from .. import run as run_module
from ..errors import (EXIT_FAILED, EXIT_OK, SvmramError, UsageError,
                      bug_advice, bug_text)
from . import common
from .status_fields import (DEFAULT_FIELDS, FIELDS, chosen_fields,
                            render_fields)
from .status_grade import OK, UNKNOWN, VERDICT_EXIT, health
from .status_nagios import NAGIOS_NAME, nagios_line
from .status_prometheus import (check_output, prometheus_lines,
                                prometheus_up_lines, publish)
from .status_text import (all_serving_line, left_out_lines,
                          nothing_set_up, render_text)

JSON_FORMAT = 2


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
    parser.add_argument("--output", metavar="FILE",
                        help="with --prometheus: replace FILE with the "
                             "metrics (atomically, through a temporary "
                             "file beside it), svmram_up 0 too, instead of "
                             "printing them")


def read_statuses(target=None):
    """[(backend, [(status, Problems)], left out)]: the target named, with
    its backend; else, for every backend whose host this is (each is
    asked), every target its record store names, and those the backend
    left out ([{"target", "why"}], Backend.status_report).  Worst verdict
    first within a backend; each backend reads the host once, in a run
    context of its own (common.context_for, common.host_contexts)."""
    contexts = [common.context_for(target)] if target is not None \
        else common.host_contexts()
    groups = []
    for context in contexts:
        statuses, left_out = context.backend.status_report(context.name)
        # The worst first; sorted() keeps the name order among equals.
        groups.append((context.backend, sorted(
            statuses, key=lambda pair: -VERDICT_EXIT[pair[0].verdict]),
            left_out))
    return groups


def run_nagios(args):
    try:
        graded = []
        groups = read_statuses(args.target)
        for backend, pairs, _ in groups:
            for status, problems in pairs:
                grade, words = health(status, problems, backend)
                graded.append((status, grade, words, backend))
        grade, line = nagios_line(graded, [group[0] for group in groups])
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


def run_prometheus(args):
    """--prometheus: exit 0 once the metrics are out; when the host cannot
    be read, svmram_up 0 and the error (exit 1).  To standard output, or
    with --output into FILE, replaced atomically either way, so that
    node_exporter reads svmram_up 0 too."""
    output = getattr(args, "output", None)
    if output is not None:
        check_output(output)
    try:
        groups = read_statuses(args.target)
    except UsageError:
        raise
    except Exception as error:
        # A comment line (the text format ignores it) says what could not
        # be read, for whoever reads the output.
        publish(output, prometheus_up_lines(0) + [
            "# svmram: %s" % " ".join(json_error(error)["error"][
                "message"].split())])
        raise
    publish(output, prometheus_lines(
        [(backend.words, sorted(pairs, key=lambda pair: pair[0].target))
         for backend, pairs, _ in groups]))
    return EXIT_OK


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
    if getattr(args, "output", None) is not None and not args.prometheus:
        raise UsageError("--output names the file for --prometheus's "
                         "metrics; give --prometheus too")
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
    code = max((VERDICT_EXIT[status.verdict] for _, pairs, _ in groups
                for status, _ in pairs), default=EXIT_OK)
    if args.quiet:
        return code
    # Each backend's targets (several backends: those whose host this
    # is), with the ones shown.
    shown = [(backend, pairs, [(status, problems) for status, problems
                               in pairs if not args.problems or
                               status.verdict != "serving"])
             for backend, pairs, _ in groups]
    left_out = [entry for _, _, entries in groups for entry in entries]
    lines = []
    if args.json:
        json.dump({"format": JSON_FORMAT,
                   "targets": [status.to_json() for _, _, chosen in shown
                               for status, _ in chosen],
                   "left_out": left_out},
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
        for (backend, pairs, chosen), (_, _, left) in zip(shown, groups):
            if args.problems and not chosen:
                lines.append(all_serving_line(pairs, backend))
            elif not chosen:
                lines.append(nothing_set_up(backend))
            for status, _ in chosen:
                lines += render_text(status, backend)
            if pairs:   # else nothing_set_up's line says it, in its why
                lines += left_out_lines(left)
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")
    return code
