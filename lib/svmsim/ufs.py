# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""A UFS on a metadevice: newfs makes it, mount -F ufs mounts it on a
directory of the fake root, umount unmounts it.

The emulator does not model a file system's blocks.  A metadevice that
newfs wrote is remembered by name in st["ufs"] (kept over metaclear: a
mirror recreated from the same submirrors under its name, as svmram's
swap and unlabel do, holds the same data); what its files are lives in
the emulator's directory ufs/NAME while it is not mounted, and in the
mount point while it is, so that an unmounted file system's files are
not visible in the mount point (what a real umount does) and come back
at the next mount.  What the mount point held before is covered
(covered/NAME) and shown again at the umount.

Mounting opens the metadevice (ufs_vfsops.c mountfs: VOP_OPEN of the
block device, md.c mdopen), which is a mirror's first open (its kstat:
md_unit_incopen) and what makes metaclear refuse it ("metadevice is
open", mirror_reset's md_unit_isopen); the umount closes it.  A reboot
unmounts what mount(1M) mounted outside the vfstab.  (The open and the
close are the callers': svm.write_tab_files reads the mnttab lines here,
so this module does not import svm.)"""

import os
import shutil

MOUNT_OPTIONS = "rw,intr,largefiles,logging,xattr,onerror=panic"


def mounts(st):
    """metadevice -> mount point, of the mounts made by mount(1M)."""
    return st.setdefault("md_mounts", {})


def has_ufs(st, name):
    return name in st.setdefault("ufs", [])


def _stash(simdir, kind, name):
    return os.path.join(simdir, kind, name)


def _move_entries(source, target):
    os.makedirs(target, exist_ok=True)
    if not os.path.isdir(source):
        return
    for entry in os.listdir(source):
        shutil.move(os.path.join(source, entry), os.path.join(target, entry))


def make(st, simdir, name):
    """newfs: a new, empty file system (mkfs makes lost+found)."""
    if not has_ufs(st, name):
        st["ufs"].append(name)
    stash = _stash(simdir, "ufs", name)
    shutil.rmtree(stash, ignore_errors=True)
    os.makedirs(os.path.join(stash, "lost+found"))


def mount(st, simdir, name, point, directory):
    """Mount the file system of metadevice `name` on `point`, whose
    directory in the fake root is `directory`."""
    _move_entries(directory, _stash(simdir, "covered", name))
    _move_entries(_stash(simdir, "ufs", name), directory)
    mounts(st)[name] = point


def umount(st, simdir, name, directory):
    _move_entries(directory, _stash(simdir, "ufs", name))
    _move_entries(_stash(simdir, "covered", name), directory)
    mounts(st).pop(name, None)


def unmount_all(st, simdir):
    """A reboot: the file systems mount(1M) mounted are unmounted (their
    opens went with the kernel)."""
    root = os.path.join(simdir, "root")
    for name, point in sorted(mounts(st).items()):
        directory = os.path.join(root, point.lstrip("/"))
        _move_entries(directory, _stash(simdir, "ufs", name))
        _move_entries(_stash(simdir, "covered", name), directory)
    st["md_mounts"] = {}


def mnttab_lines(st):
    return "".join("/dev/md/dsk/%s\t%s\tufs\t%s\t1226400000\n" % (
        name, point, MOUNT_OPTIONS)
        for name, point in sorted(mounts(st).items())
        if name in st["units"])
