# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram teardown: remove the RAM submirror and restore the mirror."""

import sys

from ..errors import EXIT_OK, RefusedError
from ..svm import consistency, names, record
from ..svm.backend import SvmBackend
from ..svm.intent import Intent
from ..svm.planner import SlotBehaviourUnknown, plan_teardown
from . import common

SUMMARY = "remove the RAM submirror and restore the mirror as it was"


def add_arguments(parser):
    parser.add_argument("mirror", help="the mirror, e.g. d10")
    parser.add_argument("--reattach", action="store_true",
                        help="attach again, with a full resync, a recorded "
                        "disk submirror that is no longer in the mirror "
                        "(default: report it and leave it alone)")
    common.add_change_arguments(parser)


def run(args):
    mirror = names.metadevice(args.mirror, "mirror")
    if not args.dry_run:
        common.require_root()
    with common.host_lock(dry_run=args.dry_run):
        backend = SvmBackend(mirror, common.host_root())
        if not args.dry_run:
            common.remove_scratch_leftovers(backend)
        journal = common.journal_for(mirror)
        stored = journal.load()
        if stored is not None:
            where = journal.path
            intent = Intent.from_json(stored["intent"], where)
        else:
            found = backend.read_record()
            if found is None:
                raise RefusedError(
                    "%s is not set up by svmram (%s does not exist)" % (
                        mirror, record.fmri(mirror)),
                    advice="svmram status lists the mirrors it manages.")
            where = record.fmri(mirror)
            intent = Intent.from_json(record.to_intent_json(found), where)
        backend.intent = intent
        snap = backend.observe()
        consistency.check(snap, intent, where)
        # A resumed setup or teardown may itself have detached a disk
        # submirror; otherwise a missing one was split off by hand.
        reattach = intent.disks if (stored is not None or
                                    args.reattach) else ()
        try:
            plan = plan_teardown(snap, intent, reattach=reattach)
        except SlotBehaviourUnknown:
            # Putting the disk submirrors back in their order depends on
            # whether metadetach leaves a hole: test it first (a dry run
            # changes nothing and assumes illumos's behaviour).
            if args.dry_run:
                plan = plan_teardown(snap.evolve(
                    detach_compacts=True,
                    slot_evidence="assumed by this dry run"), intent,
                    reattach=reattach)
                plan.notes.append(
                    "Teardown first tests on a scratch mirror of two 1 MiB "
                    "ramdisks (removed afterwards) whether metadetach "
                    "leaves a hole in the slots; this plan assumes it does "
                    "not.")
            else:
                backend.probe_slots()
                snap = backend.observe()
                plan = plan_teardown(snap, intent, reattach=reattach)
        if stored is not None:
            plan.notes.insert(0, "Resuming the %s recorded in %s." % (
                stored["operation"], journal.path))
        if args.dry_run:
            return common.print_plan(plan)
        common.confirm(args, plan)
        journal.start("teardown", intent.to_json())
        common.carry_out(plan, backend, journal, None)
    sys.stdout.write("%s: the RAM submirror is gone; reads use the read "
                     "option %s again.\n" % (mirror, intent.read_option))
    for note in plan.notes:
        if "is left alone" in note:
            sys.stdout.write("%s: %s\n" % (mirror, note))
    return EXIT_OK
