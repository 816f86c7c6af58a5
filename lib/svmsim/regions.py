# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""Where a mirror region's data lives: stripe region -> component -> device.

Data is kept per device (``st["devdata"]["major,minor"]``), one version
number per region (0 = blank), so it survives metaclear/metainit of the
stripe above it and vanishes with a ramdisk.
"""

from svmsim import devices
from svmsim.state import REGIONS

ERRED = ("Maintenance",)   # components that take no I/O at all


def comp_for_region(stripe, r):
    """The component holding region ``r`` of a stripe."""
    offset = r * stripe["size"] // REGIONS
    base = 0
    rows = stripe["rows"]
    for row in rows:
        comps = row["comps"]
        rsize = row_blocks(row)
        if offset < base + rsize or row is rows[-1]:
            if len(comps) == 1:
                return comps[0]
            il = row.get("interlace") or 1024
            return comps[((offset - base) // il) % len(comps)]
        base += rsize
    return rows[-1]["comps"][-1]


def row_blocks(row):
    comps = row["comps"]
    if len(comps) == 1:
        return comps[0]["blocks"]
    il = row.get("interlace") or 1024
    per = min(c["blocks"] for c in comps) // il * il
    return per * len(comps)


def device_data(st, dev, create=True):
    """The region list of a present device, or None if it is absent."""
    if devices.kernel_device(st, dev) is None:
        return None
    key = devices.devkey(dev)
    data = st["devdata"].get(key)
    if data is None and create:
        data = st["devdata"][key] = [0] * REGIONS
    return data


def read(st, stripe, r):
    """Version stored at region r of the stripe, None if unreadable."""
    comp = comp_for_region(stripe, r)
    data = device_data(st, comp["dev"])
    return None if data is None else data[r]


def write(st, stripe, r, version, comp_filter=None):
    """Store a version in region r unless the component takes no writes."""
    comp = comp_for_region(stripe, r)
    if comp["state"] in ERRED:
        return False
    if comp_filter is not None and not comp_filter(comp):
        return False
    data = device_data(st, comp["dev"])
    if data is None:
        return False
    data[r] = version
    return True


# --- the label blocks ---------------------------------------------------------
#
# Blocks 0..DK_LABEL_LOC of a unit (the host's switch "label_blocks": 2 on
# x86, where dklabel.h makes DK_LABEL_LOC 1 for _SUNOS_VTOC_16, 1 on
# SPARC) are kept apart from the regions, one version per device in
# st["devhead"]: a labeled mirror's resync never copies them (mirror.c
# 3456-3472 mirror_map_write starts a write-after-read at block 0 at
# DK_LABEL_LOC + 1 instead), so they can differ from the rest of region 0.
# A slice that starts at sector 0 holds its disk's label there: not data
# of the mirror's, so it has no version (0) and the monitor ignores it.

def head_device(stripe):
    """The device whose first blocks are the stripe's blocks 0..LOC:
    row 0, component 0 (GUESS: a replica on that slice, which moves the
    stripe's start past it, is not modelled here)."""
    return stripe["rows"][0]["comps"][0]["dev"]


def head_read(st, stripe):
    """Version of the stripe's label blocks, None if its device is absent
    (0: blank or a disk label)."""
    dev = head_device(stripe)
    if devices.kernel_device(st, dev) is None:
        return None
    return st.setdefault("devhead", {}).get(devices.devkey(dev), 0)


def head_write(st, stripe, version):
    comp = stripe["rows"][0]["comps"][0]
    if comp["state"] in ERRED or devices.kernel_device(st, comp["dev"]) \
            is None:
        return False
    st.setdefault("devhead", {})[devices.devkey(comp["dev"])] = version
    return True


def forget_device(st, dev):
    """A device that vanished (a ramdisk deleted, or gone at a reboot)
    takes its data with it."""
    key = devices.devkey(dev)
    st["devdata"].pop(key, None)
    st.setdefault("devhead", {}).pop(key, None)
