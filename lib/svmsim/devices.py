# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""The fake root (``DIR/root``): device nodes, /dev links, link resolution,
and the kernel's view of which devices exist.

Device numbers use Linux majors 240-254 (reserved for local/experimental
use), so nothing real is ever reachable through the nodes.
"""

import errno
import os
import posixpath
import stat

DISK_MAJOR = 240
MD_MAJOR = 245
RAMDISK_MAJOR = 250
LOFI_MAJOR = 251

SLICE_LETTERS = "abcdefghijklmnop"

# The geometry libmeta fakes for a slice of an EFI-labeled disk, whose
# DKIOCGGEOM fails with ENOTSUP: illumos-gate usr/src/lib/lvm/libmeta/
# common/meta_nameinfo.c metagetvtoc -> meta_efi_to_mdgeom, with
# usr/src/head/meta.h MD_EFI_FG_HEADS 128 and MD_EFI_FG_SECTORS 256.
EFI_NHEAD, EFI_NSECT = 128, 256


# --- paths -------------------------------------------------------------------

def host_path(root, path):
    """The host path of an emulated absolute path."""
    return root + "/" + path.lstrip("/")


def ensure_root(root):
    for d in ("dev/dsk", "dev/rdsk", "dev/md/dsk", "dev/md/rdsk",
              "dev/ramdisk", "dev/rramdisk", "devices/pseudo",
              "devices/sim", "etc", "var/run", "var/tmp"):
        os.makedirs(host_path(root, d), exist_ok=True)
    # /var/tmp is world-writable with the sticky bit (mode 1777, as
    # usr/src/pkg/manifests/SUNWcs.mf:317 @a593473611 delivers it), so a
    # test can plant another user's files there.
    os.chmod(host_path(root, "var/tmp"), 0o1777)


def _remove(p):
    try:
        os.unlink(p)
    except FileNotFoundError:
        pass


def mknod(root, path, kind, major, minor):
    """Create a block ('b') or character ('c') node."""
    p = host_path(root, path)
    _remove(p)
    mode = 0o600 | (stat.S_IFBLK if kind == "b" else stat.S_IFCHR)
    try:
        os.mknod(p, mode, os.makedev(major, minor))
    except PermissionError:
        raise SystemExit("svmsim: cannot create device node %s: "
                         "mknod needs root (CAP_MKNOD)" % p)


def symlink(root, path, target):
    p = host_path(root, path)
    _remove(p)
    os.symlink(target, p)


def remove(root, path):
    _remove(host_path(root, path))


# --- link resolution inside the root -----------------------------------------

def resolve(root, path, max_hops=40):
    """Follow symlinks inside the fake root; absolute link targets are taken
    relative to the root.  Returns the final emulated path or None when a
    link dangles or a component is missing."""
    parts = [p for p in path.split("/") if p]
    parts.reverse()
    cur = "/"
    hops = 0
    while parts:
        p = parts.pop()
        if p == ".":
            continue
        if p == "..":
            cur = posixpath.dirname(cur) or "/"
            continue
        nxt = posixpath.join(cur, p)
        hp = host_path(root, nxt)
        if os.path.islink(hp):
            hops += 1
            if hops > max_hops:
                return None
            target = os.readlink(hp)
            if target.startswith("/"):
                cur = "/"
            parts.extend(reversed([t for t in target.split("/") if t]))
            continue
        if not os.path.lexists(hp):
            return None
        cur = nxt
    return cur


def stat_path(root, path):
    """stat(2) of an emulated path (following links), or None."""
    real = resolve(root, path)
    if real is None:
        return None
    try:
        return os.stat(host_path(root, real))
    except OSError:
        return None


# --- disks -------------------------------------------------------------------

def disk_minor(index, slice_no):
    return index * 16 + slice_no


def disk_node(ctd, slice_no, raw):
    letter = SLICE_LETTERS[slice_no]
    return "/devices/sim/disk@%s:%s%s" % (ctd, letter, ",raw" if raw else "")


def add_disk_nodes(root, ctd, index, slices):
    for s in slices:
        n = int(s)
        minor = disk_minor(index, n)
        mknod(root, disk_node(ctd, n, False), "b", DISK_MAJOR, minor)
        mknod(root, disk_node(ctd, n, True), "c", DISK_MAJOR, minor)
        symlink(root, "/dev/dsk/%ss%d" % (ctd, n),
                "../.." + disk_node(ctd, n, False))
        symlink(root, "/dev/rdsk/%ss%d" % (ctd, n),
                "../.." + disk_node(ctd, n, True))


def split_slice(cname):
    """'c0d1s0' -> ('c0d1', 0); None if not a ctd slice name."""
    i = cname.rfind("s")
    if i <= 0 or not cname[i + 1:].isdigit():
        return None
    return cname[:i], int(cname[i + 1:])


# --- ramdisks ----------------------------------------------------------------

def ramdisk_geometry(size):
    """ramdisk.c fake geometry: (ncyl, nhead, nsect, slice0 blocks)."""
    if size < 2 * 1024 * 1024:
        ncyl = size // (100 * 1024)
    else:
        ncyl = size // (300 * 1024)
    ncyl = max(ncyl, 1)
    nsect = size // (512 * ncyl)
    return ncyl, 1, nsect, ncyl * nsect


def ramdisk_node(name, raw):
    return "/devices/pseudo/ramdisk@0:%s%s" % (name, ",raw" if raw else "")


def add_ramdisk_nodes(root, name, minor):
    """Driver nodes plus the devfsadm links (same minor for blk and raw)."""
    mknod(root, ramdisk_node(name, False), "b", RAMDISK_MAJOR, minor)
    mknod(root, ramdisk_node(name, True), "c", RAMDISK_MAJOR, minor)
    symlink(root, "/dev/ramdisk/" + name, "../.." + ramdisk_node(name, False))
    symlink(root, "/dev/rramdisk/" + name, "../.." + ramdisk_node(name, True))


def remove_ramdisk_nodes(root, name):
    """The driver's nodes go; devfsadm removes the ramdisk links (RM_ALWAYS)."""
    for p in (ramdisk_node(name, False), ramdisk_node(name, True),
              "/dev/ramdisk/" + name, "/dev/rramdisk/" + name):
        remove(root, p)


