# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metaoffline / metaonline: take a submirror offline and back."""

from svmsim import svm

OFF_USAGE = "usage:\t%s [-s setname] [-f] mirror submirror\n"
ON_USAGE = "usage:\t%s [-s setname] mirror submirror\n"


def run_offline(ctx, argv):
    return _run(ctx, argv, True)


def run_online(ctx, argv):
    return _run(ctx, argv, False)


def _run(ctx, argv, off):
    usage = OFF_USAGE if off else ON_USAGE
    opts, args = ctx.getopt(argv, "hs:f?" if off else "hs:?", usage)
    flags = dict(opts)
    if "h" in flags or "?" in flags:
        ctx.usage(usage, 0)
    if len(args) != 2:
        ctx.usage(usage, 1)
    ctx.need_fresh_replicas()
    name = svm.md_name(args[0])
    sub = svm.md_name(args[1])
    svm.require_mirror(ctx.st, name)
    if off:
        svm.offline(ctx.st, name, sub, "f" in flags)
        ctx.out("%s: submirror %s is offlined\n" % (name, sub))
    else:
        svm.online(ctx.st, name, sub)
        ctx.out("%s: submirror %s is onlined\n" % (name, sub))
    return 0
