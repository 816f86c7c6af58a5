# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""newfs RAW-DEVICE: a UFS on a metadevice (illumos
usr/src/cmd/fs.d/ufs/newfs/newfs.c main, which runs mkfs -F ufs,
usr/src/cmd/fs.d/ufs/mkfs/mkfs.c; line numbers of the last illumos-gate
with SVM, 5f10ef697f^).

Without a terminal on stdin newfs asks nothing and, without -v, writes
nothing on stdout (newfs.c 596-611 "Confirmation": isatty(fileno(stdin));
the mkfs command line only with -v, 631-634).  mkfs writes its summary
on stderr (mkfs.c 2096-2105; its backup superblock list too, tprintf,
192-195): the first line is "RAW:\tS sectors in C cylinders of T tracks,
N sectors" with T and N the metadevice's geometry (newfs.c getdiskbydev
766-790: DKIOCGGEOM's dkg_nhead and dkg_nsect, or mkfs's EFI defaults,
48 tracks of 128 sectors, mkfs.c 108-109, when ncyl * nhead * nsect is
more than CHSLIMIT, 63 * 256 * 1024 blocks, ufs_fs.h 166; on x86 a track
count over 32 is rounded down to a multiple of 16, newfs.c 591-595), S
the size in whole 1 KiB fragments and C the cylinders it takes, rounded
up (mkfs.c 1877-1890), with "Warning: K sector(s) in last cylinder
unallocated" first when the last one is partial (mkfs.c 2027-2031).
Refusals: a device that cannot be opened, perror(disk) and exit 1
(newfs.c getdiskbydev); a mounted one, mkfs's "%s is mounted, can't
mkfs" with the block name on stderr and exit 32 (mkfs.c, the mnttab
loop), which newfs passes on (exit(status >> 8)); a submirror, which
mdopen will not open for writing (md.c: EROFS), mkfs's "%s: cannot
create: %s" and exit 32.
GUESS: mkfs's second summary line ("MB in N cyl groups ...") and the
backup superblock list are not printed (their cylinder group layout is
not emulated; svmram and its selftest read none of it), nor is the last
cylinder group trimmed when it is too small for its inodes.  newfs
writes every region of the device but its label blocks (mkfs starts at
the superblock, SBOFF); the file system then lives on those blocks
(svmsim/ufs.py).
"""

import re

from svmsim import devices, monitor, svm, ufs

USAGE = ("usage: newfs [ -v ] [ mkfs-options ] raw-special-device\n")
_MD = r"/dev/md/rdsk/(d[0-9]+)\Z"


def run(ctx, argv):
    if len(argv) != 1 or argv[0].startswith("-"):
        ctx.err(USAGE)         # GUESS: mkfs options are not emulated
        return 1
    special = argv[0]
    match = re.match(_MD, special)
    st = ctx.st
    if match is None or devices.resolve(ctx.root, special) is None or \
            match.group(1) not in st["units"]:
        ctx.err("%s: No such file or directory\n" % special)
        return 1
    name = match.group(1)
    block = "/dev/md/dsk/%s" % name
    if name in ufs.mounts(st) or name in st["vfstab"] and \
            svm.is_open(st, name):
        ctx.err("%s is mounted, can't mkfs\n" % block)
        return 32
    if svm.open_for_write(st, name) is not None:
        ctx.err("%s: cannot create: Read-only file system\n" % special)
        return 32
    u = st["units"][name]
    svm.open_device(st, name)
    try:
        from svmsim.state import REGIONS
        for r in range(REGIONS):
            if u["type"] == "mirror":
                monitor.app_write(st, u, r, head=False)
            else:
                from svmsim import regions
                st["version"] += 1
                monitor.count_write(st, u)
                regions.write(st, u, r, st["version"])
    finally:
        svm.close_device(st, name)
    ufs.make(st, ctx.simdir, name)
    ctx.err(summary(st, special, u))
    return 0


CHSLIMIT = 63 * 256 * 1024          # ufs_fs.h
DEF_TRACKS_EFI, DEF_SECTORS_EFI = 48, 128     # mkfs.c
NSPF = 2                            # sectors per 1 KiB fragment


def summary(st, special, u):
    """What mkfs writes on stderr before the cylinder groups (the module
    comment)."""
    nhead, nsect = u["nhead"], u["nsect"]
    if u["size"] // (nhead * nsect) * nhead * nsect > CHSLIMIT:
        ntrak, nsect = DEF_TRACKS_EFI, DEF_SECTORS_EFI
    else:
        ntrak = nhead
        if svm.switch(st, "label_blocks") == 2 and ntrak > 32 and \
                ntrak % 16:
            ntrak -= ntrak % 16         # i386: Bug 1170182
    sectors = u["size"] // NSPF * NSPF
    spc = ntrak * nsect
    ncyl = -(-sectors // spc)
    text = ""
    if sectors < ncyl * spc:
        text = "Warning: %d sector(s) in last cylinder unallocated\n" % (
            spc - (sectors - (ncyl - 1) * spc))
    return text + "%s:\t%d sectors in %d cylinders of %d tracks, %d " \
        "sectors\n" % (special, sectors, ncyl, ntrak, nsect)