def add_ramdisk_ctl(root):
    mknod(root, "/devices/pseudo/ramdisk@0:ctl", "c", RAMDISK_MAJOR, 0)
    symlink(root, "/dev/ramdiskctl", "../devices/pseudo/ramdisk@0:ctl")


# --- lofi devices -------------------------------------------------------------

# LOFI_CMLB_SHIFT is CMLBUNIT_FORCE_P0_SHIFT: 6 with x86's _SUNOS_VTOC_16
# (cmlb.h:91-94, lofi.h:68 @a593473611); every profile's host is x86.
LOFI_CMLB_SHIFT = 6


def lofi_minor(st, number):
    """The minor of lofi device N: N << LOFI_CMLB_SHIFT after illumos 6602
    (switch lofi_nodes "instance": lofi.h:77-80 LOFI_ID2MINOR), N before."""
    if st["switches"]["lofi_nodes"] == "instance":
        return number << LOFI_CMLB_SHIFT
    return number


def lofi_number(st, minor):
    """The lofi device N at `minor`, or None (a cmlb partition's minor)."""
    if st["switches"]["lofi_nodes"] == "instance":
        if minor & ((1 << LOFI_CMLB_SHIFT) - 1):
            return None
        return minor >> LOFI_CMLB_SHIFT
    return minor


def lofi_node(st, number, raw):
    """After 6602 each device is an instance lofi@N with the minor nodes
    "disk" and "disk,raw" (lofi.h:58-59, lofi.c:1822-1831,
    devfsadm/lofi_link.c:73-76); before, all are minors of lofi@0, named
    by the number (the Solaris 11 snapshot's lofi.c:2277-2288)."""
    if st["switches"]["lofi_nodes"] == "instance":
        return "/devices/pseudo/lofi@%d:disk%s" % (number,
                                                   ",raw" if raw else "")
    return "/devices/pseudo/lofi@0:%d%s" % (number, ",raw" if raw else "")


