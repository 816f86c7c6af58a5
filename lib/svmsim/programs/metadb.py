# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metadb: list, add (-a) and delete (-d) state database replicas."""

from svmsim import report
from svmsim.programs import resolve_component
from svmsim.messages import SvmError

USAGE = ("usage:  %s [-s setname] -a [options] mddbnnn\n"
         "\t%s [-s setname] -a [options] device ...\n"
         "\t%s [-s setname] -d [options] mddbnnn\n"
         "\t%s [-s setname] -d [options] device ...\n"
         "\t%s [-s setname] -i \n"
         "\t%s -p [options] [ mddb.cf-file ]\n"
         "options:\n"
         "-c count\tnumber of replicas (for use with -a only)\n"
         "-f\t\tforce adding or deleting of replicas\n"
         "-k filename\talternate /etc/system file\n"
         "-l length\tspecify size of replica (for use with -a only)\n")

DBSIZE = 8192      # MD_DBSIZE blocks
FIRST_BLK = 16


def _usage(ctx, message):
    if message:
        ctx.err("%s: %s\n" % (ctx.prog, message))
    ctx.err(USAGE.replace("%s", ctx.prog))
    return 0 if message is None else 1


def run(ctx, argv):
    from svmsim.getopt import GetoptError, getopt
    try:
        opts, args = getopt(argv, "ac:dfhik:l:ps:?", ctx.prog, ctx.err)
    except GetoptError as e:
        return _usage(ctx, None if e.opt == "?" else "unknown command")
    cmd = None
    flags = {}
    for c, v in opts:
        if c in "adip":
            cmd = c
        elif c == "h" or c == "?":
            return _usage(ctx, None)
        flags[c] = v
    if cmd in (None, "i"):
        if args:
            return _usage(ctx, "too many arguments")
        if not ctx.st["replicas"]:
            raise SvmError("DB_NODB")
        ctx.out(report.metadb_listing(ctx.st, cmd == "i"))
        return 0
    if cmd == "p":
        return 0                      # GUESS: patching is a no-op here
    count = 1
    if "c" in flags:
        try:
            count = int(flags["c"])
        except ValueError:
            ctx.err("%s: %s: bad format\n" % (ctx.prog, flags["c"]))
            return _usage(ctx, "")
        if count < 1:
            return _usage(ctx, "count (-c) must be 1 or more")
    if not args:
        return _usage(ctx, "no devices specified to attach or detach")
    slices = [resolve_component(ctx, a)[0] for a in args]
    if cmd == "a":
        add(ctx, slices, count, "f" in flags)
    else:
        delete(ctx, slices, "f" in flags)
    return 0


def add(ctx, slices, count, force):
    reps = ctx.st["replicas"]
    if not reps and not force:
        # GUESS: creating the first replicas needs -f, else MDE_DB_NODB
        raise SvmError("DB_NODB")
    for s in slices:
        if any(r["slice"] == s for r in reps):
            raise SvmError("DB_EXISTS", name=s)
    for s in slices:
        for i in range(count):
            reps.append({"slice": s, "blkno": FIRST_BLK + i * DBSIZE,
                         "nblk": DBSIZE})


def delete(ctx, slices, force):
    reps = ctx.st["replicas"]
    for s in slices:
        if not any(r["slice"] == s for r in reps):
            raise SvmError("X", name=s,
                           text="no such metadevice database record")
    left = [r for r in reps if r["slice"] not in slices]
    if not left and ctx.st["units"] and not force:
        # GUESS: removing the last replicas under live metadevices needs -f
        raise SvmError("DB_TOOFEW")
    ctx.st["replicas"] = left
