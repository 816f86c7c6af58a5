# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""A UFS on a metadevice: newfs makes it, mount -F ufs mounts it on a
directory of the fake root, umount unmounts it.

The file system lives on the blocks beneath the metadevice, as a real
one does: its superblock is in the device's first region (mkfs writes
it at SBOFF, 8 KiB in; the label blocks are not the file system's).
newfs records the devices that hold that region (each submirror's
component, or the stripe's) in st["ufs_records"], with the version of
the data newfs left there; from then on a metadevice holds the file
system when a read of its first region (a mirror's read option picks
the submirror, as dd's does) returns the same data as one of those
devices holds now.  So a mirror recreated from the same submirrors
under any name, as svmram's swap and copy methods do, or one of its
stripes alone, still holds it; a mirror built on other devices, or a
device written over by another newfs, does not; writes to the mounted
file system (the emulator's writes to an open mirror) land on every
submirror alike and keep the copies equal; a RAM submirror resynced
from a disk holds the same data as the disk.  What the file system's
files are lives in the emulator's directory ufs/ID while it is not
mounted, and in the mount point while it is (GUESS, a limit of the
model: two copies of one file system, e.g. a detached submirror and
its mirror, share that one tree, and only one of them can be mounted
at a time here).  What the mount point held before is covered
(covered/NAME) and shown again at the umount.

Mounting opens the metadevice (ufs_vfsops.c mountfs: VOP_OPEN of the
block device, md.c mdopen), which is a mirror's first open (its kstat:
md_unit_incopen) and what makes metaclear refuse it ("metadevice is
open", mirror_reset's md_unit_isopen); the umount closes it.  A process
with a file open or its working directory in the file system keeps it
busy: umount2 fails with EBUSY (st["held"], set by `svmsim hold PATH`).
A reboot unmounts what mount(1M) mounted outside the vfstab, and the
processes that held files are gone.  (The open and the close are the
callers': svm.write_tab_files reads the mnttab lines here, so this
module does not import svm.)"""

import os
import shutil

from svmsim import devices, monitor, regions

MOUNT_OPTIONS = "rw,intr,largefiles,logging,xattr,onerror=panic"
SUPERBLOCK_REGION = 0


def mounts(st):
    """metadevice -> mount point, of the mounts made by mount(1M)."""
    return st.setdefault("md_mounts", {})


def records(st):
    return st.setdefault("ufs_records", [])


def held(st):
    """The paths processes hold open (a file, or a working directory)."""
    return st.setdefault("held", [])


def _first_region_stripes(st, u):
    """The stripes whose first region a read of unit `u` can come from,
    the one a read returns first (a mirror's read option, reference
    4.1; a stripe serves itself)."""
    if u["type"] != "mirror":
        return [u]
    found = monitor.all_read_candidates(
        st, u, monitor._Regions(st))[SUPERBLOCK_REGION]
    return [st["units"][s["name"]] for s in found]


def _device_of(stripe):
    return devices.devkey(regions.comp_for_region(
        stripe, SUPERBLOCK_REGION)["dev"])


def _version_on(st, key):
    """The data version the device `key` holds in its first region."""
    data = st["devdata"].get(key)
    return data[SUPERBLOCK_REGION] if data else 0


def find(st, name):
    """The record of the file system metadevice `name` holds, or None."""
    u = st["units"].get(name)
    if u is None:
        return None
    stripes = _first_region_stripes(st, u)
    if not stripes:
        return None
    version = regions.read(st, stripes[0], SUPERBLOCK_REGION) or 0
    if not version:
        return None
    for record in records(st):
        if any(_version_on(st, key) == version
               for key in record["devices"]):
            return record
    return None


def has_ufs(st, name):
    return find(st, name) is not None


def _stash(simdir, kind, name):
    return os.path.join(simdir, kind, str(name))


def _move_entries(source, target):
    os.makedirs(target, exist_ok=True)
    if not os.path.isdir(source):
        return
    for entry in os.listdir(source):
        shutil.move(os.path.join(source, entry), os.path.join(target, entry))


def make(st, simdir, name):
    """newfs (after it wrote the device's regions): a new, empty file
    system (mkfs makes lost+found) on the devices beneath `name`; a file
    system those devices held is gone from them (a copy on other devices
    stays)."""
    u = st["units"][name]
    stripes = [st["units"][s["name"]] for s in u["subs"]] \
        if u["type"] == "mirror" else [u]
    keys = sorted({_device_of(s) for s in stripes})
    for record in list(records(st)):
        record["devices"] = [k for k in record["devices"] if k not in keys]
        if not record["devices"]:
            records(st).remove(record)
            shutil.rmtree(_stash(simdir, "ufs", record["id"]),
                          ignore_errors=True)
    st["ufs_next"] = st.get("ufs_next", 0) + 1
    record = {"id": st["ufs_next"], "devices": keys}
    records(st).append(record)
    stash = _stash(simdir, "ufs", record["id"])
    shutil.rmtree(stash, ignore_errors=True)
    os.makedirs(os.path.join(stash, "lost+found"))


def mount(st, simdir, name, point, directory):
    """Mount the file system of metadevice `name` on `point`, whose
    directory in the fake root is `directory`."""
    record = find(st, name)
    _move_entries(directory, _stash(simdir, "covered", name))
    _move_entries(_stash(simdir, "ufs", record["id"]), directory)
    mounts(st)[name] = point
    st.setdefault("md_mounted_ufs", {})[name] = record["id"]


def busy(st, point):
    """Is something held open at or under the mount point `point`?"""
    prefix = point.rstrip("/") + "/"
    return any(path == point or path.startswith(prefix)
               for path in held(st))


def umount(st, simdir, name, directory):
    ident = st.setdefault("md_mounted_ufs", {}).pop(name, None)
    if ident is not None:
        _move_entries(directory, _stash(simdir, "ufs", ident))
    _move_entries(_stash(simdir, "covered", name), directory)
    mounts(st).pop(name, None)


def unmount_all(st, simdir):
    """A reboot: the file systems mount(1M) mounted are unmounted (their
    opens went with the kernel), and no process holds anything."""
    root = os.path.join(simdir, "root")
    for name, point in sorted(mounts(st).items()):
        umount(st, simdir, name, os.path.join(root, point.lstrip("/")))
    st["md_mounts"] = {}
    st["held"] = []


def mnttab_lines(st):
    return "".join("/dev/md/dsk/%s\t%s\tufs\t%s\t1226400000\n" % (
        name, point, MOUNT_OPTIONS)
        for name, point in sorted(mounts(st).items())
        if name in st["units"])
