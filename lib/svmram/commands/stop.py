# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram stop: the md boot unit's shutdown step (ExecStop).

It takes the RAM member out of the array so that the next boot is an
ordinary, complete assembly (docs/md-backend.md).  It stands aside, and
succeeds, when there is nothing of svmram's to stop or a setup or
teardown is under way (that operation finishes the array); so a unit
never fails at shutdown for it.  SVM needs no stop and refuses.

Backend-neutral: the backend plans from the state found; this module
holds the lock and carries the plan out.  Nothing is rolled back: every
step is planned from what the host shows, so a rerun continues.
"""

import sys

from ..errors import EXIT_OK, SvmramError
from ..execute import StepFailed, execute
from ..interrupt import Interrupted
from ..progress import Progress
from . import common

# Under systemd (INVOCATION_ID), how long to wait for a setup or teardown
# that holds the host lock: under the unit's TimeoutStopSec of 120 s.
LOCK_WAIT = 60


def add_arguments(parser, argv=()):
    parser.add_argument("mirror", help="the array, e.g. /dev/md0")
    parser.add_argument("-n", "--dry-run", action="store_true",
                        help="print the plan as a script; change nothing")


def run(args):
    backend = common.backend_for(args.mirror)
    target = backend.target(args.mirror)
    if not backend.stops:
        backend.plan_stop(None, None)       # the backend's refusal
    if not args.dry_run:
        common.require_root(backend)
    journal = common.journal_for(target, backend)
    # Teardown runs 'systemctl disable --now', and so this stop, while it
    # holds the host lock: ask first, and again once the lock is held.
    why = _why_aside(backend, journal, target)
    if why:
        return _aside(why, target)
    with common.host_lock(LOCK_WAIT if backend.run_by_boot_service()
                          else 0, dry_run=args.dry_run):
        why = _why_aside(backend, journal, target)
        if why:
            return _aside(why, target)
        host = backend.host(target)
        intent = backend.recorded_intent(host)
        if intent is None:
            return _aside("not set up by svmram (%s does not exist)"
                          % backend.record_name(target), target)
        plan = backend.plan_stop(host, intent)
        if args.dry_run:
            return common.print_plan(plan, backend)
        try:
            execute(plan, host, None, Progress(), common.polling(),
                    counted=False)
        except Interrupted as stop:
            raise common.stopped(stop, plan, backend, host, None,
                                 counted=False) from None
        except StepFailed as failure:
            raise SvmramError(
                failure.message,
                advice="Nothing was undone; the disks hold the data.  Run "
                       "'svmram stop %s' again to continue, or let the "
                       "next boot's restore handle the array as it is."
                % target) from failure
    sys.stdout.write("%s: the RAM member is out; the next boot assembles "
                     "the array from its disks.\n" % target)
    return EXIT_OK


def _why_aside(backend, journal, target):
    unfinished = journal.load()
    if unfinished is not None:
        return "a %s of it has not finished (%s), and finishes it" % (
            unfinished["operation"], journal.path)
    return backend.stop_aside(target)


def _aside(why, target):
    sys.stdout.write("%s: %s; nothing to stop.\n" % (target, why))
    return EXIT_OK
