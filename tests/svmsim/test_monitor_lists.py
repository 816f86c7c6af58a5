# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The monitor's check reads each submirror's regions as lists
(monitor.valid_copies, monitor.all_read_candidates): it runs after every
emulated command, and region by region it was most of an emulated
command's time (issue 29 section 6).  Here it is compared with the region
at a time reading it replaced (reference_findings below: valid_copy and
read_candidates for each region, each device's data looked up through
regions.py), on the states of a few sequences and on many variations of
them: the same findings, and the same state after the check (a present
device a check reads gets its blank regions)."""

import copy
import json
import random

from svmsim import devices, monitor, regions, units
from svmsim.state import REGIONS


class _RegionsOneByOne:
    """The lookups of the check as they were: comp_for_region for each
    region, each device's data once."""

    def __init__(self, st):
        self.st = st
        self._data = {}

    def comp(self, stripe, r):
        return regions.comp_for_region(stripe, r)

    def read(self, stripe, r):
        dev = self.comp(stripe, r)["dev"]
        if tuple(dev) not in self._data:
            self._data[tuple(dev)] = regions.device_data(self.st, dev)
        data = self._data[tuple(dev)]
        return None if data is None else data[r]


def reference_findings(st):
    """monitor._findings as it read the regions one at a time."""
    found = {}
    looks = _RegionsOneByOne(st)
    for m in units.mirrors(st):
        truth = m["truth"]
        lost = []
        for r in range(REGIONS):
            if truth[r] == 0:
                continue
            if not any(monitor.valid_copy(st, m, s, r, looks)
                       and not devices.is_ramdisk_dev(looks.comp(
                           st["units"][s["name"]], r)["dev"])
                       and looks.read(st["units"][s["name"]], r)
                       == truth[r] for s in m["subs"]):
                lost.append(r)
        if lost:
            found[(m["name"], "-", "no-disk-copy")] = (
                lost, "no disk-backed submirror holds the current data")
        head = m.get("head", 0)
        if head and not any(
                monitor.valid_copy(st, m, s, 0, looks)
                and not devices.is_ramdisk_dev(regions.head_device(
                    st["units"][s["name"]]))
                and regions.head_read(st, st["units"][s["name"]]) == head
                for s in m["subs"]):
            found[(m["name"], "-", "no-disk-label-copy")] = (
                [0], "no disk-backed submirror holds the current label "
                "blocks (0..DK_LABEL_LOC)")
        seen, sm = monitor._as_if_opened(st, m)
        seen_looks = looks if seen is st else _RegionsOneByOne(seen)
        bad = {}
        for r in range(REGIONS):
            if truth[r] == 0:
                continue
            for s in monitor.read_candidates(seen, sm, r, seen_looks):
                v = seen_looks.read(seen["units"][s["name"]], r)
                if v != truth[r]:
                    bad.setdefault(s["name"], []).append((r, v))
        live = "open" if m["name"] in st["opened_since_boot"] else "closed"
        for s in monitor.read_candidates(seen, sm, 0, seen_looks) \
                if head else ():
            v = regions.head_read(seen, seen["units"][s["name"]])
            if v != head:
                found[(m["name"], s["name"], "bad-label-read", live)] = (
                    [0], "read option %s can serve %s label blocks "
                    "(0..DK_LABEL_LOC) from this submirror" % (
                        m["read"], "blank" if not v else "stale"))
        for sname, items in bad.items():
            blank = all(v in (0, None) for _, v in items)
            what = "blank" if blank else "stale"
            found[(m["name"], sname, "bad-read", live)] = (
                [r for r, _ in items],
                "read option %s can serve %s data from this submirror"
                % (m["read"], what))
    return found


def same_check(st):
    """Both readings of `st` find the same and leave the same state; the
    findings."""
    mine, theirs = copy.deepcopy(st), copy.deepcopy(st)
    found = monitor._findings(mine)
    assert found == reference_findings(theirs)
    assert json.dumps(mine) == json.dumps(theirs)       # order too
    return found


def states_of(sim, steps):
    """The host's state at the start and after each step: ("ok", command
    line), ("run", command line that may fail), ("sim", svmsim command)."""
    got = [sim.state()]
    for kind, cmd in steps:
        if kind == "ok":
            sim.ok(cmd)
        elif kind == "run":
            sim.run(cmd)
        elif kind == "link":
            sim.link(cmd)
        else:
            sim.sim(*cmd.split())
        got.append(sim.state())
    return got


RAM = [("ok", "ramdiskadm -a testdisk 230m"), ("link", "testdisk"),
       ("ok", "metainit d13 1 1 c5t0d0s0"), ("ok", "metattach d10 d13"),
       ("sim", "tick")]
