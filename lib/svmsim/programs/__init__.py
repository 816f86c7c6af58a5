# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""One module per emulated command.  Each exposes ``run(ctx, argv) -> int``.

Shared here: the command context (state, root, output), exits, usage
printing and component-name resolution (libmeta's rawname() quirk).
"""

import os
import stat as _stat
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

    meta_name.c rawname() (since ff5ca3bd17) maps dsk to rdsk and needs
    only that the raw path stat()s as a character device; it compares no
    device numbers (illumos usr/src/lib/lvm/libmeta/common/meta_name.c:
    121-142 @a593473611).  When it fails, getrname gives ENOENT
    (:1461-1463), a cNtNdNsN name gets a guessed /dev/rdsk name
    (:1598-1606), and setup_slice, whose getfullblkname cannot stat the
    block path either (usr/src/lib/libadm/common/fulldevnm.c:355-358),
    ends in fixup: ENOENT on the name typed after its last '/'
    (meta_name.c:2174-2199), printed by mde_perror on stderr, exit 1
    (audit 4, row S11).  The vfstab-worded complaints on stdout belonged
    to the rawname() of before 2009, and even there a path that does not
    stat never reached them (fulldevnm.c:437-440).  GUESS: a raw path
    that is no character device, or a block path that does not stat,
    ends in the same ENOENT.  The component's device is the raw path's.
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
    s2 = devices.stat_path(ctx.root, raw)
    if s1 is None or s2 is None or not _stat.S_ISCHR(s2.st_mode):
        raise sys_error(ENOENT, cname)
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
