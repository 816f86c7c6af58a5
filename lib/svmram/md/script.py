# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""An md plan as the POSIX sh script that -n prints (pure).

Commands come from each step's argv (with commands.COMMANDS' paths),
sysfs writes from its effect through steps.sysfs_line: the same
descriptions the backend carries out.
"""

import shlex

from ..plan import cost_lines, is_variable
from .steps import SYSFS, sysfs_line

# Wait until md has no resync or recovery running or due; give up when
# the array stays degraded with nothing recovering for a minute.
_WAIT_FUNCTION = r'''
wait_resync() {
	idle=0
	while :; do
		md=/sys/block/$1/md
		action=$(cat "$md/sync_action") || return 1
		start=$(cat "$md/resync_start")
		degraded=$(cat "$md/degraded")
		case $action in
		frozen)	echo "$1: recovery is frozen; stopping." >&2
			return 1 ;;
		idle)	if [ "$start" = none ] && [ "$degraded" = 0 ]; then
				return 0
			fi
			idle=$((idle + 1))
			if [ "$idle" -gt 12 ]; then
				echo "$1: md does not start its recovery; stopping." >&2
				return 1
			fi ;;
		*)	idle=0 ;;
		esac
		sleep 5
	done
}
'''


def command_line(argv, command_path):
    return " ".join([shlex.quote(command_path(argv[0]))] + [
        '"%s"' % arg if is_variable(arg) else shlex.quote(arg)
        for arg in argv[1:]])


def render_script(plan, command_path):
    """The plan as a runnable POSIX sh script.  command_path maps a name
    from commands.COMMANDS to the path to print."""
    out = ["#!/bin/sh",
           "# svmram %s %s: the plan, computed from the current state."
           % (plan.operation, plan.target),
           "# Nothing has been changed.  Run this script, or the same "
           "svmram command",
           "# without -n, to carry it out."]
    if plan.method:
        out.append("# Method: %s." % plan.method)
    out += ["# " + note for note in plan.notes]
    out += ["# " + line for line in cost_lines(plan)]
    if not plan.steps:
        out += ["", "# Nothing to do."]
        return "\n".join(out) + "\n"
    out.append("set -e")
    if any(step.wait_resync for step in plan.steps):
        out.append(_WAIT_FUNCTION.rstrip("\n"))
    for number, step in enumerate(plan.steps, 1):
        out += ["", "# %d. %s" % (number, step.summary)]
        out += ["#    " + line for line in step.why.splitlines() if line]
        if step.effect and step.effect[0] == SYSFS:
            out += [sysfs_line(path, value) for path, value in
                    step.effect[1:]]
        for argv in ((step.argv,) if step.argv else ()) + step.argvs:
            out.append(command_line(argv, command_path))
        if step.wait_resync:
            out.append("wait_resync %s" % shlex.quote(step.wait_resync))
    return "\n".join(out) + "\n"
