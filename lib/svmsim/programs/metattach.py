# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metattach: attach a submirror, grow a mirror, or concat components."""

from svmsim import svm
from svmsim.programs.metainit import make_comp, parse_interlace

USAGE = ("usage:\t%s [-s setname] mirror [metadevice]\n"
         "\t%s [-s setname] [-i interlace] concat/stripe component...\n"
         "\t%s [-s setname] RAID component...\n"
         "\t%s [-s setname] [-A alignment] softpart size|all\n")


def run(ctx, argv):
    opts, args = ctx.getopt(argv, "hi:s:A:?", USAGE)
    flags = dict(opts)
    if "h" in flags or "?" in flags:
        ctx.usage(USAGE, 0)
    if not args:
        ctx.usage(USAGE, 1)
    ctx.need_fresh_replicas()
    name = svm.md_name(args[0])
    u = svm.require(ctx.st, name)
    if u["type"] == "mirror":
        if len(args) > 2:
            ctx.usage(USAGE, 1)
        if len(args) == 1:
            grow(ctx, u)
            return 0
        sub = svm.md_name(args[1])
        svm.attach(ctx.st, name, sub)
        ctx.out("%s: submirror %s is attached\n" % (name, sub))
        return 0
    if len(args) < 2:
        ctx.usage(USAGE, 1)
    return attach_components(ctx, u, args[1:], flags.get("i"))


def grow(ctx, m):
    # GUESS: `metattach d10` grows silently to the smallest submirror.
    m["size"] = svm.mirror_size(ctx.st, [s["name"] for s in m["subs"]])


def attach_components(ctx, stripe, args, interlace):
    """Concatenate the components as one new row (GUESS: one row for all
    components, with the given or default interlace)."""
    il = parse_interlace(stripe["name"], interlace) if interlace else None
    seen = []
    comps = []
    for a in args:
        comps.append(make_comp(ctx, stripe["name"], a, seen))
    stripe["rows"].append({"comps": comps,
                           "interlace": il or (1024 if len(comps) > 1
                                               else None)})
    stripe["size"] = svm.stripe_size(stripe["rows"])
    if len(comps) == 1:
        ctx.out("%s: component is attached\n" % stripe["name"])
    else:
        ctx.out("%s: components are attached\n" % stripe["name"])
    return 0


