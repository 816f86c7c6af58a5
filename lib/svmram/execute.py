# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Carry out a plan: perform each step, wait for the resync it starts,
re-read the state, and check what the step promised before going on.
Completed and failed steps go to the journal, as a log.  Backend-neutral:
the backend's Host (backend.py) performs steps, observes the host (what
the plan's intent names) and compares states.
"""

import time
from dataclasses import dataclass
from typing import Optional

from . import interrupt, testcut
from .errors import EXIT_DEADLINE, SvmramError, bug_text, os_error_text
from .plan import Plan


@dataclass(frozen=True)
class ResyncStatus:
    active: bool                 # still copying (or about to)
    percent: Optional[int] = None
    problem: Optional[str] = None  # it will not finish by itself: why
    # Not active: the copy ended short of making every copy current (md
    # stopped a recovery, e.g. for a member that was failed), so the
    # progress says "stopped", not "done".
    stopped: bool = False


class StepFailed(SvmramError):
    """A step failed or did not leave the state it promised.  `error` is
    the exception behind it, if any; `bug` is True when that was not an
    error svmram expects (not an SvmramError or an OSError): a bug, whose
    message says so."""

    def __init__(self, number, step, reason, error=None):
        super().__init__("step %d failed (%s): %s" % (
            number, step.summary.rstrip("."), reason))
        self.number = number
        self.step = step
        self.reason = reason
        self.error = error
        self.bug = error is not None and not isinstance(
            error, (SvmramError, OSError))


class DeadlinePassed(SvmramError):
    """The run's deadline (Polling.deadline) passed while it waited for
    the copy onto `target`, `percent` done (None: not started)."""

    exit_code = EXIT_DEADLINE

    def __init__(self, message, target=None, percent=None, advice=None):
        super().__init__(message, advice)
        self.target = target
        self.percent = percent


def _done(percent):
    return "" if percent is None else " (%d %% done)" % percent


@dataclass
class Polling:
    first: float = 0.5           # seconds before the first re-read
    most: float = 10.0           # longest pause between re-reads
    limit: Optional[float] = None   # give up waiting after this many seconds
    deadline: Optional[float] = None   # time.monotonic() to stop waiting at
    sync: str = "resync"         # the backend's word for the copy: Words.sync


def reason_of(error):
    """What a step's exception says, as one line."""
    if isinstance(error, SvmramError):
        return error.message
    if isinstance(error, OSError):
        return os_error_text(error)
    return bug_text(error)


def execute(plan, backend, journal, progress, polling=None, sleep=time.sleep,
            counted=True, first=1, before=None):
    """Run the plan; journal may be None for idempotent operations.
    counted=False leaves out "step N of M" (for plans made one step at a
    time).  `first` is the number of the plan's first step in the run
    (carry_out: a run of several plans counts its steps across them).

    Every exception a step raises (an SvmramError, an OSError from an
    in-process effect, a bug) is recorded in the journal and becomes
    StepFailed, so that the caller rolls back.  A signal (Interrupted) is
    recorded too and goes through unchanged: it stops the plan at a safe
    point and rolls nothing back.

    Each step's promise is checked against a reading taken after it
    (Host.observe_after); `before` is the reading the plan was made from,
    when it was taken after the last step of the run (carry_out).
    Returns the reading the last step with a promise was checked against
    (None if no step had one): a caller that plans again from the state
    after the plan (carry_out) takes it rather than reading the host a
    second time."""
    polling = polling or Polling()
    total = first - 1 + len(plan.steps)
    values = {}     # ${VAR} values the plan's actions set (actions.py)
    observed = before   # the reading the last step was checked against
    checked = None      # ... by this plan's steps
    for number, step in enumerate(plan.steps, first):
        try:
            interrupt.check()
        except interrupt.Interrupted as stop:
            stop.number, stop.step, stop.before = number, step, True
            raise
        progress.say("%s %s: %s%s" % (
            plan.operation, plan.target,
            "step %d of %d: " % (number, total) if counted else "",
            step.summary))
        waiting = None
        testcut.step(step.key)
        try:
            # A step's commands run to their end, whatever signal comes.
            with interrupt.deferred():
                interrupt.changing()
                backend.perform(step, values)
            if step.wait_resync:
                waiting = step.wait_resync
                wait_for_resync(backend, step.wait_resync, progress, polling,
                                sleep)
                waiting = None
            problems = []
            if step.expect is not None:
                observed = checked = backend.observe_after(
                    step, plan.intent, observed)
                problems = backend.differences(step.expect, observed)
            else:
                # What the step changed is not modelled: the next check
                # reads everything, and nobody plans from an older reading.
                observed = checked = None
        except interrupt.Interrupted as stop:
            progress.break_line()
            stop.number, stop.step, stop.waiting = number, step, waiting
            _log(journal, "failed", step.key, "interrupted by %s" % stop.name,
                 stopping=True)
            raise
        except Exception as error:      # pylint: disable=broad-except
            progress.break_line()
            reason = reason_of(error)
            reason += _log(journal, "failed", step.key, reason, failing=True)
            raise StepFailed(number, step, reason, error) from error
        if problems:
            reason = "afterwards " + "; ".join(problems)
            reason += _log(journal, "failed", step.key, reason, failing=True)
            raise StepFailed(number, step, reason)
        try:
            written = _log(journal, "completed", step.key)
        except interrupt.Interrupted as stop:
            stop.number, stop.step = number, step    # after the step
            raise
        if written:
            raise StepFailed(number, step, written.lstrip("; "))
    return checked


