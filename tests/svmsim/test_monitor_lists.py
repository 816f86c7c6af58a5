# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The monitor's two rules, each written once as a list over the regions
(monitor.valid_copies, monitor.all_read_candidates; dd.py and ufs.py take
one region of the list): which copies SVM trusts, and which submirrors
can serve a read of a region (reference 4.1).  Each case states the
answer the rule gives, on a mirror built here by hand."""

from svmsim import monitor
from svmsim.state import REGIONS


def stripe(name, *comp_states, rows=False):
    """A stripe of one component per state: in one row (striped with the
    default interlace) or, with rows, each in a row of its own
    (concatenated), each component 1000 blocks on its own disk."""
    comps = [{"state": state, "blocks": 1000, "dev": [240, 16 * (i + 1)]}
             for i, state in enumerate(comp_states)]
    layout = [{"comps": [c], "interlace": None} for c in comps] if rows \
        else [{"comps": comps, "interlace": None}]
    return {"type": "stripe", "name": name, "rows": layout,
            "size": 1000 * len(comps)}


def mirror(read, *subs, resync=None):
    """A mirror of (name, state, stripe) submirrors, and its state."""
    st = {"units": {s["name"]: s for _, _, s in subs}, "devdata": {},
          "disks": {}, "ramdisks": {}, "switches": {}}
    m = {"type": "mirror", "name": "d10", "read": read, "resync": resync,
         "subs": [{"name": name, "state": state, "dirty": []}
                  for name, state, _ in subs]}
    st["units"]["d10"] = m
    return st, m


def names(candidates):
    return [[s["name"] for s in found] for found in candidates]


def test_running_submirrors_serve_reads_per_read_option():
    subs = [("d11", "RUNNING", stripe("d11", "Okay")),
            ("d12", "COMP_ERRED", stripe("d12", "Okay")),
            ("d13", "RUNNING", stripe("d13", "Okay"))]
    for read, expected in (
            ("first", [["d11"]] * REGIONS),
            ("roundrobin", [["d11", "d13"]] * REGIONS),
            # geometric: the address space split evenly among them
            ("geometric", [["d11"]] * (REGIONS // 2) +
             [["d13"]] * (REGIONS // 2))):
        st, m = mirror(read, *subs)
        got = monitor.all_read_candidates(st, m, monitor._Regions(st))
        assert names(got) == expected, read


def test_without_running_submirrors_an_okay_component_serves_first():
    """Per region: the first readable submirror whose component there is
    Okay, else one whose component is Last Erred, else none; a submirror
    being attached (not readable) never serves."""
    st, m = mirror(
        "first",
        ("d11", "COMP_ERRED", stripe("d11", "Maintenance", "Last Erred",
                                     rows=True)),
        ("d12", "COMP_ERRED", stripe("d12", "Last Erred", "Maintenance",
                                     rows=True)),
        ("d13", "ATTACHED_RESYNC", stripe("d13", "Okay", "Okay",
                                          rows=True)))
    got = names(monitor.all_read_candidates(st, m, monitor._Regions(st)))
    # the first half of the regions is on each stripe's first row
    assert got == [["d12"]] * 50 + [["d11"]] * 50
    st["units"]["d11"]["rows"][1]["comps"][0]["state"] = "Maintenance"
    got = names(monitor.all_read_candidates(st, m, monitor._Regions(st)))
    assert got == [["d12"]] * 50 + [[]] * 50


def test_a_component_resyncing_is_trusted_where_the_resync_passed():
    subs = [("d11", "RUNNING", stripe("d11", "Okay")),
            ("d12", "COMP_RESYNC", stripe("d12", "Resyncing", "Last Erred",
                                          rows=True))]
    st, m = mirror("first", *subs, resync={"targets": ["d12"], "pct": 20,
                                           "kind": "component"})
    looks = monitor._Regions(st)
    assert monitor.valid_copies(st, m, m["subs"][0], looks) == \
        [True] * REGIONS
    assert monitor.valid_copies(st, m, m["subs"][1], looks) == \
        [True] * 20 + [False] * 30 + [True] * 50
    m["resync"]["targets"] = []             # not this one's resync
    assert monitor.valid_copies(st, m, m["subs"][1], looks) == \
        [False] * 50 + [True] * 50


def test_attached_offline_and_unused_submirrors():
    subs = [("d11", "ATTACHED_RESYNC", stripe("d11", "Okay")),
            ("d12", "OFFLINE", stripe("d12", "Okay")),
            ("d13", "UNUSED", stripe("d13", "Okay"))]
    st, m = mirror("first", *subs, resync={"targets": ["d11"], "pct": 30,
                                           "kind": "submirror"})
    m["subs"][1]["dirty"] = [3, 97]         # written while offline
    looks = monitor._Regions(st)
    valid = [monitor.valid_copies(st, m, s, looks) for s in m["subs"]]
    assert valid[0] == [True] * 30 + [False] * 70
    assert valid[1] == [r not in (3, 97) for r in range(REGIONS)]
    assert valid[2] == [False] * REGIONS