# tests/svmsim/test_monitor.py's: the RAM submirror first in the read
# order, offline and written, rebooted, its ramdisk made again before the
# first open (blank data served), resynced.
RAM_FIRST = RAM + [
    ("ok", "metadetach d10 d11"), ("ok", "metattach d10 d11"),
    ("sim", "tick"), ("ok", "metadetach d10 d12"),
    ("ok", "metattach d10 d12"), ("sim", "tick"),
    ("ok", "metaparam -r first d10"), ("ok", "metaoffline d10 d13"),
    ("sim", "write d10"), ("ok", "metaonline d10 d13"), ("sim", "tick"),
    ("sim", "reboot --before-metasync"),
    ("ok", "ramdiskadm -a testdisk 230m"), ("run", "metasync -r"),
    ("run", "metastat d10"), ("sim", "reboot"), ("run", "metastat d10")]
# The one-way rebuild: the mirror made again on its RAM submirror alone.
ONE_WAY = RAM + [
    ("sim", "close d10"), ("ok", "metaclear d10"),
    ("ok", "metainit d10 -m d13"), ("sim", "write d10")]


SUB_STATES = ("RUNNING", "COMP_ERRED", "COMP_RESYNC", "ATTACHED_RESYNC",
              "OFFLINE", "OFFLINE_RESYNC", "UNUSED")
COMP_STATES = ("Okay", "Last Erred", "Resyncing", "Maintenance")


def vary(st, rnd):
    """A state like `st` with its mirrors' submirrors, components, resync,
    read option, written regions, data and devices shuffled about."""
    st = copy.deepcopy(st)
    mirrors = units.mirrors(st)
    for m in mirrors:
        names = [s["name"] for s in m["subs"]]
        m["read"] = rnd.choice(("roundrobin", "first", "geometric"))
        m["truth"] = [rnd.choice((0, 0, 1, 5, 9)) for _ in range(REGIONS)]
        m["head"] = rnd.choice((0, 0, 3, 7))
        m["resync"] = rnd.choice((None, {
            "targets": rnd.sample(names, rnd.randint(0, len(names))),
            "pct": rnd.randint(0, 100), "kind": "optimized",
            "overwrote": []}))
        for s in m["subs"]:
            s["state"] = rnd.choice(SUB_STATES)
            s["dirty"] = rnd.sample(range(REGIONS), rnd.randint(0, 5))
            stripe = st["units"][s["name"]]
            for c in units.all_comps(stripe):
                c["state"] = rnd.choice(COMP_STATES)
            if rnd.random() < 0.3:
                # a second row, or a second component in the row, on
                # another device (comp_for_region's other branches)
                comp = dict(stripe["rows"][0]["comps"][0])
                other = rnd.choice([u for u in st["units"].values()
                                    if u["type"] == "stripe"])
                comp["dev"] = list(other["rows"][0]["comps"][0]["dev"])
                if rnd.random() < 0.5:
                    stripe["rows"][0]["comps"].append(comp)
                    stripe["rows"][0]["interlace"] = rnd.choice(
                        (None, 32, 1024, 40000))
                else:
                    first = stripe["rows"][0]["comps"][0]
                    first["blocks"] = stripe["size"] // rnd.choice((2, 3))
                    comp["blocks"] = stripe["size"] - first["blocks"]
                    stripe["rows"].append({"comps": [comp],
                                           "interlace": None})
        if rnd.random() < 0.3:
            st["opened_since_boot"] = [n for n in st["opened_since_boot"]
                                       if n != m["name"]]
    for key in list(st["devdata"]):
        if rnd.random() < 0.3:
            del st["devdata"][key]
        else:
            st["devdata"][key] = [rnd.choice((0, 1, 5, 9, 11))
                                  for _ in range(REGIONS)]
    for key in list(st.get("devhead", {})):
        st["devhead"][key] = rnd.choice((0, 3, 7))
    for name in list(st["ramdisks"]):
        if rnd.random() < 0.3:
            del st["ramdisks"][name]            # its device is absent
    for ctd in list(st["disks"]):
        if rnd.random() < 0.1:
            del st["disks"][ctd]                # and a disk's
    return st


def test_the_lists_find_what_each_region_found(make_sim):
    states = states_of(make_sim(name="first"), RAM_FIRST) + \
        states_of(make_sim(name="one-way"), ONE_WAY)
    found = [same_check(st) for st in states]
    assert {key[2] for f in found for key in f} == {
        "no-disk-copy", "bad-read"}
    rnd = random.Random(29)
    kinds = set()
    for _ in range(400):
        kinds.update(key[2] for key in same_check(vary(rnd.choice(states),
                                                       rnd)))
    assert kinds == {"no-disk-copy", "no-disk-label-copy", "bad-read",
                     "bad-label-read"}

