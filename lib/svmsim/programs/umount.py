# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""umount MOUNT-POINT (or SPECIAL): unmount a UFS that mount -F ufs
mounted (illumos usr/src/cmd/fs.d/umount.c main, doexec and rpterr;
UFS has no umount of its own under /usr/lib/fs/ufs, so the generic
command calls umount2 itself).

Not in the mnttab: "umount: warning: X not in mnttab" on stderr, then
umount2 fails with EINVAL, "umount: X not mounted", exit 1.  A process
with a file open or its working directory in the file system (`svmsim
hold PATH`): umount2 of the mount point fails with EBUSY, which doexec
does not retry with the special, and rpterr names the mount point
(ment->mnt_mountp, whichever name was given): "umount: POINT busy" on
stderr, exit 1 (umount.c of 5f10ef697f^: doexec 437-452, rpterr
476-478).  Unmounting closes the metadevice (svmsim/ufs.py).
GUESS: the vfstab's boot mounts are not unmounted by this command.
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
            if ufs.busy(ctx.st, point):
                ctx.err("umount: %s busy\n" % point)
                return 1
            ufs.umount(ctx.st, ctx.simdir, name,
                       devices.host_path(ctx.root, point))
            if name in ctx.st["units"]:
                svm.close_device(ctx.st, name)
            return 0
    ctx.err("umount: warning: %s not in mnttab\n" % what)
    ctx.err("umount: %s not mounted\n" % what)
    return 1
