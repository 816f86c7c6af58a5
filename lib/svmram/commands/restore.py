# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram restore: bring a target's RAM copy back after a boot.

The target's boot service runs this at every boot; it is also safe by
hand.  It is idempotent: on a healthy target, or while the copy into RAM
runs, it changes nothing and says so.  It starts the
copy into RAM and returns without waiting for it, so boot is not held up.

Backend-neutral: the backend reads its record, plans each next step from
the state found, and words its advice; this module keeps the deadline.
"""

import sys
import time

from .. import run as run_module
from ..errors import (EXIT_OK, RefusedError, SvmramError, bug_advice,
                      bug_text, whole_number)
from ..execute import DeadlinePassed, StepFailed, carry_out, execute
from ..interrupt import Interrupted
from ..plan import MAX_STEPS
from ..progress import Progress
from . import common

# The whole run, lock wait included, ends within the deadline: no step
# starts, and no wait goes on, in its last GRACE seconds (a step's commands
# take seconds), and a command still running at the deadline is killed.
# DEFAULT_DEADLINE stays a minute under the start method's timeout in
# manifests/svmram.xml (a test holds them together), so that svmram, not
# SMF, says what happened.  A longer --wait (the start method passes its
# timeout less 60 s) lengthens the deadline to match.
DEFAULT_DEADLINE = 240    # seconds
GRACE = 30                # seconds


def add_arguments(parser, argv=()):
    backend = common.arguments_backend(argv)
    common.add_target_argument(parser, backend)
    backend.add_restore_arguments(parser)
    parser.add_argument("--deadline", default=None, metavar="SECONDS",
                        help="end the whole run, at a safe point, within "
                             "this many seconds (default %d, or --wait if "
                             "longer)" % DEFAULT_DEADLINE)
    parser.add_argument("--wait", default=None, metavar="SECONDS",
                        help="longest wait for a boot-time copy onto the "
                             "RAM copy (default: until the deadline)")
    common.add_dry_run_argument(parser, backend)


def run(args):
    started = time.monotonic()
    backend = common.backend_for(args.mirror)
    mirror = backend.target(args.mirror)
    options = backend.restore_options(args)
    wait = whole_number(args.wait, "wait", 0, 86400) \
        if args.wait is not None else None
    deadline = whole_number(args.deadline, "deadline", 0, 86400) \
        if args.deadline is not None else max(DEFAULT_DEADLINE, wait or 0)
    # No step starts, and no wait goes on, after `until`; a command still
    # running at started + deadline is killed.
    until = started + max(0, deadline - GRACE)
    if not args.dry_run:
        common.require_root(backend)
    # Run by the boot service, wait for a setup or teardown that holds
    # the lock (setup enables the boot service just after releasing it);
    # by hand, refuse.
    with common.host_lock(max(0, deadline - GRACE)
                          if backend.run_by_boot_service() else 0,
                          dry_run=args.dry_run):
        words = backend.words
        journal = common.journal_for(mirror, backend)
        unfinished = journal.load()
        aside = None
        if unfinished is not None:
            operation = unfinished["operation"]
            aside = RefusedError(
                "a %s of %s has not finished (%s); the %s is not restored "
                "meanwhile" % (operation, mirror, journal.path,
                               words.ram_copy),
                advice="Run 'svmram %s %s' to finish it; the %s serve reads "
                       "meanwhile." % (operation, mirror, words.disk_copies))
        host = backend.host(mirror)
        try:
            intent = backend.recorded_intent(host)
        except SvmramError:
            if aside is not None:
                raise aside from None
            raise
        if intent is None:
            if aside is not None:
                raise aside
            raise RefusedError(
                "%s is not set up by svmram (%s does not exist); nothing to "
                "restore" % (mirror, backend.record_name(mirror)),
                advice="svmram status lists the %ss it manages."
                % words.target)
        aside = aside or backend.restore_aside(intent)
        if aside is not None:
            _start_aside(backend, host, intent, options, args.dry_run,
                         started + deadline, until, aside)
            raise aside
        plan, snap = backend.plan_restore(host, intent, options)
        first = backend.restore_openings(mirror) if plan.steps else []
        if args.dry_run:
            plan.steps[:0] = [other.steps[0] for _, other in first]
            return common.print_plan(plan, backend)
        if not plan.steps:
            sys.stdout.write(backend.nothing_to_restore(snap, intent) + "\n")
            return EXIT_OK
        run_module.set_deadline(started + deadline)
        polling = common.polling()
        polling.limit, polling.deadline = wait, until
        try:
            # Steps are numbered as the run counts them (and as -n shows
            # them), the other mirrors' openings first.
            if first:
                # The other mirrors' openings change SVM after the
                # reading the plan was made from.
                plan.observed = None
            for number, (other_host, other) in enumerate(first, 1):
                _in_time(until, deadline, backend, host, plan,
                         other.steps[0])
                execute(other, other_host, None, Progress(), polling,
                        counted=False, first=number)
            _converge(backend, host, plan, options, polling, until,
                      deadline, len(first) + 1)
        except Interrupted as stop:
            raise common.stopped(stop, plan, backend, host, None,
                                 counted=False) from None
        except StepFailed as failure:
            raise _failed(failure, plan, backend, host, until,
                          deadline) from failure
        except SvmramError:
            raise
        except Exception as bug:        # pylint: disable=broad-except
            # A bug between steps (in the planner, say): the mirror is
            # left as the last step left it.
            raise SvmramError(
                "%s\n%s" % (bug_text(bug), common.state_now(
                    backend, host, mirror, plan.intent)),
                advice="%s keeps serving reads from its %s.  Run '%s' (or "
                       "'svmram restore %s') to try again; %s"
                % (mirror, words.disk_copies,
                   common.retry(backend, host, mirror, plan.intent), mirror,
                   bug_advice(words.target + "s"))) from bug
        finally:
            run_module.set_deadline(None)
    sys.stdout.write(backend.restore_done(intent) + "\n")
    return EXIT_OK


def _start_aside(backend, host, intent, options, dry_run, ends, until,
                 aside):
    """A restore that stands aside (`aside`: its refusal) still does what
    the boot needs of the target (backend.plan_start); -n prints it."""
    plan = backend.plan_start(host, intent, options)
    if plan is None or not plan.steps:
        return
    if dry_run:
        common.print_plan(plan, backend)
        return
    polling = common.polling()
    polling.deadline = until
    run_module.set_deadline(ends)
    try:
        execute(plan, host, None, Progress(), polling)
    except StepFailed as failure:
        raise SvmramError(
            "%s; %s" % (failure.message, aside.message),
            advice="Check %s (%s) and start it by hand; then %s" % (
                plan.target, backend.words.state(plan.target),
                aside.advice[:1].lower() + aside.advice[1:])) from None
    finally:
        run_module.set_deadline(None)


def _failed(failure, plan, backend, host, until, deadline):
    """The error for a failed restore step."""
    mirror, intent = plan.target, plan.intent
    refusal = None if failure.bug or isinstance(
        failure.error, DeadlinePassed) else backend.restore_refusal(
            failure, intent, host)
    if refusal is not None:
        return refusal
    step = failure.step.summary.rstrip(".")
    if isinstance(failure.error, DeadlinePassed):
        return _deadline_error(
            "while waiting for the %s of %s%s, in the step: %s" % (
                backend.words.sync, failure.error.mirror, "" if failure.error.percent is None
                else " (%d %% done)" % failure.error.percent, step),
            deadline, backend, host, plan)
    if failure.error is not None and time.monotonic() >= until:
        return _deadline_error("in the step: %s (%s)" % (
            step, failure.reason), deadline, backend, host, plan)
    advice = backend.failure_advice(failure, host, "restore") or (
        "%s keeps serving reads from its %s.  Fix the cause, then run '%s' "
        "(or 'svmram restore %s'); it continues from the state it finds." % (
            mirror, backend.words.disk_copies,
            backend.retry(host, mirror, intent), mirror))
    if failure.bug:
        bug = bug_advice(backend.words.target + "s")
        advice += "  " + bug[:1].upper() + bug[1:]
    return SvmramError(failure.message, advice=advice)


def _in_time(until, deadline, backend, host, plan, step):
    """Refuse to start `step` once the deadline has passed."""
    if time.monotonic() >= until:
        raise _deadline_error("before the step: %s" % step.summary.rstrip(
            "."), deadline, backend, host, plan)


def _deadline_error(where, deadline, backend, host, plan):
    mirror, words = plan.target, backend.words
    return DeadlinePassed(
        "restore of %s stopped at its deadline (--deadline %d seconds) "
        "%s.\n%s" % (mirror, deadline, where,
                    common.state_now(backend, host, mirror, plan.intent)),
        advice="Nothing is lost: %s serves reads from its %s.  Once '%s' "
               "shows no %s in progress, run '%s' (or 'svmram restore %s'); "
               "it continues from the state it finds."
        % (mirror, words.disk_copies, words.state(mirror), words.sync,
           backend.retry(host, mirror, plan.intent), mirror))


def _converge(backend, host, plan, options, polling, until, deadline,
              first):
    """Carry out the restore one step at a time, planning each next step
    from the state found after the last (the new ramdisk's device number
    is only known once it exists), and starting none after the deadline.
    `first` is the number of its first step in the run."""

    current = {"intent": plan.intent}

    def replan(observed):
        # The reading the step was checked against, taken after it, is
        # the state this round plans from (execute.carry_out).
        found = backend.replan_restore(host, options, observed,
                                       current["intent"])
        if found is None:
            raise RefusedError("the record %s vanished during the restore"
                               % backend.record_name(plan.target))
        current["intent"], following = found
        return following

    carry_out(plan, replan, host, Progress(), polling, first=first,
              before=lambda now: _in_time(until, deadline, backend, host,
                                          now, now.steps[0]),
              rounds=MAX_STEPS,
              too_many=lambda: AssertionError("restore does not converge"))

