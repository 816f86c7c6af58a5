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


def comp_is_ramdisk(stripe, r):
    return devices.is_ramdisk_dev(comp_for_region(stripe, r)["dev"])
