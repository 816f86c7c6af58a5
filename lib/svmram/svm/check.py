# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""What `svmram check` verifies or predicts on an SVM host, changing
nothing: one check per fact of the host, then a verdict per mirror
(backend.Backend.check describes the shape)."""

from ..errors import AlreadySetUp, RefusedError
from ..plan import cost_lines, size_text
from .programs import run_command
from . import labels, listings
from .host import SvmHost
from .smf import Smf
from .planner import (SlotBehaviourUnknown, choose_intent, plan_setup,
                      slot_note)
from .sizing import (ASSUMED_READ_MIB_S, MIN_FREE_PERCENT, MemoryCap,
                     copy_window_seconds, copy_window_text, mib_text)

OK, WARN, FAIL = "ok", "warning", "FAIL"
# The predictions a verdict holds, in the order the text shows them.
PREDICTIONS = ("slots", "label", "unlabeled")

# The SVM services (illumos metainit.xml, metasync.xml, mdmonitor.xml,
# rpc-meta); the first two must be online for SVM to have its state.
SVM_SERVICES = (("svc:/system/metainit:default", FAIL),
                ("svc:/system/metasync:default", FAIL),
                ("svc:/system/mdmonitor:default", WARN),
                ("svc:/network/rpc/meta:default", WARN))


def _check(name, verdict, detail):
    return {"check": name, "verdict": verdict, "detail": detail}


def replica_check():
    """The replicas are readable; a warning names those metadb shows with
    a problem: fewer good ones leave less margin before the database goes
    stale at a boot."""
    result = run_command("metadb", [], check=False)
    if not result.ok:
        return _check("replicas", OK, "the state database is readable "
                      "(metadb could not list the replicas: %s)"
                      % (result.stderr.strip().splitlines() or ["?"])[0])
    replicas = listings.parse_metadb(result.stdout)
    problems = listings.replica_problems(replicas)
    if not problems:
        return _check("replicas", OK, "the state database is readable; "
                      "all %d replicas are healthy" % len(replicas))
    return _check("replicas", WARN, (
        "%d of %d replicas have problems (%s); a majority must be good at "
        "boot, or SVM refuses every change: replace them (metadb -d, "
        "metadb -a)" % (len(problems), len(replicas),
                        "; ".join(p.describe() for p in problems))))


def service_checks():
    """One check per SVM service: online, or what it is instead."""
    states = Smf().service_states([fmri for fmri, _ in SVM_SERVICES])
    checks = []
    for fmri, severity in SVM_SERVICES:
        state = states.get(fmri)
        if state == "online":
            checks.append(_check("service", OK, "%s is online" % fmri))
        else:
            checks.append(_check("service", severity, "%s is %s" % (
                fmri, state or "not present")))
    return checks


def memory_check(snap):
    """The ramdisk memory cap as the driver computes it (sizing.MemoryCap),
    how sure that is, and the memory free now; a warning when the value
    in effect may differ from ramdisk.conf's, the kernel warns about a
    conf file, or the conf's value is one the driver ignores."""
    if not snap.physmem_bytes:
        return _check("memory", WARN, "physical memory could not be read")
    cap = MemoryCap(snap)
    doubtful = cap.changed or bool(cap.problems) or (cap.where is not None and
                               cap.next_percent == 25 and
                               cap.where[1] != "25")
    return _check("memory", WARN if doubtful else OK, (
        "ramdisks may use %s; %s in use by %d ramdisk%s; %s free, of which "
        "setup leaves at least %d%%; %s" % (
            cap.describe(), mib_text(cap.used), len(snap.ramdisks),
            "" if len(snap.ramdisks) == 1 else "s",
            _bytes(snap.freemem_bytes), MIN_FREE_PERCENT, cap.sureness())))


