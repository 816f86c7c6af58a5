# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""One module per emulated command.  Each exposes ``run(ctx, argv) -> int``.

Shared here: the command context (state, root, output), exits, usage
printing and component-name resolution (libmeta's rawname() quirk).
"""

import os
import sys

from svmsim import devices, svm
from svmsim.getopt import GetoptError, getopt
from svmsim.messages import SvmError, format_error, sys_error, ENOENT, ENXIO


class Exit(Exception):
    """Leave the command with this exit status (output already written)."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def _write(stream, text):
    """Write; a reader that went away (``| head``) must not lose the state."""
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


class Ctx:
    def __init__(self, prog, st, simdir):
        self.prog = prog
        self.st = st
        self.simdir = simdir
        self.root = os.path.join(simdir, "root")

    @property
    def host(self):
        return self.st["nodename"]

    def out(self, text):
        _write(sys.stdout, text)

    def err(self, text):
        _write(sys.stderr, text)

    def perror(self, e):
        self.err(format_error(self.prog, self.host, e))

    def usage(self, text, code):
        self.err(text.replace("%s", self.prog))
        raise Exit(code)

    def getopt(self, argv, optstring, usage_text):
        try:
            return getopt(argv, optstring, self.prog, self.err)
        except GetoptError:
            self.usage(usage_text, 1)

    def need_replicas(self):
        if not self.st["replicas"]:
            raise SvmError("DB_NODB")

    def need_fresh_replicas(self):
        """A change commits to the state database: with stale replicas
        the kernel refuses it (mirror_ioctl.c mirror_getun: MDE_DB_STALE,
        printed without a device name).  GUESS: it comes before any check
        of the names given."""
        self.need_replicas()
        if self.st.get("stale_db"):
            raise SvmError("DB_STALE")


def resolve_component(ctx, arg):
    """A physical component operand -> (cname, dev, kernel info).

    Mirrors meta_name.c rawname(): the block and raw paths are stat()ed and
    the vfstab-worded complaints go to STDOUT with exit status 1.
    """
    if arg.startswith("/dev/dsk/"):
        blk, raw = arg, "/dev/rdsk/" + arg[len("/dev/dsk/"):]
    elif arg.startswith("/dev/rdsk/"):
        blk = raw = arg
    elif svm.is_component_name(arg) and not arg.startswith("/"):
        blk, raw = "/dev/dsk/" + arg, "/dev/rdsk/" + arg
    else:
        # GUESS: getfullrawname() cannot map a non dsk/rdsk path (e.g.
        # /dev/ramdisk/x), so metaname() fails with ENOENT on the name.
        raise sys_error(ENOENT, arg)
    cname = blk.rsplit("/", 1)[1]
    s1 = devices.stat_path(ctx.root, blk)
    if s1 is None:
        ctx.out("device to mount in /etc/vfstab is invalid for device %s\n"
                % blk)
        raise Exit(1)
    s2 = devices.stat_path(ctx.root, raw)
    if s2 is None:
        ctx.out("device to fsck in /etc/vfstab is invalid for raw device %s\n"
                % raw)
        raise Exit(1)
    if s1.st_rdev != s2.st_rdev:
        ctx.out("/etc/vfstab entries inconsistent on line containing "
                "device %s\n" % blk)
        raise Exit(1)
    import stat as _stat
    if not _stat.S_ISCHR(s2.st_mode):
        ctx.out("/etc/vfstab device to fsck is not a raw device for device "
                "%s\n" % raw)
        raise Exit(1)
    dev = [os.major(s2.st_rdev), os.minor(s2.st_rdev)]
    info = devices.kernel_device(ctx.st, dev)
    if info is None:
        if dev == [0, 0]:
            # GUESS: a link to something that is no device node at all
            raise SvmError("NOT_DISK", name=cname)
        raise sys_error(ENXIO, raw)
    return cname, dev, info


def replica_start(st, cname, info):
    """Start block of a component: past any replicas on that slice.
    GUESS: replicas sit from block 16, 8192 blocks each, and the data
    starts at the next cylinder boundary."""
    n = sum(1 for r in st["replicas"] if r["slice"] == cname)
    if n == 0:
        return 0
    end = max(r["blkno"] + r["nblk"] for r in st["replicas"]
              if r["slice"] == cname)
    cyl = info["nhead"] * info["nsect"]
    return (end + cyl - 1) // cyl * cyl


def check_free_component(ctx, cname, for_unit, seen=()):
    """meta_check_component: mounted, used elsewhere, given twice.

    GUESS: MDE_ALREADY names the component and the unit being built, both
    for a component given twice and for one another unit already uses."""
    mnt = ctx.st["mounts"].get(cname)
    if mnt:
        raise SvmError("IS_MOUNTED", name=cname, args=(mnt,))
    if cname in seen or svm.component_owner(ctx.st, cname):
        raise SvmError("ALREADY", name=cname, args=(for_unit,))
