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

import time

from ..errors import (EXIT_OK, RefusedError, SvmramError, bug_advice,
                      bug_text, whole_number)
from ..execute import DeadlinePassed, StepFailed, carry_out, execute
from ..interrupt import Interrupted
from ..plan import MAX_STEPS
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
    context = common.context_for(args.target)
    backend, target, words = context.backend, context.name, context.words
    options = backend.restore_options(args)
    wait = whole_number(args.wait, "wait", 0, 86400) \
        if args.wait is not None else None
    deadline = whole_number(args.deadline, "deadline", 0, 86400) \
        if args.deadline is not None else max(DEFAULT_DEADLINE, wait or 0)
    # No step starts, and no wait goes on, after `until`; a command still
    # running at started + deadline is killed (once the run's deadline is
    # set: context.deadline.at).
    until = started + max(0, deadline - GRACE)
    context.deadline.seconds = deadline
    context.polling.limit, context.polling.deadline = wait, until
    if not args.dry_run:
        common.require_root(backend)
    # Run by the boot service, wait for a setup or teardown that holds
    # the lock (setup enables the boot service just after releasing it);
    # by hand, refuse.
    with common.host_lock(max(0, deadline - GRACE)
                          if backend.run_by_boot_service() else 0,
                          dry_run=args.dry_run, args=args):
        journal = common.journal_for(backend, context.target)
        unfinished = journal.load()
        aside = None
        if unfinished is not None:
            operation = unfinished["operation"]
            aside = RefusedError(
                "a %s of %s has not finished (%s); the %s is not restored "
                "meanwhile" % (operation, target, journal.path,
                               words.ram_copy),
                advice="Run 'svmram %s %s' to finish it; the %s serve reads "
                       "meanwhile." % (operation, target, words.disk_copies))
        host = context.host = backend.host(target)
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
                "restore" % (target, backend.record_name(target)),
                advice="svmram status lists the %ss it manages."
                % words.target)
        aside = aside or backend.restore_aside(intent)
        if aside is not None:
            _start_aside(context, intent, options, args.dry_run,
                         started + deadline, aside)
            raise aside
        plan, snap = backend.plan_restore(host, intent, options)
        first = backend.restore_openings(target) if plan.steps else []
        if args.dry_run:
            plan.steps[:0] = [other.steps[0] for _, other in first]
            return common.print_plan(context, plan)
        if not plan.steps:
            common.say_done(backend.nothing_to_restore(snap, intent, options))
            return EXIT_OK
        context.deadline.at = started + deadline
        try:
            # Steps are numbered as the run counts them (and as -n shows
            # them), the other targets' openings first.
            if first:
                # The other targets' openings change the host after the
                # reading the plan was made from.
                plan.observed = None
            for number, (other_host, other) in enumerate(first, 1):
                _in_time(context, plan, other.steps[0])
                execute(other, other_host, None, context.progress,
                        context.polling, counted=False, first=number)
            _converge(context, plan, options, len(first) + 1)
        except Interrupted as stop:
            raise common.stopped(context, stop, plan, counted=False) \
                from None
        except StepFailed as failure:
            raise _failed(context, failure, plan) from failure
        except SvmramError:
            raise
        except Exception as bug:        # pylint: disable=broad-except
            # A bug between steps (in the planner, say): the target is
            # left as the last step left it.
            raise SvmramError(
                "%s\n%s" % (bug_text(bug), common.state_now(
                    context, target, plan.intent)),
                advice="%s keeps serving reads from its %s.  Run '%s' (or "
                       "'svmram restore %s') to try again; %s"
                % (target, words.disk_copies,
                   common.retry(context, target, plan.intent), target,
                   bug_advice(words.target + "s"))) from bug
        finally:
            context.deadline.at = None
    common.say_done(backend.restore_done(intent, options))
    return EXIT_OK


