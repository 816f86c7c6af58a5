# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metasync: start (-r at boot, or named) or cancel (-c) mirror resyncs.

Failures on devices give exit status -1 (255).  The buffer size counts
512-byte blocks; the kernel silently replaces out-of-range values by the
default (resync.norm_bufsize), and a running resync keeps its size.
"""

from svmsim import resync, svm
from svmsim.messages import SvmError

USAGE = ("usage:\t%s [-s setname] -r [buffer_size]\n"
         "\t%s [-s setname] [buffer_size] metadevices...\n"
         "\t%s [-s setname] -c metadevices...\n")


def atoi(text):
    n = 0
    for ch in text:
        if not ch.isdigit():
            break
        n = n * 10 + int(ch)
    return n


def run(ctx, argv):
    opts, args = ctx.getopt(argv, "phs:rc?", USAGE)
    flags = dict(opts)
    if "h" in flags or "?" in flags:
        ctx.usage(USAGE, 0)
    bufsize = None
    if args and args[0][:1].isdigit():
        bufsize = atoi(args.pop(0))
    if "r" in flags:
        if args:
            ctx.usage(USAGE, 1)
        ctx.need_replicas()
        boot_resync(ctx.st, bufsize)
        return 0
    if not args:
        ctx.usage(USAGE, 1)
    ctx.need_fresh_replicas()      # GUESS: a resync ioctl checks it too
    rc = 0
    for arg in args:
        try:
            m = svm.require_mirror(ctx.st, svm.md_name(arg))
            if "c" in flags:
                # Cancelling a mirror with no resync is a no-op, exit 0
                # (mirror_resync.c mirror_ioctl_resync: MD_RI_KILL
                # without MD_UN_RESYNC_ACTIVE returns 0).
                resync.cancel(m)
            elif len(m["subs"]) >= 2:
                # mirror_ioctl_resync returns for fewer than 2 submirrors;
                # else mirror_resync_unit opens the mirror
                # (mirror_resync.c).
                svm.first_open(ctx.st, m)
                resync.start(ctx.st, m, bufsize)
        except SvmError as e:
            ctx.perror(e)
            rc = 255
    return rc


def boot_resync(st, bufsize):
    """metasync -r: every pass 1..9 mirror with 2+ submirrors is opened and
    resynced.  GUESS: the passes are not serialised (all start at once)."""
    for pass_ in range(1, 10):
        for m in svm.mirrors(st):
            if m["pass"] == pass_ and len(m["subs"]) >= 2:
                svm.first_open(st, m)
                resync.start(st, m, bufsize)
