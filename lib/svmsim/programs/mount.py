# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""mount -F ufs [-o OPTIONS] SPECIAL MOUNT-POINT: a metadevice's UFS
(illumos usr/src/cmd/fs.d/ufs/mount/mount.c mountfs and rpterr, reached
through the generic usr/src/cmd/fs.d/mount.c).

mount(2)'s refusals, in rpterr's words with myname "mount", on stderr
and exit 32: ENOENT (the special or the mount point does not exist)
"mount: SPECIAL or MOUNT-POINT, no such file or directory"; EBUSY (the
device is mounted, or something is mounted on the directory) "mount:
SPECIAL is already mounted or MOUNT-POINT is busy"; EINVAL (no UFS on it:
newfs never ran) "mount: SPECIAL is not this fstype"; EROFS (a
submirror, which mdopen will not open for writing, md.c) "mount: SPECIAL
write-protected".  Mounting opens the metadevice (svmsim/ufs.py).
GUESS: only -F ufs and the -o options are taken; any -o is accepted and
not shown in the mnttab.  `-o nologging` (svmram selftest's) is one of
mount_ufs's suboptions: it clears UFSMNT_LOGGING, which is the default
(illumos usr/src/cmd/fs.d/ufs/mount/mount.c:453-456, usage :698
@a593473611); logging is not emulated, so it changes nothing here.
"""

import os
import re

from svmsim import devices, svm, ufs

USAGE = ("ufs usage:\n"
         "mount [-F ufs] [generic options] [-o suboptions] "
         "{special | mount_point}\n")
_MD = r"/dev/md/dsk/(d[0-9]+)\Z"


def run(ctx, argv):
    args = list(argv)
    if args[:2] != ["-F", "ufs"]:
        ctx.out(USAGE)          # mount.c usage() writes to stdout
        return 32
    args = args[2:]
    if args[:1] == ["-o"] and len(args) > 1:
        args = args[2:]
    if len(args) != 2:
        ctx.out(USAGE)
        return 32
    special, point = args
    st = ctx.st
    directory = devices.host_path(ctx.root, point)
    match = re.match(_MD, special)
    if match is None or devices.resolve(ctx.root, special) is None or \
            match.group(1) not in st["units"] or not point.startswith("/") \
            or not os.path.isdir(directory):
        ctx.err("mount: %s or %s, no such file or directory\n"
                % (special, point))
        return 32
    name = match.group(1)
    busy = name in ufs.mounts(st) or point in ufs.mounts(st).values() or \
        name in st["vfstab"] and svm.is_open(st, name)
    if busy:
        ctx.err("mount: %s is already mounted or %s is busy\n"
                % (special, point))
        return 32
    if svm.open_for_write(st, name) is not None:
        ctx.err("mount: %s write-protected\n" % special)
        return 32
    if not ufs.has_ufs(st, name):
        ctx.err("mount: %s is not this fstype\n" % special)
        return 32
    ufs.mount(st, ctx.simdir, name, point, directory)
    svm.open_device(st, name)
    return 0