def _start_aside(context, intent, options, dry_run, ends, aside):
    """A restore that stands aside (`aside`: its refusal) still does what
    the boot needs of the target (backend.plan_start), its commands ended
    by `ends` (time.monotonic()); -n prints it."""
    backend = context.backend
    plan = backend.plan_start(context.host, intent, options)
    if plan is None or not plan.steps:
        return
    if dry_run:
        common.print_plan(context, plan)
        return
    context.polling.limit = None
    context.deadline.at = ends
    try:
        execute(plan, context.host, None, context.progress, context.polling)
    except StepFailed as failure:
        raise SvmramError(
            "%s; %s" % (failure.message, aside.message),
            advice="Check %s (%s) and start it by hand; then %s" % (
                plan.target, context.words.state(plan.target),
                aside.advice[:1].lower() + aside.advice[1:])) from None
    finally:
        context.deadline.at = None


def _failed(context, failure, plan):
    """The error for a failed restore step."""
    backend, host, words = context.backend, context.host, context.words
    target, intent = plan.target, plan.intent
    refusal = None if failure.bug or isinstance(
        failure.error, DeadlinePassed) else backend.restore_refusal(
            failure, intent, host)
    if refusal is not None:
        return refusal
    step = failure.step.summary.rstrip(".")
    if isinstance(failure.error, DeadlinePassed):
        percent = failure.error.percent
        return _deadline_error(
            context, "while waiting for the %s of %s%s, in the step: %s" % (
                words.sync, failure.error.target, "" if percent is None
                else " (%d %% done)" % percent, step), plan)
    if failure.error is not None and \
            time.monotonic() >= context.polling.deadline:
        return _deadline_error(context, "in the step: %s (%s)" % (
            step, failure.reason), plan)
    advice = backend.failure_advice(failure, host, "restore") or (
        "%s keeps serving reads from its %s.  Fix the cause, then run '%s' "
        "(or 'svmram restore %s'); it continues from the state it finds." % (
            target, words.disk_copies,
            backend.retry(host, target, intent), target))
    if failure.bug:
        bug = bug_advice(words.target + "s")
        advice += "  " + bug[:1].upper() + bug[1:]
    return SvmramError(failure.message, advice=advice)


def _in_time(context, plan, step):
    """Refuse to start `step` once the time to start steps (the polling
    deadline) has passed."""
    if time.monotonic() >= context.polling.deadline:
        raise _deadline_error(context, "before the step: %s" %
                              step.summary.rstrip("."), plan)


def _deadline_error(context, where, plan):
    target, words = plan.target, context.words
    return DeadlinePassed(
        "restore of %s stopped at its deadline (--deadline %d seconds) "
        "%s.\n%s" % (target, context.deadline.seconds, where,
                     common.state_now(context, target, plan.intent)),
        advice="Nothing is lost: %s serves reads from its %s.  Once '%s' "
               "shows no %s in progress, run '%s' (or 'svmram restore %s'); "
               "it continues from the state it finds."
        % (target, words.disk_copies, words.state(target), words.sync,
           context.backend.retry(context.host, target, plan.intent),
           target))


def _converge(context, plan, options, first):
    """Carry out the restore one step at a time, planning each next step
    from the state found after the last (the new ramdisk's device number
    is only known once it exists), and starting none after the deadline.
    `first` is the number of its first step in the run."""
    backend = context.backend
    current = {"intent": plan.intent}

    def replan(observed):
        # The reading the step was checked against, taken after it, is
        # the state this round plans from (execute.carry_out).
        found = backend.replan_restore(context.host, options, observed,
                                       current["intent"])
        if found is None:
            raise RefusedError("the record %s vanished during the restore"
                               % backend.record_name(plan.target))
        current["intent"], following = found
        return following

    carry_out(plan, replan, context.host, context.progress, context.polling,
              first=first,
              before=lambda now: _in_time(context, now, now.steps[0]),
              rounds=MAX_STEPS,
              too_many=lambda: AssertionError("restore does not converge"))
