# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram check: what setup would verify or predict on this host, without
changing anything.

One line per check of the host, then a verdict per target: ready (and the
method setup would choose, why, and its cost), set up already, or refused
(and why).  Exit 0 when every check passes and every target is ready or
set up, 3 (EXIT_REFUSED) otherwise.  This is the first command to run on a
new host, and its output is what to send when reporting a problem.

Backend-neutral: the backend checks (Backend.check); this module renders.
"""

import json
import sys

from ..errors import EXIT_OK, EXIT_REFUSED
from . import common

JSON_FORMAT = 1
FAIL = "FAIL"


def add_arguments(parser, argv=()):
    target = common.arguments_backend(argv).words.target
    parser.add_argument("target", nargs="?", metavar=target,
                        help="only this %s (default: every %s)" % (
                            target, target))
    parser.add_argument("--json", action="store_true",
                        help="machine-readable output")


def render_text(checks, verdicts, predictions, target):
    """The lines of `check`: the host's checks, then each verdict with
    the backend's `predictions` (Backend.check_predictions); `target` is
    the backend's noun for its targets."""
    lines = ["%-8s %-9s %s" % (c["verdict"], c["check"], c["detail"])
             for c in checks]
    for v in verdicts:
        lines.append("%s: %s: %s" % (v["mirror"], v["verdict"], v["detail"]))
        if v.get("advice"):
            lines.append("    %s" % v["advice"])
        for what in predictions:
            if v.get(what):
                lines.append("    %s: %s" % (what, v[what]["text"]))
    if not verdicts and all(c["verdict"] != FAIL for c in checks):
        lines.append("There is no %s to check." % target)
    return lines


def run(args):
    """Given a target, its backend checks it; given none, every backend
    whose host this is checks its own targets, one after the other."""
    contexts = [common.context_for(args.target)] if args.target \
        else common.host_contexts()
    checks, verdicts, lines = [], [], []
    for context in contexts:
        backend = context.backend
        its_checks, its_verdicts = backend.check(context.name)
        checks += its_checks
        verdicts += its_verdicts
        lines += render_text(its_checks, its_verdicts,
                             backend.check_predictions, backend.words.target)
    if args.json:
        json.dump({"format": JSON_FORMAT, "checks": checks,
                   "mirrors": verdicts}, sys.stdout, indent=2,
                  sort_keys=True)
        sys.stdout.write("\n")
    else:
        sys.stdout.write("".join(line + "\n" for line in lines))
    failed = any(c["verdict"] == FAIL for c in checks) or any(
        v["verdict"] not in ("ready", "set up") for v in verdicts)
    return EXIT_REFUSED if failed else EXIT_OK
