# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Plans: ordered steps computed from the observed state.

A backend's planner builds a Plan by applying each step to a model of the
host (``Step.expect`` is the model after the step), so the whole plan is
known before anything runs.  ``render_script`` turns a plan into the
script that ``-n`` prints, from the same descriptions (a step's ``do``,
actions.py) that execute.py carries out; execute.py checks each step's
``expect`` against the state it re-reads.  The backend gives the script's
first line and its wait function (a ``Prelude``).
"""

import json
import shlex
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Tuple
from types import MappingProxyType

from . import journal as journals
from .actions import Run
from .errors import RefusedError


@dataclass(frozen=True)
class Step:
    key: str                        # stable id, recorded in the journal
    summary: str                    # one line for people
    # What the step does: actions (actions.py; a command is a Run), in
    # order.  Both the run (execute.py) and the -n line come from them.
    do: Tuple[Any, ...] = ()
    why: str = ""                   # comment printed above the step
    wait_resync: Optional[str] = None   # target whose copy must finish
    copies_blocks: int = 0          # data a resync copies because of it
    closed_seconds: int = 0         # how long the target is closed
    # The backend's model after the step, which execute.py checks against
    # the state it reads again.  None: the step changes nothing the model
    # holds (SVM's scratch mirror); its actions' own checks are all.
    expect: Any = None

    @property
    def commands(self):
        """The argv of each command the step runs, in order."""
        return tuple(action.argv for action in self.do
                     if isinstance(action, Run))


@dataclass(frozen=True)
class Test:
    """What a -n script runs first, as its step 0, when the plan was made
    on an assumption (Plan.provisional) that svmram itself tests before
    it changes anything: `plan`, the steps svmram carries out for the
    test, whose last step stops the script, with nothing changed, when
    the assumption is false."""
    summary: str
    why: str
    plan: "Plan"


@dataclass
class Plan:
    operation: str                  # setup, teardown, restore
    target: str                     # the target's name ("d10", "md0")
    steps: List[Step] = field(default_factory=list)
    method: Optional[str] = None
    notes: List[str] = field(default_factory=list)   # why this method etc.
    # Commands run once the steps are done and the host lock is released.
    afterwards: List[Tuple[str, ...]] = field(default_factory=list)
    # Planned on an assumption the backend can only check by changing
    # something (SVM's slot test on a scratch mirror): shown for -n and
    # for confirmation, then planned again once confirmed.
    provisional: bool = False
    # The test of that assumption (a Test), which a -n script runs first.
    test: Optional[Test] = None
    # The backend's intent the plan works towards: what execute.py asks
    # the backend to observe after each step (observe(intent)).
    intent: Any = None
    # The reading the plan was made from (a backend's Snapshot), or None:
    # the check after the first step reads again what that step can
    # change and takes the rest from it (Host.observe_after).
    observed: Any = None
    # What the plan leaves alone, and why: sentences printed once it is
    # done (also among the notes).
    left: List[str] = field(default_factory=list)
    # The line printed once it is done, when the backend's usual one
    # would not be true (a teardown of a target cleared by hand).
    done: Optional[str] = None

    @property
    def copies_blocks(self):
        return sum(step.copies_blocks for step in self.steps)

    @property
    def closed_seconds(self):
        return sum(step.closed_seconds for step in self.steps)


def size_text(blocks):
    """512-byte blocks as B, KiB, MiB, GiB or TiB."""
    size = blocks * 512.0
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if size < 1024 or unit == "TiB":
            return ("%d %s" if unit == "B" else "%.1f %s") % (size, unit)
        size /= 1024


def cost_lines(plan):
    copied = plan.copies_blocks
    lines = ["Cost: resyncs copy %d blocks (%s) in all." % (
        copied, size_text(copied)) if copied else
        "Cost: no resync copies any data."]
    if plan.closed_seconds:
        lines.append("%s is closed (unmounted) for about %d seconds."
                     % (plan.target, plan.closed_seconds))
    else:
        lines.append("%s stays open and in use throughout." % plan.target)
    return lines


@dataclass(frozen=True)
class Prelude:
    """What a backend's -n script starts with: the interpreter line and
    the shell function `wait_resync TARGET` that the script calls after
    a step that starts a resync (wait_function(command_path) gives its
    text)."""
    shebang: str
    wait_function: Callable[[Callable[[str], str]], str]


# Commands only a -n script runs (svmram does the same in-process, see
# actions.py); they are not taken from SVMRAM_BINDIR.
SCRIPT_TOOLS = MappingProxyType(
    {"ln": "/usr/bin/ln", "rm": "/usr/bin/rm",
     "ls": "/usr/bin/ls", "awk": "/usr/bin/awk",
     "mkdir": "/usr/bin/mkdir", "mv": "/usr/bin/mv"})


def step_lines(step, command_path, host_path=None, tools=None):
    """The script lines of a step's actions.  command_path maps a command
    name of the backend's programs (Backend.programs.path) to the path to
    print; host_path a host path (the default: as it is); tools a tool
    only a script runs (the default: SCRIPT_TOOLS)."""
    host_path = host_path or (lambda path: path)
    tools = SCRIPT_TOOLS if tools is None else tools

    def program_path(name):
        return tools.get(name) or command_path(name)
    lines = []
    for action in step.do:
        lines += action.script_line(host_path, program_path).split("\n")
    return lines


# The comment over a script's last part, the plan's `afterwards`.
AFTERWARDS_HEADING = ("# Then start the boot service: it runs 'svmram "
                      "restore', which finds nothing to do.")


def resume_line(plan):
    """The script's comment on its journal: which command resumes it and,
    for a change other than teardown, which undoes it."""
    line = "# 'svmram %s %s' resumes from it" % (plan.operation, plan.target)
    if plan.operation == "teardown":
        return line + "."
    return line + " and 'svmram teardown %s' undoes it." % plan.target


def journal_function(plan, path, host_path):
    """The script's `journal [KEY]`: it writes the journal at `path` (a
    host path) as svmram's own run does (journal.py), the keys of the
    steps done so far as its log, so that a script that stops part-way
    leaves what svmram resumes from: a rerun of the same svmram command
    finishes the job, and teardown undoes it."""
    data = journals.started(plan.operation, None)
    # Everything but the log of steps and the intent, which the function
    # fills in (printf's format: % doubled).
    fixed = ", ".join('"%s": %s' % (key, json.dumps(value))
                      for key, value in sorted(data.items())
                      if key not in ("completed", "intent"))
    file = shlex.quote(host_path(path))
    new = shlex.quote(host_path(path + ".new"))
    return [
        "",
        "# svmram's journal of this %s (%s): if the script stops part-way,"
        % (plan.operation, path),
        resume_line(plan),
        "journal_intent=%s" % shlex.quote(json.dumps(
            plan.intent.to_json(), sort_keys=True)),
        "journal_done=",
        "journal() {",
        '\tjournal_done=${journal_done:+$journal_done, }$1',
        "\t%s -p %s" % (SCRIPT_TOOLS["mkdir"], shlex.quote(host_path(
            path.rsplit("/", 1)[0]))),
        '\tprintf %s "$journal_done" "$journal_intent" > %s' % (
            shlex.quote('{"completed": [%s], "intent": %s, ' +
                        fixed.replace("%", "%%") + "}\\n"), new),
        "\t%s -f %s %s" % (SCRIPT_TOOLS["mv"], new, file),
        "}",
        "journal ''"]


def render_script(plan, command_path, prelude, host_path=None,
                  journal=None):
    """The plan as a runnable script.  command_path maps a command name
    of the backend's programs to the absolute path to print; host_path maps a
    host path an action touches to the one to print (the default: as it
    is; under SVMRAM_ROOT when svmram works on an emulated host).
    `journal`: the host path of the journal svmram keeps for the plan's
    target, which the script then keeps too (journal_function)."""
    host_path = host_path or (lambda path: path)
    journal = journal if plan.intent is not None and plan.steps and \
        plan.operation in journals.OPERATIONS else None
    out = [prelude.shebang,
           "# svmram %s %s: the plan, computed from the current state."
           % (plan.operation, plan.target),
           "# Nothing has been changed.  Run this script, or the same "
           "svmram command",
           "# without -n, to carry it out."]
    if plan.method:
        out.append("# Method: %s." % plan.method)
    out += ["# " + note for note in plan.notes]
    out += ["# " + line for line in cost_lines(plan)]
    if not plan.steps and not plan.afterwards:
        out += ["", "# Nothing to do."]
        return "\n".join(out) + "\n"
    out.append("set -e")
    if any(step.wait_resync for step in plan.steps):
        out.append(prelude.wait_function(command_path).rstrip("\n"))
    test = plan.test
    if test is not None:
        out += ["", "# 0. %s" % test.summary]
        out += ["#    " + line for line in test.why.splitlines() if line]
        for step in test.plan.steps:
            out += step_lines(step, command_path, host_path)
    if journal is not None:
        out += journal_function(plan, journal, host_path)
    for number, step in enumerate(plan.steps, 1):
        out += ["", "# %d. %s" % (number, step.summary)]
        out += ["#    " + line for line in step.why.splitlines() if line]
        out += step_lines(step, command_path, host_path)
        if step.wait_resync:
            out.append("wait_resync %s" % shlex.quote(step.wait_resync))
        if journal is not None:
            out.append("journal %s" % shlex.quote(json.dumps(step.key)))
    if journal is not None:
        out += ["", "# Done: svmram's journal is no longer needed.",
                "%s -f %s" % (SCRIPT_TOOLS["rm"], shlex.quote(host_path(
                    journal)))]
    if plan.afterwards:
        out += ["", AFTERWARDS_HEADING]
        out += [Run(tuple(argv)).script_line(None, command_path)
                for argv in plan.afterwards]
    return "\n".join(out) + "\n"


# More steps than this in one plan, or rounds of a restore that plans
# again after each step (commands/restore.py), means a planner is
# looping: the longest real plan has about 20.
MAX_STEPS = 64


def converge_plan(plan, snap, intent, next_step, target, state_command):
    """converge() as every backend's planners use it: at most MAX_STEPS
    steps, then the refusal of a planner that loops (looping(): nothing
    was changed; `state_command` shows the state of `target`)."""
    return converge(plan, snap, intent, next_step, lambda plan: looping(
        plan, target, state_command), MAX_STEPS)


def converge(plan, snap, intent, next_step, too_many, limit):
    """A convergent planner's loop: from the observed `snap`, ask
    next_step(snap, intent) for the next step, append it to plan.steps and
    take its `expect` (the model after it) as the state, until next_step
    answers None (the goal holds).  So the whole plan is known before
    anything runs, and a rerun plans again from wherever the host is.
    More than `limit` steps means the planner is looping: too_many(plan)
    gives the exception raised then.  Returns the model after the last
    step."""
    while True:
        step = next_step(snap, intent)
        if step is None:
            return snap
        plan.steps.append(step)
        if len(plan.steps) > limit:
            raise too_many(plan)
        snap = step.expect


def looping(plan, target, state_command):
    """The refusal of a planner that keeps planning (converge's
    too_many): nothing was changed; `state_command` shows the state."""
    return RefusedError(
        "svmram cannot plan the %s of %s from its present state (it keeps "
        "planning: %s)" % (plan.operation, target, ", ".join(
            s.key for s in plan.steps[-3:])),
        advice="Nothing was changed.  Check %s by hand and report this "
               "state as a bug." % state_command)
