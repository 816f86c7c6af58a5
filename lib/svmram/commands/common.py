# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What the changing subcommands share: the host root, the backend, the
lock, the journal, confirmation, and running a plan with rollback.

Backend-neutral: the backend (backend.py, picked by registry.py) plans,
observes and words what is specific to it."""

import os
import sys

from .. import actions, interrupt, registry, run
from ..errors import EXIT_OK, EXIT_SIGNAL_BASE, RefusedError, SvmramError
from ..execute import Polling, StepFailed, execute, reason_of
from ..interrupt import Interrupted
from ..journal import DIRECTORY as JOURNAL_DIR, Journal
from ..lock import HostLock
from ..plan import Plan, cost_lines, render_script
from ..progress import Progress

LOCK = "/var/run/svmram.lock"          # /var/run is cleared at boot


def host_root():
    """The root svmram works under: / on a real host; the emulator's
    fake root when SVMRAM_ROOT is set."""
    return os.environ.get("SVMRAM_ROOT") or "/"


def under_root(path):
    return actions.under(host_root(), path)


def backend_for(target):
    """The backend whose target syntax `target` is written in: the one
    this command uses, whose words run.py's messages take."""
    return _used(registry.for_target(target, host_root()))


def host_backend():
    """The backend of this host (for a command given no target): the
    first whose host this is."""
    return _used(registry.for_host(host_root()))


def host_backends():
    """Every backend whose host this is (status given no target); use()
    each before it reads the host."""
    return registry.for_hosts(host_root())


def use(backend):
    """Make `backend` the one whose words run.py's messages take."""
    return _used(backend)


def _used(backend):
    run.use(backend)
    return backend


def arguments_backend(argv):
    """The backend whose options a subcommand takes: the target's, named
    among `argv` (the subcommand's arguments), else the host's."""
    return registry.for_arguments(argv, host_root())


def add_target_argument(parser, backend):
    """The positional target, named in the backend's words."""
    words = backend.words
    parser.add_argument("mirror", metavar=words.target,
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


def host_lock(wait=0, dry_run=False):
    """The host lock; shared for a dry run, which changes nothing."""
    return HostLock(under_root(LOCK), wait, shared=dry_run)


def journal_for(mirror, backend):
    return Journal(under_root(journal_path(mirror)),
                   checked_with=backend.words.state(mirror), target=mirror)


def polling():
    most = float(os.environ.get("SVMRAM_POLL_SECONDS", "10"))
    return Polling(first=min(0.5, most), most=most)


def add_dry_run_argument(parser, backend):
    """-n, named in the backend's words (a ksh script, a POSIX sh one)."""
    parser.add_argument("-n", "--dry-run", action="store_true",
                        help="print the plan as a %s; change nothing"
                        % backend.words.script)


def add_change_arguments(parser, backend):
    add_dry_run_argument(parser, backend)
    parser.add_argument("-y", "--yes", action="store_true",
                        help="do not ask for confirmation")


def journal_path(target):
    """The host path of `target`'s journal."""
    return "%s/%s.journal" % (JOURNAL_DIR, target)


def script_of(plan, backend, journal=False):
    """The plan as a script (-n's with `journal`: it keeps the journal
    svmram would, so that svmram finishes or undoes what it began)."""
    return render_script(plan, backend.programs.path, backend.prelude,
                         under_root,
                         journal_path(plan.target) if journal else None)


def print_plan(plan, backend):
    sys.stdout.write(script_of(plan, backend, journal=True))
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


def carry_out(plan, backend, host, journal, rollback_plan):
    """Execute `plan`.  If a step fails (whatever the exception), run the
    rollback plan computed from the state found then; if that fails too,
    say exactly what is left to do by hand.  A signal stops the run at a
    safe point and rolls nothing back: the journal stays for a resume, and
    the message says what state the mirror is in.  The journal is removed
    once the host is in a clean state."""
    progress = Progress()
    try:
        for note in plan.notes:
            progress.say("%s %s: %s" % (plan.operation, plan.target,
                                        note[:1].lower() + note[1:]))
        execute(plan, host, journal, progress, polling(),
                before=plan.observed)
    except Interrupted as stop:
        raise stopped(stop, plan, backend, host, journal) from None
    except StepFailed as failure:
        if rollback_plan is None:
            raise SvmramError(
                failure.message,
                advice=_bug("Nothing was undone; run 'svmram %s %s' again to "
                            "continue from where it stopped." % (
                                plan.operation, plan.target), failure)) \
                from failure
        _roll_back(plan, backend, host, journal, rollback_plan, failure,
                   progress)
    with interrupt.deferred(raise_pending=False):
        journal.finish()


def _roll_back(plan, backend, host, journal, rollback_plan, failure,
               progress):
    """Undo a failed setup, and raise the error that reports it."""
    progress.say("svmram: %s" % failure.message)
    progress.say("svmram: rolling back to the original configuration")
    back = Plan("teardown", plan.target, intent=plan.intent)
    try:
        back = rollback_plan(host.observe(plan.intent))
        with interrupt.deferred():
            journal.start("teardown", journal.data["intent"])
        execute(back, host, journal, progress, polling())
    except Interrupted as stop:
        raise stopped(stop, plan, backend, host, journal, back) from None
    except Exception as second:         # pylint: disable=broad-except
        left = _remaining(rollback_plan, plan, backend, host)
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
            failure.message.rstrip("."), _as_now(backend, host, plan)),
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


