# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The status of the mirrors svmram set up, as backend.Status
(docs/status-json.md, format 2), with the Problems
that grade them for --nagios.

The host is read once for all mirrors (host.HostReading): one svcs,
one svcprop, one `metastat -p`, one `metastat`, one ramdiskadm, however
many mirrors are configured.
"""

from ..backend import Problems, Status
from ..errors import RefusedError, SvmramError
from . import consistency, names, record, selftest_removal
from .host import HostReading
from .smf import Smf
from .intent import Intent
from .snapshot import OKAY, RESYNCING

# Why status leaves svmram selftest's scratch mirror out (read_report).
SCRATCH_PROOF = "(%s names it; svmram selftest removes it)" % \
    selftest_removal.JOURNAL
SCRATCH_WHY = "svmram selftest's scratch mirror " + SCRATCH_PROOF


def booting(service):
    """Before or during the start method at boot: svmram restore has not
    finished yet, so a missing ramdisk or an erred RAM submirror is what
    every boot looks like."""
    return service is not None and (
        service.endswith("*") or
        service in ("offline", "uninitialized", "-"))


def configured_mirrors():
    """The instances of svc:/system/svmram, i.e. the configured mirrors."""
    return Smf().instances()


def not_a_mirror(name):
    """The status of an instance that svmram cannot have made."""
    return Status.unconfigured(name, "%s is not named after a mirror; "
                               "svmram did not make it" % record.fmri(name))


def describe_state(name, state):
    """'d13 needs maintenance', 'd13 is resyncing'."""
    if state == "Needs maintenance":
        return "%s needs maintenance" % name
    return "%s is %s" % (name, state.lower())


def disk_redundancy(snap, intent):
    """Which recorded disk submirrors hold current data.  Only Okay counts:
    every other state (offline or erred show as Needs maintenance; Last
    Erred, Unavailable, Resyncing as a target, Resync cancelled, or one
    this code does not know) is not a current copy, nor is a recorded
    disk submirror that is no longer in the mirror."""
    m, current, reasons = snap.mirror, [], []
    for disk in intent.disks:
        if disk not in m.slots:
            reasons.append("%s is not in %s" % (disk, intent.mirror))
        elif m.state_of(disk) == OKAY:
            current.append(disk)
        elif disk in m.offline:
            reasons.append("%s is offline" % disk)
        else:
            reasons.append(describe_state(disk, m.state_of(disk)))
    # The ramdisk holds the only copy only if it exists: early in a boot
    # SVM may still call a RAM submirror Okay whose ramdisk is gone.
    ram_okay = intent.ram in m.slots and m.state_of(intent.ram) == OKAY \
        and intent.ramdisk in snap.ramdisks
    if not current and ram_okay:
        state = "lost"
    else:
        state = "degraded" if reasons else "full"
    return {"state": state, "current": current, "reasons": reasons,
            "fixes": disk_fixes(snap, intent)}


def disk_fixes(snap, intent):
    """What brings each recorded disk submirror that is not current back."""
    m, fixes = snap.mirror, []
    for disk in intent.disks:
        stripe = snap.stripes.get(disk)
        erred = [c for c, state in zip(stripe.components,
                                       stripe.component_states)
                 if state in ("Maintenance", "Last Erred")] if stripe else []
        if disk not in m.slots:
            fixes.append("metattach %s %s (unless it was split off on "
                         "purpose)" % (intent.mirror, disk))
        elif disk in m.offline:
            fixes.append("metaonline %s %s" % (intent.mirror, disk))
        elif m.state_of(disk) == RESYNCING:
            fixes.append("let the resync of %s finish" % disk)
        elif erred:
            fixes.append("metareplace %s %s NEWDISK, or metareplace -e %s %s "
                         "once it is repaired" % (intent.mirror, erred[0],
                                                   intent.mirror, erred[0]))
        elif m.state_of(disk) != OKAY:
            fixes.append("for %s, run the command after 'Invoke:' in "
                         "'metastat %s'" % (disk, intent.mirror))
    return fixes


def mirror_status(mirror, reading, service, found):
    """(status, problems) of a configured mirror: `service` is its
    instance's state, `found` its record ({} when incomplete).  An
    instance offline behind a dependency that is disabled or in
    maintenance is no boot in progress: it never starts by itself."""
    blockers = reading.blockers(mirror) if service == "offline" else []
    reasons, problems = [], Problems(booting(service) and not blockers)
    if service is None:
        return Status.unconfigured(mirror, "%s does not exist" %
                                   record.fmri(mirror)), problems
    try:
        intent = Intent.from_record(found, mirror)
    except RefusedError as error:       # a setup stopped while writing it
        return Status.unconfigured(mirror, error.message), problems
    problems.disks = intent.disks
    host = reading.host(mirror)
    snap = host.observe(intent, smf=(found, service))
    m = snap.mirror
    submirrors = []

    def reason(words, passing=False):
        reasons.append(words)
        problems.add(words, passing)

    if not snap.has_replicas:
        reason("there are no state database replicas")
    elif m is None:
        reason("the mirror %s does not exist" % mirror)
    else:
        for slot, (name, state) in enumerate(zip(m.slots, m.states)):
            submirrors.append({"slot": slot, "name": name, "state": state,
                               "ram": name == intent.ram})
        if intent.ram not in m.slots:
            reason("%s is not a submirror of %s" % (intent.ram, mirror))
        elif m.slots[0] != intent.ram:
            reason("%s is in slot %d, not slot 0" % (
                intent.ram, m.slots.index(intent.ram)))
        elif intent.ram in m.offline:
            reason("%s is offline" % intent.ram)
        elif m.states[0] != "Okay":
            words = describe_state(intent.ram, m.states[0])
            reasons.append(words)
            if m.states[0] == RESYNCING:
                problems.add("copying into RAM: %s%s" % (words, "" if
                             m.resync_percent is None else ", %d %% done"
                             % m.resync_percent), passing=True)
            else:
                problems.unless_booting(words)
        if m.read_option != "first":
            reason("the read option is %s, not first" % m.read_option)
    present = intent.ramdisk in snap.ramdisks
    recorded_dev = found.get("ramdisk_dev")
    dev = snap.ramdisk_devs.get(intent.ramdisk)
    if not present:
        reasons.append("the ramdisk %s does not exist" % intent.ramdisk)
        problems.unless_booting(reasons[-1])
    elif dev != recorded_dev:
        reasons.append("the ramdisk's device number is %s, recorded %s" % (
            dev, recorded_dev))
        problems.unless_booting(reasons[-1])
    if service != "online":
        reasons.append("%s is %s" % (record.fmri(mirror), service))
        problems.add(service_words(mirror, service, problems.booting,
                                   blockers), passing=problems.booting)
    redundancy = disk_redundancy(snap, intent) if m else None
    wrong = consistency.contradictions(snap, intent) \
        if snap.has_replicas else []
    if wrong:
        reason("%s does not match the host: %s" % (
            record.fmri(mirror), "; ".join(wrong)))
    if redundancy is not None and redundancy["state"] == "lost":
        problems.critical.insert(0, "DATA AT RISK: the ramdisk %s holds the "
                                 "only current copy (%s)" % (
                                     intent.ramdisk,
                                     ", ".join(redundancy["reasons"])))
    elif redundancy is not None and redundancy["state"] == "degraded":
        # A resync of the disks, or the optimized resync every boot
        # leaves pending (Needs maintenance, Invoke: metasync) until
        # svc:/system/metasync runs it, passes by itself.
        resyncing = all(words.endswith(" is resyncing")
                        for words in redundancy["reasons"])
        problems.add("disk redundancy degraded (%s)" % ", ".join(
            redundancy["reasons"]),
            passing=resyncing or (problems.booting and m.pending))
    return Status(
        target=mirror, configured=True,
        verdict=verdict(not reasons, redundancy),
        serving_from_ram=not reasons, reasons=reasons,
        disk_redundancy=redundancy,
        ram_copy=intent.ram, method=intent.method,
        read_policy=m.read_option if m else None,
        size_blocks=m.size_blocks if m else None,
        sync_percent=m.resync_percent if m else None,
        copies=submirrors,
        ramdisk={"name": intent.ramdisk, "present": present,
                 "size_bytes": intent.size_bytes, "device": dev,
                 "recorded_device": recorded_dev,
                 "device_matches": present and dev == recorded_dev},
        boot_service={"name": record.fmri(mirror), "state": service},
    ), problems


def service_words(mirror, service, booting, blockers=()):
    fmri = record.fmri(mirror)
    if blockers:
        return "%s is %s and cannot start: its %s %s (svcs -x svmram:%s " \
            "says why)" % (fmri, service, "dependency" if len(blockers) == 1
                           else "dependencies", ", ".join(
                               "%s is %s" % pair for pair in blockers),
                           mirror)
    if booting:
        return "%s is %s: svmram restore has not finished since boot" % (
            fmri, service)
    if service == "maintenance":
        return "%s is in maintenance (svcs -x svmram:%s says why)" % (
            fmri, mirror)
    return "%s is %s" % (fmri, service)


def verdict(serving, redundancy):
    if redundancy is not None and redundancy["state"] == "lost":
        return "only_copy_in_ram"
    if redundancy is not None and redundancy["state"] == "degraded":
        return "degraded"
    return "serving" if serving else "not_serving"


def read_statuses(root, mirror=None):
    """[(status, problems)] of the mirror named, or of every instance of
    svc:/system/svmram, sorted by name; the host is read once."""
    return read_report(root, mirror)[0]


def read_report(root, mirror=None):
    """(read_statuses(), what it left out: [{"target", "why"}]).  Given
    no mirror, svmram selftest's scratch mirror, proven by its journal,
    is not the administrator's: left out, so that their monitoring does
    not alarm for it, and said so."""
    if mirror is not None:
        mirror = names.metadevice(mirror, "mirror")
    reading = HostReading(root)
    services = reading.services(mirror)
    left_out = []
    if mirror is not None:
        services = {mirror: services.get(mirror)}
    else:
        scratch = selftest_removal.scratch_mirror(root)
        if scratch in services:
            del services[scratch]
            left_out.append({"target": scratch, "why": SCRATCH_WHY})
    records = reading.records(mirror) if any(
        state is not None for state in services.values()) else {}
    # The one `metastat` names the mirrors whose records are whole.
    reading.mirrors = tuple(sorted(
        name for name, state in services.items()
        if state is not None and names.is_metadevice(name) and
        _intent(name, records.get(name, {})) is not None))
    statuses = []
    for name in sorted(services):
        if names.is_metadevice(name):
            statuses.append(mirror_status(name, reading, services[name],
                                          records.get(name, {})))
        else:
            statuses.append((not_a_mirror(name),
                             Problems(booting(services[name]))))
    return statuses, left_out


def why_nothing_set_up(root):
    """Why no mirror can be set up, when SVM says so: no state database
    replicas (metastat's "there are no existing databases"); else None."""
    try:
        config = HostReading(root).config()[0]
    except SvmramError:     # no SVM, or metastat failing: nothing to add
        return None
    if config is None:
        return "SVM has no state database replicas (metadb shows none)"
    scratch = selftest_removal.scratch_mirror(root)
    if scratch is not None and scratch in HostReading(root).services(None):
        return ("only the scratch mirror %s of svmram selftest is, which "
                "status leaves out %s" % (scratch, SCRATCH_PROOF))
    return None


def _intent(mirror, found):
    try:
        return Intent.from_record(found, mirror)
    except RefusedError:
        return None
