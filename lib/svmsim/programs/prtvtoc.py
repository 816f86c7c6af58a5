# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""prtvtoc [-fhs] rawdisk...: a disk's partition map.

The layout is the SVM-era illumos usr/src/cmd/prtvtoc/prtvtoc.c (the
2008 Sun copy, commit 342440ec, before the 2021 rewrite widened the
columns): puttable() for an SMI (VTOC) label, puttable64() for EFI,
findfree()/findfree64() for the unallocated space, warn() for errors
("prtvtoc: what: why", exit status 1).

The emulated disks come from the host description: the slices it lists,
where switch disk_label or "starts" puts them.  GUESS: every listed slice
has tag 0 and flags 00; an SMI disk also has the backup slice 2 (tag 5,
flags 01) over the accessible cylinders unless the description lists a
slice 2, and with disk_label smi-cyl1 the x86 boot slice 8 (tag 1, flags
01) on cylinder 0; the accessible cylinders are those the slices reach,
and there are two more physical (alternate) cylinders.  An EFI disk has
the reserved slice 8 (tag 11, 16384 sectors) after the last slice,
first usable sector 34 and 33 sectors of backup label at its end.

A ramdisk or an (unlabeled) lofi device answers DKIOCGGEOM and, through
read_extvtoc's ENOTTY fallback to DKIOCGVTOC (libadm rdwr_vtoc.c:215-241
@a593473611), its driver's fake VTOC: volume "ramdisk" or "lofi", 512
bytes a sector, one slice 0 from sector 0, tag 0 (V_UNASSIGNED), flags
01 (V_UNMNT), size pcyl*nsect*nhead on the fake geometry, pcyl = ncyl
(ramdisk.c:496-549 rd_fake_disk_geometry, ramdisk.c:1297-1330 rd_ioctl;
lofi.c:2204-2276 fake_disk_geometry and fake_disk_vtoc, lofi.c:3313-3350
lofi_ioctl; prtvtoc.c:363-420, 474-526 prtvtoc and puttable, all
@a593473611).  So the slice fills the cylinders: no unallocated space.
The emulator mounts no such device, so no mount directory is shown.
Other devices (metadevices) get GUESS "Unable to read Disk geometry
errno = 0x19" (ENOTTY).
"""

import errno
import os
import stat

from svmsim import devices
from svmsim.messages import strerror

USAGE = "Usage:\t%s [ -fhs ] [ -t fstab ] [ -m mnttab ] rawdisk ...\n"
V_BOOT, V_BACKUP, V_RESERVED = 1, 5, 11
EFI_RESERVED = 16384
EFI_FIRST_USABLE = 34
EFI_BACKUP = 33


def run(ctx, argv):
    opts, args = ctx.getopt(argv, "fhst:m:", USAGE)
    flags = dict(opts)
    if not args:
        ctx.usage(USAGE, 1)
    status = 0
    for devname in args:
        status |= _prtvtoc(ctx, devname, flags)
    return 0 if status == 0 else 1


def _warn(ctx, what, why):
    ctx.err("prtvtoc: %s: %s\n" % (what, why))
    return -1


def _fullrawname(devname):
    """getfullrawname(): /dev/dsk/x -> /dev/rdsk/x; others unchanged."""
    if devname.startswith("/dev/dsk/"):
        return "/dev/rdsk/" + devname[len("/dev/dsk/"):]
    return devname


def _prtvtoc(ctx, devname, flags):
    name = _fullrawname(devname)
    real = devices.resolve(ctx.root, name)
    if real is None:
        return _warn(ctx, name, os.strerror(2))
    st = os.stat(devices.host_path(ctx.root, real))
    if not stat.S_ISCHR(st.st_mode):
        return _warn(ctx, name, "Not a raw device")
    major, minor = os.major(st.st_rdev), os.minor(st.st_rdev)
    if major in (devices.RAMDISK_MAJOR, devices.LOFI_MAJOR):
        fake = devices.kernel_device(ctx.st, (major, minor))
        if fake is None:                  # the driver's open: ENXIO
            return _warn(ctx, name, strerror(errno.ENXIO))
        _put_fake_label(ctx, devname, fake, flags)
        return 0
    disk = None
    if major == devices.DISK_MAJOR:
        index = minor // 16
        for ctd, d in ctx.st["disks"].items():
            if d["index"] == index:
                disk = (ctd, d)
    if disk is None:
        return _warn(ctx, name, "Unable to read Disk geometry errno = 0x19")
    ctd, d = disk
    label = ctx.st["switches"]["disk_label"]
    mounts = _mount_points(ctx, ctd)
    if label == "efi":
        parts, last_lba = _efi_parts(d)
        free = _findfree64(parts, EFI_FIRST_USABLE, last_lba - EFI_BACKUP)
        if "f" in flags:
            _putfree(ctx, parts, free)
        else:
            _puttable64(ctx, devname, parts, free, last_lba, mounts, flags)
        return 0
    cyl = d["nhead"] * d["nsect"]
    parts, ncyl = _smi_parts(d, label)
    free = _findfree(parts, ncyl * cyl)
    if "f" in flags:
        _putfree(ctx, parts, free)
    else:
        _puttable(ctx, devname, d, ncyl + 2, ncyl, parts, free, mounts,
                  flags)
    return 0


def _put_fake_label(ctx, devname, fake, flags):
    """puttable()/putfree() of a ramdisk's or lofi device's fake VTOC:
    v_nparts 1, slice 0 from sector 0 over all pcyl cylinders."""
    parts = {0: (0, 1, 0, fake["blocks"])}      # V_UNASSIGNED, V_UNMNT
    if "f" in flags:            # putfree(): no free chunk, no empty slot
        ctx.out("FREE_START=0 FREE_SIZE=0 FREE_COUNT=0 FREE_PART=\n")
        return
    geometry = dict(fake, volume=fake["kind"])  # RD_ / LOFI_DRIVER_NAME
    ncyl = fake["blocks"] // (fake["nhead"] * fake["nsect"])
    _puttable(ctx, devname, geometry, ncyl, ncyl, parts, [], {}, flags)


def _mount_points(ctx, ctd):
    """getmntpt(): mnttab first, then vfstab, per slice of this disk."""
    found = {}
    for cname, mnt in ctx.st["mounts"].items():
        split = devices.split_slice(cname)
        if split and split[0] == ctd:
            found[split[1]] = mnt
    return found


def _smi_parts(d, label):
    """{slice: (tag, flag, start, size)} and the accessible cylinders."""
    cyl = d["nhead"] * d["nsect"]
    parts = {}
    end = 0
    for s, size in d["slices"].items():
        start = d["starts"][s]
        parts[int(s)] = (0, 0, start, size)
        end = max(end, start + size)
    if label == "smi-cyl1":
        parts.setdefault(8, (V_BOOT, 1, 0, cyl))
    ncyl = (end + cyl - 1) // cyl
    parts.setdefault(2, (V_BACKUP, 1, 0, ncyl * cyl))
    return parts, ncyl


def _efi_parts(d):
    parts = {}
    end = EFI_FIRST_USABLE
    for s, size in d["slices"].items():
        start = d["starts"][s]
        parts[int(s)] = (0, 0, start, size)
        end = max(end, start + size)
    parts.setdefault(8, (V_RESERVED, 0, end, EFI_RESERVED))
    last_lba = end + EFI_RESERVED + EFI_BACKUP - 1
    return parts, last_lba


def _findfree(parts, fullsize):
    """findfree(): note that a partition starting at or before the free
    start adds its size to it (not its end), as the source does."""
    listed = sorted((p for p in parts.values() if p[3] and p[0] != V_BACKUP),
                    key=lambda p: p[2])
    free = []
    fr_start = 0
    for _, _, start, size in listed:
        if start <= fr_start:
            fr_start += size
        else:
            free.append((fr_start, start - fr_start))
            fr_start = start + size
    if fr_start < fullsize:
        free.append((fr_start, fullsize - fr_start))
    return free


def _findfree64(parts, first_u_lba, last_u_lba):
    listed = sorted((p for p in parts.values() if p[3] and p[0] != V_BACKUP),
                    key=lambda p: p[2])
    free = []
    fr_start = first_u_lba
    for _, _, start, size in listed:
        if start == fr_start:
            fr_start += size
        else:
            free.append((fr_start, start - fr_start))
            fr_start = start + size
    if fr_start < last_u_lba:
        free.append((fr_start, last_u_lba - fr_start))
    return free


def _putfree(ctx, parts, free):
    first = free[0] if free else (0, 0)
    nparts = 9 if max(parts) <= 8 else 16
    unused = "".join("%x" % i for i in range(nparts)
                     if i not in parts and i != 2)
    ctx.out("FREE_START=%d FREE_SIZE=%d FREE_COUNT=%d FREE_PART=%s\n" % (
        first[0], first[1], len(free), unused))


def _freemap_lines(free):
    if not free:
        return ""
    out = ("* Unallocated space:\n"
           "*\tFirst     Sector    Last\n"
           "*\tSector     Count    Sector \n")
    for start, size in free:
        out += "*   %9d %9d %9d\n" % (start, size, start + size - 1)
    return out + "*\n"


_FLAGS = ("*\n* Flags:\n"
          "*   1: unmountable\n"
          "*  10: read-only\n*\n")
_TABLE = ("*                          First     Sector    Last\n"
          "* Partition  Tag  Flags    Sector     Count    Sector  "
          "Mount Directory\n")


def _rows(parts, mounts, efi):
    out = ""
    for idx in sorted(parts):
        tag, flag, start, size = parts[idx]
        if size == 0:
            continue
        out += "      %2u  %5u    %02x  %9d %9d %9d" % (
            idx, tag, flag, start, size, start + size - 1)
        if idx in mounts and (not efi or idx < 7):
            out += "   %s" % mounts[idx]
        out += "\n"
    return out


def _puttable(ctx, devname, d, pcyl, ncyl, parts, free, mounts, flags):
    out = ""
    if "h" not in flags and "s" not in flags:
        cyl = d["nhead"] * d["nsect"]
        volume = d.get("volume")
        out += "* %s%s partition map\n" % (
            devname, ' (volume "%.8s")' % volume if volume else "")
        out += "*\n* Dimensions:\n"
        out += "* %7u bytes/sector\n" % 512
        out += "* %7u sectors/track\n" % d["nsect"]
        out += "* %7u tracks/cylinder\n" % d["nhead"]
        out += "* %7u sectors/cylinder\n" % cyl
        out += "* %7u cylinders\n" % pcyl
        out += "* %7u accessible cylinders\n" % ncyl
        out += _FLAGS + _freemap_lines(free)
    if "h" not in flags:
        out += _TABLE
    ctx.out(out + _rows(parts, mounts, False))


def _puttable64(ctx, devname, parts, free, last_lba, mounts, flags):
    out = ""
    if "h" not in flags and "s" not in flags:
        out += "* %s partition map\n" % devname
        out += "*\n* Dimensions:\n"
        out += "* %7u bytes/sector\n" % 512
        out += "* %d sectors\n" % (last_lba + 1)
        out += "* %d accessible sectors\n" % (
            last_lba - EFI_BACKUP - EFI_FIRST_USABLE + 1)
        out += _FLAGS + _freemap_lines(free)
    if "h" not in flags:
        out += _TABLE
    ctx.out(out + _rows(parts, mounts, True))
