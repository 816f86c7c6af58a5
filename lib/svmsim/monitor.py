# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The data-safety monitor.

Each mirror's address space is 100 regions.  ``m["truth"]`` holds the
version an application last wrote to each region; devices hold the versions
that reached them (regions.py).  After every state change ``check`` records
a violation when

  (a) for some region no disk-backed submirror holds the current data as a
      valid copy (RUNNING, or already resynced, or clean while offline), or
  (b) a read could be served (per the read option, reference 4.1) by a
      submirror holding other data; a closed mirror is judged as its next
      open would find it (recorded as "live" once the mirror has been
      opened since boot), or
  (c) a resync overwrote newer data with older data (recorded as it happens).

A violation is recorded once when its condition appears and stays in the
state until ``python3 -m svmsim monitor DIR --reset``.
"""

from svmsim import devices, regions, units
from svmsim.state import REGIONS

WRITE_STRIDE = 37   # automatic writes cycle through all regions


# --- application writes ------------------------------------------------------

def app_write(st, m, region=None, head=False):
    """One application write: bump the truth, land on writable submirrors.
    `head`: it also covers the label blocks (0..DK_LABEL_LOC)."""
    st["version"] += 1
    v = st["version"]
    if region is None:
        region = m["cursor"]
        m["cursor"] = (m["cursor"] + WRITE_STRIDE) % REGIONS
    m["truth"][region] = v
    count_write(st, m)
    if head:
        m["head"] = v
    for sub in m["subs"]:
        if head and sub["state"] in units.WRITABLE:
            regions.head_write(st, st["units"][sub["name"]], v)
        if sub["state"] in units.WRITABLE:
            regions.write(st, st["units"][sub["name"]], region, v)
        elif sub["state"] == "OFFLINE" and region not in sub["dirty"]:
            sub["dirty"].append(region)
    return region


def count_write(st, u):
    """The unit's I/O kstat counts a top-level write (md_subr.c
    md_kstat_done, which counts nothing while the unit has no kstat; an
    open made it: units.open_kstats)."""
    kstats = st.get("md_kstats", {})
    if str(u["num"]) in kstats:
        kstats[str(u["num"])] += 1


def auto_writes(st):
    """One write per open mirror, done at each emulated command."""
    for m in units.mirrors(st):
        if st["opens"].get(m["name"], 0) > 0:
            app_write(st, m)


# --- validity ----------------------------------------------------------------

class _Regions:
    """regions.comp_for_region() and regions.device_data() for one check:
    each stripe's components and each device's data are looked up once (the
    state does not change during a check; a check looks at every region
    of every submirror after every emulated command)."""

    def __init__(self, st):
        self.st = st
        self._comps = {}          # id(stripe) -> component of each region
        self._data = {}           # dev -> regions.device_data()

    def comps(self, stripe):
        """The component of each region of the stripe."""
        comps = self._comps.get(id(stripe))
        if comps is None:
            rows = stripe["rows"]
            if len(rows) == 1 and len(rows[0]["comps"]) == 1:
                # comp_for_region's answer for every region
                comps = [rows[0]["comps"][0]] * REGIONS
            else:
                comps = [regions.comp_for_region(stripe, n)
                         for n in range(REGIONS)]
            self._comps[id(stripe)] = comps
        return comps

    def data(self, dev):
        """regions.device_data(st, dev), looked up once per device (which
        gives a present device without data its blank regions)."""
        key = tuple(dev)
        try:
            return self._data[key]
        except KeyError:
            data = regions.device_data(self.st, dev)
            if data is None:
                data = _unmapped_lofi_data(self.st, dev)
            self._data[key] = data
            return data


def valid_copies(st, m, sub, looks):
    """For each region, is this submirror's copy one SVM would trust?  A
    readable submirror's Okay or Last Erred component, or a Resyncing one
    the resync has passed; an attached one the resync has passed; an
    offline one where it was not written since; nothing else."""
    comps = looks.comps(st["units"][sub["name"]])
    state = sub["state"]
    job = m.get("resync")
    # the resync has passed region r when r < pct (for its targets)
    pct = job["pct"] if job is not None and sub["name"] in job["targets"] \
        else 0
    if state in ("RUNNING", "COMP_ERRED", "COMP_RESYNC"):
        return [c["state"] in ("Okay", "Last Erred")
                or (c["state"] == "Resyncing" and r < pct)
                for r, c in enumerate(comps)]
    if state == "ATTACHED_RESYNC":
        return [r < pct for r in range(REGIONS)]
    if state in ("OFFLINE", "OFFLINE_RESYNC"):
        dirty = sub["dirty"]
        return [r not in dirty for r in range(REGIONS)]
    return [False] * REGIONS


def all_read_candidates(st, m, looks):
    """For each region, the submirrors that could serve a read of it
    (reference 4.1): per the read option among the running ones, else
    the first readable one whose component there is Okay, else Last
    Erred, else none."""
    running = [s for s in m["subs"] if s["state"] == "RUNNING"]
    if running:
        if m["read"] == "first":
            return [[running[0]]] * REGIONS
        if m["read"] == "geometric":
            return [[running[r * len(running) // REGIONS]]
                    for r in range(REGIONS)]
        return [running] * REGIONS
    readable = [(s, looks.comps(st["units"][s["name"]]))
                for s in m["subs"] if s["state"] in units.READABLE]
    out = []
    for r in range(REGIONS):
        found = []
        for wanted in ("Okay", "Last Erred"):
            for s, comps in readable:
                if comps[r]["state"] == wanted:
                    found = [s]
                    break
            if found:
                break
        out.append(found)
    return out


# --- checking ----------------------------------------------------------------

def ranges(rs):
    """[0,1,2,5] -> '0-2,5'."""
    rs = sorted(set(rs))
    out = []
    i = 0
    while i < len(rs):
        j = i
        while j + 1 < len(rs) and rs[j + 1] == rs[j] + 1:
            j += 1
        out.append(str(rs[i]) if i == j else "%d-%d" % (rs[i], rs[j]))
        i = j + 1
    return ",".join(out)


def _as_if_opened(st, m):
    """(state, mirror) as the next read would find them.  A closed mirror
    is judged as if it were opened now: the open rule (reference 9.1,
    units.first_open) fails components whose device is absent, while a
    present but blank ramdisk stays Okay and would serve reads.  So the
    hazard is caught at the command that creates it, not at a later
    mount."""
    if st["opens"].get(m["name"], 0) > 0 or not any(
            c["state"] not in ("Maintenance", "Last Erred")
            and devices.kernel_device(st, c["dev"]) is None
            for s in m["subs"]
            for c in units.all_comps(st["units"][s["name"]])):
        return st, m              # opening would change no state
    import copy                   # rarely needed: not at every command
    seen = copy.deepcopy(st)
    sm = seen["units"][m["name"]]
    units.first_open(seen, sm)
    return seen, sm


def _unmapped_lofi_data(st, dev):
    """A lofi device a reboot unmapped (cli.py _forget_lofi_mappings)
    lost no data: it is in its file, until the file is removed."""
    if list(dev)[0] != devices.LOFI_MAJOR:
        return None
    number = devices.lofi_number(st, list(dev)[1])
    path = st.get("lofi_unmapped", {}).get(str(number))
    return st.get("lofi_files", {}).get(path) if path else None


def _findings(st):
    found = {}
    looks = _Regions(st)
    for m in units.mirrors(st):
        truth = m["truth"]
        written = [r for r in range(REGIONS) if truth[r] != 0]
        # (a) per submirror: whether each region is a valid copy on a
        # disk, and the component's device of each region (its data is
        # looked up, in this order, only where the copy is valid on a
        # disk, as regions.device_data gives a device blank regions).
        copies = []
        label_copies = []       # valid in region 0 (the label blocks)
        for s in m["subs"]:
            comps = looks.comps(st["units"][s["name"]])
            valid = valid_copies(st, m, s, looks)
            copies.append((
                [valid[r] and not devices.is_ramdisk_dev(comps[r]["dev"])
                 for r in range(REGIONS)], comps))
            if valid[0]:
                label_copies.append(s)
        lost = []
        for r in written:
            for on_disk, comps in copies:
                if on_disk[r]:
                    data = looks.data(comps[r]["dev"])
                    if (None if data is None else data[r]) == truth[r]:
                        break
            else:
                lost.append(r)
        if lost:
            found[(m["name"], "-", "no-disk-copy")] = (
                lost, "no disk-backed submirror holds the current data")
        head = m.get("head", 0)
        if head and not any(
                not devices.is_ramdisk_dev(regions.head_device(
                    st["units"][s["name"]]))
                and regions.head_read(st, st["units"][s["name"]]) == head
                for s in label_copies):
            found[(m["name"], "-", "no-disk-label-copy")] = (
                [0], "no disk-backed submirror holds the current label "
                "blocks (0..DK_LABEL_LOC)")
        seen, sm = _as_if_opened(st, m)
        seen_looks = looks if seen is st else _Regions(seen)
        candidates = all_read_candidates(seen, sm, seen_looks)
        comps_of = {}           # submirror -> its component of each region
        bad = {}
        for r in written:       # never written: no read can be wrong
            for s in candidates[r]:
                comps = comps_of.get(s["name"])
                if comps is None:
                    comps = comps_of[s["name"]] = seen_looks.comps(
                        seen["units"][s["name"]])
                data = seen_looks.data(comps[r]["dev"])
                v = None if data is None else data[r]
                if v != truth[r]:
                    bad.setdefault(s["name"], []).append((r, v))
        # A hazard found in a closed mirror is recorded where it was made;
        # the open that makes it live is recorded again, so that a tool
        # opening a mirror onto another program's ramdisk is charged too.
        live = "open" if m["name"] in st["opened_since_boot"] else "closed"
        for s in candidates[0] if head else ():
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


def check(st):
    """Record violations whose condition appeared since the last check."""
    found = _findings(st)
    before = {tuple(k) for k in st["active_violations"]}
    for key, (rs, reason) in sorted(found.items()):
        if key not in before:
            _record(st, key[0], key[1], rs, reason)
    st["active_violations"] = [list(k) for k in sorted(found)]


def record_overwrite(st, m, sname, r, job):
    if sname in job["overwrote"]:
        return
    job["overwrote"].append(sname)
    _record(st, m["name"], sname, [r],
            "resync overwrote newer data with older data (%s resync)"
            % job["kind"])


def _record(st, mirror, sub, rs, reason):
    st["violations"].append({
        "seq": st["seq"], "mirror": mirror, "submirror": sub,
        "regions": ranges(rs), "reason": reason,
        "command": st["last_command"]})


def format_violation(v):
    where = v["mirror"] if v["submirror"] == "-" else \
        "%s submirror %s" % (v["mirror"], v["submirror"])
    return "VIOLATION %s regions %s: %s (after #%d: %s)" % (
        where, v["regions"], v["reason"], v["seq"], v["command"])


def reset(st):
    st["violations"] = []
    st["active_violations"] = []


