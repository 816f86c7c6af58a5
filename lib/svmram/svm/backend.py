# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""SVM as a backend.Backend: what the subcommands ask of it.

The host is read by SvmHost (svm/host.py), planned by the pure
planners (planner.py, restore.py), checked against the record
(consistency.py); the record store is the SMF instance
svc:/system/svmram:MIRROR (record.py).
"""

import os

from ..backend import Backend, Words
from ..errors import RefusedError, SvmramError, UsageError, whole_number
from ..plan import Plan
from . import check, consistency, names, probe, record, status
from .host import SvmHost
from .intent import Intent
from .planner import (UNKNOWN_SLOTS, SlotBehaviourUnknown, check_memory,
                      choose_intent, foreign_ram, plan_enable, plan_teardown,
                      slot_note, with_options_of)
from .planner import plan_setup as plan_setup_steps
from .ramcomponent import opening_step, ram_component
from .restore import DEFAULT_COPY_BLOCKS
from .restore import plan_restore as plan_restore_steps
from .programs import HUNG, PROGRAMS
from .script import PRELUDE
from .sizing import human_size

DRY_RUN_PROBE = (
    "first tests on a scratch mirror of two 1 MiB ramdisks (removed "
    "afterwards) whether metadetach leaves a hole in the slots; this plan "
    "assumes it does not")


WORDS = Words(
    system="SVM", target=names.NOUN, example="d10", copies="submirrors",
    ram_copy="RAM submirror", disk_copy="disk submirror",
    disk_copies="disk submirrors", ram_device="ramdisk", current="Okay",
    current_state="Okay",
    sync="resync",
    service_failed="is in maintenance",
    service_running="online",
    state_command="metastat {target}",
    retry_command="svcadm clear svmram:{target}",
    explain_command="svcs -x svmram:{target}",
    hung_command=HUNG,
    serving="{ram} in slot 0, read option first",
    script="ksh script")


class SvmBackend(Backend):
    name = "svm"
    words = WORDS
    prelude = PRELUDE
    programs = PROGRAMS
    check_predictions = check.PREDICTIONS

    # --- names and options ------------------------------------------------

    @classmethod
    def owns(cls, text, root="/"):
        return names.owns(text, root)

    @classmethod
    def owns_host(cls, root="/"):
        return names.owns_host(root)

    def target(self, text):
        return names.metadevice(text, "mirror")

    def add_setup_arguments(self, parser):
        parser.add_argument("--size", help="ramdisk size, e.g. 512m or 2g "
                            "(default: just enough for the mirror)")
        parser.add_argument("--name",
                            help="ramdisk name (default svmram_MIRROR)")
        parser.add_argument("--submirror", help="name of the RAM submirror "
                            "(default: the first free dN after the mirror)")
        parser.add_argument("--link", help="cNtNdNsN name of the /dev/dsk "
                            "link (default: on the first unused controller "
                            "from c90)")
        parser.add_argument("--method", choices=("auto", "swap", "rotate"),
                            default="auto", help="how to get the RAM "
                            "submirror into slot 0 (default auto)")
        parser.add_argument("--allow-label", action="store_true",
                            help="for a mirror none of whose submirrors is "
                            "labeled: copy it into RAM while it is closed "
                            "and recreate it with the RAM submirror, after "
                            "which SVM refuses writes that start at its "
                            "block 0")

    def setup_options(self, args):
        return dict(
            size=names.size(args.size) if args.size is not None else None,
            ramdisk=names.ramdisk(args.name, args.target) if args.name is not None
            else None,
            submirror=names.metadevice(args.submirror, "submirror")
            if args.submirror is not None else None,
            link=names.link(args.link) if args.link is not None else None,
            method=args.method, allow_label=args.allow_label)

    def setup_differences(self, intent, options):
        asked = (("--size", options.get("size"), intent.size_bytes,
                  human_size),
                 ("--name", options.get("ramdisk"), intent.ramdisk, str),
                 ("--submirror", options.get("submirror"), intent.ram, str),
                 ("--link", options.get("link"), intent.link, str),
                 ("--method", None if options.get("method") == "auto"
                  else options.get("method"), intent.method, str))
        return ["%s %s, recorded %s" % (option, shown(value), shown(held))
                for option, value, held, shown in asked
                if value is not None and value != held]

    def add_teardown_arguments(self, parser):
        parser.add_argument("--reattach", action="store_true",
                            help="attach again, with a full resync, a "
                            "recorded disk submirror that is no longer in "
                            "the mirror (default: report it and leave it "
                            "alone)")

    def teardown_options(self, args):
        return {"reattach": args.reattach}

    def add_restore_arguments(self, parser):
        parser.add_argument("--copy-size", default=str(DEFAULT_COPY_BLOCKS),
                            metavar="BLOCKS",
                            help="resync copy size in 512-byte blocks, 1 to "
                                 "2048, or 0 for SVM's default (default %d)"
                                 % DEFAULT_COPY_BLOCKS)

    def restore_options(self, args):
        return {"copy_blocks": whole_number(args.copy_size, "copy size", 0,
                                            2048)}

    # --- the host and the record store ------------------------------------

    def host(self, target):
        return SvmHost(target, self.root, self.runner)

    def intent_from_json(self, data, where):
        return Intent.from_json(data, where)

    def record_name(self, target):
        return record.fmri(target)

    def recorded_intent(self, host):
        found = host.read_record()
        if found is None:
            return None
        return Intent.from_record(found, host.mirror)

    def unrecorded(self, host):
        snap = host.observe(None)
        return foreign_ram(snap, host.mirror) if snap.has_replicas else None

    def tidy(self, host):
        found = host.scratch_leftovers(linked=True)
        if not found:
            return None
        probe.remove_scratch(host, found, earlier=True)
        return "what an earlier test of the slot behaviour left: %s" % (
            ", ".join(found.mirrors + found.stripes + found.ramdisks))

    # --- plans -------------------------------------------------------------

    def plan_setup(self, host, options, resumed, dry_run):
        mirror = host.mirror
        # The record first: it may say what the intent is.  Then the host,
        # once, with everything the intent names.
        service_state = host.service_state()
        smf = (host.record_properties() if service_state else None,
               service_state)
        if resumed is not None:
            intent, where = resumed
            notes = ["Resuming the setup recorded in %s; the choices made "
                     "then are kept." % where]
            snap = host.observe(intent, memory=True, smf=smf)
        else:
            where = record.fmri(mirror)
            recorded = _not_enabled(smf[0], smf[1], mirror)
            if recorded is not None:
                (intent, notes) = recorded
                snap = host.observe(intent, memory=True, smf=smf)
            else:
                snap = host.observe(None, memory=True, smf=smf, holders=True,
                                    labels=True).evolve(
                    service_imported=host.service_imported())
                # choose_intent only picks names nothing uses (it refuses
                # taken ones), so the intent adds nothing to read.
                intent, notes = choose_intent(snap, mirror, **options)
        consistency.check(snap, intent, where)
        # Once the record is complete (the last step of setup, killed or
        # rebooted before the enable or with the journal still there),
        # the boot service owns the RAM submirror: enabling it runs
        # restore, which knows the recorded device number.
        enabling = _not_enabled(snap.record, snap.service_state, mirror)
        if (resumed is not None or snap.record is not None) and \
                intent.ramdisk not in snap.ramdisks:
            # choose_intent checked a fresh setup; a resumed one whose
            # ramdisk vanished at a reboot (it or its boot service will
            # make it anew) checks here, before any change or slot test.
            check_memory(snap, intent.size_bytes, resuming=mirror)
        if enabling:
            plan = plan_enable(intent)
        else:
            plan, snap, notes = _plan_knowing_slots(host, snap, intent,
                                                    notes, dry_run,
                                                    self._probed)
        plan.notes = notes
        plan.intent = intent
        # A dry run's snapshot may assume the slot behaviour: never a
        # reading to check a step against.
        plan.observed = None if dry_run else snap
        return plan

    # What this run's test on a scratch mirror showed of the slots,
    # (compacts, evidence), or None: the backend ran it, and passes it on
    # (the Host keeps nothing a caller sets).
    slot_probe = None

    def _probed(self, host, intent, operation, memory=False, before=None):
        """The host read again after a test on a scratch mirror found the
        slot behaviour: the test changed the host (and may have removed
        what an earlier one left), so the snapshot before it is stale.  Its
        commands are SVM's and ramdiskadm: the SMF part is taken from
        `before`, the reading planning began with, when there is one."""
        self.slot_probe = probe.test_slots(host, operation)
        if before is None:
            return host.observe(intent, memory=memory,
                                slot_probe=self.slot_probe)
        return host.observe(intent, memory=memory, keep=before,
                            parts=("svm", "ramdisks"),
                            slot_probe=self.slot_probe)

    def plan_rollback(self, observed, intent):
        if self.slot_probe is not None and observed.detach_compacts is None:
            # The setup's own test showed it (what the release says is
            # not enough: observed, it is still unknown).
            observed = observed.evolve(detach_compacts=self.slot_probe[0],
                                       slot_evidence=self.slot_probe[1])
        plan = plan_teardown(observed, intent, reattach=intent.disks)
        plan.intent = intent
        return plan

    def plan_teardown(self, host, intent, where, resumed, options,
                      dry_run):
        # The copy method's mirror is recreated unlabeled only if closed.
        snap = host.observe(intent, holders=intent.method == "copy")
        if intent.method == "copy" and snap.mirror is not None:
            # The options the mirror has now go into the teardown's
            # journal: a teardown killed between its metaclear and
            # metainit has no mirror to read them from when it resumes
            # (issue 27 4.7).
            intent = with_options_of(snap.mirror, intent)
        # A mirror gone with no operation of svmram's under way was
        # cleared by hand: its disk submirrors need not exist any more.
        consistency.check(snap, intent, where, disks=bool(
            resumed or snap.mirror is not None))
        # A resumed setup or teardown may itself have detached a disk
        # submirror; otherwise a missing one was split off by hand.
        reattach = intent.disks if (resumed or options.get("reattach")) \
            else ()
        try:
            plan = plan_teardown(snap, intent, reattach=reattach,
                                 under_way=bool(resumed))
        except SlotBehaviourUnknown:
            # Putting the disk submirrors back in their order depends on
            # whether metadetach leaves a hole: test it first (a dry run
            # changes nothing and assumes illumos's behaviour).
            if dry_run:
                plan = plan_teardown(snap.evolve(
                    detach_compacts=True,
                    slot_evidence="assumed by this dry run"), intent,
                    reattach=reattach, under_way=bool(resumed))
                plan.notes.append("Teardown %s." % DRY_RUN_PROBE)
                plan.provisional = True
                plan.test = probe.script_test(host.scratch_layout(),
                                              host.mirror, "teardown")
            else:
                plan = plan_teardown(self._probed(host, intent, "teardown"),
                                     intent, reattach=reattach,
                                     under_way=bool(resumed))
        plan.intent = intent
        return plan

    def plan_restore(self, host, intent, options):
        return self._restore_plan(host, host.observe(intent), intent,
                                  options)

    def replan_restore(self, host, options, observed, observed_for):
        """The record is read with the host after every step (the
        reading's record and service_state): a round plans from that
        reading, and reads the host again only when the record now names
        another intent than the one the reading was taken with (its
        stripes and link are what observe() reads)."""
        if observed is None:
            return super().replan_restore(host, options, observed,
                                          observed_for)
        if observed.service_state is None:
            return None
        intent = Intent.from_record(observed.record or {}, host.mirror)
        if intent != observed_for:
            return intent, self.plan_restore(host, intent, options)[0]
        return intent, self._restore_plan(host, observed, intent,
                                          options)[0]

    def _restore_plan(self, host, snap, intent, options):
        """(plan, snapshot) from `snap`; kstat's memory figures are read
        only when the ramdisk is missing, the one case the planner checks
        the memory for (restore.py, check_memory)."""
        if intent.ramdisk not in snap.ramdisks:
            snap = host.with_memory(snap)
        consistency.check(snap, intent, record.fmri(host.mirror))
        plan = plan_restore_steps(snap, intent, self._retry(snap, intent),
                                  options.get("copy_blocks",
                                              DEFAULT_COPY_BLOCKS))
        plan.intent = intent
        plan.observed = snap
        return plan, snap

    def restore_openings(self, target):
        """Every other mirror svmram recorded whose RAM component SVM
        still takes for Okay although its ramdisk is gone, with the step
        that opens it.  They are opened before this restore creates a
        ramdisk, which could otherwise take the device number SVM recorded
        for one of them (the kernel gives a new ramdisk the lowest free
        minor), whatever order SMF starts the instances in.  A mirror
        whose number another ramdisk already holds is not opened; its own
        restore fences it and says why."""
        found = []
        for other in status.configured_mirrors():
            if other == target or not names.is_metadevice(other):
                continue
            host = self.host(other)
            props = host.read_record()
            if not record.complete(props):
                continue
            try:
                intent = Intent.from_record(props, other)
            except RefusedError:
                continue               # its own restore reports the record
            step = opening_step(host.observe(intent), intent)
            if step is not None and step.key.startswith("open "):
                found.append((host, Plan("restore", other, steps=[step],
                                         intent=intent)))
        return found

    def run_by_boot_service(self):
        return bool(os.environ.get("SMF_FMRI"))

    def plan_stop(self, host, intent):
        raise UsageError("'stop' is the shutdown step of md's boot unit; "
                         "SVM needs none (a mirror's RAM submirror is "
                         "restored at boot by svc:/system/svmram)")

    def retry(self, host, target, intent):
        try:
            snap = host.observe(intent)
        except SvmramError:
            return self.words.retry(target)
        return self._retry(snap, intent)

    def _retry(self, snap, intent):
        """'svcadm clear svmram:MIRROR'; but where the start method will
        leave the instance degraded (SMF has that state, which the method
        passes on in SVMRAM_SMF_DEGRADED, and every disk submirror is
        current: smf/svmram), 'svcadm restart': clear would only mark it
        online, with no RAM copy."""
        if self.run_by_boot_service() and \
                os.environ.get("SVMRAM_SMF_DEGRADED") and \
                snap.mirror is not None and \
                status.disk_redundancy(snap, intent)["state"] == "full":
            return "svcadm restart svmram:%s" % intent.mirror
        # An instance degraded already (setup's enable, whose start method
        # left it so): 'svcadm clear' would mark it online with no RAM
        # copy; a restart runs the start method again (issue 27 4.4).
        if snap.service_state == "degraded":
            return "svcadm restart svmram:%s" % intent.mirror
        return self.words.retry(intent.mirror)

    def restore_refusal(self, failure, intent, host):
        if failure.step.key.startswith("open "):
            mirror = intent.mirror
            return RefusedError(
                "SVM still shows the RAM component of %s as Okay although "
                "the ramdisk %s does not exist; svmram will not create a "
                "blank ramdisk that SVM would read as good data" % (
                    intent.ram, intent.ramdisk),
                advice="%s keeps serving reads from disk.  Check "
                       "'metastat %s', then '%s'."
                % (mirror, mirror, self.retry(host, mirror, intent)))
        return None

    # --- words for messages --------------------------------------------------

    def state_text(self, snap, target, intent):
        return state_text(snap, target, intent)

    def rolled_back_text(self, snap, target, intent):
        m = snap.mirror
        if intent is not None and m is not None and \
                m.slots == intent.disks and \
                m.read_option == intent.read_option and \
                all(state == "Okay" for state in m.states):
            return "%s is as it was before." % target
        if m is None:
            return "but %s does not exist now." % target
        return "but %s is not as it was: it has the submirrors %s." % (
            target, ", ".join("%s (%s)" % pair
                              for pair in zip(m.slots, m.states)))

    def setup_done(self, intent):
        return "%s: reads are served from the RAM submirror %s (ramdisk " \
               "%s)." % (intent.mirror, intent.ram, intent.ramdisk)

    def teardown_done(self, intent):
        return "%s: the RAM submirror is gone; reads use the read option " \
               "%s again." % (intent.mirror, intent.read_option)

    def restore_done(self, intent, options):
        return "%s: %s is resyncing from the disk submirrors; reads stay on " \
               "disk until it is Okay." % (intent.mirror, intent.ram)

    def nothing_to_restore(self, snap, intent, options):
        ram_component(snap, intent)
        m = snap.mirror
        if m.resync == "active":
            return "%s: nothing to do: %s is resyncing (%s %% done)." % (
                intent.mirror, intent.ram, m.resync_percent)
        return "%s: nothing to do: %s is %s." % (
            intent.mirror, intent.ram, m.state_of(intent.ram))

    # --- status and check ----------------------------------------------------

    def statuses(self, target=None):
        return status.read_statuses(self.root, target)

    def status_report(self, target=None):
        return status.read_report(self.root, target)

    def why_nothing_set_up(self):
        return status.why_nothing_set_up(self.root)

    def check(self, target=None):
        return check.run_check(self, target)

    selftest_directory = "/var/tmp"

    def setup_hint(self):
        from . import selftest_record
        return selftest_record.hint(self.root)

    def selftest(self, svmram, directory):
        from . import selftest
        return selftest.run(self.root, svmram, directory)


def _not_enabled(props, service_state, mirror):
    """(intent, notes) of a setup that finished all but enabling its boot
    service (svcadm enable failed, or svmram was killed before it), so
    that running setup again finishes it; None otherwise."""
    if service_state != "disabled" or not record.complete(props):
        return None
    intent = Intent.from_record(props, mirror)
    return intent, ["%s is recorded but not enabled; the recorded choices "
                    "are kept, and its start method restores the RAM "
                    "submirror if a reboot took it." % record.fmri(mirror)]


def _plan_knowing_slots(host, snap, intent, notes, dry_run, probed):
    """plan_setup; when the plan depends on whether metadetach leaves a
    hole and that is not known, test it on a scratch mirror first (a dry
    run changes nothing: it assumes illumos's behaviour and says so).
    Returns (plan, snapshot, notes)."""
    try:
        return plan_setup_steps(snap, intent), snap, notes
    except SlotBehaviourUnknown:
        if dry_run:
            snap = snap.evolve(detach_compacts=True, slot_evidence=(
                "assumed by this dry run"))
            plan = plan_setup_steps(snap, intent)
            plan.provisional = True
            plan.test = probe.script_test(host.scratch_layout(),
                                          host.mirror, "setup")
            return plan, snap, notes + [
                "Setup %s.  If it does, setup detaches the slot-0 disk "
                "submirror, attaches the RAM submirror into slot 0 and "
                "re-attaches the disk behind it instead: one disk resync "
                "fewer." % DRY_RUN_PROBE]
    # The memory was checked on the reading before the test (the test's
    # two 1 MiB ramdisks are gone again); planning needs none.
    snap = probed(host, intent, "setup", before=snap)
    return plan_setup_steps(snap, intent), snap, [
        slot_note(snap) if note.startswith(UNKNOWN_SLOTS) else note
        for note in notes]


def state_text(snap, mirror, intent):
    """The mirror as observed, for a report: each submirror's state,
    which hold current data, what is resyncing, the read option."""
    m = snap.mirror
    if m is None:
        return "%s does not exist now; 'metastat -p' shows its submirrors." \
            % mirror
    ram = intent.ram if intent is not None else None

    def name(sub):
        return "%s (RAM)" % sub if sub == ram else sub
    slots = ", ".join("%s %s" % (name(sub), state)
                      for sub, state in zip(m.slots, m.states))
    current = [sub for sub, state in zip(m.slots, m.states)
               if state == "Okay"]
    disks = [sub for sub in current if sub != ram]
    text = "%s now: %s; read option %s." % (mirror, slots, m.read_option)
    others = [sub for sub in m.slots if sub != ram]
    if disks:
        text += "  Current data: on %s%s." % (
            _and(disks), " and in RAM" if ram in current else "")
    elif m.resync == "active":
        text += "  The disk submirrors %s are not Okay until the resync " \
                "ends." % _and(others)
    elif m.pending:
        # After a boot, before svc:/system/metasync: every submirror shows
        # Needs maintenance with "Invoke: metasync" until the resync runs.
        text += "  The disk submirrors %s wait for the resync that " \
                "'metasync %s' starts (svc:/system/metasync runs it at " \
                "boot)." % (_and(others), mirror)
    else:
        text += "  No disk submirror is Okay: check 'metastat %s' now." % (
            mirror)
    if m.resync == "active":
        text += "  A resync is running (%s%% done) and goes on without " \
                "svmram." % ("?" if m.resync_percent is None
                             else m.resync_percent)
    elif m.pending and disks:
        text += "  A resync is pending."
    elif m.resync == "cancelled":
        text += "  A resync was cancelled."
    return text


def _and(words):
    """'a', 'a and b', 'a, b and c'."""
    words = list(words)
    return " and ".join([", ".join(words[:-1])] + words[-1:]) \
        if len(words) > 1 else "".join(words)

