# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The emulated host's state: one JSON document in ``DIR/state.json``.

Every command loads it, changes it and saves it while holding an exclusive
fcntl lock on ``DIR/state.lock``, so concurrent commands are serialised.
"""

import contextlib
import fcntl
import json
import os

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
        "auto": {"frozen": False, "step": DEFAULT_STEP},
        "faults": [],
        "copied_blocks": {},   # mirror -> blocks its resyncs copied
        "violations": [],
        "active_violations": [],
    }


@contextlib.contextmanager
def locked(simdir):
    """Yield the state dict under the lock; save it when the block ends."""
    if not os.path.isdir(simdir):
        raise FileNotFoundError("svmsim: no emulator directory %s" % simdir)
    lock_path = os.path.join(simdir, LOCK_FILE)
    with open(lock_path, "a+") as lock:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX)
        try:
            st = load(simdir)
            yield st
            save(simdir, st)
        finally:
            fcntl.flock(lock.fileno(), fcntl.LOCK_UN)


def load(simdir):
    with open(os.path.join(simdir, STATE_FILE)) as f:
        return json.load(f)


def save(simdir, st):
    path = os.path.join(simdir, STATE_FILE)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        # One line: json.dumps without indent uses the C encoder, several
        # times faster than json.dump, and this runs at every command.
        # `python3 -m svmsim state DIR` prints it readably.
        f.write(json.dumps(st, sort_keys=True))
    os.replace(tmp, path)


def create(simdir, st):
    os.makedirs(simdir, exist_ok=True)
    save(simdir, st)
