# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The SVM configuration and state model: plain data, no I/O.

Names are always short, as SVM's cnames: ``d10``, ``c1t0d0s0``,
``blue/d10`` (disk set ``blue``).  A component whose raw path is not
under ``/dev/rdsk`` or ``/dev/md`` keeps its full path.

Fields that only plain ``metastat`` shows (states, sizes, Invoke text)
are None when the model comes from ``metastat -p``; ``Config.detailed``
tells which of the two a Config holds, and ``to_json`` follows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List, Optional

# Canonical spellings, as metastat prints them (libmeta sm_state_to_name,
# comp_state_to_name, raid_state_to_name, raid_col_state_to_name,
# meta_sp_status_to_name, mt_flags_to_name, mt_l_error_to_name,
# hs_state_to_name).  "Last Erred" is not printed for submirrors by
# current illumos but older releases and their documentation use it.
SUBMIRROR_STATES = ("Okay", "Resyncing", "Needs maintenance", "Last Erred",
                    "Unavailable", "Resync cancelled")
COMPONENT_STATES = ("Okay", "Maintenance", "Last Erred", "Resyncing",
                    "Unavailable", "-")
RAID_STATES = ("Okay", "Resyncing", "Initializing", "Needs Maintenance",
               "Initialization Failed", "Regen", "Unavailable")
RAID_COLUMN_STATES = ("Okay", "Initializing", "Maintenance", "Last Erred",
                      "Resyncing", "Unavailable", "-")
SOFTPART_STATES = ("Okay", "Creating", "Growing", "Deleting", "Errored",
                   "Recovering", "Unavailable")
TRANS_STATES = ("Okay", "Detached", "Detaching", "Attaching", "Error",
                "Hard Error", "Unavailable")
LOG_STATES = ("Okay", "Error", "Hard Error", "Unavailable")
HOT_SPARE_STATES = ("Available", "In use", "Broken")

# A mirror's summary state is the most severe of its submirrors' states,
# in this order, or Okay when every submirror is Okay.
MIRROR_STATE_SEVERITY = ("Unavailable", "Needs maintenance", "Last Erred",
                         "Resync cancelled", "Resyncing")

_WORD = r"[A-Za-z][A-Za-z0-9_.-]*"
NAME_RE = re.compile(r"(?:%s/)?%s\Z" % (_WORD, _WORD))
_MD_PATH = re.compile(r"/dev/md/(?:(%s)/)?r?dsk/(%s)\Z" % (_WORD, _WORD))
_DISK_PATH = re.compile(r"/dev/r?dsk/(%s)\Z" % _WORD)
_OTHER_PATH = re.compile(r"/\S+\Z")


def spellings(states):
    """Map of lower-cased state -> canonical spelling."""
    return {state.lower(): state for state in states}


def mirror_summary_state(submirror_states):
    """Okay if every submirror is Okay, else the most severe state."""
    if not submirror_states:
        return None
    for state in MIRROR_STATE_SEVERITY:
        if state in submirror_states:
            return state
    return "Okay"


def short_name(token):
    """The short name for a device token, or None if it is not one.

    ``/dev/md/rdsk/d13`` -> ``d13``, ``/dev/md/blue/rdsk/d10`` ->
    ``blue/d10``, ``/dev/rdsk/c5t0d0s0`` -> ``c5t0d0s0`` (``dsk`` alike);
    other absolute paths are kept whole.
    """
    if token.startswith("/"):
        match = _MD_PATH.match(token)
        if match:
            set_name, name = match.groups()
            return "%s/%s" % (set_name, name) if set_name else name
        match = _DISK_PATH.match(token)
        if match:
            return match.group(1)
        if token.startswith(("/dev/md/", "/dev/rdsk/", "/dev/dsk/")):
            return None
        return token if _OTHER_PATH.match(token) else None
    return token if NAME_RE.match(token) else None


def is_metadevice_path(token):
    return _MD_PATH.match(token) is not None


@dataclass
class Component:
    """A slice (or metadevice) in a stripe row or a RAID-5 column."""

    device: str
    start_block: Optional[int] = None
    dbase: Optional[bool] = None
    state: Optional[str] = None
    reloc: Optional[bool] = None
    hot_spare: Optional[str] = None

    def to_json(self, detailed):
        if not detailed:
            return self.device
        return {"device": self.device, "state": self.state,
                "start_block": self.start_block, "dbase": self.dbase,
                "reloc": self.reloc, "hot_spare": self.hot_spare}