def _log(journal, what, *args, stopping=False, failing=False):
    """Write to the journal (a critical section); "" when that worked or
    there is no journal, otherwise what went wrong, to add to a message.
    `stopping`: a signal is being acted on already; another one that
    arrives meanwhile is not raised again.  `failing`: a failure is being
    recorded; a signal waits for the next safe point, so that the failure
    is reported first."""
    if journal is None:
        return ""
    try:
        with interrupt.deferred(raise_pending=not stopping,
                                keep_pending=failing):
            getattr(journal, what)(*args)
    except OSError as error:
        return "; the journal %s cannot be written: %s" % (
            journal.path, os_error_text(error))
    return ""


def wait_for_resync(backend, target, progress, polling, sleep=time.sleep):
    """Poll until `target` has no resync active or pending (the backend's
    word for it: polling.sync, SVM's resync, md's recovery)."""
    polling = polling or Polling()
    delay = polling.first
    sync = polling.sync
    what = "%s %s" % (target, sync)
    started = time.monotonic()
    while True:
        status = backend.resync_status(target)
        if status.problem:
            raise SvmramError(status.problem)
        if not status.active:
            progress.done(what, "stopped" if status.stopped else "done")
            return
        if status.percent is not None:
            progress.update(what, status.percent)
        testcut.resync(status.percent)
        now = time.monotonic()
        if polling.deadline is not None and now >= polling.deadline:
            raise DeadlinePassed(
                "the deadline passed while svmram waited for the %s of "
                "%s%s" % (sync, target, _done(status.percent)), target,
                status.percent)
        if polling.limit is not None and now - started > polling.limit:
            raise SvmramError("gave up after %d seconds of waiting for the "
                              "%s of %s" % (polling.limit, sync, target))
        if polling.deadline is not None:
            delay = max(0.0, min(delay, polling.deadline - now))
        sleep(delay)
        delay = min(delay * 2, polling.most)


def carry_out(plan, replan, backend, progress, polling=None,
              sleep=time.sleep, journal=None, whole=False, before=None,
              first=1, rounds=64, too_many=None):
    """Do, observe, plan again, until nothing is left: carry out the first
    step of `plan` (whole=True: all its steps, the first plan's counted
    as "step N of M"), then take replan(observed) -- a new plan from the
    state the host shows now, `observed` being the reading execute()
    checked the last step against, taken after it (None when the step
    promised nothing) -- and go on until a plan has no steps.  The first
    plan's first step is checked against plan.observed, the reading it
    was made from (None: everything is read again).  For plans
    whose later steps depend on what an earlier one creates (restore: a
    new ramdisk's device number) or hides (md: an inactive array's
    members).  Steps are numbered as the run counts them, from `first`,
    in a failure's message and a signal's report.  before(plan) runs
    before each plan is carried out (a deadline refuses there).  After
    `rounds` plans carried out, a plan that still has steps means the
    planner is looping: too_many() gives the exception raised then.
    Returns how many steps were carried out."""
    done = 0
    observed = plan.observed
    for round_ in range(rounds):
        if not plan.steps:
            return done
        if before is not None:
            before(plan)
        part = plan if whole else Plan(plan.operation, plan.target,
                                       steps=plan.steps[:1],
                                       intent=plan.intent)
        observed = execute(part, backend, journal, progress, polling, sleep,
                           counted=whole and round_ == 0, first=first + done,
                           before=observed)
        done += len(part.steps)
        plan = replan(observed)
    if not plan.steps:
        return done
    raise too_many()
