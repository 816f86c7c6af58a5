# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The emulated host's state: one JSON document in ``DIR/state.json``.

Every command loads it, changes it and saves it while holding an exclusive
fcntl lock on ``DIR/state.lock``, so concurrent commands are serialised.
"""

import fcntl
import os

from svmsim.lean import dumps, loads

STATE_FILE = "state.json"
LOCK_FILE = "state.lock"

REGIONS = 100          # each mirror's address space is split into 100 regions
DEFAULT_STEP = 10      # resync percent advanced per metastat call / tick step


def root_dir(simdir):
    return os.path.join(simdir, "root")


def new_state(nodename, physmem, availrmem_initial):
    """An empty host: no disks, no replicas, no metadevices.  The release
    and its switches are set by presets.build()."""
    return {
        "format": 1,
        "nodename": nodename,
        "release": None,
        "switches": {},
        "physmem": physmem,
        "availrmem_initial": availrmem_initial,     # bytes
        "pagesize": 4096,
        "ramdisk_max": 32,
        "ramdisk_percent": 25,
        "boot": 1,
        "seq": 0,
        "last_command": "init",
        "version": 0,          # data version counter (monitor)
        "disks": {},           # ctd -> {index, nhead, nsect, devid, slices,
                               #         starts}
        "mounts": {},          # physical slice cname -> mount point
        "devdata": {},         # "major,minor" -> [REGIONS versions]
        "ramdisks": {},        # name -> {size, minor, created}
        "ramdisk_seq": 0,
        "replicas": [],        # [{slice, blkno, nblk[, failed]}]
        "stale_db": False,     # fewer than a majority good at boot
        "units": {},           # metadevice name -> unit record
        "unit_order": [],      # kernel unit list, newest first
        "vfstab": {},          # metadevice -> mount point (mounted at boot)
        "opens": {},           # metadevice -> open count
        "opened_since_boot": [],
        "md_kstats": {},       # unit number -> writes of its I/O kstat
        "auto": {"frozen": False, "step": DEFAULT_STEP},
        "faults": [],
        "copied_blocks": {},   # mirror -> blocks its resyncs copied
        "violations": [],
        "active_violations": [],
    }


class locked:
    """``with locked(simdir) as st``: the state dict under the lock, saved
    when the block ends without an exception.  (A class, not
    contextlib.contextmanager: importing contextlib costs every emulated
    command a millisecond or two.)"""

    def __init__(self, simdir):
        self.simdir = simdir
        self.lock = self.st = None

    def __enter__(self):
        if not os.path.isdir(self.simdir):
            raise FileNotFoundError("svmsim: no emulator directory %s"
                                    % self.simdir)
        self.lock = open(os.path.join(self.simdir, LOCK_FILE), "a+")
        try:
            fcntl.flock(self.lock.fileno(), fcntl.LOCK_EX)
            self.st = load(self.simdir)
        except BaseException:
            self._unlock()
            raise
        return self.st

    def __exit__(self, exc_type, exc, tb):
        try:
            if exc_type is None:
                save(self.simdir, self.st)
        finally:
            self._unlock()
        return False

    def _unlock(self):
        try:
            fcntl.flock(self.lock.fileno(), fcntl.LOCK_UN)
        finally:
            self.lock.close()


def load(simdir):
    with open(os.path.join(simdir, STATE_FILE)) as f:
        return loads(f.read())


def save(simdir, st):
    path = os.path.join(simdir, STATE_FILE)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        # One line, the C encoder's (several times faster than with an
        # indent), and this runs at every command.  `python3 -m svmsim
        # state DIR` prints it readably.
        f.write(dumps(st, sort_keys=True))
    os.replace(tmp, path)


def create(simdir, st):
    os.makedirs(simdir, exist_ok=True)
    save(simdir, st)
