# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""An md plan as the POSIX sh script that -n prints (pure).

plan.render_script writes it, as for SVM, from each step's actions (Run
with the paths of programs.PROGRAMS, WriteFile for sysfs), the same ones the
host carries out.  This module gives the interpreter line and the wait.
"""

from ..plan import Prelude

# Wait until md has no resync or recovery running or due; give up when
# the array stays degraded with nothing recovering for a minute, or when
# md checks the array before recovering it (a scrub runs for hours).
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
		check|repair)
			if [ "$start" = none ] && [ "$degraded" = 0 ]; then
				return 0
			fi
			echo "$1: md is running a $action (scrub) and recovers only after it; stopping." >&2
			return 1 ;;
		*)	idle=0 ;;
		esac
		sleep 5
	done
}
'''

PRELUDE = Prelude("#!/bin/sh", lambda command_path: _WAIT_FUNCTION)
