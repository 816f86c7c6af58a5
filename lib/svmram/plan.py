# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Plans: ordered steps computed from the observed state.

A backend's planner builds a Plan by applying each step to a model of the
host (``Step.expect`` is the model after the step), so the whole plan is
known before anything runs.  ``render_script`` turns a plan into the ksh
script that ``-n`` prints; execute.py carries it out and checks each
step's ``expect`` against the state it re-reads.
"""

import shlex
from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple


@dataclass(frozen=True)
class Step:
    key: str                        # stable id, recorded in the journal
    summary: str                    # one line for people
    argv: Optional[Tuple[str, ...]] = None   # (command, args...) via run.py
    argvs: Tuple[Tuple[str, ...], ...] = ()  # further commands, in order
    script: Tuple[str, ...] = ()    # ksh lines, printed before the commands
    effect: Tuple[str, ...] = ()    # backend-specific in-process action
    why: str = ""                   # comment printed above the step
    wait_resync: Optional[str] = None   # mirror whose resync must finish
    copies_blocks: int = 0          # data a resync copies because of it
    closed_seconds: int = 0         # how long the mirror is closed
    expect: Any = None              # the backend's model after the step


@dataclass
class Plan:
    operation: str                  # setup, teardown, restore
    target: str                     # the mirror
    steps: List[Step] = field(default_factory=list)
    method: Optional[str] = None
    notes: List[str] = field(default_factory=list)   # why this method etc.
    # Commands run once the steps are done and the host lock is released.
    afterwards: List[Tuple[str, ...]] = field(default_factory=list)

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


_WAIT_FUNCTION = r'''
# Wait until the mirror has no resync active or pending.
wait_resync() {
	typeset out
	while :; do
		out=$(%(metastat)s "$1") || return 1
		case $out in
		*"Resync in progress"*|*Resyncing*|*"Invoke: metasync"*)
			sleep 10 ;;
		*"Needs maintenance"*|*"Last Erred"*|*Unavailable*)
			print -u2 "$1 needs maintenance; stopping."; return 1 ;;
		*)	return 0 ;;
		esac
	done
}
'''


def is_variable(arg):
    """An argument written ${name} stands for a value only known when the
    step runs: the step's script lines set it, the backend fills it in."""
    return arg.startswith("${") and arg.endswith("}")


def command_line(argv, command_path):
    return " ".join([shlex.quote(command_path(argv[0]))] + [
        '"%s"' % arg if is_variable(arg) else shlex.quote(arg)
        for arg in argv[1:]])


def render_script(plan, command_path):
    """The plan as a runnable ksh93 script.  command_path maps a command
    name from run.COMMANDS to the absolute path to print."""
    out = ["#!/bin/ksh93",
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
        out.append(_WAIT_FUNCTION.rstrip("\n") % {
            "metastat": command_path("metastat")})
    for number, step in enumerate(plan.steps, 1):
        out += ["", "# %d. %s" % (number, step.summary)]
        out += ["#    " + line for line in step.why.splitlines() if line]
        out += list(step.script)
        for argv in ((step.argv,) if step.argv else ()) + step.argvs:
            out.append(command_line(argv, command_path))
        if step.wait_resync:
            out.append("wait_resync %s" % shlex.quote(step.wait_resync))
    if plan.afterwards:
        out += ["", "# Then enable the boot service; its start method runs "
                "'svmram restore',", "# which finds nothing to do."]
        out += [command_line(argv, command_path) for argv in plan.afterwards]
    return "\n".join(out) + "\n"
