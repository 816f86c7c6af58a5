# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The scratch mirror that tests the slot behaviour (pure).

Where it is not known whether metadetach leaves a hole in a mirror's
slots, svmram builds a scratch mirror of two 1 MiB ramdisks, detaches its
slot 0, looks, and removes it all (SvmHost.probe_slots).  A failure, a
kill or a reboot can leave parts of it behind.  They are recognisable:
ramdisks with svmram's scratch names, /dev/dsk and /dev/rdsk links to
them, stripes built on those links and mirrors built of those stripes.
The next run removes them before it tests again; anything else built on
them is the administrator's, and svmram refuses to touch it.
"""

import posixpath
import re
from dataclasses import dataclass
from typing import Tuple

from ..errors import RefusedError
from . import names

RAMDISKS = ("svmram_probe0", "svmram_probe1")
SIZE = "1m"


@dataclass(frozen=True)
class Layout:
    """The scratch mirror's names: `mirror` of the stripes `first` (the
    one detached) and `second`, on `links` (cNtNdNsN, one per ramdisk)."""
    mirror: str
    first: str
    second: str
    links: Tuple[str, ...]


def layout(used_names, used_controllers):
    """The highest free metadevice names (of the default 128), out of the
    way, and links on the first free controllers from c90."""
    units = [name for name in ("d%d" % n for n in range(127, -1, -1))
             if name not in used_names][:3]
    if len(units) < 3:
        raise RefusedError("no three free metadevice names are left for a "
                           "scratch mirror",
                           advice="Free some metadevice names first.")
    controllers, links = set(used_controllers), []
    for _ in RAMDISKS:
        link = names.free_link(frozenset(controllers))
        controllers.add(names.controller_of(link))
        links.append(link)
    return Layout(units[0], units[1], units[2], tuple(links))


def compacts(slots):
    """What `metastat MIRROR` of the scratch mirror after the detach of
    slot 0 shows: its other submirror in slot 0 (compacts) or 1 (hole)."""
    return slots == [0]


@dataclass(frozen=True)
class Leftovers:
    mirrors: Tuple[str, ...] = ()
    stripes: Tuple[str, ...] = ()
    links: Tuple[str, ...] = ()       # cNtNdNsN, in /dev/dsk and /dev/rdsk
    ramdisks: Tuple[str, ...] = ()

    def __bool__(self):
        return bool(self.mirrors or self.stripes or self.links
                    or self.ramdisks)

    def removal(self):
        """What removes them, in order: [(program, args)] with the
        pseudo-program "unlink" for the two links of a name."""
        return ([("metaclear", [name]) for name in self.mirrors]
                + [("metaclear", [name]) for name in self.stripes]
                + [("unlink", link) for link in self.links]
                + [("ramdiskadm", ["-d", name]) for name in self.ramdisks])

    def script(self):
        """The same as shell lines, for the operator."""
        lines = []
        for program, args in self.removal():
            if program == "unlink":
                lines.append("rm -f /dev/dsk/%s /dev/rdsk/%s" % (args, args))
            else:
                lines.append(" ".join([program] + args))
        return lines


def leftovers(config, ramdisks, links):
    """What an earlier scratch mirror left: `config` from metastat -p (or
    None without replicas), `ramdisks` the names ramdiskadm lists, `links`
    {"dsk/c91t0d0s0": "/dev/ramdisk/svmram_probe0", ...}.  Refuses when
    something that is not svmram's scratch mirror uses them."""
    link_names = sorted({key.split("/", 1)[1] for key, target in links.items()
                         if posixpath.basename(target) in RAMDISKS})
    stripes, mirrors = [], []
    for device in (config.devices if config is not None else ()):
        if device.type != "stripe":
            continue
        parts = [c.device for c in device.components()]
        on_scratch = [p for p in parts if posixpath.basename(p) in link_names]
        if not on_scratch:
            continue
        if len(on_scratch) != len(parts):
            raise _foreign(device.name, on_scratch[0])
        stripes.append(device.name)
    for device in (config.devices if config is not None else ()):
        if device.type == "stripe":
            continue
        used = [name for name in stripes if name in _parts_of(device)]
        if not used:
            continue
        if device.type != "mirror" or \
                sorted(device.submirrors) != sorted(used):
            raise _foreign(device.name, used[0])
        mirrors.append(device.name)
    return Leftovers(tuple(mirrors), tuple(stripes), tuple(link_names),
                     tuple(name for name in reversed(RAMDISKS)
                           if name in ramdisks))


def _parts_of(device):
    if device.type == "mirror":
        return set(device.submirrors)
    # Soft partitions, RAID-5, trans and hot spare pools: any metadevice
    # name they mention (a stripe used there is the administrator's).
    return set(re.findall(r"\bd[0-9]+\b", repr(device)))


def _foreign(name, part):
    return RefusedError(
        "%s uses %s, which is on svmram's scratch ramdisks (%s)" % (
            name, part, ", ".join(RAMDISKS)),
        advice="svmram does not remove what it did not build; move %s off "
               "them, then run svmram again." % name)