@dataclass
class Row:
    """One stripe of a concat/stripe: its components and interlace."""

    components: List[Component] = field(default_factory=list)
    interlace_blocks: Optional[int] = None

    def to_json(self, detailed):
        return {"components": [c.to_json(detailed) for c in self.components],
                "interlace_blocks": self.interlace_blocks}


@dataclass
class Mirror:
    type = "mirror"

    name: str
    submirrors: List[str] = field(default_factory=list)    # slot order
    read_option: str = "roundrobin"
    write_option: str = "parallel"
    pass_num: int = 1
    parent: Optional[str] = None
    # plain metastat only
    slots: Optional[List[int]] = None
    submirror_states: Optional[List[str]] = None
    size_blocks: Optional[int] = None
    resync: Optional[str] = None            # "active" or "cancelled"
    resync_percent: Optional[int] = None
    resync_tenths: Optional[int] = None     # the >1 TB "%2d.%1d" form
    resync_option: Optional[str] = None     # multi-owner sets
    owner: Optional[str] = None             # multi-owner sets

    @property
    def state(self):
        return mirror_summary_state(self.submirror_states)

    def children(self):
        return list(self.submirrors)

    def to_json(self, detailed):
        out = {"name": self.name, "type": self.type,
               "submirrors": list(self.submirrors),
               "read_option": self.read_option,
               "write_option": self.write_option,
               "pass": self.pass_num, "parent": self.parent}
        if detailed:
            out.update(state=self.state, size_blocks=self.size_blocks,
                       invoke=None,
                       submirror_states=list(self.submirror_states or []),
                       slots=list(self.slots or []), resync=self.resync,
                       resync_percent=self.resync_percent,
                       resync_tenths=self.resync_tenths,
                       resync_option=self.resync_option, owner=self.owner)
        return out


@dataclass
class Stripe:
    type = "stripe"

    name: str
    rows: List[Row] = field(default_factory=list)
    hot_spare_pool: Optional[str] = None
    parent: Optional[str] = None
    # plain metastat only
    state: Optional[str] = None
    size_blocks: Optional[int] = None
    invoke: Optional[str] = None

    def components(self):
        return [c for row in self.rows for c in row.components]

    def children(self):
        return [c.device for row in self.rows for c in row.components]

    def to_json(self, detailed):
        out = {"name": self.name, "type": self.type,
               "rows": [row.to_json(detailed) for row in self.rows],
               "hot_spare_pool": self.hot_spare_pool, "parent": self.parent}
        if detailed:
            out.update(state=self.state, size_blocks=self.size_blocks,
                       invoke=self.invoke)
        return out


@dataclass
class Extent:
    offset: int
    length: int

    def to_json(self):
        return {"offset": self.offset, "length": self.length}


@dataclass
class SoftPartition:
    type = "softpart"

    name: str
    device: str
    extents: List[Extent] = field(default_factory=list)
    parent: Optional[str] = None
    # plain metastat only
    state: Optional[str] = None
    size_blocks: Optional[int] = None
    start_block: Optional[int] = None
    dbase: Optional[bool] = None
    reloc: Optional[bool] = None

    def children(self):
        return [self.device]

    def to_json(self, detailed):
        out = {"name": self.name, "type": self.type, "device": self.device,
               "extents": [e.to_json() for e in self.extents],
               "parent": self.parent}
        if detailed:
            out.update(state=self.state, size_blocks=self.size_blocks,
                       start_block=self.start_block, dbase=self.dbase,
                       reloc=self.reloc)
        return out


@dataclass
class Raid5:
    type = "raid5"

    name: str
    columns: List[Component] = field(default_factory=list)
    interlace_blocks: Optional[int] = None
    hot_spare_pool: Optional[str] = None
    prewrite_count: Optional[int] = None      # -w, when not the default
    original_columns: Optional[int] = None    # -o, after concatenation
    parent: Optional[str] = None
    # plain metastat only
    state: Optional[str] = None
    size_blocks: Optional[int] = None
    invoke: Optional[str] = None
    # "resync", "initialization" or "regeneration" (of parity)
    progress: Optional[str] = None
    progress_tenths: Optional[int] = None

    def children(self):
        return [c.device for c in self.columns]

    def to_json(self, detailed):
        out = {"name": self.name, "type": self.type,
               "columns": [c.to_json(detailed) for c in self.columns],
               "interlace_blocks": self.interlace_blocks,
               "hot_spare_pool": self.hot_spare_pool,
               "prewrite_count": self.prewrite_count,
               "original_columns": self.original_columns,
               "parent": self.parent}
        if detailed:
            out.update(state=self.state, size_blocks=self.size_blocks,
                       invoke=self.invoke, progress=self.progress,
                       progress_tenths=self.progress_tenths)
        return out


