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


def execute(plan, backend, journal, progress, polling=None, sleep=time.sleep):
    polling = polling or Polling()
    total = len(plan.steps)
    for number, step in enumerate(plan.steps, 1):
        progress.say("%s %s: step %d of %d: %s" % (
            plan.operation, plan.target, number, total, step.summary))
        try:
            backend.perform(step)
            if step.wait_resync:
                wait_for_resync(backend, step.wait_resync, progress, polling,
                                sleep)
            problems = backend.differences(step.expect, backend.observe())
        except SvmramError as error:
            journal.failed(step.key, error.message)
            raise StepFailed(number, step, error.message) from error
        if problems:
            reason = "; ".join(problems)
            journal.failed(step.key, reason)
            raise StepFailed(number, step, "afterwards " + reason)
        journal.completed(step.key)


def wait_for_resync(backend, mirror, progress, polling, sleep=time.sleep):
    """Poll until `mirror` has no resync active or pending."""
    delay = polling.first
    what = "%s resync" % mirror
    while True:
        status = backend.resync_status(mirror)
        if status.problem:
            raise SvmramError(status.problem)
        if not status.active:
            progress.done(what)
            return
        if status.percent is not None:
            progress.update(what, status.percent)
        sleep(delay)
        delay = min(delay * 2, polling.most)