def stopped(stop, plan, backend, host, journal, rollback=None,
            counted=True):
    """The error that reports a signal acted on in the middle of `plan`
    (or of the `rollback` plan that undoes it): where it stopped, the
    state the mirror is in now (read from the host), and the commands that
    finish or undo the job.  Nothing is rolled back: a Ctrl-C during a
    two-hour resync means "stop waiting", not "throw the work away"; the
    resync goes on in the kernel."""
    mirror = plan.target
    running = rollback or plan
    where = ""
    if stop.step is not None:
        where = " %s %s(%s)%s" % (
            "in" if stop.waiting else "before" if stop.before else "after",
            "step %d of %d " % (stop.number, len(running.steps))
            if counted else "the step ", stop.step.summary.rstrip("."),
            ", while waiting for the %s of %s" % (backend.words.sync,
                                                 stop.waiting)
            if stop.waiting else "")
    resumes = " (it resumes from %s)" % journal.path if journal else ""
    if rollback is not None:
        what = "the rollback of the failed %s of %s" % (plan.operation,
                                                        mirror)
        advice = "Run 'svmram teardown %s' to finish the rollback%s." % (
            mirror, resumes)
    elif plan.operation == "setup":
        what = "the setup of %s" % mirror
        advice = "Run 'svmram setup %s' to finish the setup%s, or 'svmram " \
                 "teardown %s' to undo it." % (mirror, resumes, mirror)
    elif plan.operation == "restore":
        what = "the restore of %s" % mirror
        words = backend.words
        again = retry(backend, host, mirror, plan.intent)
        # The usual retry is for a boot service that gave up; another
        # (SVM's 'svcadm restart' of a degraded instance) is for this one.
        when = " if its boot service %s" % words.service_failed \
            if again == words.retry(mirror) else ""
        advice = "%s serves reads from its %s until its %s is %s.  Run " \
                 "'svmram restore %s' (or '%s'%s) to finish it." % (
                     mirror, words.disk_copies, words.ram_copy, words.current,
                     mirror, again, when)
    else:
        what = "the %s of %s" % (plan.operation, mirror)
        advice = "Run 'svmram %s %s' to finish it%s." % (
            plan.operation, mirror, resumes)
    return Stopped("%s was stopped by %s%s; %s.\n%s" % (
        what, stop.name, where, "the rest of the rollback was not done"
        if rollback is not None else "nothing was undone",
        state_now(backend, host, mirror, plan.intent)), advice,
        stop.signum)


def retry(backend, host, target, intent):
    """The command that runs the boot service's restore of `target` again
    as the host is now (Backend.retry: SVM's 'svcadm restart' where the
    instance is degraded, 'svcadm clear' where it is in maintenance; md's
    systemctl), or the backend's usual one when the host cannot be read."""
    try:
        with interrupt.cuttable():
            return backend.retry(host, target, intent)
    except (Interrupted, Exception):    # pylint: disable=broad-except
        return backend.words.retry(target)


def state_now(backend, host, mirror, intent):
    """The target as observed now, for a report (Backend.state_text)."""
    try:
        with interrupt.cuttable():
            snap = host.observe(intent)
    except Interrupted:
        return "The state of %s was not read (stopped again); '%s' shows " \
               "it." % (mirror, backend.words.state(mirror))
    except Exception as error:          # pylint: disable=broad-except
        return "The state of %s cannot be read (%s); '%s' shows it." % (
            mirror, reason_of(error), backend.words.state(mirror))
    return backend.state_text(snap, mirror, intent)


def _as_now(backend, host, plan):
    """What the rolled-back target looks like, as observed now."""
    try:
        snap = host.observe(plan.intent)
    except Interrupted:
        return "the state of %s was not read (stopped by a signal)." % (
            plan.target)
    except Exception as error:          # pylint: disable=broad-except
        return "the state of %s cannot be read (%s)." % (plan.target,
                                                          reason_of(error))
    return backend.rolled_back_text(snap, plan.target, plan.intent)


def tidy(backend, host):
    """Remove what an interrupted run of svmram's own left (Backend.tidy),
    and say so."""
    removed = backend.tidy(host)
    if removed:
        sys.stderr.write("svmram: removed %s.\n" % removed)


def run_afterwards(plan, backend, host):
    """Enable the boot service once the lock is released (its start method
    takes the lock), and say so if it did not start."""
    failed = ""
    for argv in plan.afterwards:
        try:
            result = host.run_afterwards(argv)
        except Interrupted as stop:
            raise Stopped(
                "%s is set up, but enabling its boot service was stopped by "
                "%s.\n%s" % (plan.target, stop.name,
                             state_now(backend, host, plan.target,
                                       plan.intent)),
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
        if state != backend.words.service_running:
            raise SvmramError(
                "%s is set up, but its boot service is %s" % (
                    plan.target, state or "missing"),
                advice="'%s' says why; '%s' retries." % (
                    backend.words.explain(plan.target),
                    retry(backend, host, plan.target, plan.intent)))


def _remaining(rollback_plan, plan, backend, host):
    try:
        return script_of(rollback_plan(host.observe(plan.intent)), backend)
    except Interrupted:
        return "(not planned: stopped by a signal; 'svmram teardown -n " \
               "%s' prints it)" % plan.target
    except Exception as error:          # pylint: disable=broad-except
        return "(no plan can be made: %s)" % reason_of(error)
