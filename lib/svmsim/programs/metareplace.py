# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metareplace: enable (-e) or replace a mirror component."""

from svmsim import svm
from svmsim.programs import check_free_component, resolve_component

USAGE = ("usage:\t%s [-s setname] mirror component-old component-new\n"
         "\t%s [-s setname] -e mirror component\n"
         "\t%s [-s setname] [-f] RAID component-old component-new\n"
         "\t%s [-s setname] [-f] -e RAID component\n")


def run(ctx, argv):
    opts, args = ctx.getopt(argv, "efhs:?", USAGE)
    flags = dict(opts)
    if "h" in flags or "?" in flags:
        ctx.usage(USAGE, 0)
    enable = "e" in flags
    if len(args) != (2 if enable else 3):
        ctx.usage(USAGE, 1)
    ctx.need_fresh_replicas()
    name = svm.md_name(args[0])
    if enable:
        # names are parsed (rawname quirk included) before the unit is read
        cname, dev, info = resolve_component(ctx, args[1])
        svm.require_mirror(ctx.st, name)
        rebind = svm.enable(ctx.st, name, cname, dev, info)
        if rebind:
            # GUESS (reference 2.6, inferred): a changed dev_t goes through
            # the replace path and says so.
            ctx.out("%s: device %s is replaced with %s\n"
                    % (name, cname, cname))
        else:
            ctx.out("%s: device %s is enabled\n" % (name, cname))
        return 0
    old, _, _ = resolve_component(ctx, args[1])
    new, dev, info = resolve_component(ctx, args[2])
    svm.require_mirror(ctx.st, name)
    check_free_component(ctx, new, name)
    svm.replace(ctx.st, name, old, new, dev, info)
    ctx.out("%s: device %s is replaced with %s\n" % (name, old, new))
    return 0


