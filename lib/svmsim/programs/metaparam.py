# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metaparam: show or set mirror parameters (silent on success)."""

from svmsim import report, svm
from svmsim.messages import SvmError

USAGE = ("usage:\t%s [-s setname] [options] concat/stripe | RAID\n"
         "\t%s [-s setname] [options] mirror\n"
         "\n"
         "Concat/Stripe or RAID options:\n"
         "-h\thotspare_pool | \"none\"\n"
         "\n"
         "Mirror options:\n"
         "-r\troundrobin | geometric | first\n"
         "-w\tparallel | serial\n"
         "-p\t0-9\n")


def run(ctx, argv):
    opts, args = ctx.getopt(argv, "h:p:r:s:w:?", USAGE)
    if any(c == "?" for c, _ in opts):
        ctx.usage(USAGE, 0)
    if len(args) != 1:
        ctx.usage(USAGE, 1)
    ctx.need_replicas()
    name = svm.md_name(args[0])
    u = svm.require(ctx.st, name)
    settings = [(c, v) for c, v in opts if c in "hprw"]
    # metaparam.c: mirror_params parses "s:r:w:p:" and stripe_params
    # "s:h:"; an option of the other kind is a usage error (audit 7.8)
    allowed = "rwp" if u["type"] == "mirror" else "h"
    if any(c not in allowed for c, _ in settings):
        ctx.usage(USAGE, 1)
    if not settings:
        ctx.out(report.metaparam_display(ctx.st, u))
        return 0
    ctx.need_fresh_replicas()
    new = {}
    for c, v in settings:
        if c == "h":
            if v.lower() != "none":
                raise SvmError("INVAL_HSP", name=v)   # GUESS: no pools
            new["hsp"] = None
            continue
        low = v.lower()
        if c == "r":
            if low not in svm.RD_OPTS:
                raise SvmError("BAD_RD_OPT", name=name,
                               text='"%s": invalid read option' % v)
            new["read"] = low
        elif c == "w":
            if low not in svm.WR_OPTS:
                raise SvmError("BAD_WR_OPT", name=name,
                               text='"%s": invalid write option' % v)
            new["write"] = low
        else:
            if not (len(v) == 1 and v.isdigit()):
                raise SvmError("BAD_PASS_NUM", name=name,
                               text='"%s": invalid pass number' % v)
            new["pass"] = int(v)
    if "hsp" in new:
        u["hsp"] = None
    else:
        svm.set_params(u, new.get("read"), new.get("write"), new.get("pass"))
    return 0