def _bytes(count):
    return size_text(count // 512)


def slot_prediction(snap):
    """Where metadetach leaves the other submirrors on this host."""
    known = snap.detach_compacts
    text = ("metadetach compacts the slots" if known else
            "metadetach leaves a hole in the slots" if known is False else
            "not known whether metadetach leaves a hole in the slots; "
            "setup tests it on a scratch mirror before it changes %s"
            % snap.mirror_name)
    return {"detach_compacts": known, "evidence": snap.slot_evidence,
            "text": "%s (%s)" % (text, snap.slot_evidence)}


def label_prediction(snap):
    """Whether SVM will let a ramdisk stripe (always labeled) be
    attached to the mirror."""
    mirror = labels.mirror_label(snap.labels)
    subs = {name: {"labeled": snap.labels[name],
                   "evidence": snap.label_evidence.get(name, "")}
            for name in sorted(snap.labels)}
    why = "; ".join(snap.label_evidence.get(name, "")
                    for name in (snap.mirror.slots if snap.mirror else ())
                    if name in snap.label_evidence)
    if mirror:
        text = "labeled (%s): a RAM submirror can be attached" % why
    elif mirror is False:
        text = ("not labeled (%s): SVM refuses to attach a RAM submirror "
                "(can't attach labeled submirror to an unlabeled mirror)"
                % why)
    else:
        text = ("not known (%s): if SVM refuses to attach the RAM "
                "submirror, setup stops there and rolls back" % why)
    return {"mirror_labeled": mirror, "submirrors": subs, "text": text}


def unlabeled_prediction(snap):
    """For a mirror SVM will not attach a RAM submirror to: the method
    setup uses (copy into RAM while closed, then recreate), how long the
    mirror must stay closed for it, and what it costs raw-device users."""
    if labels.mirror_label(snap.labels) is not False or snap.mirror is None:
        return None
    blocks = snap.mirror.size_blocks
    return {"method": "copy", "window_seconds": copy_window_seconds(blocks),
            "assumed_read_mib_s": ASSUMED_READ_MIB_S,
            "text": ("setup uses the copy method: %s closed for %s while "
                     "its data is copied into RAM and compared, then "
                     "recreated with the RAM submirror; %s is labeled "
                     "afterwards (writes that start at its block 0 are "
                     "refused), so setup needs --allow-label"
                     % (snap.mirror_name, copy_window_text(blocks),
                        snap.mirror_name))}


def mirror_verdict(snap, mirror):
    """What setup would do with `mirror`, from the Snapshot of it."""
    if snap.record is not None:
        # setup's own verdict: nothing to do only while the boot service
        # runs it; otherwise setup refuses, and so does check.
        try:
            choose_intent(snap, mirror, allow_label=True)
        except AlreadySetUp:
            return {"mirror": mirror, "verdict": "set up",
                    "detail": "svmram status %s reports it" % mirror}
        except RefusedError as refusal:
            return {"mirror": mirror, "verdict": "refused",
                    "detail": refusal.message, "advice": refusal.advice}
    predictions = {}
    if snap.mirror is not None:
        predictions = {"slots": slot_prediction(snap),
                       "label": label_prediction(snap)}
        unlabeled = unlabeled_prediction(snap)
        if unlabeled is not None:
            predictions["unlabeled"] = unlabeled
    try:
        # --allow-label is the administrator's to give; the unlabeled
        # line says setup needs it.
        intent, notes = choose_intent(snap, mirror, allow_label=True)
    except RefusedError as refusal:
        return dict(predictions, mirror=mirror, verdict="refused",
                    detail=refusal.message, advice=refusal.advice)
    notes = [note for note in notes if note != slot_note(snap)]
    extra, hole = [], None
    try:
        plan = plan_setup(snap, intent)
    except SlotBehaviourUnknown:
        plan = plan_setup(snap.evolve(detach_compacts=True), intent)
        hole = plan_setup(snap.evolve(detach_compacts=False), intent)
        extra = ["If metadetach leaves a hole here, resyncs copy %d blocks "
                 "instead; setup tests which first." % hole.copies_blocks]
    return dict(predictions, mirror=mirror, verdict="ready",
                method=intent.method,
                detail=" ".join(notes + cost_lines(plan) + extra),
                copies_blocks=plan.copies_blocks,
                copies_blocks_if_hole=hole.copies_blocks if hole else None,
                closed_seconds=plan.closed_seconds,
                ramdisk_bytes=intent.size_bytes)


def run_check(backend, target):
    """(host checks, mirror verdicts) for `svmram check`
    (commands/check.py), on the host under backend.root: of the mirror
    `target`, or of every mirror when it is None (md/check.py's
    signature)."""
    root = backend.root
    checks = []
    try:
        mirrors, stale = SvmHost(target or "", root).mirror_names()
    except RefusedError as refusal:           # no SVM at all
        return [_check("svm", FAIL, "%s; %s" % (refusal.message,
                                                 refusal.advice))], []
    checks.append(_check("svm", OK, "Solaris Volume Manager is installed"))
    checks += service_checks()
    if mirrors is None:
        checks.append(_check("replicas", FAIL, (
            "there are no state database replicas; create them with "
            "metadb -a -f")))
        return checks, []
    if stale:
        checks.append(_check("replicas", FAIL, (
            "the state database replicas are stale, so SVM refuses every "
            "change; metadb -i shows the failed ones")))
    else:
        checks.append(replica_check())
    if target:
        mirrors = [target]
    verdicts, memory = [], None
    for name in mirrors:
        host = SvmHost(name, root)
        snap = host.observe(memory=True, holders=True,
                            labels=True).evolve(
            service_imported=host.service_imported())
        if memory is None:
            memory = memory_check(snap)
            checks.append(memory)
        verdicts.append(mirror_verdict(snap, name))
    return checks, verdicts
