# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What the -n script of an SVM plan starts with (pure): ksh93 and a wait
for a mirror's resync that polls metastat.  plan.render_script writes
the rest from the steps (and, when the plan assumed that metadetach
compacts the slots, from the test's steps, svm/probe.py)."""

from ..plan import Prelude

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


def wait_function(command_path):
    return _WAIT_FUNCTION % {"metastat": command_path("metastat")}


PRELUDE = Prelude("#!/bin/ksh93", wait_function)
