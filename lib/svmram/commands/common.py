# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What the changing subcommands share: the run context (context.py:
the backend, the target, the host, the journal, progress, polling and
the deadline), the host root, the lock, confirmation, and running a plan
with rollback.  Each subcommand builds its context here once
(context_for; status and check given no target one per backend,
host_contexts) and passes it to the helpers below.

Backend-neutral: the backend (backend.py, picked by registry.py) plans,
observes and words what is specific to it."""

import os
import sys

from .. import actions, interrupt, registry, run
from ..context import Context
from ..errors import EXIT_OK, EXIT_SIGNAL_BASE, RefusedError, SvmramError
from ..execute import StepFailed, execute, reason_of
from ..interrupt import Interrupted
from ..journal import Journal, journal_path
from ..lock import HostLock
from ..plan import Plan, cost_lines, render_script
from ..target import Target

LOCK = "/var/run/svmram.lock"          # /var/run is cleared at boot


def host_root():
    """The root svmram works under: / on a real host; the emulator's
    fake root when SVMRAM_ROOT is set."""
    return os.environ.get("SVMRAM_ROOT") or "/"


def under_root(path):
    return actions.under(host_root(), path)


def context_for(text):
    """The run context of a subcommand given the target `text` (as the
    administrator typed it): the backend whose target syntax it is
    written in, and the target parsed once, by that backend, into a
    Target (UsageError when it is not a name of its)."""
    backend = registry.for_target(text, host_root())
    return Context(backend, host_root(), target_of(backend, backend.target(
        text), text))


def host_contexts():
    """The run contexts of status and check given no target: one per
    backend whose host this is (each is asked), no target."""
    return [Context(backend, host_root()) for backend in host_backends()]


def target_of(backend, name, typed=None):
    """The Target `name` (as `backend` knows it) stands for."""
    return Target(backend.name, name, typed)


def host_backends():
    """Every backend whose host this is (status and check given no
    target)."""
    return registry.for_hosts(host_root())


def selftest_backend():
    """The backend whose selftest runs: the first whose host this is and
    that has one (a selftest_directory), else the first, which refuses
    in its words."""
    backends = host_backends()
    return next((backend for backend in backends
                 if backend.selftest_directory is not None), backends[0])


def arguments_backend(argv):
    """The backend whose options a subcommand takes: the target's, named
    among `argv` (the subcommand's arguments), else the host's."""
    return registry.for_arguments(argv, host_root())


def add_target_argument(parser, backend):
    """The positional target, named in the backend's words."""
    words = backend.words
    parser.add_argument("target", metavar=words.target,
                        help="the %s, e.g. %s" % (words.target,
                                                   words.example))


def require_root(backend):
    """Changing the storage needs root; an emulated host (SVMRAM_ROOT
    naming a root other than /) does not."""
    if os.path.realpath(host_root()) != "/":
        return
    if os.geteuid() != 0:
        raise RefusedError("svmram must run as root to change %s"
                           % backend.words.system,
                           advice="Run it with pfexec or sudo.")


def host_lock(wait=0, dry_run=False, args=None):
    """The host lock; shared for a dry run, which changes nothing.  The
    subcommand's `args` give the command line the lock's record names
    (cli.main sets args.command_line)."""
    return HostLock(under_root(LOCK), wait, shared=dry_run,
                    command=getattr(args, "command_line", None))


def journal_for(backend, target):
    """The Journal of `target` (a Target of `backend`)."""
    return Journal(under_root(journal_path(target)),
                   checked_with=backend.words.state(target.name),
                   target=target.name)


def add_dry_run_argument(parser, backend):
    """-n, named in the backend's words (a ksh script, a POSIX sh one)."""
    parser.add_argument("-n", "--dry-run", action="store_true",
                        help="print the plan as a %s; change nothing"
                        % backend.words.script)


def add_change_arguments(parser, backend):
    add_dry_run_argument(parser, backend)
    parser.add_argument("-y", "--yes", action="store_true",
                        help="do not ask for confirmation")


def script_of(plan, backend, journal=None):
    """The plan as a script (-n's with `journal`, the Target whose
    journal it keeps as svmram would, so that svmram finishes or undoes
    what it began)."""
    return render_script(plan, backend.programs.path, backend.prelude,
                         under_root,
                         journal_path(journal) if journal else None)


def print_plan(context, plan):
    """-n: the plan as the backend's script, keeping the journal of the
    context's target."""
    sys.stdout.write(script_of(plan, context.backend,
                               journal=target_of(context.backend,
                                                 plan.target)))
    return EXIT_OK


def confirm(args, plan):
    """Ask before changing anything, unless -y was given."""
    if args.yes or not plan.steps:
        return
    if not sys.stdin.isatty():
        raise RefusedError("svmram %s %s would change the system and no one "
                           "can confirm it here" % (plan.operation, plan.target),
                           advice="Add -y to go ahead, or -n to see the plan.")
    sys.stderr.write("svmram %s %s: %d steps%s.\n" % (
        plan.operation, plan.target, len(plan.steps),
        " (method %s)" % plan.method if plan.method else ""))
    for line in plan.notes + cost_lines(plan):
        sys.stderr.write("  %s\n" % line)
    for number, step in enumerate(plan.steps, 1):
        sys.stderr.write("  %2d. %s\n" % (number, step.summary))
    sys.stderr.write("Proceed? [y/N] ")
    sys.stderr.flush()
    try:
        answer = sys.stdin.readline()
    except Interrupted:
        sys.stderr.write("\n")
        raise
    if answer.strip().lower() not in ("y", "yes"):
        raise RefusedError("not confirmed; nothing was changed")


def confirm_again(args, confirmed, plan):
    """The plan made for real after a provisional one was confirmed: asked
    again only if its steps differ."""
    if [s.summary for s in plan.steps] != \
            [s.summary for s in confirmed.steps]:
        sys.stderr.write("svmram: the plan changed with what the test "
                         "showed:\n")
        confirm(args, plan)
    return plan


def carry_out(context, plan, rollback_plan):
    """Execute `plan` on the context's host, keeping its journal.  If a
    step fails (whatever the exception), run the rollback plan computed
    from the state found then; if that fails too, say exactly what is
    left to do by hand.  A signal stops the run at a safe point and rolls
    nothing back: the journal stays for a resume, and the message says
    what state the target is in.  The journal is removed once the host
    is in a clean state."""
    progress, journal = context.progress, context.journal
    try:
        for note in plan.notes:
            progress.say("%s %s: %s" % (plan.operation, plan.target,
                                        note[:1].lower() + note[1:]))
        execute(plan, context.host, journal, progress, context.polling,
                before=plan.observed)
    except Interrupted as stop:
        raise stopped(context, stop, plan, journal) from None
    except StepFailed as failure:
        if rollback_plan is None:
            raise SvmramError(
                failure.message,
                advice=_bug("Nothing was undone; run 'svmram %s %s' again to "
                            "continue from where it stopped." % (
                                plan.operation, plan.target), failure)) \
                from failure
        _roll_back(context, plan, rollback_plan, failure)
    with interrupt.deferred(raise_pending=False):
        journal.finish()


def _roll_back(context, plan, rollback_plan, failure):
    """Undo a failed setup, and raise the error that reports it."""
    backend, host, journal = context.backend, context.host, context.journal
    progress = context.progress
    progress.say("svmram: %s" % failure.message)
    progress.say("svmram: rolling back to the original configuration")
    back = Plan("teardown", plan.target, intent=plan.intent)
    try:
        back = rollback_plan(host.observe(plan.intent))
        with interrupt.deferred():
            journal.start("teardown", journal.data["intent"])
        execute(back, host, journal, progress, context.polling)
    except Interrupted as stop:
        raise stopped(context, stop, plan, journal, back) from None
    except Exception as second:         # pylint: disable=broad-except
        left = _remaining(context, rollback_plan, plan)
        raise SvmramError(
            "%s; rolling back failed too: %s" % (failure.message,
                                                 reason_of(second)),
            advice=_bug("Run 'svmram teardown %s' to finish the rollback, or "
                        "finish it by hand:\n%s" % (plan.target, left),
                        failure, second, first=True)) from second
    with interrupt.deferred(raise_pending=False):
        journal.finish()
    raise SvmramError(
        "%s.  Everything was rolled back; %s" % (
            failure.message.rstrip("."), _as_now(context, plan)),
        advice=_bug(backend.failure_advice(failure, host, plan.operation) or
                    "Fix the cause, then run 'svmram %s %s' again." % (
                        plan.operation, plan.target), failure)) from failure


def _bug(advice, *failures, first=False):
    """The advice, and a request for a bug report when a failure was one
    (`first`: before the advice, which ends with a script)."""
    if any(getattr(f, "bug", False) or not isinstance(
            f, (SvmramError, OSError)) for f in failures):
        request = "This is a bug in svmram; please report it with this " \
                  "output (SVMRAM_DEBUG=1 adds the traceback)."
        return "%s  %s" % ((request, advice) if first else (advice, request))
    return advice


class Stopped(SvmramError):
    """svmram stopped at a safe point because of a signal."""

    def __init__(self, message, advice, signum):
        super().__init__(message, advice)
        self.exit_code = EXIT_SIGNAL_BASE + signum


def stopped(context, stop, plan, journal=None, rollback=None,
            counted=True):
    """The error that reports a signal acted on in the middle of `plan`
    (or of the `rollback` plan that undoes it) on the context's host:
    where it stopped, the state the target is in now (read from the
    host), and the commands that finish or undo the job (`journal`: the
    one the run keeps, which a rerun resumes from).  Nothing is rolled
    back: a Ctrl-C during a two-hour resync means "stop waiting", not
    "throw the work away"; the resync goes on in the kernel."""
    target, words = plan.target, context.words
    running = rollback or plan
    where = ""
    if stop.step is not None:
        where = " %s %s(%s)%s" % (
            "in" if stop.waiting else "before" if stop.before else "after",
            "step %d of %d " % (stop.number, len(running.steps))
            if counted else "the step ", stop.step.summary.rstrip("."),
            ", while waiting for the %s of %s" % (words.sync, stop.waiting)
            if stop.waiting else "")
    resumes = " (it resumes from %s)" % journal.path if journal else ""
    if rollback is not None:
        what = "the rollback of the failed %s of %s" % (plan.operation,
                                                        target)
        advice = "Run 'svmram teardown %s' to finish the rollback%s." % (
            target, resumes)
    elif plan.operation == "setup":
        what = "the setup of %s" % target
        advice = "Run 'svmram setup %s' to finish the setup%s, or 'svmram " \
                 "teardown %s' to undo it." % (target, resumes, target)
    elif plan.operation == "restore":
        what = "the restore of %s" % target
        again = retry(context, target, plan.intent)
        # The usual retry is for a boot service that gave up; another
        # (SVM's 'svcadm restart' of a degraded instance) is for this one.
        when = " if its boot service %s" % words.service_failed \
            if again == words.retry(target) else ""
        advice = "%s serves reads from its %s until its %s is %s.  Run " \
                 "'svmram restore %s' (or '%s'%s) to finish it." % (
                     target, words.disk_copies, words.ram_copy, words.current,
                     target, again, when)
    else:
        what = "the %s of %s" % (plan.operation, target)
        advice = "Run 'svmram %s %s' to finish it%s." % (
            plan.operation, target, resumes)
    return Stopped("%s was stopped by %s%s; %s.\n%s" % (
        what, stop.name, where, "the rest of the rollback was not done"
        if rollback is not None else "nothing was undone",
        state_now(context, target, plan.intent)), advice,
        stop.signum)


def retry(context, target, intent):
    """The command that runs the boot service's restore of `target` again
    as the context's host is now (Backend.retry: SVM's 'svcadm restart'
    where the instance is degraded, 'svcadm clear' where it is in
    maintenance; md's systemctl), or the backend's usual one when the
    host cannot be read."""
    try:
        with interrupt.cuttable():
            return context.backend.retry(context.host, target, intent)
    except (Interrupted, Exception):    # pylint: disable=broad-except
        return context.words.retry(target)


def state_now(context, target, intent):
    """The target as observed now on the context's host, for a report
    (Backend.state_text)."""
    try:
        with interrupt.cuttable():
            snap = context.host.observe(intent)
    except Interrupted:
        return "The state of %s was not read (stopped again); '%s' shows " \
               "it." % (target, context.words.state(target))
    except Exception as error:          # pylint: disable=broad-except
        return "The state of %s cannot be read (%s); '%s' shows it." % (
            target, reason_of(error), context.words.state(target))
    return context.backend.state_text(snap, target, intent)


def _as_now(context, plan):
    """What the rolled-back target looks like, as observed now."""
    try:
        snap = context.host.observe(plan.intent)
    except Interrupted:
        return "the state of %s was not read (stopped by a signal)." % (
            plan.target)
    except Exception as error:          # pylint: disable=broad-except
        return "the state of %s cannot be read (%s)." % (plan.target,
                                                          reason_of(error))
    return context.backend.rolled_back_text(snap, plan.target, plan.intent)


def say_done(*lines):
    """The last lines of a run that did its job, on stdout.  The job is
    done: a signal that comes now, or a reader that has gone (a closed
    pipe, which makes the exit status 141: cli.main), stops nothing and
    is not said (interrupt.done)."""
    with interrupt.done():
        sys.stdout.write("".join(line + "\n" for line in lines))


def tidy(context):
    """Remove what an interrupted run of svmram's own left (Backend.tidy),
    and say so."""
    removed = context.backend.tidy(context.host)
    if removed:
        sys.stderr.write("svmram: removed %s.\n" % removed)


def run_afterwards(context, plan):
    """Enable the boot service once the lock is released (its start method
    takes the lock), and say so if it did not start."""
    host, words = context.host, context.words
    failed = ""
    for argv in plan.afterwards:
        try:
            result = host.run_afterwards(argv)
        except Interrupted as stop:
            raise Stopped(
                "%s is set up, but enabling its boot service was stopped by "
                "%s.\n%s" % (plan.target, stop.name,
                             state_now(context, plan.target, plan.intent)),
                "Run 'svmram %s %s' again to enable it." % (
                    plan.operation, plan.target), stop.signum) from None
        except SvmramError as error:       # could not run it: not a refusal
            failed = failed or " (%s)" % error.message
            continue
        if not result.ok and not failed:
            failed = " (%s)" % run.CommandError(result).message
    if plan.afterwards:
        state = host.boot_service_state()
        if state == "disabled":
            raise SvmramError(
                "%s is set up, but its boot service could not be enabled%s"
                % (plan.target, failed),
                advice="Fix the cause, then run 'svmram %s %s' again to "
                       "enable it." % (plan.operation, plan.target))
        if state != words.service_running:
            raise SvmramError(
                "%s is set up, but its boot service is %s" % (
                    plan.target, state or "missing"),
                advice="'%s' says why; '%s' retries." % (
                    words.explain(plan.target),
                    retry(context, plan.target, plan.intent)))


def _remaining(context, rollback_plan, plan):
    try:
        return script_of(rollback_plan(context.host.observe(plan.intent)),
                         context.backend)
    except Interrupted:
        return "(not planned: stopped by a signal; 'svmram teardown -n " \
               "%s' prints it)" % plan.target
    except Exception as error:          # pylint: disable=broad-except
        return "(no plan can be made: %s)" % reason_of(error)
