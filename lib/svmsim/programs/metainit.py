# SPDX-License-Identifier: CDDL-1.0
# Copyright 2026 The svmram authors.  See LICENSE.
"""metainit: concats/stripes and mirrors (metainit.c, meta_init.c)."""

from svmsim import svm
from svmsim.report import has_replica
from svmsim.programs import (check_free_component, replica_start,
                             resolve_component)
from svmsim.getopt import GetoptError, getopt
from svmsim.messages import SvmError

USAGE = ("usage:\t%s [-s setname] [-n] [-f] concat/stripe numstripes\n"
         "\t\twidth component... [-i interlace]\n"
         "\t\t[width component... [-i interlace]] [-h hotspare_pool]\n"
         "\t%s [-s setname] [-n] [-f] mirror -m submirror...\n"
         "\t\t[read_options] [write_options] [pass_num]\n"
         "\t%s [-s setname] [-n] [-f] RAID -r component...\n"
         "\t\t[-i interlace] [-h hotspare_pool]\n"
         "\t\t[-k] [-o original_column_count]\n"
         "\t%s [-s setname] [-n] [-f] hotspare_pool [hotspare...]\n"
         "\t%s [-s setname] [-n] [-f] softpart -p [-A alignment]\n"
         "\t\t[-e] device size|all\n"
         "\t%s [-s setname] [-n] [-f] md.tab_entry\n"
         "\t%s [-s setname] [-n] [-f] -a\n"
         "\t%s -r\n")

NWAY_WARNING = ("%s: WARNING: This form of metainit is not recommended.\n"
                "The submirrors may not have the same data.\n"
                "Please see ERRORS in metainit(1M) for additional "
                "information.\n")

MIN_INTERLACE = 16            # blocks (8 KiB)
MAX_INTERLACE = 204800        # blocks (100 MiB)



def _re():
    """re, imported when first used, not by every command that imports
    this module (bench/emulator)."""
    import re
    return re

def run(ctx, argv):
    opts, args = ctx.getopt(argv, "afhnrs:?", USAGE)
    flags = dict(opts)
    if "h" in flags or "?" in flags:
        ctx.usage(USAGE, 0)
    if "s" in flags:
        svm.md_name(flags["s"] + "/d0")
    if "r" in flags:
        ctx.need_replicas()
        # GUESS: `metainit -r` after boot is a silent no-op; the emulator
        # snarfs the replicas during `svmsim reboot`.
        return 0
    if "a" in flags:
        ctx.need_replicas()
        # GUESS: no /etc/lvm/md.tab in the emulated root.
        raise SvmError("SYS", name="/etc/lvm/md.tab",
                       text="No such file or directory")
    if not args:
        ctx.usage(USAGE, 1)
    dry = "n" in flags
    ctx.need_replicas() if dry else ctx.need_fresh_replicas()
    name = svm.md_name(args[0])
    if svm.unit(ctx.st, name) is not None:
        raise SvmError("UNIT_ALREADY_SETUP", name=name)
    if len(args) < 2:
        # GUESS: md.tab entries are not emulated.
        raise SvmError("SYNTAX", name=name)
    if args[1] == "-m":
        return init_mirror(ctx, name, args[2:], dry)
    if _re().match(r"^[0-9]+$", args[1]):
        return init_stripe(ctx, name, args[1:], dry)
    raise SvmError("SYNTAX", name=name,
                   text='"%s": syntax error' % args[1])


# --- concat/stripe -----------------------------------------------------------

def parse_interlace(name, text):
    m = _re().match(r"^([0-9]+)([bkm]?)$", text)
    if not m:
        raise SvmError("BAD_INTERLACE", name=name)
    n, suffix = int(m.group(1)), m.group(2)
    if suffix == "b":
        blocks = n
    elif suffix == "k":
        blocks = n * 1024 // 512
    elif suffix == "m":
        blocks = n * 1024 * 1024 // 512
    else:
        if n % 512:
            raise SvmError("BAD_INTERLACE", name=name)
        blocks = n // 512
    if not MIN_INTERLACE <= blocks <= MAX_INTERLACE:
        raise SvmError("BAD_INTERLACE", name=name)
    return blocks


def parse_rows(name, args):
    """'nrows width comp... [-i il] ... [-h hsp]' -> ([(comps, il)], hsp)."""
    nrows = int(args[0])
    if nrows < 1:
        raise SvmError("NROWS", name=name)
    rest = list(args[1:])
    rows = []
    for _ in range(nrows):
        if not rest or rest[0].startswith("-"):
            raise SvmError("NROWS", name=name)
        if not rest[0].isdigit():
            raise SvmError("SYNTAX", name=name,
                           text='"%s": syntax error' % rest[0])
        width = int(rest.pop(0))
        if width < 1:
            raise SvmError("NCOMPS", name=name)
        comps = []
        for _ in range(width):
            if not rest or rest[0].startswith("-") or rest[0].isdigit():
                raise SvmError("NCOMPS", name=name)
            comps.append(rest.pop(0))
        interlace = None
        if rest and rest[0] == "-i":
            if len(rest) < 2:
                raise SvmError("BAD_INTERLACE", name=name)
            interlace = parse_interlace(name, rest[1])
            del rest[:2]
        rows.append((comps, interlace))
    hsp = None
    if rest and rest[0] == "-h":
        if len(rest) < 2:
            raise SvmError("SYNTAX", name=name)
        hsp = rest[1]
        del rest[:2]
    if rest:
        raise SvmError("SYNTAX", name=name,
                       text='"%s": syntax error' % rest[0])
    return rows, hsp


