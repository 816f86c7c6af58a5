# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What the -n script of an SVM plan starts with (pure): ksh93, a wait
for a mirror's resync that polls metastat, and, when the plan assumed
that metadetach compacts the slots, the same test on a scratch mirror
that svmram runs first.  plan.render_script writes the rest from the
steps."""

from ..actions import RemoveLink, Symlink
from ..plan import Capture, Prelude, ScriptTest
from . import probe

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


def slot_test(scratch, operation, target):
    """The -n script's test of the slot behaviour, as svmram runs it
    (SvmHost.probe_slots) on the scratch names `scratch`
    (probe.Layout): it stops the script before anything of `target`
    changes when metadetach leaves a hole, which the plan assumed it
    does not."""
    items = []
    for ramdisk, link in zip(probe.RAMDISKS, scratch.links):
        items.append(("ramdiskadm", "-a", ramdisk, probe.SIZE))
        items += [Symlink("/dev/dsk/" + link, "/dev/ramdisk/" + ramdisk),
                  Symlink("/dev/rdsk/" + link, "/dev/rramdisk/" + ramdisk)]
    items += [("metainit", scratch.first, "1", "1", scratch.links[0]),
              ("metainit", scratch.second, "1", "1", scratch.links[1]),
              ("metainit", scratch.mirror, "-m", scratch.first,
               scratch.second),
              ("metadetach", scratch.mirror, scratch.first),
              Capture("slots", ("metastat", scratch.mirror))]
    made = probe.Leftovers((scratch.mirror,), (scratch.second, scratch.first),
                           scratch.links, tuple(reversed(probe.RAMDISKS)))
    for program, args in made.removal():
        if program == "unlink":
            items += [RemoveLink("/dev/dsk/" + args),
                      RemoveLink("/dev/rdsk/" + args)]
        else:
            items.append(tuple([program] + args))
    items += ['case $slots in',
              '*"Submirror 0: %s"*) ;;' % scratch.second,
              '*)\tprint -u2 "svmram: metadetach leaves a hole in the slots '
              'here, and this script assumes it does not; nothing of %s was '
              'changed.  Run \'svmram %s %s\' instead: it tests this first '
              'and plans for it."' % (target, operation, target),
              '\texit 1 ;;',
              'esac']
    return ScriptTest(
        "Test on a scratch mirror %s of two %s ramdisks whether metadetach "
        "leaves a hole in the slots." % (scratch.mirror, "1 MiB"),
        "This plan assumes it does not; if it does, the script stops here "
        "with %s unchanged." % target, tuple(items))
