# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metaclear: remove metadevices (-r recursive, -f force, -a all)."""

from svmsim import report, svm
from svmsim.messages import SvmError
from svmsim.lean import MappingProxyType

USAGE = ("usage:\t%s [-s setname] -a\n"
         "\t%s [-s setname] [options] metadevice...\n"
         "options:\n"
         "-f\tforce clear\n"
         "-r\trecursive clear\n"
         "-p\tclear all soft partitions on metadevice/component\n")

CLEARED = MappingProxyType({"mirror": "Mirror", "stripe": "Concat/Stripe"})


def run(ctx, argv):
    opts, args = ctx.getopt(argv, "afhprs:?", USAGE)
    flags = dict(opts)
    if "h" in flags or "?" in flags:
        ctx.usage(USAGE, 0)
    if "a" in flags:
        if args:
            ctx.usage(USAGE, 1)
        ctx.need_fresh_replicas()
        # GUESS: -a clears the top-level units recursively, mirrors first
        names = [u["name"] for u in report.toplevel_order(ctx.st)]
        recursive = True
    else:
        if not args:
            ctx.usage(USAGE, 1)
        ctx.need_fresh_replicas()
        names = args
        recursive = "r" in flags
    rc = 0
    for arg in names:
        try:
            clear_one(ctx, svm.md_name(arg), "f" in flags, recursive)
        except SvmError as e:
            ctx.perror(e)
            rc = 1
    return rc


def clear_one(ctx, name, force, recursive):
    u = svm.clear(ctx.st, ctx.root, name, force)
    ctx.out("%s: %s is cleared\n" % (name, CLEARED[u["type"]]))
    if recursive and u["type"] == "mirror":
        for sub in u["subs"]:
            clear_one(ctx, sub["name"], force, recursive)
