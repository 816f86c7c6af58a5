# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The per-mirror resync thread: optimized, component and submirror phases.

One job per mirror: ``m["resync"] = {active, cancelled, kind, pct, bufsize,
targets}``.  Progress runs 0..100 in whole percent; as it advances, the
mirror's current data is copied into the targets' regions.  When a job ends
the targets become RUNNING/Okay and any work left (e.g. a submirror attached
meanwhile) starts as a new job.
"""

from svmsim import monitor, regions, units
from svmsim.state import REGIONS

DEFAULT_BUFSIZE = 1024     # MD_DEF_RESYNC_BUF_SIZE (blocks)
MAX_XFER = 2048            # md_max_xfer_bufsz (blocks)


def active(m):
    job = m.get("resync")
    return bool(job and job["active"])


def cancelled(m):
    job = m.get("resync")
    return bool(job and job.get("cancelled"))


def norm_bufsize(size):
    """The kernel accepts 0 < size <= 2048, anything else means default."""
    if size is not None and 0 < size <= MAX_XFER:
        return size
    return DEFAULT_BUFSIZE


def pending_kind(st, m):
    if m["opt_not_done"]:
        return "optimized"
    states = [s["state"] for s in m["subs"]]
    if "COMP_RESYNC" in states:
        return "component"
    if "ATTACHED_RESYNC" in states:
        return "submirror"
    return None


def _targets(m, kind):
    if kind == "optimized":
        return [s["name"] for s in m["subs"]
                if s["target"] or s["state"] == "OFFLINE_RESYNC"]
    want = "COMP_RESYNC" if kind == "component" else "ATTACHED_RESYNC"
    return [s["name"] for s in m["subs"] if s["state"] == want]


def start(st, m, bufsize=None):
    """Resync request (MD_IOCSETSYNC).  A running resync is left alone
    (its copy size does not change); a cancelled or interrupted one resumes
    where it stopped."""
    if len(m["subs"]) < 2:
        return                      # the kernel ignores one-way mirrors
    job = m.get("resync")
    if job is not None:
        if job["active"]:
            return
        if job["kind"] != "optimized":
            # mirror_resync.c submirror_resync and component_resync: the
            # resumed thread looks again for a submirror still
            # ATTACHED_RESYNC (a component still resyncing); finding none
            # (the target was detached meanwhile) it sets the type to
            # none and resync_unit ends, clearing RESYNC_ACTIVE and
            # closing the mirror (mirror_internal_close).
            wanted = _targets(m, job["kind"])
            job["targets"] = [t for t in job["targets"] if t in wanted]
            if not job["targets"]:
                m["resync"] = None
                start(st, m, bufsize)
                return
        # GUESS: a cancelled (or boot-interrupted) resync resumes from its
        # percentage, with the newly requested copy size.
        job.update({"active": True, "cancelled": False, "interrupted": False,
                    "bufsize": norm_bufsize(bufsize)})
        return
    kind = pending_kind(st, m)
    if kind is None:
        return
    job = m["resync"] = {
        "active": True, "cancelled": False, "interrupted": False,
        "kind": kind, "pct": 0, "bufsize": norm_bufsize(bufsize),
        "targets": _targets(m, kind), "overwrote": []}
    if kind == "optimized" and not any(
            s["dirty"] for s in m["subs"] if s["name"] in job["targets"]):
        # GUESS: after a clean shutdown the dirty-region bitmap is empty and
        # the optimized resync ends at once (the article's metastat right
        # after boot shows no resync).
        job["pct"] = 100
        _finish(st, m, job)


def cancel(m):
    job = m.get("resync")
    if job is not None and job["active"]:
        job["active"] = False
        job["cancelled"] = True


def advance(st, m, pct):
    """Move an active resync forward by ``pct`` percent."""
    job = m.get("resync")
    if not job or not job["active"]:
        return
    p0 = job["pct"]
    p1 = min(100, p0 + pct)
    _copy(st, m, job, p0, p1)
    job["pct"] = p1
    if p1 >= 100:
        _finish(st, m, job)


def run_to_end(st, m):
    guard = 0
    while active(m) and guard < 1000:
        advance(st, m, 100)
        guard += 1


def _copy(st, m, job, p0, p1):
    for sname in job["targets"]:
        sub = next((s for s in m["subs"] if s["name"] == sname), None)
        if sub is None:
            continue
        stripe = st["units"][sname]
        only = None
        if job["kind"] == "component":
            def only(comp):
                return comp["state"] == "Resyncing"
        for r in range(p0, p1):
            if job["kind"] == "optimized":
                if r not in sub["dirty"]:
                    continue
                sub["dirty"].remove(r)
            comp = regions.comp_for_region(stripe, r)
            if only is not None and not only(comp):
                continue
            if r == 0 and not m.get("labeled"):
                # mirror.c 3456-3472: only an unlabeled mirror's resync
                # copies blocks 0..DK_LABEL_LOC; a labeled one starts at
                # DK_LABEL_LOC + 1, and the target keeps what it had.
                regions.head_write(st, stripe, m.get("head", 0))
            _count(st, m, r)
            src = m["truth"][r]
            cur = regions.read(st, stripe, r)
            if cur is not None and cur > src:
                monitor.record_overwrite(st, m, sname, r, job)
            regions.write(st, stripe, r, src, only)


def _count(st, m, r):
    """Add region r's blocks to what resyncs of this mirror copied:
    ``st["copied_blocks"][mirror]``, kept across metaclear and reboots
    (tests compare it with svmram's cost estimate)."""
    blocks = (r + 1) * m["size"] // REGIONS - r * m["size"] // REGIONS
    copied = st.setdefault("copied_blocks", {})
    copied[m["name"]] = copied.get(m["name"], 0) + blocks


def _finish(st, m, job):
    kind = job["kind"]
    for sub in m["subs"]:
        if sub["name"] not in job["targets"]:
            continue
        if kind == "submirror" and sub["state"] == "ATTACHED_RESYNC":
            sub["state"] = "RUNNING"
        elif kind == "component":
            for comp in units.all_comps(st["units"][sub["name"]]):
                if comp["state"] == "Resyncing":
                    comp["state"] = "Okay"
            units.recompute_sub(st, sub)
        elif kind == "optimized" and sub["state"] == "OFFLINE_RESYNC":
            sub["state"] = "RUNNING"
    if kind == "optimized":
        m["opt_not_done"] = False
        for sub in m["subs"]:
            sub["target"] = False
    m["resync"] = None
    start(st, m, job["bufsize"])     # pick up work that arrived meanwhile


def advance_all(st, pct):
    for m in units.mirrors(st):
        advance(st, m, pct)
