# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""newfs RAW-DEVICE: a UFS on a metadevice (illumos
usr/src/cmd/fs.d/ufs/newfs/newfs.c main, which runs mkfs -F ufs,
usr/src/cmd/fs.d/ufs/mkfs/mkfs.c).

Without a terminal on stdin newfs asks nothing (newfs.c "Confirmation":
isatty(fileno(stdin))).  Refusals: a device that cannot be opened,
perror(disk) and exit 1 (newfs.c getdiskbydev); a mounted one, mkfs's
"%s is mounted, can't mkfs" with the block name on stderr and exit 32
(mkfs.c, the mnttab loop), which newfs passes on (exit(status >> 8)); a
submirror, which mdopen will not open for writing (md.c: EROFS), mkfs's
"%s: cannot create: %s" and exit 32.
GUESS: the success output.  mkfs prints the file system's layout to
stdout and its backup superblocks; the emulator prints the first line
of it only (svmram reads none of it), and writes every region of the
device but its label blocks (mkfs starts at the superblock, SBOFF).
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
    ctx.out("%s:\t%d sectors in %d cylinders of %d tracks, %d sectors\n"
            % (special, u["size"], max(1, u["size"] // (48 * 128)), 48,
               128))
    return 0