@dataclass
class Trans:
    """A trans (UFS logging) metadevice; obsolete but still reported."""

    type = "trans"

    name: str
    master: str
    log: Optional[str] = None
    parent: Optional[str] = None
    # plain metastat only
    state: Optional[str] = None
    size_blocks: Optional[int] = None
    invoke: Optional[str] = None
    log_state: Optional[str] = None
    log_size_blocks: Optional[int] = None

    def children(self):
        # A log may be shared by several trans devices: it has no parent.
        return [self.master]

    def to_json(self, detailed):
        out = {"name": self.name, "type": self.type, "master": self.master,
               "log": self.log, "parent": self.parent}
        if detailed:
            out.update(state=self.state, size_blocks=self.size_blocks,
                       invoke=self.invoke, log_state=self.log_state,
                       log_size_blocks=self.log_size_blocks)
        return out


@dataclass
class HotSpare:
    device: str
    state: Optional[str] = None
    size_blocks: Optional[int] = None
    reloc: Optional[bool] = None

    def to_json(self, detailed):
        if not detailed:
            return self.device
        return {"device": self.device, "state": self.state,
                "size_blocks": self.size_blocks, "reloc": self.reloc}


@dataclass
class HotSparePool:
    type = "hsp"

    name: str
    spares: List[HotSpare] = field(default_factory=list)

    def children(self):
        return []

    def to_json(self, detailed):
        return {"name": self.name, "type": self.type,
                "spares": [s.to_json(detailed) for s in self.spares]}


@dataclass
class Relocation:
    """A row of metastat's Device Relocation Information trailer."""

    device: str
    reloc: bool
    device_id: Optional[str]     # None for "-"

    def to_json(self):
        return {"device": self.device, "reloc": self.reloc,
                "device_id": self.device_id}


class Config:
    """The devices of one metastat output, in the order printed."""

    def __init__(self, detailed=False):
        self.devices = []
        self.detailed = detailed        # True: from plain metastat
        self.stale_replicas = False     # the ****/WARNING banner was shown
        self.relocation = []            # [Relocation], plain metastat only
        self._by_name = {}

    def add(self, device):
        if device.name in self._by_name:
            raise ValueError("duplicate device %s" % device.name)
        self.devices.append(device)
        self._by_name[device.name] = device

    def get(self, name):
        return self._by_name.get(name)

    def __contains__(self, name):
        return name in self._by_name

    def mirrors(self):
        return [d for d in self.devices if isinstance(d, Mirror)]

    def assign_parents(self):
        """Set ``parent`` on each metadevice that exactly one device is
        built on and whose parent is not known yet."""
        for name, users in self.users().items():
            device = self._by_name.get(name)
            # Slices are not in _by_name; hot spare pools have no parent.
            if len(users) == 1 and getattr(device, "parent", False) is None:
                device.parent = users[0]

    def users(self):
        """Map of name -> names of the devices built directly on it."""
        users = {}
        for device in self.devices:
            for child in device.children():
                users.setdefault(child, []).append(device.name)
        return users

    def to_json(self):
        return {"devices": [d.to_json(self.detailed) for d in self.devices],
                "stale_replicas": self.stale_replicas,
                "relocation": [r.to_json() for r in self.relocation]}


@dataclass
class MirrorParams:
    """What ``metaparam dN`` shows for a mirror."""

    name: str
    pass_num: int
    read_option: str
    write_option: str
    resync_option: Optional[str] = None

    def to_json(self):
        return {"name": self.name, "pass": self.pass_num,
                "read_option": self.read_option,
                "write_option": self.write_option,
                "resync_option": self.resync_option}


@dataclass
class Replica:
    """A state database replica as ``metadb`` lists it."""

    flags: str                      # the set flag letters, e.g. "ampluo"
    first_block: Optional[int]      # None when metadb says "unknown"
    block_count: Optional[int]
    device: str

    def to_json(self):
        return {"flags": self.flags, "first_block": self.first_block,
                "block_count": self.block_count, "device": self.device}


@dataclass
class Ramdisk:
    name: str
    device: str             # /dev/ramdisk/NAME
    size_bytes: int
    removable: bool

    def to_json(self):
        return {"name": self.name, "device": self.device,
                "size_bytes": self.size_bytes, "removable": self.removable}

