# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The convergence loop, written once: plan.converge (a pure planner's
"plan the next step from the model, apply it, until nothing is left") and
execute.carry_out ("do a step, observe the host, plan again"), on a
counter that steps raise towards a goal."""

import io

import pytest

from svmram.actions import Run
from svmram.errors import RefusedError, SvmramError
from svmram.execute import StepFailed, carry_out
from svmram.plan import Plan, Step, converge
from svmram.progress import Progress


def up(count):
    return Step("up %d" % count, "Count %d." % (count + 1),
                do=(Run(("count",)),), expect=count + 1)


def towards(goal):
    return lambda count, _: up(count) if count < goal else None


def too_many(plan):
    return RefusedError("looping: %s" % plan.steps[-1].key)


def test_converge_applies_each_step_to_the_model_until_none_is_left():
    plan = Plan("setup", "d10")
    assert converge(plan, 2, None, towards(5), too_many, 64) == 5
    assert [step.key for step in plan.steps] == ["up 2", "up 3", "up 4"]


def test_converge_plans_nothing_when_the_goal_holds():
    plan = Plan("setup", "d10")
    assert converge(plan, 5, None, towards(5), too_many, 64) == 5
    assert plan.steps == []


def test_converge_passes_the_intent_to_every_call():
    seen = []

    def next_step(count, intent):
        seen.append((count, intent))
        return up(count) if count < 2 else None
    converge(Plan("setup", "d10"), 0, "it", next_step, too_many, 64)
    assert seen == [(0, "it"), (1, "it"), (2, "it")]


def test_converge_raises_too_many_past_the_limit():
    plan = Plan("setup", "d10")
    with pytest.raises(RefusedError) as caught:
        converge(plan, 0, None, towards(100), too_many, 3)
    assert caught.value.message == "looping: up 3"
    assert len(plan.steps) == 4


def test_converge_at_the_limit_is_not_too_many():
    plan = Plan("setup", "d10")
    converge(plan, 0, None, towards(3), too_many, 3)
    assert len(plan.steps) == 3


class Counter:
    """A host whose state is a number each step raises by one; the step
    keyed `fails` raises instead."""

    def __init__(self, count=0, fails=None):
        self.count = count
        self.fails = fails
        self.done = []

    def perform(self, step, values):
        if step.key == self.fails:
            raise SvmramError("it broke")
        self.done.append(step.key)
        self.count += 1

    def observe(self, intent=None):
        return self.count

    def observe_after(self, step, intent, before):
        # backend.Host's default: read everything again.
        return self.observe(intent)

    def differences(self, expected, observed):
        return [] if expected == observed else ["%s, not %s" % (
            observed, expected)]

    def resync_status(self, mirror):
        raise AssertionError("no step waits")


def planned(host, goal):
    """A plan from what `host` shows now to `goal`."""
    plan = Plan("restore", "d10")
    converge(plan, host.observe(), None, towards(goal), too_many, 64)
    return plan


def progress():
    stream = io.StringIO()
    return Progress(stream), stream


def test_carry_out_does_one_step_then_plans_again():
    host = Counter()
    plans = []

    def replan(observed):
        # Handed the reading the step was checked against, taken after
        # it: the host's count then.
        plans.append((host.count, observed))
        return planned(host, 3)
    out, stream = progress()
    assert carry_out(planned(host, 3), replan, host, out) == 3
    assert host.done == ["up 0", "up 1", "up 2"]
    assert plans == [(1, 1), (2, 2), (3, 3)]
    assert stream.getvalue() == ("restore d10: Count 1.\n"
                                 "restore d10: Count 2.\n"
                                 "restore d10: Count 3.\n")


def test_carry_out_of_an_empty_plan_does_nothing():
    host = Counter(3)
    assert carry_out(planned(host, 3), None, host, progress()[0]) == 0


def test_a_failure_names_the_step_as_the_run_counts_it():
    host = Counter(fails="up 2")
    with pytest.raises(StepFailed) as caught:
        carry_out(planned(host, 5), lambda observed: planned(host, 5), host,
                  progress()[0])
    assert caught.value.number == 3
    assert caught.value.message == "step 3 failed (Count 3): it broke"


def test_first_numbers_the_steps_after_others_the_run_did():
    host = Counter(fails="up 1")
    with pytest.raises(StepFailed) as caught:
        carry_out(planned(host, 5), lambda observed: planned(host, 5), host,
                  progress()[0], first=3)
    assert caught.value.message == "step 4 failed (Count 2): it broke"


def test_before_sees_each_plan_before_its_step():
    host = Counter()
    seen = []
    carry_out(planned(host, 2), lambda observed: planned(host, 2), host,
              progress()[0],
              before=lambda plan: seen.append([s.key for s in plan.steps]))
    assert seen == [["up 0", "up 1"], ["up 1"]]


def test_before_may_stop_the_run():
    host = Counter()

    def deadline(plan):
        if host.count == 1:
            raise SvmramError("deadline")
    with pytest.raises(SvmramError) as caught:
        carry_out(planned(host, 3), lambda observed: planned(host, 3), host,
                  progress()[0], before=deadline)
    assert caught.value.message == "deadline"
    assert host.done == ["up 0"]


def test_carry_out_raises_too_many_after_its_rounds():
    host = Counter()
    with pytest.raises(AssertionError) as caught:
        carry_out(planned(host, 10), lambda observed: planned(host, 10), host,
                  progress()[0], rounds=4,
                  too_many=lambda: AssertionError("does not converge"))
    assert str(caught.value) == "does not converge"
    assert host.done == ["up 0", "up 1", "up 2", "up 3"]


def test_carry_out_ends_when_the_last_round_leaves_nothing():
    host = Counter()
    assert carry_out(planned(host, 4), lambda observed: planned(host, 4), host,
                     progress()[0], rounds=4) == 4


def test_whole_plans_run_whole_the_first_one_counted():
    """whole=True: each plan is carried out entirely before planning
    again; only the first one knows its number of steps."""
    host = Counter()
    goals = iter([4, 4])

    def replan(observed):
        return planned(host, next(goals))
    out, stream = progress()
    first = planned(host, 2)
    assert carry_out(first, replan, host, out, whole=True) == 4
    assert stream.getvalue() == ("restore d10: step 1 of 2: Count 1.\n"
                                 "restore d10: step 2 of 2: Count 2.\n"
                                 "restore d10: Count 3.\n"
                                 "restore d10: Count 4.\n")


def test_whole_plans_number_a_failure_across_the_rounds():
    host = Counter(fails="up 3")
    with pytest.raises(StepFailed) as caught:
        carry_out(planned(host, 2), lambda observed: planned(host, 5), host,
                  progress()[0], whole=True)
    assert caught.value.message == "step 4 failed (Count 4): it broke"
