# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram restore: bring a mirror's RAM submirror back after a boot.

The SMF method svc:/system/svmram:MIRROR runs this at every boot; it is
also safe by hand.  It is idempotent: on a healthy mirror, or while the
RAM submirror resyncs, it changes nothing and says so.  It starts the
copy into RAM and returns without waiting for it, so boot is not held up.
"""

import os
import sys
import time

from .. import run as run_module
from ..errors import (BUG_ADVICE, EXIT_OK, RefusedError, SvmramError,
                      UsageError, bug_text)
from ..execute import DeadlinePassed, StepFailed, execute
from ..interrupt import Interrupted
from ..plan import Plan
from ..progress import Progress
from ..svm import consistency, names, record
from ..svm.backend import SvmBackend
from ..svm.intent import Intent
from ..svm.planner import MAX_STEPS
from ..svm.restore import (DEFAULT_COPY_BLOCKS, opening_step, plan_restore,
                           ram_component)
from . import common
from .status import configured_mirrors

SUMMARY = "bring the RAM submirror back after a boot (run by SMF)"
# The whole run, lock wait included, ends within the deadline: no step
# starts, and no wait goes on, in its last GRACE seconds (a step's commands
# take seconds), and a command still running at the deadline is killed.
# DEFAULT_DEADLINE stays a minute under the start method's timeout in
# manifests/svmram.xml (a test holds them together), so that svmram, not
# SMF, says what happened.  A longer --wait (the start method passes its
# timeout less 60 s) lengthens the deadline to match.
DEFAULT_DEADLINE = 240    # seconds
GRACE = 30                # seconds


def add_arguments(parser):
    parser.add_argument("mirror", help="the mirror, e.g. d10")
    parser.add_argument("--copy-size", default=str(DEFAULT_COPY_BLOCKS),
                        metavar="BLOCKS",
                        help="resync copy size in 512-byte blocks, 1 to 2048, "
                             "or 0 for SVM's default (default %d)"
                             % DEFAULT_COPY_BLOCKS)
    parser.add_argument("--deadline", default=None, metavar="SECONDS",
                        help="end the whole run, at a safe point, within "
                             "this many seconds (default %d, or --wait if "
                             "longer)" % DEFAULT_DEADLINE)
    parser.add_argument("--wait", default=None, metavar="SECONDS",
                        help="longest wait for a boot-time resync of the "
                             "mirror (default: until the deadline)")
    parser.add_argument("-n", "--dry-run", action="store_true",
                        help="print the plan as a ksh script; change nothing")


def _number(text, what, low, high):
    # ASCII digits only: str.isdigit() also accepts '²', which int() refuses.
    if not names.is_number(text) or not low <= int(text) <= high:
        raise UsageError("%s %r is invalid; give a whole number from %d to %d"
                         % (what, text, low, high))
    return int(text)


def run(args):
    started = time.monotonic()
    mirror = names.metadevice(args.mirror, "mirror")
    copy_blocks = _number(args.copy_size, "copy size", 0, 2048)
    wait = _number(args.wait, "wait", 0, 86400) \
        if args.wait is not None else None
    deadline = _number(args.deadline, "deadline", 0, 86400) \
        if args.deadline is not None else max(DEFAULT_DEADLINE, wait or 0)
    # No step starts, and no wait goes on, after `until`; a command still
    # running at started + deadline is killed.
    until = started + max(0, deadline - GRACE)
    if not args.dry_run:
        common.require_root()
    # Under SMF, wait for a setup or teardown that holds the lock (setup
    # enables this instance just after releasing it); by hand, refuse.
    with common.host_lock(max(0, deadline - GRACE) if os.environ.get(
            "SMF_FMRI") else 0, dry_run=args.dry_run):
        journal = common.journal_for(mirror)
        unfinished = journal.load()
        if unfinished is not None:
            operation = unfinished["operation"]
            raise RefusedError(
                "a %s of %s has not finished (%s); the RAM submirror is not "
                "restored meanwhile" % (operation, mirror, journal.path),
                advice="Run 'svmram %s %s' to finish it; the disk submirrors "
                       "serve reads meanwhile." % (operation, mirror))
        backend = SvmBackend(mirror, common.host_root())
        found = backend.read_record()
        if found is None:
            raise RefusedError(
                "%s is not set up by svmram (%s does not exist); nothing to "
                "restore" % (mirror, record.fmri(mirror)),
                advice="svmram status lists the mirrors it manages.")
        intent = Intent.from_json(record.to_intent_json(found),
                                  record.fmri(mirror))
        backend.intent = intent
        snap = backend.observe(memory=True)
        consistency.check(snap, intent, record.fmri(mirror))
        plan = plan_restore(snap, intent, copy_blocks)
        first = _other_mirrors_to_open(mirror) if plan.steps else []
        if args.dry_run:
            plan.steps[:0] = [step for _, step in first]
            return common.print_plan(plan)
        if not plan.steps:
            sys.stdout.write(_nothing_to_do(snap, intent) + "\n")
            return EXIT_OK
        run_module.set_deadline(started + deadline)
        polling = common.polling()
        polling.limit, polling.deadline = wait, until
        try:
            for other, step in first:
                _in_time(until, deadline, backend, mirror, step)
                execute(Plan("restore", mirror, steps=[step]), other, None,
                        Progress(), polling, counted=False)
            _converge(backend, intent, plan, copy_blocks, polling, until,
                      deadline)
        except Interrupted as stop:
            raise common.stopped(stop, plan, backend, None,
                                 counted=False) from None
        except StepFailed as failure:
            raise _failed(failure, intent, mirror, backend, until,
                          deadline) from failure
        except SvmramError:
            raise
        except Exception as bug:        # pylint: disable=broad-except
            # A bug between steps (in the planner, say): the mirror is
            # left as the last step left it.
            raise SvmramError(
                "%s\n%s" % (bug_text(bug), common.state_now(backend, mirror)),
                advice="%s keeps serving reads from its disk submirrors.  "
                       "Run 'svcadm clear svmram:%s' (or 'svmram restore "
                       "%s') to try again; %s" % (
                           mirror, mirror, mirror, BUG_ADVICE)) from bug
        finally:
            run_module.set_deadline(None)
    sys.stdout.write("%s: %s is resyncing from the disk submirrors; reads "
                     "stay on disk until it is Okay.\n" % (mirror, intent.ram))
    return EXIT_OK


def _failed(failure, intent, mirror, backend, until, deadline):
    """The error for a failed restore step."""
    if failure.step.key.startswith("open ") and not failure.bug and \
            not isinstance(failure.error, DeadlinePassed):
        return RefusedError(
            "SVM still shows the RAM component of %s as Okay although "
            "the ramdisk %s does not exist; svmram will not create a "
            "blank ramdisk that SVM would read as good data" % (
                intent.ram, intent.ramdisk),
            advice="%s keeps serving reads from disk.  Check "
                   "'metastat %s', then 'svcadm clear svmram:%s'."
            % (mirror, mirror, mirror))
    step = failure.step.summary.rstrip(".")
    if isinstance(failure.error, DeadlinePassed):
        return _deadline_error(
            "while waiting for the resync of %s%s, in the step: %s" % (
                failure.error.mirror, "" if failure.error.percent is None
                else " (%d %% done)" % failure.error.percent, step),
            deadline, backend, mirror)
    if failure.error is not None and time.monotonic() >= until:
        return _deadline_error("in the step: %s (%s)" % (
            step, failure.reason), deadline, backend, mirror)
    advice = "%s keeps serving reads from its disk submirrors.  Fix the " \
             "cause, then run 'svcadm clear svmram:%s' (or 'svmram restore " \
             "%s'); it continues from the state it finds." % (
                 mirror, mirror, mirror)
    if failure.bug:
        advice += "  " + BUG_ADVICE[:1].upper() + BUG_ADVICE[1:]
    return SvmramError(failure.message, advice=advice)


def _in_time(until, deadline, backend, mirror, step):
    """Refuse to start `step` once the deadline has passed."""
    if time.monotonic() >= until:
        raise _deadline_error("before the step: %s" % step.summary.rstrip(
            "."), deadline, backend, mirror)


def _deadline_error(where, deadline, backend, mirror):
    return DeadlinePassed(
        "restore of %s stopped at its deadline (--deadline %d seconds) "
        "%s.\n%s" % (mirror, deadline, where,
                    common.state_now(backend, mirror)),
        advice="Nothing is lost: %s serves reads from its disk submirrors.  "
               "Once 'metastat %s' shows no resync in progress, run "
               "'svcadm clear svmram:%s' (or 'svmram restore %s'); it "
               "continues from the state it finds." % (
                   mirror, mirror, mirror, mirror))


def _other_mirrors_to_open(mirror):
    """[(backend, step)]: every other mirror svmram recorded whose RAM
    component SVM still takes for Okay although its ramdisk is gone, with
    the step that opens it.  They are opened before this restore creates
    a ramdisk, which could otherwise take the device number SVM recorded
    for one of them (the kernel gives a new ramdisk the lowest free minor),
    whatever order SMF starts the instances in.  A mirror whose number
    another ramdisk already holds is not opened; its own restore fences
    it and says why."""
    found = []
    for other in configured_mirrors():
        if other == mirror or not names.is_metadevice(other):
            continue
        backend = SvmBackend(other, common.host_root())
        props = backend.read_record()
        if not record.complete(props):
            continue
        try:
            intent = Intent.from_json(record.to_intent_json(props),
                                      record.fmri(other))
        except RefusedError:
            continue                   # its own restore reports the record
        backend.intent = intent
        step = opening_step(backend.observe(), intent)
        if step is not None and step.key.startswith("open "):
            found.append((backend, step))
    return found


def _converge(backend, intent, plan, copy_blocks, polling, until, deadline):
    """Carry out the restore one step at a time, planning each next step
    from the state found after the last (the new ramdisk's device number
    is only known once it exists), and starting none after the deadline."""
    progress = Progress()
    for _ in range(MAX_STEPS):
        _in_time(until, deadline, backend, intent.mirror, plan.steps[0])
        execute(Plan(plan.operation, plan.target, steps=plan.steps[:1]),
                backend, None, progress, polling, counted=False)
        intent = Intent.from_json(record.to_intent_json(
            backend.read_record() or {}), record.fmri(intent.mirror))
        backend.intent = intent
        plan = plan_restore(backend.observe(memory=True), intent, copy_blocks)
        if not plan.steps:
            return
    raise AssertionError("restore does not converge")


def _nothing_to_do(snap, intent):
    _, state = ram_component(snap, intent)
    m = snap.mirror
    if m.resync == "active":
        return "%s: nothing to do: %s is resyncing (%s %% done)." % (
            intent.mirror, intent.ram, m.resync_percent)
    return "%s: nothing to do: %s is %s." % (intent.mirror, intent.ram,
                                             m.state_of(intent.ram))
