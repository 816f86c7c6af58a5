# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""svmram check: what setup would verify or predict on this host, without
changing anything.

One line per check of the host, then a verdict per mirror: ready (and the
method setup would choose, why, and its cost), set up already, or refused
(and why).  Exit 0 when every check passes and every mirror is ready or
set up, 3 (EXIT_REFUSED) otherwise.  This is the first command to run on a
new host, and its output is what to send when reporting a problem.
"""

import json
import sys

from ..run import run as run_command
from ..errors import EXIT_OK, EXIT_REFUSED, RefusedError
from ..plan import cost_lines, size_text
from ..svm import listings, names
from ..svm.backend import SvmBackend
from ..svm.planner import (MIN_FREE_PERCENT, RAMDISK_MEMORY_PERCENT,
                           choose_intent, plan_setup)
from . import common

SUMMARY = "check, changing nothing, whether and how setup would work"
JSON_FORMAT = 1
OK, WARN, FAIL = "ok", "warning", "FAIL"

# The SVM services (illumos metainit.xml, metasync.xml, mdmonitor.xml,
# rpc-meta); the first two must be online for SVM to have its state.
SVM_SERVICES = (("svc:/system/metainit:default", FAIL),
                ("svc:/system/metasync:default", FAIL),
                ("svc:/system/mdmonitor:default", WARN),
                ("svc:/network/rpc/meta:default", WARN))


def add_arguments(parser):
    parser.add_argument("mirror", nargs="?",
                        help="only this mirror (default: every mirror)")
    parser.add_argument("--json", action="store_true",
                        help="machine-readable output")


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
    result = run_command("svcs", ["-H", "-o", "state,fmri"] +
                     [fmri for fmri, _ in SVM_SERVICES], check=False)
    states = {}
    for line in result.stdout.splitlines():
        words = line.split()
        if len(words) == 2:
            states[words[1]] = words[0]
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
    if not snap.physmem_bytes:
        return _check("memory", WARN, "physical memory could not be read")
    used = sum(snap.ramdisks.values())
    cap = snap.physmem_bytes * RAMDISK_MEMORY_PERCENT // 100
    return _check("memory", OK, (
        "ramdisks may use %s (%d%% of %s physical memory); %s in use by %d "
        "ramdisk%s; %s free, of which setup leaves at least %d%%" % (
            _bytes(cap), RAMDISK_MEMORY_PERCENT, _bytes(snap.physmem_bytes),
            _bytes(used), len(snap.ramdisks),
            "" if len(snap.ramdisks) == 1 else "s",
            _bytes(snap.freemem_bytes), MIN_FREE_PERCENT)))


def _bytes(count):
    return size_text(count // 512)


def mirror_verdict(snap, mirror):
    """What setup would do with `mirror`, from the Snapshot of it."""
    if snap.record is not None:
        return {"mirror": mirror, "verdict": "set up",
                "detail": "svmram status %s reports it" % mirror}
    try:
        intent, notes = choose_intent(snap, mirror)
    except RefusedError as refusal:
        return {"mirror": mirror, "verdict": "refused",
                "detail": refusal.message, "advice": refusal.advice}
    plan = plan_setup(snap, intent)
    return {"mirror": mirror, "verdict": "ready", "method": intent.method,
            "detail": " ".join(notes + cost_lines(plan)),
            "copies_blocks": plan.copies_blocks,
            "closed_seconds": plan.closed_seconds,
            "ramdisk_bytes": intent.size_bytes}


def run_check(mirror):
    """(host checks, mirror verdicts)."""
    root = common.host_root()
    checks = []
    try:
        mirrors, stale = SvmBackend(mirror or "", root).mirror_names()
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
    if mirror:
        mirrors = [mirror]
    verdicts, memory = [], None
    for name in mirrors:
        backend = SvmBackend(name, root)
        snap = backend.observe(memory=True, holders=True).evolve(
            service_imported=backend.service_imported())
        if memory is None:
            memory = memory_check(snap)
            checks.append(memory)
        verdicts.append(mirror_verdict(snap, name))
    return checks, verdicts


def render_text(checks, verdicts):
    lines = ["%-8s %-9s %s" % (c["verdict"], c["check"], c["detail"])
             for c in checks]
    for v in verdicts:
        lines.append("%s: %s: %s" % (v["mirror"], v["verdict"], v["detail"]))
        if v.get("advice"):
            lines.append("    %s" % v["advice"])
    if not verdicts and all(c["verdict"] != FAIL for c in checks):
        lines.append("There is no mirror to check.")
    return lines


def run(args):
    mirror = names.metadevice(args.mirror, "mirror") if args.mirror else None
    checks, verdicts = run_check(mirror)
    if args.json:
        json.dump({"format": JSON_FORMAT, "checks": checks,
                   "mirrors": verdicts}, sys.stdout, indent=2,
                  sort_keys=True)
        sys.stdout.write("\n")
    else:
        sys.stdout.write("".join(line + "\n"
                                 for line in render_text(checks, verdicts)))
    failed = any(c["verdict"] == FAIL for c in checks) or any(
        v["verdict"] not in ("ready", "set up") for v in verdicts)
    return EXIT_REFUSED if failed else EXIT_OK
