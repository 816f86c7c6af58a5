# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram stop: the boot service's shutdown step, for a backend whose
boot service has one (Backend.stops; md's unit runs it as ExecStop).

It takes the RAM copy out of the target so that the next boot is an
ordinary, complete assembly (docs/md-backend.md).  It stands aside, and
succeeds, when there is nothing of svmram's to stop or a setup or
teardown is under way (that operation finishes the target); so a unit
never fails at shutdown for it.  A backend that needs no stop refuses
(Backend.plan_stop).

Backend-neutral: the backend plans from the state found; this module
holds the lock and carries the plan out.  Nothing is rolled back: every
step is planned from what the host shows, so a rerun continues.
"""


from ..errors import EXIT_OK, SvmramError
from ..execute import StepFailed, execute
from ..interrupt import Interrupted
from . import common

# Under systemd (INVOCATION_ID), how long to wait for a setup or teardown
# that holds the host lock: under the unit's TimeoutStopSec of 120 s.
LOCK_WAIT = 60


def add_arguments(parser, argv=()):
    backend = common.arguments_backend(argv)
    common.add_target_argument(parser, backend)
    common.add_dry_run_argument(parser, backend)


def run(args):
    context = common.context_for(args.target)
    backend, target = context.backend, context.name
    if not backend.stops:
        backend.plan_stop(None, None)       # the backend's refusal
    if not args.dry_run:
        common.require_root(backend)
    journal = common.journal_for(backend, context.target)
    # Teardown runs 'systemctl disable --now', and so this stop, while it
    # holds the host lock: ask first, and again once the lock is held.
    why = _why_aside(backend, journal, target)
    if why:
        return _aside(why, target)
    with common.host_lock(LOCK_WAIT if backend.run_by_boot_service()
                          else 0, dry_run=args.dry_run, args=args):
        why = _why_aside(backend, journal, target)
        if why:
            return _aside(why, target)
        host = context.host = backend.host(target)
        intent = backend.recorded_intent(host)
        if intent is None:
            return _aside("not set up by svmram (%s does not exist)"
                          % backend.record_name(target), target)
        plan = backend.plan_stop(host, intent)
        if args.dry_run:
            return common.print_plan(context, plan)
        try:
            # Stop keeps no journal: every step is planned from the host.
            execute(plan, host, None, context.progress, context.polling,
                    counted=False)
        except Interrupted as stop:
            raise common.stopped(context, stop, plan, counted=False) \
                from None
        except StepFailed as failure:
            raise SvmramError(
                failure.message,
                advice="Nothing was undone; the disks hold the data.  Run "
                       "'svmram stop %s' again to continue, or let the "
                       "next boot's restore handle the %s as it is."
                % (target, backend.words.target)) from failure
    common.say_done(backend.stop_done(target))
    return EXIT_OK


def _why_aside(backend, journal, target):
    unfinished = journal.load()
    if unfinished is not None:
        return "a %s of it has not finished (%s), and finishes it" % (
            unfinished["operation"], journal.path)
    return backend.stop_aside(target)


def _aside(why, target):
    common.say_done("%s: %s; nothing to stop." % (target, why))
    return EXIT_OK