def build_rows(ctx, name, parsed, seen=None):
    """Resolve and check every component; returns unit rows."""
    seen = [] if seen is None else seen
    rows = []
    for comps, interlace in parsed:
        row = []
        for arg in comps:
            row.append(make_comp(ctx, name, arg, seen))
        rows.append({"comps": row,
                     "interlace": interlace if interlace else
                     (1024 if len(row) > 1 else None)})
    return rows


def make_comp(ctx, name, arg, seen):
    if not svm.is_component_name(arg):
        if svm.unit(ctx.st, arg) is not None:
            # GUESS: stripes on metadevices (soft partitions) not emulated.
            raise SvmError("IS_META", name=arg)
        raise SvmError("UNIT_NOT_SETUP", name=arg)
    cname, dev, info = resolve_component(ctx, arg)
    check_free_component(ctx, cname, name, seen)
    seen.append(cname)
    start = replica_start(ctx.st, cname, info)
    # meta_nameinfo.c meta_vtoc_to_md: a slice that starts at sector 0 holds
    # the label; meta_stripe.c meta_create_stripe makes the stripe labeled
    # when that is its first component and it holds no replica (has_db).
    labeled = info["start"] == 0 and not has_replica(ctx.st, cname)
    return {"name": cname, "dev": dev, "state": "Okay", "start": start,
            "blocks": info["blocks"] - start, "lasterrcnt": 0,
            "devid": info["devid"], "nhead": info["nhead"],
            "nsect": info["nsect"], "labeled": labeled}


def init_stripe(ctx, name, args, dry):
    parsed, hsp = parse_rows(name, args)
    if hsp is not None:
        # GUESS: hot spare pools are not emulated.
        raise SvmError("INVAL_HSP", name=hsp)
    rows = build_rows(ctx, name, parsed)
    if dry:
        return 0            # GUESS: -n checks everything and prints nothing
    svm.add_unit(ctx.st, ctx.root, svm.new_stripe(ctx.st, name, rows))
    ctx.out("%s: Concat/Stripe is setup\n" % name)
    return 0


# --- mirror ------------------------------------------------------------------

def init_mirror(ctx, name, args, dry):
    rest = list(args)
    subs = []
    while rest and not rest[0].startswith("-") and not rest[0][0].isdigit():
        if len(subs) >= svm.NMIRROR:
            raise SvmError("MIRROR_FULL", name=name)
        tok = rest.pop(0)
        if svm.is_component_name(tok):
            raise SvmError("NOT_META", name=tok)
        subs.append(svm.md_name(tok))
    if not subs:
        raise SvmError("NSUBMIRS", name=name)
    if len(subs) > 1:
        ctx.err(ctx.prog + ": " + NWAY_WARNING % name)
    read, write, pass_ = "roundrobin", "parallel", 1
    try:
        opts, rest = getopt(rest, "grS")
    except GetoptError as e:
        raise SvmError("SYNTAX", name=name, text='"-%s": syntax error' % e.opt)
    for c, _ in opts:
        if c in "gr":
            if read != "roundrobin":
                raise SvmError("BAD_RD_OPT", name=name)
            read = "geometric" if c == "g" else "first"
        else:
            write = "serial"
    if rest:
        tok = rest.pop(0)
        if not _re().match(r"^[0-9]$", tok):
            raise SvmError("BAD_PASS_NUM", name=name,
                           text='"%s": invalid pass number' % tok)
        pass_ = int(tok)
    if rest:
        raise SvmError("SYNTAX", name=name,
                       text='"%s": syntax error' % rest[0])
    seen = []
    for sn in subs:
        s = svm.require(ctx.st, sn)
        if sn in seen:
            raise SvmError("ALREADY", name=sn, args=(name,))
        seen.append(sn)
        if s["type"] != "stripe":
            raise SvmError("INVAL_UNIT", name=sn)
        if s["parent"]:
            # meta_mirror.c meta_check_submirror: MDE_INVAL_UNIT
            raise SvmError("INVAL_UNIT", name=sn)
        if svm.is_open(ctx.st, sn):
            raise SvmError("IS_OPEN", name=sn)
    if dry:
        return 0
    m = svm.new_mirror(ctx.st, name, subs, read, write, pass_)
    for sn in subs:
        ctx.st["units"][sn]["parent"] = name
    svm.add_unit(ctx.st, ctx.root, m)
    ctx.out("%s: Mirror is setup\n" % name)
    return 0


