# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The md backend's model of what the host holds (pure): an array and
its members, brd, the disks.  snapshot.py puts them together into the
planner's view of one array."""

from dataclasses import dataclass, field, replace
from typing import Dict, FrozenSet, Optional, Tuple

# A member's role, derived from md/dev-*/state and slot.
IN_SYNC = "in_sync"         # a working copy
RECOVERING = "recovering"   # has a slot, is being filled
SPARE = "spare"             # no slot (yet): md's thread may give it one
FAULTY = "faulty"

# md/sync_action while md checks (or repairs) an array that needs no
# recovery: a scrub (md.c action_show: "check" with MD_RECOVERY_CHECK,
# else "repair", for a requested sync); md runs one sync action at a
# time (md_check_recovery starts no recovery while its sync thread runs).
SCRUBS = ("check", "repair")

RUNNING_STATES = ("clean", "active", "active-idle", "write-pending",
                  "read-auto", "readonly")


@dataclass(frozen=True)
class Member:
    name: str                       # kernel name: vda, sdb1, ram0
    slot: Optional[int]             # None: spare or failed
    flags: FrozenSet[str] = frozenset()   # md/dev-*/state words
    offset_sectors: int = 0         # data offset
    recovery_start: Optional[int] = None  # sectors done while recovering

    @property
    def role(self):
        if "faulty" in self.flags:
            return FAULTY
        if "in_sync" in self.flags:
            return IN_SYNC
        return SPARE if self.slot is None else RECOVERING

    @property
    def write_mostly(self):
        return "write_mostly" in self.flags


@dataclass(frozen=True)
class Array:
    name: str                       # md0
    level: str                      # raid1 ('' while inactive, maybe)
    raid_disks: int                 # 0: not known (an inactive array)
    state: str                      # md/array_state
    members: Tuple[Member, ...] = ()    # sorted by name
    metadata: str = "1.2"
    component_kib: int = 0          # md/component_size
    degraded: int = 0
    sync_action: str = "idle"
    sync_completed: object = None   # None, "delayed" or (done, total)
    sync_rate_kib: Optional[int] = None  # md/sync_speed, None: "none"
    # The whole percent /proc/mdstat prints for the array's resync or
    # recovery (md's own figure; sync_completed lags), None without one.
    mdstat_percent: Optional[int] = None
    resync_start: Optional[int] = None   # None: no resync needed
    # md/bitmap/location ("none", "file", "+8"), or the array's kind of
    # bitmap from md/bitmap_type when not md's classic one ("llbitmap")
    bitmap: str = "none"
    backlog: int = 0                # md/bitmap/backlog (write-behind)
    speed_min: Tuple[int, bool] = (1000, False)   # KiB/s, set locally
    speed_max: Tuple[int, bool] = (200000, False)

    @property
    def running(self):
        return self.state in RUNNING_STATES

    @property
    def scrubbing(self):
        """md runs a check or repair (a scrub: Debian's mdcheck, or an
        administrator's echo check > md/sync_action): it reads every
        in-sync member, and md starts no recovery until it ends."""
        return self.sync_action in SCRUBS

    @property
    def scrub_percent(self):
        """How far md's check or repair has read the array, in whole
        percent (/proc/mdstat's "check =" line, else md/sync_completed);
        None when neither says."""
        if self.mdstat_percent is not None:
            return self.mdstat_percent
        done = self.sync_completed
        if isinstance(done, tuple) and done[1]:
            return done[0] * 100 // done[1]
        return None

    def scrub_words(self):
        """md's scrub in words: "md's check (scrub) of md0 (37 % done)"."""
        percent = self.scrub_percent
        return "md's %s (scrub) of %s%s" % (
            self.sync_action, self.name, " (%d %% done)" % percent
            if percent is not None else "")

    def member(self, name):
        for member in self.members:
            if member.name == name:
                return member
        return None

    def with_member(self, member):
        others = tuple(m for m in self.members if m.name != member.name)
        return replace(self, members=tuple(sorted(
            others + (member,), key=lambda m: m.name)))

    def without_member(self, name):
        return replace(self, members=tuple(
            m for m in self.members if m.name != name))


@dataclass(frozen=True)
class Brd:
    loaded: bool = False
    builtin: bool = False           # no /sys/module/brd/initstate
    rd_size_kib: int = 0
    rd_nr: int = 0
    devices: Tuple[str, ...] = ()   # ram0... that exist in /sys/block
    # ramN -> what holds it (/sys/block/ramN/holders, mounts): () if free
    holders: Dict[str, Tuple[str, ...]] = field(default_factory=dict)


@dataclass(frozen=True)
class Disk:
    name: str                       # kernel name
    size_sectors: int
    holders: Tuple[str, ...] = ()   # /sys/block/X/holders (md0, dm-1)
    mounted_on: Optional[str] = None
    partitions: Tuple[str, ...] = ()
