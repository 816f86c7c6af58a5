# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Carry out a plan: perform each step, wait for the resync it starts,
re-read the state, and check what the step promised before going on.
Completed steps go to the journal.  Backend-neutral: the backend performs
steps, observes the host and compares states.
"""

import time
from dataclasses import dataclass
from typing import Optional

from .errors import SvmramError


@dataclass(frozen=True)
class ResyncStatus:
    active: bool                 # still copying (or about to)
    percent: Optional[int] = None
    problem: Optional[str] = None  # it will not finish by itself: why


class StepFailed(SvmramError):
    """A step failed or did not leave the state it promised."""

    def __init__(self, number, step, reason):
        super().__init__("step %d failed (%s): %s" % (
            number, step.summary.rstrip("."), reason))
        self.number = number
        self.step = step
        self.reason = reason


@dataclass
class Polling:
    first: float = 0.5           # seconds before the first re-read
    most: float = 10.0           # longest pause between re-reads
    limit: Optional[float] = None   # give up waiting after this many seconds


def execute(plan, backend, journal, progress, polling=None, sleep=time.sleep,
            counted=True):
    """Run the plan; journal may be None for idempotent operations.
    counted=False leaves out "step N of M" (for plans made one step at a
    time)."""
    polling = polling or Polling()
    total = len(plan.steps)
    for number, step in enumerate(plan.steps, 1):
        progress.say("%s %s: %s%s" % (
            plan.operation, plan.target,
            "step %d of %d: " % (number, total) if counted else "",
            step.summary))
        try:
            backend.perform(step)
            if step.wait_resync:
                wait_for_resync(backend, step.wait_resync, progress, polling,
                                sleep)
            problems = backend.differences(step.expect, backend.observe())
        except SvmramError as error:
            if journal:
                journal.failed(step.key, error.message)
            raise StepFailed(number, step, error.message) from error
        if problems:
            reason = "; ".join(problems)
            if journal:
                journal.failed(step.key, reason)
            raise StepFailed(number, step, "afterwards " + reason)
        if journal:
            journal.completed(step.key)


def wait_for_resync(backend, mirror, progress, polling, sleep=time.sleep):
    """Poll until `mirror` has no resync active or pending."""
    delay = polling.first
    what = "%s resync" % mirror
    started = time.monotonic()
    while True:
        status = backend.resync_status(mirror)
        if status.problem:
            raise SvmramError(status.problem)
        if not status.active:
            progress.done(what)
            return
        if status.percent is not None:
            progress.update(what, status.percent)
        if polling.limit is not None and \
                time.monotonic() - started > polling.limit:
            raise SvmramError("gave up after %d seconds of waiting for the "
                              "resync of %s" % (polling.limit, mirror))
        sleep(delay)
        delay = min(delay * 2, polling.most)
