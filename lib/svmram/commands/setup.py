# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram setup: add a RAM submirror to a mirror, first, read option first."""

import sys

from ..errors import EXIT_OK, RefusedError
from ..svm import consistency, names, record
from ..svm.backend import SvmBackend
from ..svm.intent import Intent
from ..svm.planner import (UNKNOWN_SLOTS, SlotBehaviourUnknown, check_memory,
                           choose_intent, plan_enable, plan_setup,
                           plan_teardown, slot_note)
from . import common

SUMMARY = "put a RAM submirror first in a mirror and read from it"


def add_arguments(parser):
    parser.add_argument("mirror", help="the mirror, e.g. d10")
    parser.add_argument("--size", help="ramdisk size, e.g. 512m or 2g "
                        "(default: just enough for the mirror)")
    parser.add_argument("--name", help="ramdisk name (default svmram_MIRROR)")
    parser.add_argument("--submirror", help="name of the RAM submirror "
                        "(default: the first free dN after the mirror)")
    parser.add_argument("--link", help="cNtNdNsN name of the /dev/dsk link "
                        "(default: on the first unused controller from c90)")
    parser.add_argument("--method", choices=("auto", "swap", "rotate"),
                        default="auto", help="how to get the RAM submirror "
                        "into slot 0 (default auto)")
    common.add_change_arguments(parser)


def _not_enabled(snap, mirror):
    """(intent, notes) of a setup that finished all but enabling its boot
    service (svcadm enable failed, or svmram was killed before it), so
    that running setup again finishes it; None otherwise."""
    if snap.service_state != "disabled" or not record.complete(snap.record):
        return None
    intent = Intent.from_json(record.to_intent_json(snap.record),
                              record.fmri(mirror))
    return intent, ["%s is recorded but not enabled; the recorded choices "
                    "are kept, and its start method restores the RAM "
                    "submirror if a reboot took it." % record.fmri(mirror)]


def _plan_knowing_slots(backend, snap, intent, notes, dry_run):
    """plan_setup; when the plan depends on whether metadetach leaves a
    hole and that is not known, test it on a scratch mirror first (a dry
    run changes nothing: it assumes illumos's behaviour and says so).
    Returns (plan, snapshot, notes)."""
    try:
        return plan_setup(snap, intent), snap, notes
    except SlotBehaviourUnknown:
        if dry_run:
            snap = snap.evolve(detach_compacts=True, slot_evidence=(
                "assumed by this dry run"))
            return plan_setup(snap, intent), snap, notes + [
                "Setup first tests on a scratch mirror of two 1 MiB "
                "ramdisks (removed afterwards) whether metadetach leaves a "
                "hole in the slots; this plan assumes it does not.  If it "
                "does, setup detaches the slot-0 disk submirror, attaches "
                "the RAM submirror into slot 0 and re-attaches the disk "
                "behind it instead: one disk resync fewer."]
    backend.probe_slots()
    snap = backend.observe(memory=True)
    return plan_setup(snap, intent), snap, [
        slot_note(snap) if note.startswith(UNKNOWN_SLOTS) else note
        for note in notes]


def run(args):
    mirror = names.metadevice(args.mirror, "mirror")
    options = dict(
        size=names.size(args.size) if args.size is not None else None,
        ramdisk=names.ramdisk(args.name) if args.name is not None else None,
        submirror=names.metadevice(args.submirror, "submirror")
        if args.submirror is not None else None,
        link=names.link(args.link) if args.link is not None else None,
        method=args.method)
    if not args.dry_run:
        common.require_root()
    with common.host_lock(dry_run=args.dry_run):
        backend = SvmBackend(mirror, common.host_root())
        if not args.dry_run:
            common.remove_scratch_leftovers(backend)
        journal = common.journal_for(mirror)
        stored = journal.load()
        if stored is not None:
            if stored["operation"] != "setup":
                raise RefusedError(
                    "a teardown of %s has not finished" % mirror,
                    advice="Run 'svmram teardown %s' to finish it." % mirror)
            where = journal.path
            intent = Intent.from_json(stored["intent"], where)
            notes = ["Resuming the setup recorded in %s; the choices made "
                     "then are kept." % journal.path]
            backend.intent = intent
            snap = backend.observe(memory=True)
        else:
            observed = backend.observe(memory=True, holders=True,
                                       labels=True).evolve(
                service_imported=backend.service_imported())
            where = record.fmri(mirror)
            intent, notes = _not_enabled(observed, mirror) or choose_intent(
                observed, mirror, **options)
            backend.intent = intent
            snap = backend.observe(memory=True)
        consistency.check(snap, intent, where)
        # Once the record is complete (the last step of setup, killed or
        # rebooted before the enable or with the journal still there),
        # the boot service owns the RAM submirror: enabling it runs
        # restore, which knows the recorded device number.
        enabling = _not_enabled(snap, mirror)
        resumed = stored is not None or snap.record is not None
        if resumed and intent.ramdisk not in snap.ramdisks:
            # choose_intent checked a fresh setup; a resumed one whose
            # ramdisk vanished at a reboot (it or its boot service will
            # make it anew) checks here, before any change or slot test.
            check_memory(snap, intent.size_bytes, resuming=mirror)
        if enabling:
            plan = plan_enable(intent)
        else:
            plan, snap, notes = _plan_knowing_slots(
                backend, snap, intent, notes, args.dry_run)
        plan.notes = notes
        if args.dry_run:
            return common.print_plan(plan)
        common.confirm(args, plan)
        if stored is None:
            journal.start("setup", intent.to_json())
        common.carry_out(plan, backend, journal,
                         lambda observed: plan_teardown(
                             observed, intent, reattach=intent.disks))
    common.run_afterwards(plan, backend)
    sys.stdout.write("%s: reads are served from the RAM submirror %s "
                     "(ramdisk %s).\n" % (mirror, intent.ram, intent.ramdisk))
    return EXIT_OK
