# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""`svmram check` on md: whether the kernel is one svmram runs on, then a
verdict per array (set up, ready with what setup would choose, refused
and why: setup's own verdict, backend.setup_verdict), changing nothing."""

import os

from ..actions import under
from ..errors import AlreadySetUp, SvmramError
from . import names, planner, record
from .host import MdHost


def run_check(backend, target):
    """(host checks, verdicts) for `svmram check` (commands/check.py)."""
    checks, verdicts = [], []
    host = MdHost(target or "md0", backend.root)
    try:
        snap = host.observe()
        planner.check_kernel(snap)
        checks.append({"check": "kernel", "verdict": "ok",
                       "detail": "Linux %s" % snap.kernel[3]})
    except SvmramError as error:
        checks.append({"check": "kernel", "verdict": "FAIL",
                       "detail": error.message})
        return checks, verdicts
    arrays = [target] if target is not None else sorted(
        name for name in _block_devices(backend.root)
        if names.KERNEL_NAME.match(name))
    for array in arrays:
        host = backend.host(array)
        try:
            it = backend.recorded_intent(host)
            if it is not None:
                verdicts.append(_recorded_verdict(backend, host, array))
                continue
            # setup's own verdict: what it would refuse, check refuses.
            _, _, _, notes = backend.setup_verdict(host)
            verdicts.append({"mirror": array, "verdict": "ready",
                             "detail": " ".join(notes)})
        except SvmramError as error:
            verdict = {"mirror": array, "verdict": "refused",
                       "detail": error.message}
            if error.advice:
                verdict["advice"] = error.advice
            verdicts.append(verdict)
    return checks, verdicts


def _recorded_verdict(backend, host, array):
    """A recorded array: "set up" only where setup has nothing to do;
    where setup would act (its boot unit failed or stopped, the RAM
    member missing), "ready" with what setup would do, as its plan says."""
    try:
        plan = backend.plan_setup(host, {}, None, True)
    except AlreadySetUp:
        return {"mirror": array, "verdict": "set up",
                "detail": "recorded in %s" % record.record_path(array)}
    detail = list(plan.notes)
    if plan.steps:
        detail.append("setup: %s." % "; ".join(
            step.summary for step in plan.steps))
    return {"mirror": array, "verdict": "ready", "detail": " ".join(detail)}


def _block_devices(root):
    """The names under /sys/block; none when it cannot be read."""
    try:
        return os.listdir(under(root, "/sys/block"))
    except OSError:
        return []
