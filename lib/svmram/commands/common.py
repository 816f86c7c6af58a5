# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What the changing subcommands share: the host root, the lock, the
journal, confirmation, and running a plan with rollback."""

import os
import sys

from .. import run
from ..errors import EXIT_OK, RefusedError, SvmramError
from ..execute import Polling, StepFailed, execute
from ..journal import Journal
from ..lock import HostLock
from ..plan import cost_lines, render_script
from ..progress import Progress

LOCK = "/var/run/svmram.lock"          # /var/run is cleared at boot
JOURNAL_DIR = "/var/svmram"             # survives reboots


def host_root():
    """The root svmram works under: / on a real host; the emulator's
    fake root when SVMRAM_ROOT is set."""
    return os.environ.get("SVMRAM_ROOT") or "/"


def under_root(path):
    return os.path.join(host_root(), path.lstrip("/"))


def require_root():
    """Changing SVM needs root; an emulated host (SVMRAM_ROOT) does not."""
    if os.environ.get("SVMRAM_ROOT"):
        return
    if os.geteuid() != 0:
        raise RefusedError("svmram must run as root to change SVM",
                           advice="Run it with pfexec or sudo.")


def host_lock(wait=0, dry_run=False):
    """The host lock; shared for a dry run, which changes nothing."""
    return HostLock(under_root(LOCK), wait, shared=dry_run)


def journal_for(mirror):
    return Journal(under_root("%s/%s.journal" % (JOURNAL_DIR, mirror)))


def polling():
    most = float(os.environ.get("SVMRAM_POLL_SECONDS", "10"))
    return Polling(first=min(0.5, most), most=most)


def add_change_arguments(parser):
    parser.add_argument("-n", "--dry-run", action="store_true",
                        help="print the plan as a ksh script; change nothing")
    parser.add_argument("-y", "--yes", action="store_true",
                        help="do not ask for confirmation")


def print_plan(plan):
    sys.stdout.write(render_script(plan, run.command_path))
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
    if sys.stdin.readline().strip().lower() not in ("y", "yes"):
        raise RefusedError("not confirmed; nothing was changed")


def carry_out(plan, backend, journal, rollback_plan):
    """Execute `plan`.  If a step fails, run the rollback plan computed
    from the state found then; if that fails too, say exactly what is
    left to do by hand.  The journal is removed once the host is in a
    clean state."""
    progress = Progress()
    for note in plan.notes:
        progress.say("%s %s: %s" % (plan.operation, plan.target,
                                    note[:1].lower() + note[1:]))
    try:
        execute(plan, backend, journal, progress, polling())
    except StepFailed as failure:
        if rollback_plan is None:
            raise SvmramError(
                failure.message,
                advice="Nothing was undone; run 'svmram %s %s' again to "
                       "continue from where it stopped." % (
                           plan.operation, plan.target)) from failure
        progress.say("svmram: %s" % failure.message)
        progress.say("svmram: rolling back to the original configuration")
        back = None
        try:
            back = rollback_plan(backend.observe())
            journal.start("teardown", journal.data["intent"])
            execute(back, backend, journal, progress, polling())
        except SvmramError as second:
            left = _remaining(rollback_plan, backend)
            raise SvmramError(
                "%s; rolling back failed too: %s" % (failure.message,
                                                     second.message),
                advice="Run 'svmram teardown %s' to finish the rollback, or "
                       "finish it by hand:\n%s" % (plan.target, left)) \
                from second
        journal.finish()
        raise SvmramError(
            "%s.  Everything was rolled back; %s" % (
                failure.message.rstrip("."), _as_now(backend, plan.target)),
            advice="Fix the cause, then run 'svmram %s %s' again." % (
                plan.operation, plan.target)) from failure
    journal.finish()


def _as_now(backend, mirror):
    """What the rolled-back mirror looks like, as observed now."""
    intent = getattr(backend, "intent", None)
    try:
        m = backend.observe().mirror
    except SvmramError as error:
        return "the state of %s cannot be read (%s)." % (mirror, error.message)
    if intent is not None and m is not None and m.slots == intent.disks and \
            m.read_option == intent.read_option and \
            all(state == "Okay" for state in m.states):
        return "%s is as it was before." % mirror
    if m is None:
        return "but %s does not exist now." % mirror
    return "but %s is not as it was: it has the submirrors %s." % (
        mirror, ", ".join("%s (%s)" % pair for pair in zip(m.slots, m.states)))


def run_afterwards(plan, backend):
    """Enable the boot service once the lock is released (its start method
    takes the lock), and say so if it did not come online."""
    failed = ""
    for argv in plan.afterwards:
        try:
            result = run.run(argv[0], list(argv[1:]), check=False)
        except SvmramError as error:       # could not run it: not a refusal
            failed = failed or " (%s)" % error.message
            continue
        if not result.ok and not failed:
            failed = " (%s)" % run.CommandError(result).message
    if plan.afterwards:
        state = backend.service_state()
        if state == "disabled":
            raise SvmramError(
                "%s is set up, but its boot service could not be enabled%s"
                % (plan.target, failed),
                advice="Fix the cause, then run 'svmram %s %s' again to "
                       "enable it." % (plan.operation, plan.target))
        if state != "online":
            raise SvmramError(
                "%s is set up, but its boot service is %s" % (
                    plan.target, state or "missing"),
                advice="'svcs -x svmram:%s' says why; 'svcadm clear "
                       "svmram:%s' retries." % (plan.target, plan.target))


def _remaining(rollback_plan, backend):
    try:
        return render_script(rollback_plan(backend.observe()),
                             run.command_path)
    except SvmramError as error:
        return "(the state cannot be read: %s)" % error.message