def add_lofi_nodes(root, st, number):
    """The lofi instance's nodes and devfsadm's /dev/lofi/N, /dev/rlofi/N
    (lofiadm waits for them: main.c wait_until_dev_complete)."""
    for d in ("dev/lofi", "dev/rlofi"):
        os.makedirs(host_path(root, d), exist_ok=True)
    minor = lofi_minor(st, number)
    mknod(root, lofi_node(st, number, False), "b", LOFI_MAJOR, minor)
    mknod(root, lofi_node(st, number, True), "c", LOFI_MAJOR, minor)
    symlink(root, "/dev/lofi/%d" % number,
            "../.." + lofi_node(st, number, False))
    symlink(root, "/dev/rlofi/%d" % number,
            "../.." + lofi_node(st, number, True))


def remove_lofi_nodes(root, st, number):
    """The instance goes with its mapping; devfsadm removes lofi links
    (RM_ALWAYS, like the ramdisk's)."""
    for p in (lofi_node(st, number, False), lofi_node(st, number, True),
              "/dev/lofi/%d" % number, "/dev/rlofi/%d" % number):
        remove(root, p)


# --- metadevice nodes --------------------------------------------------------

def add_md_nodes(root, name, unitnum):
    blk = "/devices/pseudo/md@0:0,%d,blk" % unitnum
    raw = "/devices/pseudo/md@0:0,%d,raw" % unitnum
    mknod(root, blk, "b", MD_MAJOR, unitnum)
    mknod(root, raw, "c", MD_MAJOR, unitnum)
    symlink(root, "/dev/md/dsk/" + name, "../../.." + blk)
    symlink(root, "/dev/md/rdsk/" + name, "../../.." + raw)


def remove_md_nodes(root, name, unitnum):
    for p in ("/devices/pseudo/md@0:0,%d,blk" % unitnum,
              "/devices/pseudo/md@0:0,%d,raw" % unitnum,
              "/dev/md/dsk/" + name, "/dev/md/rdsk/" + name):
        remove(root, p)


# --- the kernel's device table -----------------------------------------------

def devkey(dev):
    return "%d,%d" % (dev[0], dev[1])


def kernel_device(st, dev):
    """What answers at dev_t ``dev`` right now, or None (ENXIO)."""
    major, minor = dev
    if major == RAMDISK_MAJOR:
        for name, rd in st["ramdisks"].items():
            if rd["minor"] == minor:
                _, nhead, nsect, blocks = ramdisk_geometry(rd["size"])
                # ramdisk.c rd_fake_disk_geometry: v_part[0].p_start = 0
                return {"kind": "ramdisk", "name": name, "blocks": blocks,
                        "nhead": nhead, "nsect": nsect, "devid": None,
                        "start": 0}
        return None
    if major == LOFI_MAJOR:
        number = lofi_number(st, minor)
        lofi = st.get("lofis", {}).get(str(number))
        if lofi is None:
            return None
        # lofi.c fake_disk_geometry and fake_disk_vtoc: the ramdisk
        # driver's rule, one big partition from sector 0 (p_start 0).
        _, nhead, nsect, blocks = ramdisk_geometry(lofi["size"])
        return {"kind": "lofi", "name": "lofi%d" % number, "blocks": blocks,
                "nhead": nhead, "nsect": nsect, "devid": None, "start": 0}
    if major == DISK_MAJOR:
        index, slice_no = divmod(minor, 16)
        # SVM's geometry: an EFI disk's is libmeta's fake (prtvtoc shows
        # the disk's own, from the description).
        efi = st["switches"]["disk_label"] == "efi"
        for ctd, d in st["disks"].items():
            if d["index"] == index and str(slice_no) in d["slices"]:
                return {"kind": "disk", "name": "%ss%d" % (ctd, slice_no),
                        "blocks": d["slices"][str(slice_no)],
                        "nhead": EFI_NHEAD if efi else d["nhead"],
                        "nsect": EFI_NSECT if efi else d["nsect"],
                        "devid": d.get("devid"),
                        "start": d["starts"][str(slice_no)]}
        return None
    return None


def is_ramdisk_dev(dev):
    return dev[0] == RAMDISK_MAJOR


ENXIO = errno.ENXIO
