# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The unit model that svm.py, resync.py and monitor.py all read: the
submirror states that serve reads and take writes, walking mirrors and
components, a submirror's state derived from its components, the
open rule of a closed mirror (reference 9.1), and the I/O kstats an open makes.

It imports none of the three, so each of them imports it at module level
(the import graph of lib/svmsim has no circle: tests/svmsim/test_imports.py).
"""

from svmsim import devices

READABLE = ("RUNNING", "COMP_ERRED", "COMP_RESYNC")
WRITABLE = READABLE + ("ATTACHED_RESYNC", "OFFLINE_RESYNC")


def mirrors(st):
    return [st["units"][n] for n in st["unit_order"]
            if st["units"][n]["type"] == "mirror"]


def all_comps(stripe):
    for row in stripe["rows"]:
        for comp in row["comps"]:
            yield comp


# --- states ------------------------------------------------------------------

def recompute_sub(st, sub):
    """Derive COMP_ERRED/COMP_RESYNC/RUNNING from the component states."""
    if sub["state"] not in READABLE:
        return
    states = [c["state"] for c in all_comps(st["units"][sub["name"]])]
    if any(s in ("Maintenance", "Last Erred") for s in states):
        sub["state"] = "COMP_ERRED"
    elif any(s == "Resyncing" for s in states):
        sub["state"] = "COMP_RESYNC"
    else:
        sub["state"] = "RUNNING"


# --- the first-open rule (reference 9.1) -------------------------------------

def first_open(st, m):
    """mirror_open_all_devs at an open of a closed mirror, which runs at
    every open while the unit is not open (md_unit_isopen, mirror.c:2198-
    2203 @a593473611), not only at the first since boot: components whose
    recorded dev_t is absent become Maintenance (Last Erred if no other
    source), everything present (even a blank ramdisk) stays Okay.
    Called at every open of the mirror, for its kstats."""
    open_kstats(st, m)
    if st["opens"].get(m["name"], 0) > 0:
        return
    if m["name"] not in st["opened_since_boot"]:
        st["opened_since_boot"].append(m["name"])   # monitor's "live"
    for sub in m["subs"]:
        stripe = st["units"][sub["name"]]
        for comp in all_comps(stripe):
            if comp["state"] in ("Maintenance", "Last Erred"):
                continue
            if devices.kernel_device(st, comp["dev"]) is not None:
                continue
            others = [s for s in m["subs"] if s is not sub
                      and s["state"] in READABLE
                      and all(devices.kernel_device(st, c["dev"]) is not None
                              for c in all_comps(st["units"][s["name"]]))]
            m["errcnt"] = m.get("errcnt", 0) + 1
            comp["lasterrcnt"] = m["errcnt"]
            # GUESS: with no other readable source the component becomes
            # Last Erred (the open itself is not refused).
            comp["state"] = "Maintenance" if others else "Last Erred"
            if sub["state"] == "ATTACHED_RESYNC":
                # set_sm_comp_state() calls mirror_set_sm_state(sm, smic,
                # SMS_RUNNING, 0), which rebuilds the state from the
                # components: a submirror being attached whose component
                # errs becomes COMP_ERRED and leaves the attach resync
                # (mirror.c) [src].
                sub["state"] = "COMP_ERRED"
        recompute_sub(st, sub)
    _drop_erred_targets(m)


def open_kstats(st, u):
    """The I/O kstats an open of unit `u` makes, kept by unit number
    (programs/kstat.py shows them).  md_unit_incopen is the only caller of
    md_kstat_init (md_subr.c), and a mirror's open opens its submirrors
    (mirror.c mirror_open_all_devs: md_layered_open).  A kstat made once
    stays until the next boot with its counts: at the last close
    (md_unit_decopen) and at metaclear (md_destroy_unit_incore)
    md_kstat_destroy calls kstat_delete, which only makes a
    KSTAT_FLAG_PERSISTENT kstat dormant, "readable during the dormant
    phase", and the next kstat_create of that name revives it with its
    data (kstat_fr.c kstat_delete, kstat_create, kstat_install)."""
    kstats = st.setdefault("md_kstats", {})
    for unit in [u] + [st["units"][s["name"]] for s in u.get("subs", ())]:
        kstats.setdefault(str(unit["num"]), 0)


def _drop_erred_targets(m):
    """A component that erred at the open is no longer resynced: the resync
    thread only copies into components still in CS_RESYNC (and submirrors
    still ATTACHED_RESYNC).  A job left with no target ends; the erred
    component needs metareplace, which starts a resync from 0."""
    job = m.get("resync")
    if job is None or job["kind"] == "optimized":
        return
    wanted = "COMP_RESYNC" if job["kind"] == "component" else "ATTACHED_RESYNC"
    job["targets"] = [s["name"] for s in m["subs"]
                      if s["name"] in job["targets"] and s["state"] == wanted]
    if not job["targets"]:
        m["resync"] = None
