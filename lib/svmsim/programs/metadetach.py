# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metadetach: detach a submirror (slots above it move down)."""

from svmsim import svm
from svmsim.messages import SvmError

USAGE = ("usage:\t%s [-s setname] [-f] mirror submirror\n"
         "\t%s [-s setname] [-f] trans\n")


def run(ctx, argv):
    opts, args = ctx.getopt(argv, "fhs:?", USAGE)
    flags = dict(opts)
    if "h" in flags or "?" in flags:
        ctx.usage(USAGE, 0)
    if len(args) not in (1, 2):
        ctx.usage(USAGE, 1)
    ctx.need_fresh_replicas()
    name = svm.md_name(args[0])
    u = svm.require(ctx.st, name)
    if len(args) == 1:
        # trans (UFS logging) devices are not emulated
        raise SvmError("NOT_MM", name=name)
    if u["type"] != "mirror":
        raise SvmError("NOT_MM", name=name)
    # GUESS: a submirror name that is no unit at all reaches the kernel,
    # which answers "can't find submirror in mirror".
    sub = svm.md_name(args[1])
    svm.detach(ctx.st, name, sub, "f" in flags)
    ctx.out("%s: submirror %s is detached\n" % (name, sub))
    return 0
