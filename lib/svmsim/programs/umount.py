# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""umount MOUNT-POINT (or SPECIAL): unmount a UFS that mount -F ufs
mounted (illumos usr/src/cmd/fs.d/umount.c main, doexec and rpterr).

Not in the mnttab: "umount: warning: X not in mnttab" on stderr, then
umount2 fails with EINVAL, "umount: X not mounted", exit 1.  Unmounting
closes the metadevice (svmsim/ufs.py).
GUESS: no process is ever busy in an emulated file system (EBUSY is not
emulated); the vfstab's boot mounts are not unmounted by this command.
"""

from svmsim import devices, svm, ufs

USAGE = ("Usage:\numount [-f] [-V] [-o specific_options] "
         "{special | mount-point}\n"
         "umount -a [-f] [-V] [-o specific_options] [mount_point ...]\n")


def run(ctx, argv):
    if len(argv) != 1 or argv[0].startswith("-"):
        ctx.err(USAGE)
        return 1
    what = argv[0]
    for name, point in sorted(ufs.mounts(ctx.st).items()):
        if what in (point, "/dev/md/dsk/%s" % name):
            ufs.umount(ctx.st, ctx.simdir, name,
                       devices.host_path(ctx.root, point))
            if name in ctx.st["units"]:
                svm.close_device(ctx.st, name)
            return 0
    ctx.err("umount: warning: %s not in mnttab\n" % what)
    ctx.err("umount: %s not mounted\n" % what)
    return 1
